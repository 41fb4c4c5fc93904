import { useEffect, useRef, useState } from "react";
import { request } from "../api";
import { sendCommand } from "../state/commandBus";
import { filterActions, paletteActions, type PaletteAction, type PalettePanels } from "../state/palette";
import { nextNeedingYou } from "../state/attention";
import { answerToolApproval, useToolApprovals } from "../state/toolApprovals";
import { findLeaf, leavesInReadingOrder } from "../state/layoutTree";
import type { Agent, Layouts, SessionInfo } from "../types";
import { useWorkspace } from "../state/workspace";

/** Ctrl+Shift+P (or the top bar's button): every action the UI offers, by name — the focused
 * cell's (split, close, zoom, find, restart, stop, launch here), the layouts' (show, new,
 * rename, delete), go to an agent, new agent, and the panels. */
export function CommandPalette({ open, onClose, panels }: { open: boolean; onClose(): void; panels: PalettePanels }) {
  const workspace = useWorkspace();
  const toolApprovals = useToolApprovals();
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  // Rebuilt on every render while open: the workspace object changes with every render anyway.
  const actions = (() => {
    if (!open) return [];
    const { layouts, data, sessions, focused, reportError } = workspace;
    const all = layouts.layouts;
    const active = all?.layouts.find((l) => l.id === all.active);
    const leaf = active && focused ? findLeaf(active.tree, focused) : null;
    const act = (promise: Promise<unknown>) => void promise.catch(reportError);
    const session = leaf ? sessions.byCell.get(leaf.id) : undefined;
    return paletteActions({
      layouts: all,
      agents: data.agents,
      runningByAgent: sessions.runningByAgent,
      focused:
        active && leaf
          ? {
              layoutId: active.id,
              nodeId: leaf.id,
              empty: session?.status !== "running",
              session: session ? (session.status === "running" ? "running" : "exited") : null,
              zoomed: workspace.zoomed === leaf.id,
              zoomable: !workspace.phone,
              compactable:
                session?.status === "running" &&
                session.state === "idle" &&
                !!session.agentId &&
                !!data.profilesById.get(data.agentsById.get(session.agentId)?.profileId ?? "")?.home,
              hasAgent: !!leaf.agent && data.agentsById.has(leaf.agent),
            }
          : null,
      missingProfiles: data.missingProfiles,
      activeLayout: active ? { id: active.id, name: active.name, deletable: (all?.layouts.length ?? 0) > 1 } : null,
      cellCommand: (nodeId, command) => sendCommand(`cell:${nodeId}`, command),
      toggleZoom: workspace.toggleZoom,
      newLayout: () => sendCommand("tabbar", "new"),
      renameLayout: (layoutId) => sendCommand(`layout:${layoutId}`, "rename"),
      deleteLayout: (layoutId) => sendCommand(`layout:${layoutId}`, "delete"),
      panels,
      goToCell: workspace.goToCell,
      split: (layoutId, nodeId, direction) =>
        act(request("splitCell", { layoutId, nodeId, direction }).then((created) => workspace.requestFocus(created))),
      close: (layoutId, nodeId) => act(request("closeCell", { layoutId, nodeId })),
      launch: (layoutId, nodeId, agentId) =>
        act(request("launchAgent", { layoutId, nodeId, agentId, rows: 24, cols: 80 }).then((s) => sessions.upsert(s))),
      openShell: (layoutId, nodeId) =>
        act(request("openShell", { layoutId, nodeId, rows: 24, cols: 80 }).then((s) => sessions.upsert(s))),
      newAgent: workspace.openNewAgent,
      nextNeedingYou: nextOf(sessions.byCell.values(), all, focused, data.agentsById),
      showLayout: (layoutId) => act(layouts.setActive(layoutId)),
      toolApprovals,
      answerToolApproval: (approvalId, allow) => act(answerToolApproval(approvalId, allow)),
    });
  })();

  const shown = filterActions(actions, query);
  const current = Math.min(selected, Math.max(shown.length - 1, 0));

  useEffect(() => {
    if (!open) return;
    setQuery("");
    setSelected(0);
    input.current?.focus();
  }, [open]);

  if (!open) return null;

  const run = (action: PaletteAction | undefined) => {
    if (!action) return;
    onClose();
    action.run();
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      setSelected((i) => Math.min(i + 1, shown.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setSelected((i) => Math.max(i - 1, 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      run(shown[current]);
    }
  };

  return (
    <div className="palette-backdrop" onMouseDown={onClose}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        data-testid="command-palette"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <input
          ref={input}
          className="palette-input"
          data-testid="palette-input"
          aria-label="Type a command"
          aria-controls="palette-list"
          aria-activedescendant={shown[current] ? `palette-${shown[current].id}` : undefined}
          placeholder="Type a command…"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setSelected(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" id="palette-list" role="listbox" data-testid="palette-list">
          {shown.map((action, i) => (
            <li
              key={action.id}
              id={`palette-${action.id}`}
              role="option"
              aria-selected={i === current}
              className={i === current ? "selected" : undefined}
              onMouseEnter={() => setSelected(i)}
              onClick={() => run(action)}
            >
              <span>{action.label}</span>
              {action.hint && <span className="muted palette-hint">{action.hint}</span>}
            </li>
          ))}
          {shown.length === 0 && <li className="muted">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}

/** The next agent that needs the user, in reading order after the focused cell. */
function nextOf(
  sessions: Iterable<SessionInfo>,
  layouts: Layouts | null,
  focused: string | null,
  agents: Map<string, Agent>,
): { layoutId: string; nodeId: string; name: string } | null {
  const order = new Map<string, number>();
  for (const layout of layouts?.layouts ?? []) for (const leaf of leavesInReadingOrder(layout.tree)) order.set(leaf.id, order.size);
  const next = nextNeedingYou(sessions, (s) => order.get(s.cell?.nodeId ?? "") ?? Number.MAX_SAFE_INTEGER, focused);
  if (!next?.cell) return null;
  return { layoutId: next.cell.layoutId, nodeId: next.cell.nodeId, name: agents.get(next.agentId ?? "")?.name ?? "an agent" };
}
