import { useCallback, useEffect, useRef, useState } from "react";
import { request } from "../api";
import { useDomainEvent } from "../hooks/useDomainEvent";
import { useConfirm } from "../state/confirm";
import { ErrorNotice } from "./ErrorNotice";

/**
 * Edits `.ideai/CONTEXT.md`, the text every agent gets before its persona. Nothing is saved
 * without "Save"; a reload with unsaved text asks first; a change made elsewhere meanwhile is
 * offered, never applied over unsaved text (as the persona editor does).
 */
export function ContextPanel({ hidden }: { hidden: boolean }) {
  const confirm = useConfirm();
  const [baseline, setBaseline] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [theirs, setTheirs] = useState<string | null>(null);
  const dirty = baseline !== null && text !== baseline;
  // Our own save's text: its `knowledgeChanged` may arrive before the save's answer.
  const ownSave = useRef<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    request("readProjectContext")
      .then((content) => {
        if (cancelled) return;
        setBaseline(content);
        setText(content);
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // WebKit (the desktop app's web view) asks only when `returnValue` is set.
      event.returnValue = "Your changes to the shared context are not saved.";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  useDomainEvent((event) => {
    if (event.type !== "knowledgeChanged" || event.part !== "context") return;
    request("readProjectContext")
      .then((content) => {
        if (content === baseline || content === ownSave.current) return;
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
      await request("updateProjectContext", { text: content });
      setBaseline(content);
      setTheirs(null);
      setSaved(true);
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  }, [dirty, saving, text]);

  const revert = async () => {
    if (baseline === null) return;
    const ok = await confirm({ title: "Discard your changes?", message: "The shared context goes back to its saved text.", confirmLabel: "Discard", danger: true });
    if (ok) setText(baseline);
  };

  return (
    <section className="shared-view context-panel" data-testid="context-panel" data-dirty={dirty} hidden={hidden}>
      <div className="panel-header">
        <span className="panel-title">Shared context</span>
        {dirty && (
          <span className="unsaved" data-testid="context-unsaved">
            unsaved
          </span>
        )}
        {!dirty && saved && <span className="muted">saved</span>}
      </div>
      <p className="shared-note">
        Injected into every agent before its persona, at its next launch or ask. Saved as <code>.ideai/CONTEXT.md</code>; an empty text removes the file.
      </p>
      {theirs !== null && (
        <div className="notice" data-testid="context-conflict">
          The shared context was changed elsewhere.
          <button type="button" className="link" onClick={() => { setBaseline(theirs); setText(theirs); setTheirs(null); }}>
            Load it (discard mine)
          </button>
          <button type="button" className="link" onClick={() => { setBaseline(theirs); setTheirs(null); }}>
            Keep mine
          </button>
        </div>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="context-error" />}
      {baseline === null && error === null ? (
        <div className="muted">Loading…</div>
      ) : (
        <textarea
          className="context-text"
          data-testid="context-text"
          spellCheck={false}
          value={text}
          disabled={baseline === null}
          placeholder="What every agent of this project should know: the stack, the conventions, how to run the tests…"
          aria-label="The shared context"
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
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
        <button type="button" className="primary" data-testid="context-save" disabled={!dirty || saving} title="Save (Ctrl+S)" onClick={() => void save()}>
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </section>
  );
}
