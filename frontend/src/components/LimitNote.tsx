import { useEffect, useState } from "react";
import { describeError, request } from "../api";
import type { ScheduledResume } from "../generated/ScheduledResume";
import type { UsageLimit } from "../generated/UsageLimit";

/** "19:52" today, "Wed 19:52" on another day. */
function clockTime(epoch: number): string {
  const at = new Date(epoch * 1000);
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString([], { weekday: "short" })} ${time}`;
}

/** "1 h 02 min", "12 min", "40 s". */
function countdown(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

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
