import { PatchDiff } from "@pierre/diffs/react";
import type { DiffLineAnnotation } from "@pierre/diffs";
import { useEffect, useMemo, useRef, useState } from "react";
import { request } from "../api";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import { ErrorNotice } from "./ErrorNotice";
import { codeLines, reviewBlock, type LineComment, type Side } from "../state/review";

/** Past this many changed lines a diff is folded behind "show anyway". */
const FOLD_LINES = 3000;
const LOCK_FILES = /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|Gemfile\.lock|composer\.lock|go\.sum)$/;

/** One file's diff (rendered by @pierre/diffs) with comments on its lines, sent to the agent
 * as one Markdown block: pasted into its live terminal once it is at its prompt, otherwise
 * asked. */
export function FileReview({ agent, path, binary }: { agent: Agent | undefined; path: string; binary: boolean }) {
  const { sessions } = useWorkspace();
  const [patch, setPatch] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Kept in the browser until sent, so that a reload does not lose a review in progress.
  const storeKey = agent ? `idea.review.${agent.agentId}.${path}` : null;
  const [comments, setComments] = useState<LineComment[]>(() => loadComments(storeKey));
  useEffect(() => saveComments(storeKey, comments), [storeKey, comments]);
  const [draft, setDraft] = useState<{ side: Side; line: number; text: string } | null>(null);
  const [showAnyway, setShowAnyway] = useState(false);
  const [waiting, setWaiting] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    if (!agent || binary) return;
    let live = true;
    request("worktreeDiff", { agentId: agent.agentId, path })
      .then((text) => live && setPatch(text))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [agent, path, binary]);

  const lines = useMemo(() => (patch ? codeLines(patch) : new Map<string, string>()), [patch]);
  const changed = useMemo(() => (patch ? patch.split("\n").filter((l) => /^[+-](?![+-]{2} )/.test(l)).length : 0), [patch]);
  const unsent = comments.filter((c) => !c.sent);
  const session = agent ? sessions.runningByAgent.get(agent.agentId) : undefined;

  const markSent = () => setComments((all) => all.map((c) => ({ ...c, sent: true })));

  // A block waiting for the agent to finish its turn goes once it is at its prompt.
  const waitingRef = useRef(waiting);
  waitingRef.current = waiting;
  useEffect(() => {
    const block = waitingRef.current;
    if (!block || !session || session.state === "working") return;
    setWaiting(null);
    void paste(session.sessionId, block).then(markSent, setError);
  }, [session, session?.state]);

  if (!agent) return null;
  if (binary) return <p className="hint">{path} is a binary file: it is named, not shown.</p>;

  const send = async () => {
    const block = reviewBlock(agent.name, unsent);
    setError(null);
    try {
      if (session && session.state !== "working") {
        await paste(session.sessionId, block);
        setNote(`Pasted into ${agent.name}'s terminal.`);
        markSent();
      } else if (session) {
        setWaiting(block);
        setNote(`${agent.name} is working: the comments go once it is at its prompt.`);
      } else {
        markSent();
        setNote(`${agent.name} is not running: the comments were sent as a request (see Requests).`);
        await request("askAgent", { target: agent.agentId, message: block });
      }
    } catch (e) {
      setError(e);
    }
  };

  const annotations: DiffLineAnnotation<LineComment | null>[] = [
    ...comments.map((c) => ({ side: c.side, lineNumber: c.line, metadata: c })),
    ...(draft ? [{ side: draft.side, lineNumber: draft.line, metadata: null }] : []),
  ];
  const folded = !showAnyway && (LOCK_FILES.test(path) || changed > FOLD_LINES);

  return (
    <div className="file-review" data-testid="file-review">
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
      {patch === null && error === null && <p className="hint">Reading the diff…</p>}
      {patch !== null && folded && (
        <p className="hint">
          {LOCK_FILES.test(path) ? "A lock file" : `${changed} changed lines`}: folded.{" "}
          <button type="button" onClick={() => setShowAnyway(true)}>
            Show anyway
          </button>
        </p>
      )}
      {patch !== null && !folded && (
        <>
          <p className="hint">Click a line to comment on it.</p>
          <PatchDiff<LineComment | null>
            patch={patch}
            options={{
              diffStyle: "unified",
              onLineClick: (props) => setDraft({ side: props.annotationSide, line: props.lineNumber, text: "" }),
            }}
            lineAnnotations={annotations}
            renderAnnotation={(annotation) =>
              annotation.metadata ? (
                <div className={`review-comment${annotation.metadata.sent ? " sent" : ""}`} data-testid="review-comment">
                  {annotation.metadata.text}
                  {annotation.metadata.sent && <span className="review-sent"> · sent</span>}
                </div>
              ) : (
                draft && (
                  <form
                    className="review-draft"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const text = draft.text.trim();
                      if (!text) return;
                      const code = lines.get(`${draft.side}:${draft.line}`) ?? "";
                      setComments((all) => [...all, { file: path, side: draft.side, line: draft.line, code, text, sent: false }]);
                      setDraft(null);
                    }}
                  >
                    <textarea autoFocus data-testid="review-draft" value={draft.text} onChange={(e) => setDraft({ ...draft, text: e.target.value })} placeholder="Your comment" />
                    <button type="submit">Comment</button>
                    <button type="button" onClick={() => setDraft(null)}>
                      Cancel
                    </button>
                  </form>
                )
              )
            }
          />
        </>
      )}
      <div className="review-send">
        <button type="button" disabled={unsent.length === 0 || waiting !== null} onClick={() => void send()} data-testid="review-send">
          Send {unsent.length || ""} comment{unsent.length === 1 ? "" : "s"} to {agent.name}
        </button>
        {note && <span className="hint">{note}</span>}
      </div>
    </div>
  );
}

function loadComments(key: string | null): LineComment[] {
  if (!key) return [];
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(key) ?? "[]");
    return Array.isArray(saved) ? (saved as LineComment[]).filter((c) => typeof c?.text === "string" && typeof c?.line === "number") : [];
  } catch {
    return [];
  }
}

/** Unsent comments are kept; once all are sent the file's entry goes. */
function saveComments(key: string | null, comments: LineComment[]): void {
  if (!key) return;
  const unsent = comments.filter((c) => !c.sent);
  if (unsent.length === 0) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(unsent));
}

/** A bracketed paste of `block`, then Enter, into the agent's terminal. */
async function paste(sessionId: string, block: string): Promise<void> {
  await request("writeTerminal", { sessionId, data: `\x1b[200~${block}\x1b[201~\r` });
}
