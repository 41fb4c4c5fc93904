import { STATE_LABEL } from "../state/attention";
import type { SessionInfo } from "../types";

/** An agent session's state at a glance (working, needs you, idle, exited, failed). */
export function StateBadge(props: { session: SessionInfo | undefined; testId?: string }) {
  const session = props.session;
  if (!session?.agentId) return null;
  const label = STATE_LABEL[session.state];
  const why = session.stateReason ? `: ${session.stateReason}` : "";
  return (
    <span
      className={`badge state-badge state-${session.state}`}
      data-testid={props.testId ?? "state-badge"}
      data-state={session.state}
      title={`${label}${why} (from ${session.stateSource})`}
    >
      {label}
    </span>
  );
}
