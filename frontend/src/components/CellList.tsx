import { useEffect, useRef } from "react";
import { needsYou } from "../state/attention";
import { occupantName, showsAgentState, statusOf } from "../state/cells";
import { leavesInReadingOrder } from "../state/layoutTree";
import { useWorkspace } from "../state/workspace";
import { existingTerminal } from "../terminal/registry";
import type { NamedLayout } from "../types";
import { Icon } from "./Icon";
import { StateBadge } from "./StateBadge";

/** The phone's switcher: the shown layout's cells as a full-screen list, each with its number,
 *  who runs there, its state (an agent that needs the user stands out) and its last line; a row
 *  shows that cell. */
export function CellList({ layout, shown, onClose }: { layout: NamedLayout; shown: string | null; onClose(): void }) {
  const { sessions, data, goToCell } = useWorkspace();
  const leaves = leavesInReadingOrder(layout.tree);
  const root = useRef<HTMLElement>(null);

  // Opens on the row of the cell shown, so a keyboard (or a screen reader) starts there.
  useEffect(() => root.current?.querySelector<HTMLElement>('[aria-current="true"]')?.focus(), []);

  return (
    <aside
      ref={root}
      className="cell-list"
      data-testid="cell-list"
      role="dialog"
      aria-label={`Cells of ${layout.name}`}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <div className="panel-header">
        <span className="panel-title">{layout.name}</span>
        <span className="panel-count">
          {leaves.length} cell{leaves.length === 1 ? "" : "s"}
        </span>
        <span className="spacer" />
        <button type="button" className="icon" data-testid="cell-list-close" aria-label="Close the list of cells" title="Close the list of cells" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <ul className="cell-list-rows">
        {leaves.map((leaf, index) => {
          const session = sessions.byCell.get(leaf.id);
          const agent = session?.agentId ? data.agentsById.get(session.agentId) : undefined;
          const name = occupantName(session, agent) || "empty";
          const needs = session !== undefined && needsYou(session);
          const status = statusOf(session, null);
          return (
            <li key={leaf.id}>
              <button
                type="button"
                className={`cell-list-row${needs ? " needs-you" : ""}`}
                data-testid="cell-list-row"
                data-node-id={leaf.id}
                data-needs-you={needs}
                aria-current={leaf.id === shown ? "true" : undefined}
                aria-label={`Cell ${index + 1}: ${name}${needs ? ", needs you" : ""}`}
                onClick={() => goToCell(layout.id, leaf.id)}
              >
                <span className="cell-number">{index + 1}</span>
                <span className="cell-list-name">{name}</span>
                {showsAgentState(session) ? (
                  <StateBadge session={session} testId="cell-list-state" />
                ) : (
                  <span className={`status status-${status.kind}`}>{status.text}</span>
                )}
                <span className="cell-list-line">{session ? (existingTerminal(session.sessionId)?.lastLine() ?? "") : ""}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
