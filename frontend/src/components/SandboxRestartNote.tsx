import { request } from "../api";
import { useWorkspace } from "../state/workspace";
import { existingTerminal } from "../terminal/registry";
import type { SessionInfo } from "../types";

/** A running agent session as it was when the rules changed. */
export interface StartedBefore {
  sessionId: string;
  pid: number | null;
}

/** The agent sessions running now, to compare against after a save. */
export function runningAgents(sessions: Iterable<SessionInfo>): StartedBefore[] {
  return [...sessions].filter((s) => s.agentId && s.status === "running").map((s) => ({ sessionId: s.sessionId, pid: s.pid }));
}

/**
 * After the rules changed: the agents still running the process they had then keep the sandbox
 * it started with (Landlock cannot be widened or narrowed later), so say so and offer the restart.
 */
export function SandboxRestartNote({ before, onDismiss }: { before: StartedBefore[]; onDismiss(): void }) {
  const { sessions, data, reportError } = useWorkspace();
  const stale = before
    .map((old) => sessions.all.get(old.sessionId))
    .filter((s): s is SessionInfo => s !== undefined && s.status === "running" && before.some((b) => b.sessionId === s.sessionId && b.pid === s.pid));
  if (stale.length === 0) return null;
  const names = stale.map((s) => data.agentsById.get(s.agentId ?? "")?.name ?? "an agent").join(", ");

  const restartAll = () => {
    for (const session of stale) {
      const term = existingTerminal(session.sessionId)?.term;
      request("restartSession", { sessionId: session.sessionId, rows: term?.rows ?? 24, cols: term?.cols ?? 80 })
        .then((restarted) => sessions.upsert(restarted))
        .catch(reportError);
    }
  };

  return (
    <div className="perm-restart-note" role="status" data-testid="perm-restart-note">
      <span>
        Running agents keep the sandbox they started with until restarted: <strong>{names}</strong>.
      </span>
      <button type="button" className="small primary" data-testid="perm-restart" onClick={restartAll}>
        {stale.length === 1 ? "Restart it" : `Restart all ${stale.length}`}
      </button>
      <button type="button" className="icon" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
