import { useNow } from "../hooks/useNow";
import { countdown } from "../state/clock";
import { nextNeedingYou } from "../state/attention";
import { leavesInReadingOrder } from "../state/layoutTree";
import { existingTerminal } from "../terminal/registry";
import { useWorkspace } from "../state/workspace";
import type { SessionInfo } from "../types";
import { Icon } from "./Icon";
import { StateBadge } from "./StateBadge";

/** Every session across layout tabs, in reading order: who, where, its state, its last line of
 * output and how long since its last output; a row jumps to the session's cell, and "Next
 * needing me" to the next agent that needs the user. */
export function SessionsOverview({ onClose }: { onClose(): void }) {
  const { sessions, layouts, data, goToCell, focused } = useWorkspace();
  const now = useNow() * 1000;
  // Reading order: layout tabs in order, then each layout's cells.
  const order = new Map<string, number>();
  for (const layout of layouts.layouts?.layouts ?? []) for (const leaf of leavesInReadingOrder(layout.tree)) order.set(leaf.id, order.size);
  const rank = (s: SessionInfo) => order.get(s.cell?.nodeId ?? "") ?? Number.MAX_SAFE_INTEGER;
  const rows = [...sessions.byCell.values()].filter((s) => s.cell).sort((a, b) => rank(a) - rank(b));
  const next = nextNeedingYou(rows, rank, focused);

  const nameOf = (session: SessionInfo) =>
    session.agentId ? (data.agentsById.get(session.agentId)?.name ?? "a deleted agent") : "Shell";
  const layoutOf = (session: SessionInfo) => layouts.layouts?.layouts.find((l) => l.id === session.cell?.layoutId)?.name ?? "";

  return (
    <aside className="sessions-overview" data-testid="sessions-overview" aria-label="Sessions overview">
      <div className="panel-header">
        <span className="panel-title">Sessions</span>
        <span className="panel-count">{rows.length}</span>
        <span className="spacer" />
        <button
          type="button"
          className="small"
          data-testid="next-needing"
          disabled={!next}
          title={next ? "Go to the next agent that needs you" : "No agent needs you"}
          onClick={() => next?.cell && goToCell(next.cell.layoutId, next.cell.nodeId)}
        >
          Next needing me
        </button>
        <button type="button" className="icon" aria-label="Close the sessions overview" title="Close the sessions overview" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <ul className="session-list" data-testid="session-list">
        {rows.map((session) => {
          const terminal = existingTerminal(session.sessionId);
          const since = terminal?.lastOutputAt ? formatAgo(now - terminal.lastOutputAt) : "no output yet";
          const cell = session.cell;
          return (
            <li key={session.sessionId}>
              <button
                type="button"
                className="session-row"
                data-testid="session-row"
                data-session-id={session.sessionId}
                aria-label={`Go to ${nameOf(session)} in ${layoutOf(session)}`}
                onClick={() => cell && goToCell(cell.layoutId, cell.nodeId)}
              >
                <span className="session-name">{nameOf(session)}</span>
                <span className="muted">{layoutOf(session)}</span>
                {session.agentId ? <StateBadge session={session} testId="session-state" /> : <span className={`session-status status-${session.status}`}>{session.status}</span>}
                {session.state === "usageLimited" && session.usageLimit?.reset.kind === "at" && (
                  <span className="session-limit" data-testid="session-limit">
                    resets in {countdown(session.usageLimit.reset.epoch - now / 1000)}
                  </span>
                )}
                <span className="session-last-line" data-testid="session-last-line">
                  {terminal?.lastLine() ?? ""}
                </span>
                <span className="muted session-since">{since}</span>
              </button>
            </li>
          );
        })}
        {rows.length === 0 && <li className="muted empty">No session yet: launch an agent or open a shell in a cell.</li>}
      </ul>
    </aside>
  );
}

/** Re-renders every second while shown. */
function formatAgo(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}
