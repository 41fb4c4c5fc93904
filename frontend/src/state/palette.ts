import type { Agent, Direction, Layouts, SessionInfo } from "../types";
import { leavesInReadingOrder } from "./layoutTree";

/** One action of the command palette. */
export interface PaletteAction {
  id: string;
  label: string;
  /** A second, dimmer line (where it goes, what it needs). */
  hint?: string;
  run(): void;
}

/** What the palette's actions act on. */
export interface PaletteContext {
  layouts: Layouts | null;
  agents: Agent[];
  /** Running sessions by agent id. */
  runningByAgent: Map<string, SessionInfo>;
  /** The focused cell of the shown layout, if any. */
  focused: { layoutId: string; nodeId: string; empty: boolean } | null;
  goToCell(layoutId: string, nodeId: string): void;
  split(layoutId: string, nodeId: string, direction: Direction): void;
  close(layoutId: string, nodeId: string): void;
  launch(layoutId: string, nodeId: string, agentId: string): void;
  openShell(layoutId: string, nodeId: string): void;
  newAgent(): void;
  showLayout(layoutId: string): void;
  /** The next agent that needs the user, if any (see `nextNeedingYou`). */
  nextNeedingYou: { layoutId: string; nodeId: string; name: string } | null;
}

/** Every action the palette offers now, most useful first. */
export function paletteActions(ctx: PaletteContext): PaletteAction[] {
  const actions: PaletteAction[] = [];
  const next = ctx.nextNeedingYou;
  if (next) {
    actions.push({
      id: "next-needing",
      label: "Go to the next agent that needs me",
      hint: next.name,
      run: () => ctx.goToCell(next.layoutId, next.nodeId),
    });
  }
  const here = ctx.focused;
  if (here) {
    const { layoutId, nodeId } = here;
    actions.push(
      { id: "split-right", label: "Split the cell right", run: () => ctx.split(layoutId, nodeId, "horizontal") },
      { id: "split-down", label: "Split the cell down", run: () => ctx.split(layoutId, nodeId, "vertical") },
      { id: "close-cell", label: "Close the cell", run: () => ctx.close(layoutId, nodeId) },
    );
    if (here.empty) {
      for (const agent of ctx.agents) {
        if (ctx.runningByAgent.has(agent.agentId)) continue;
        actions.push({
          id: `launch-${agent.agentId}`,
          label: `Launch ${agent.name} here`,
          hint: agent.profileId,
          run: () => ctx.launch(layoutId, nodeId, agent.agentId),
        });
      }
      actions.push({ id: "open-shell", label: "Open a shell here", run: () => ctx.openShell(layoutId, nodeId) });
    }
  }
  for (const agent of ctx.agents) {
    const cell = ctx.runningByAgent.get(agent.agentId)?.cell;
    if (!cell) continue;
    const layout = ctx.layouts?.layouts.find((l) => l.id === cell.layoutId);
    actions.push({
      id: `go-${agent.agentId}`,
      label: `Go to ${agent.name}`,
      hint: layout ? `in ${layout.name}` : undefined,
      run: () => ctx.goToCell(cell.layoutId, cell.nodeId),
    });
  }
  for (const layout of ctx.layouts?.layouts ?? []) {
    actions.push({ id: `layout-${layout.id}`, label: `Show layout ${layout.name}`, run: () => ctx.showLayout(layout.id) });
  }
  actions.push({ id: "new-agent", label: "New agent…", run: () => ctx.newAgent() });
  return actions;
}

/** The actions whose label (or hint) holds every word of `query`, in any case and order. */
export function filterActions(actions: PaletteAction[], query: string): PaletteAction[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return actions;
  return actions.filter((action) => {
    const text = `${action.label} ${action.hint ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The cells of a layout in reading order (top to bottom, then left to right), for Alt+1…9
 * and the numbers on the cells. */
export function cellsInOrder(layouts: Layouts | null, layoutId: string | undefined): string[] {
  const layout = layouts?.layouts.find((l) => l.id === layoutId);
  return layout ? leavesInReadingOrder(layout.tree).map((leaf) => leaf.id) : [];
}
