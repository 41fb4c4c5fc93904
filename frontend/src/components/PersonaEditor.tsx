import { useCallback, useEffect, useRef, useState } from "react";
import { request } from "../api";
import { useDomainEvent } from "../hooks/useDomainEvent";
import { useConfirm } from "../state/confirm";
import type { Agent } from "../types";
import { ErrorNotice } from "./ErrorNotice";

/**
 * Edits an agent's persona Markdown. Nothing is saved without "Save"; a change made elsewhere
 * while editing is offered, never applied over unsaved text.
 */
export function PersonaEditor({ agent, onDirtyChange, onClose }: { agent: Agent; onDirtyChange(dirty: boolean): void; onClose(): void }) {
  const confirm = useConfirm();
  const [baseline, setBaseline] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [theirs, setTheirs] = useState<string | null>(null);
  const dirty = baseline !== null && text !== baseline;
  // The text of our own save in flight or last done: its `agentContextUpdated` event can
  // arrive before the save's answer, while `baseline` is still the text before it.
  const ownSave = useRef<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    request("readAgentContext", { agentId: agent.agentId })
      .then((content) => {
        if (cancelled) return;
        setBaseline(content);
        setText(content);
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
    };
  }, [agent.agentId]);

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  // Closing the window with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // WebKit (the desktop app's web view) asks only when `returnValue` is set.
      event.returnValue = "Your persona changes are not saved.";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  useDomainEvent((event) => {
    if (event.type !== "agentContextUpdated" || event.agentId !== agent.agentId) return;
    request("readAgentContext", { agentId: agent.agentId })
      .then((content) => {
        if (content === baseline || content === ownSave.current) return; // our own save, or no change
        if (dirty) setTheirs(content);
        else {
          setBaseline(content);
          setText(content);
        }
      })
      .catch(() => undefined);
  });

  const save = useCallback(async () => {
    if (!dirty || saving) return;
    setSaving(true);
    setError(null);
    const content = text;
    ownSave.current = content;
    try {
      await request("updateAgentContext", { agentId: agent.agentId, content });
      setBaseline(content);
      setTheirs(null);
      setSavedAt(Date.now());
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  }, [dirty, saving, text, agent.agentId]);

  const revert = async () => {
    if (baseline === null) return;
    const ok = await confirm({ title: "Discard your changes?", message: "The persona goes back to its saved text.", confirmLabel: "Discard", danger: true });
    if (ok) setText(baseline);
  };

  return (
    <section className="persona-editor" data-testid="persona-editor" data-dirty={dirty}>
      <div className="panel-header">
        <span className="panel-title">Persona — {agent.name}</span>
        {dirty && (
          <span className="unsaved" data-testid="persona-unsaved">
            unsaved
          </span>
        )}
        {!dirty && savedAt && <span className="muted">saved</span>}
        <span className="spacer" />
        <button type="button" className="icon" aria-label="Close the persona editor" title="Close the editor" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="muted path">.ideai/{agent.mdPath}</div>
      {theirs !== null && (
        <div className="notice" data-testid="persona-conflict">
          This persona was changed elsewhere.
          <button type="button" className="link" onClick={() => { setBaseline(theirs); setText(theirs); setTheirs(null); }}>
            Load it (discard mine)
          </button>
          <button type="button" className="link" onClick={() => { setBaseline(theirs); setTheirs(null); }}>
            Keep mine
          </button>
        </div>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="persona-error" />}
      {baseline === null && error === null ? (
        <div className="muted">Loading…</div>
      ) : (
        <textarea
          data-testid="persona-text"
          spellCheck={false}
          value={text}
          disabled={baseline === null}
          aria-label={`Persona of ${agent.name}`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
              e.preventDefault();
              void save();
            }
          }}
        />
      )}
      <div className="form-buttons">
        <button type="button" disabled={!dirty} onClick={() => void revert()}>
          Revert
        </button>
        <button type="button" className="primary" data-testid="persona-save" disabled={!dirty || saving} title="Save (Ctrl+S)" onClick={() => void save()}>
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </section>
  );
}
