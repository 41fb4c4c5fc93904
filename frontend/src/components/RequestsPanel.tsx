import { useEffect, useState } from "react";
import { describeFailure, isApiError } from "../api";
import { durationMs, formatDuration, isActive, limitWait, partyName, SOURCE_LABEL, STATE_LABEL, type RequestRecord } from "../state/requests";
import { useWorkspace } from "../state/workspace";
import { AskForm } from "./AskForm";
import { Icon } from "./Icon";

/** The requests between agents (and from the user): who asked whom, where it stands, how long
 * it took; a row opens on the question and the answer. */
export function RequestsPanel({ onClose }: { onClose(): void }) {
  const { requests } = useWorkspace();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const now = useNow(requests.active > 0);

  const toggle = (requestId: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(requestId)) next.add(requestId);
      return next;
    });

  return (
    <aside className="requests-panel" data-testid="requests-panel" aria-label="Requests to agents">
      <div className="panel-header">
        <span className="panel-title">Requests</span>
        <span className="panel-count" data-testid="requests-count">
          {requests.list.length}
        </span>
        <span className="spacer" />
        <button type="button" className="icon" data-testid="requests-close" aria-label="Close the requests panel" title="Close the requests panel" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <AskForm />
      <ul className="request-list" data-testid="request-list">
        {requests.list.map((record) => (
          <RequestRow key={record.requestId} record={record} now={now} expanded={open.has(record.requestId)} onToggle={() => toggle(record.requestId)} />
        ))}
        {requests.list.length === 0 && <li className="muted empty">No requests yet. Agents ask each other through IdeA's MCP tools or the requests folder.</li>}
      </ul>
    </aside>
  );
}

function RequestRow({ record, now, expanded, onToggle }: { record: RequestRecord; now: number; expanded: boolean; onToggle(): void }) {
  const { data, requests, reportError } = useWorkspace();
  const [cancelling, setCancelling] = useState(false);
  const from = partyName(record.requester, data.agentsById);
  const to = partyName(record.target, data.agentsById);
  const detailId = `request-detail-${record.requestId}`;
  const active = isActive(record.state);

  const cancel = async () => {
    setCancelling(true);
    try {
      await requests.cancel(record.requestId);
    } catch (error) {
      // A request that ended meanwhile is not an error worth showing.
      if (!isApiError(error) || error.code !== "REQUEST_NOT_FOUND") reportError(error);
    } finally {
      setCancelling(false);
    }
  };

  return (
    <li className={`request-row${expanded ? " expanded" : ""}`} data-testid="request-row" data-request-id={record.requestId} data-state={record.state}>
      <div className="request-summary">
        <button
          type="button"
          className="request-toggle"
          data-testid="request-toggle"
          aria-expanded={expanded}
          aria-controls={detailId}
          aria-label={`${from} asked ${to}: ${expanded ? "hide" : "show"} the question and the answer`}
          onClick={onToggle}
        >
          <span className="request-parties">
            <span data-testid="request-from">{from}</span>
            <span aria-hidden="true"> → </span>
            <span data-testid="request-to">{to}</span>
          </span>
        </button>
        {active && (
          <button type="button" className="small" data-testid="request-cancel" disabled={cancelling} aria-label={`Cancel ${from}'s request to ${to}`} onClick={() => void cancel()}>
            Cancel
          </button>
        )}
      </div>
      <div className="request-meta">
        <span className="badge" data-testid="request-source" title="Where the request came from">
          {SOURCE_LABEL[record.source]}
        </span>
        <span className={`request-state state-${record.state}`} data-testid="request-state">
          {STATE_LABEL[record.state]}
        </span>
        <span className="request-duration" data-testid="request-duration">
          {formatDuration(durationMs(record, now))}
        </span>
      </div>
      {expanded && (
        <div className="request-detail" id={detailId} data-testid="request-detail">
          <div className="request-label">Question</div>
          <pre data-testid="request-question">{record.message}</pre>
          {record.answer != null && (
            <>
              <div className="request-label">Answer</div>
              <pre data-testid="request-answer">{record.answer}</pre>
            </>
          )}
          {record.error && (
            <>
              <div className="request-label">Error</div>
              <pre className="request-error" data-testid="request-error" title={record.error.code}>
                {describeFailure(record.error)}
              </pre>
            </>
          )}
          {active && record.answer == null && (
            <div className="muted" data-testid="request-progress">
              {record.state === "queued" ? "Waiting for its turn…" : record.state === "waitingForLimit" ? `${capitalised(limitWait(to, record.limitResetsAt))}: asked again then.` : "Answering…"}
            </div>
          )}
        </div>
      )}
    </li>
  );
}

/** The current time, ticking every second while `live` (for running requests' elapsed time). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
