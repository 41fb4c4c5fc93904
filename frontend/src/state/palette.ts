import type { Agent, Direction, Layouts, SessionInfo } from "../types";
import type { SharedSection } from "./knowledge";
import { leavesInReadingOrder } from "./layoutTree";

/** One action of the command palette. */
/** What the palette can ask of a cell: its header's actions. */
export type CellCommand = "stop" | "restart" | "find" | "change" | "compact" | "engine" | "limit-policy";

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
  /** The focused cell of the shown layout, if any: `empty` without a running process,
   * `session` with one (running or exited), `zoomed` when it fills the layout, `zoomable` but on
   * a phone (which shows one cell at a time anyway). */
  focused: {
    layoutId: string;
    nodeId: string;
    empty: boolean;
    session: "running" | "exited" | null;
    zoomed: boolean;
    zoomable: boolean;
    /** The running agent's CLI can compact its conversation, and it is idle. */
    compactable?: boolean;
    /** The cell shows an agent (whose engine and limit policy can change). */
    hasAgent?: boolean;
  } | null;
  /** Profiles whose CLI is not installed: their agents are not offered a launch. */
  missingProfiles: ReadonlySet<string>;
  /** The shown layout, and whether it may be deleted (not the last one). */
  activeLayout: { id: string; name: string; deletable: boolean } | null;
  /** Runs a cell header's action (with its confirmation) in cell `nodeId`. */
  cellCommand(nodeId: string, command: CellCommand): void;
  toggleZoom(nodeId: string): void;
  newLayout(): void;
  renameLayout(layoutId: string): void;
  deleteLayout(layoutId: string): void;
  /** The panels and whether each is shown. */
  panels: PalettePanels;
  goToCell(layoutId: string, nodeId: string): void;
  split(layoutId: string, nodeId: string, direction: Direction): void;
  close(layoutId: string, nodeId: string): void;
  launch(layoutId: string, nodeId: string, agentId: string): void;
  openShell(layoutId: string, nodeId: string): void;
  newAgent(): void;
  showLayout(layoutId: string): void;
  /** The next agent that needs the user, if any (see `nextNeedingYou`). */
  nextNeedingYou: { layoutId: string; nodeId: string; name: string } | null;
  /** The agents' tool calls waiting for the user, oldest first. */
  toolApprovals: { approvalId: string; agentName: string; tool: string }[];
  answerToolApproval(approvalId: string, allow: boolean): void;
}

/** The panels the palette shows or hides. */
export interface PalettePanels {
  overviewOpen: boolean;
  requestsOpen: boolean;
  sidePanelOpen: boolean;
  toggleOverview(): void;
  toggleRequests(): void;
  toggleSidePanel(): void;
  showPermissions(): void;
  showAgents(): void;
  showBranches(): void;
  /** Shows one view of the side panel's Shared tab. */
  showShared(section: SharedSection): void;
  /** Shows the Shared tab's form for a new skill or memory. */
  newShared(section: "skills" | "memory"): void;
  showShortcuts(): void;
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
  for (const approval of ctx.toolApprovals) {
    const asked = `${approval.agentName} asks to run ${approval.tool}`;
    actions.push(
      { id: `tool-allow-${approval.approvalId}`, label: `Allow ${approval.agentName}'s call of ${approval.tool} once`, hint: asked, run: () => ctx.answerToolApproval(approval.approvalId, true) },
      { id: `tool-deny-${approval.approvalId}`, label: `Deny ${approval.agentName}'s call of ${approval.tool}`, hint: asked, run: () => ctx.answerToolApproval(approval.approvalId, false) },
    );
  }
  const here = ctx.focused;
  if (here) {
    const { layoutId, nodeId } = here;
    actions.push(
      { id: "split-right", label: "Split the cell right", run: () => ctx.split(layoutId, nodeId, "horizontal") },
      { id: "split-down", label: "Split the cell down", run: () => ctx.split(layoutId, nodeId, "vertical") },
      { id: "close-cell", label: "Close the cell", run: () => ctx.close(layoutId, nodeId) },
    );
    if (here.zoomable) {
      actions.push(
        here.zoomed
          ? { id: "zoom", label: "Restore the layout", hint: "Ctrl+Shift+Enter", run: () => ctx.toggleZoom(nodeId) }
          : { id: "zoom", label: "Zoom the cell", hint: "Ctrl+Shift+Enter", run: () => ctx.toggleZoom(nodeId) },
      );
    }
    if (here.session) {
      actions.push(
        { id: "find", label: "Find in the terminal", hint: "Ctrl+Shift+F", run: () => ctx.cellCommand(nodeId, "find") },
        { id: "restart", label: "Restart the cell's process", run: () => ctx.cellCommand(nodeId, "restart") },
      );
    }
    if (here.session === "running") actions.push({ id: "stop", label: "Stop the cell's process", run: () => ctx.cellCommand(nodeId, "stop") });
    if (here.compactable) actions.push({ id: "compact", label: "Compact the agent's conversation", run: () => ctx.cellCommand(nodeId, "compact") });
    if (here.hasAgent) {
      actions.push(
        { id: "engine", label: "Change the agent's engine…", run: () => ctx.cellCommand(nodeId, "engine") },
        { id: "limit-policy", label: "What the agent does at a usage limit…", run: () => ctx.cellCommand(nodeId, "limit-policy") },
      );
    }
    if (here.session === "exited") {
      actions.push({ id: "change", label: "Start another agent or a shell here", run: () => ctx.cellCommand(nodeId, "change") });
    }
    if (here.empty) {
      for (const agent of ctx.agents) {
        if (ctx.runningByAgent.has(agent.agentId) || ctx.missingProfiles.has(agent.profileId)) continue;
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
  actions.push({ id: "new-layout", label: "New layout", run: () => ctx.newLayout() });
  const shown = ctx.activeLayout;
  if (shown) {
    actions.push({ id: "rename-layout", label: "Rename the layout…", hint: shown.name, run: () => ctx.renameLayout(shown.id) });
    if (shown.deletable) actions.push({ id: "delete-layout", label: "Delete the layout…", hint: shown.name, run: () => ctx.deleteLayout(shown.id) });
  }
  actions.push({ id: "new-agent", label: "New agent…", run: () => ctx.newAgent() });
  actions.push(...panelActions(ctx.panels));
  return actions;
}

function panelActions(panels: PalettePanels): PaletteAction[] {
  return [
    { id: "overview", label: `${panels.overviewOpen ? "Hide" : "Show"} the sessions overview`, run: panels.toggleOverview },
    { id: "requests", label: `${panels.requestsOpen ? "Hide" : "Show"} the requests panel`, run: panels.toggleRequests },
    { id: "permissions", label: "Show the permissions", run: panels.showPermissions },
    { id: "branches", label: "Show the branches: review, squash, archive an agent's work", run: panels.showBranches },
    { id: "agents", label: "Show the agents", run: panels.showAgents },
    { id: "skills", label: "Show the skills", hint: "what each agent is given", run: () => panels.showShared("skills") },
    { id: "new-skill", label: "New skill…", run: () => panels.newShared("skills") },
    { id: "memory", label: "Show the project memory", hint: "what every agent recalls", run: () => panels.showShared("memory") },
    { id: "new-memory", label: "New memory entry…", run: () => panels.newShared("memory") },
    { id: "context", label: "Edit the shared context", hint: ".ideai/CONTEXT.md, before every persona", run: () => panels.showShared("context") },
    { id: "tools", label: "Show the project tools", hint: "run one, see the last runs", run: () => panels.showShared("tools") },
    { id: "side-panel", label: `${panels.sidePanelOpen ? "Hide" : "Show"} the side panel`, run: panels.toggleSidePanel },
    { id: "shortcuts", label: "Keyboard shortcuts", run: panels.showShortcuts },
  ];
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
