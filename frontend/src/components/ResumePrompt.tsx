// The project's resume prompt (spec §2): when IdeA opens a project (or reconnects to an owner
// that restarted), the cells whose agent was running when it closed are offered in one place:
// "Resume all", or per cell "Resume" / "Start fresh". Nothing is resumed silently; "Not now"
// leaves each cell's own offer in place.

import type { ConversationGlance } from "../generated/ConversationGlance";
import { useCallback, useEffect, useState } from "react";
import { request } from "../api";
import type { ResumableAgent } from "../generated/ResumableAgent";
import { useWorkspace } from "../state/workspace";

/** What the cells run in until they are fitted (the first attach resizes the terminal). */
const LAUNCH_SIZE = { rows: 24, cols: 80 };

export function ResumePrompt({ epoch }: { epoch: number }) {
  const { sessions, reportError } = useWorkspace();
  const [offered, setOffered] = useState<ResumableAgent[]>([]);
  const [busy, setBusy] = useState<Set<string>>(new Set());

  useEffect(() => {
    if (epoch === 0) return;
    let cancelled = false;
    request("listResumableAgents")
      .then((list) => {
        if (!cancelled) setOffered(list);
      })
      .catch(() => undefined); // the cells' own offers remain
    return () => {
      cancelled = true;
    };
  }, [epoch]);

  const start = useCallback(
    async (entry: ResumableAgent, fresh: boolean) => {
      const key = entry.cell.nodeId;
      setBusy((prev) => new Set(prev).add(key));
      try {
        const session = await request("launchAgent", { ...entry.cell, agentId: entry.agentId, ...LAUNCH_SIZE, ...(fresh ? { fresh } : {}) });
        sessions.upsert(session);
        setOffered((prev) => prev.filter((e) => e.cell.nodeId !== key));
      } catch (error) {
        reportError(error);
      } finally {
        setBusy((prev) => {
          const next = new Set(prev);
          next.delete(key);
          return next;
        });
      }
    },
    [sessions, reportError],
  );

  const launchable = offered.filter((e) => e.profileName !== null);
  if (offered.length === 0) return null;
  const count = offered.length === 1 ? "1 agent" : `${offered.length} agents`;
  return (
    <section className="resume-prompt" data-testid="resume-prompt" role="region" aria-label="Resume agents">
      <div className="resume-prompt-head">
        <strong>{count} can go on where they were</strong>
        <span className="muted"> since IdeA last closed this project.</span>
      </div>
      <ul className="resume-prompt-list">
        {offered.map((entry) => {
          const key = entry.cell.nodeId;
          const missing = entry.profileName === null;
          return (
            <li key={key} className="resume-prompt-row" data-testid="resume-entry" data-agent-id={entry.agentId} data-node-id={key}>
              <span className="resume-prompt-name">{entry.agentName}</span>
              <span className="muted">
                {missing ? `profile ${entry.profileId} is missing` : entry.profileName} · {entry.layoutName} ·{" "}
                {entry.hasConversation && entry.resumesConversation ? "was running" : "was running · starts a new conversation"}
                {!missing && !entry.resumesConversation && " (its CLI cannot reopen one)"}
              </span>
              {entry.conversation && <ConversationLine glance={entry.conversation} />}
              <span className="resume-prompt-actions">
                <button type="button" className="small primary" data-testid="resume-entry-resume" disabled={missing || busy.has(key)} onClick={() => void start(entry, false)}>
                  Resume
                </button>
                <button type="button" className="small" data-testid="resume-entry-fresh" disabled={missing || busy.has(key)} onClick={() => void start(entry, true)}>
                  Start fresh
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <div className="resume-prompt-foot">
        <button
          type="button"
          className="small primary"
          data-testid="resume-all"
          disabled={launchable.length === 0 || busy.size > 0}
          onClick={() => void (async () => {
            for (const entry of launchable) await start(entry, false);
          })()}
        >
          Resume all
        </button>
        <button type="button" className="small" data-testid="resume-not-now" onClick={() => setOffered([])}>
          Not now
        </button>
      </div>
    </section>
  );
}

/** "“Add a --json flag” · 12 asks · active 3 h ago": what the CLI saved of the conversation. */
function ConversationLine({ glance }: { glance: ConversationGlance }) {
  const parts: string[] = [];
  if (glance.title) parts.push(`“${glance.title}”`);
  if (glance.asks !== null) parts.push(glance.asks === 1 ? "1 ask" : `${glance.asks} asks`);
  if (glance.lastActivity !== null) parts.push(`active ${ago(glance.lastActivity)}`);
  if (parts.length === 0) return null;
  return (
    <span className="resume-prompt-conversation muted" data-testid="resume-entry-conversation">
      {parts.join(" · ")}
    </span>
  );
}

function ago(epoch: number): string {
  const minutes = Math.max(0, Math.round((Date.now() / 1000 - epoch) / 60));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
