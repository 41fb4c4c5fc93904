import { useState } from "react";
import { describeError, request } from "../api";
import type { ScheduledResume } from "../generated/ScheduledResume";
import type { UsageLimit } from "../generated/UsageLimit";
import { useNow } from "../hooks/useNow";
import { clockTime, countdown } from "../state/clock";

/**
 * An agent stopped by its provider's usage limit: when IdeA continues it (a countdown), with
 * "Resume now" and "Cancel"; or that the account needs the user when no reset will lift it.
 */
export function LimitNote(props: { agentId: string; limit: UsageLimit | null | undefined; resume: ScheduledResume | undefined }) {
  const now = useNow();
  const [error, setError] = useState<string | null>(null);
  const limit = props.resume?.limit ?? props.limit;
  if (!limit) return null;
  const window = limit.window ? ` (${limit.window})` : "";
  const act = (method: "resumeNow" | "cancelResume") => {
    setError(null);
    request(method, { agentId: props.agentId }).catch((e: unknown) => setError(describeError(e)));
  };
  let text: string;
  if (props.resume) {
    const when = props.resume.limit.reset.kind === "unknown" ? "checks again" : "continues";
    text = `Usage limit${window} · ${when} at ${clockTime(props.resume.dueAt)} (in ${countdown(props.resume.dueAt - now)})`;
  } else if (limit.reset.kind === "needsUser") {
    text = `Usage limit${window}: no reset will lift it (credits or billing); it waits for you`;
  } else {
    text = `Usage limit${window}: not scheduled; it waits for you`;
  }
  return (
    <div className="limit-note" data-testid="limit-note" role="status" title={limit.message}>
      <span className="limit-text">{text}</span>
      {props.resume && (
        <>
          <button type="button" className="small primary" data-testid="resume-now" onClick={() => act("resumeNow")}>
            {props.resume.limit.reset.kind === "unknown" ? "Check now" : "Resume now"}
          </button>
          <button type="button" className="small" data-testid="resume-cancel" onClick={() => act("cancelResume")}>
            Cancel
          </button>
        </>
      )}
      {error && <span className="limit-error">{error}</span>}
    </div>
  );
}
