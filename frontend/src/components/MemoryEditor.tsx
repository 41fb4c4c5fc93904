import { useState } from "react";
import { request } from "../api";
import type { MemoryEntry } from "../generated/MemoryEntry";
import type { MemoryType } from "../generated/MemoryType";
import { useConfirm } from "../state/confirm";
import { refreshKnowledge } from "../state/knowledge";
import { ErrorNotice } from "./ErrorNotice";

export const MEMORY_TYPES: readonly MemoryType[] = ["project", "feedback", "reference", "user"];

const TYPE_HINT: Record<MemoryType, string> = {
  project: "about this project: decisions, layout, how things work",
  feedback: "how the user wants things done",
  reference: "where to find something: a document, a dashboard, a command",
  user: "about the user: their role, what they know",
};

/**
 * One memory entry to read and edit (`entry`), or a new one (`entry` null): title, hook (when
 * it is useful), type and body; saved with `writeMemory`, deleted after a confirmation.
 */
export function MemoryEditor({ entry, onDone }: { entry: MemoryEntry | null; onDone(saved: MemoryEntry | null): void }) {
  const confirm = useConfirm();
  const [title, setTitle] = useState(entry?.title ?? "");
  const [hook, setHook] = useState(entry?.hook ?? "");
  const [type, setType] = useState<MemoryType>(entry?.type ?? "project");
  const [body, setBody] = useState(entry?.body ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const dirty = title !== (entry?.title ?? "") || hook !== (entry?.hook ?? "") || type !== (entry?.type ?? "project") || body !== (entry?.body ?? "");

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const saved = await request("writeMemory", { ...(entry ? { slug: entry.slug } : {}), title: title.trim(), hook: hook.trim(), type, body });
      refreshKnowledge("memory");
      onDone(saved);
    });
  };

  const remove = () =>
    void run(async () => {
      if (!entry) return;
      const ok = await confirm({ title: `Delete the memory "${entry.title}"?`, message: `Its file .ideai/memory/${entry.slug}.md is removed; no agent recalls it any more.`, confirmLabel: "Delete", danger: true });
      if (!ok) return;
      await request("deleteMemory", { slug: entry.slug });
      refreshKnowledge("memory");
      onDone(null);
    });

  const close = async () => {
    if (dirty && !(await confirm({ title: "Discard your changes to this memory?", message: "They have not been saved.", confirmLabel: "Discard changes", danger: true }))) return;
    onDone(null);
  };

  return (
    <form className="shared-form memory-editor" data-testid="memory-editor" onSubmit={save} aria-label={entry ? `The memory ${entry.title}` : "A new memory"}>
      <div className="panel-header">
        <span className="panel-title">{entry ? "Memory" : "New memory"}</span>
        {entry && <code className="muted">{entry.slug}</code>}
        {dirty && <span className="unsaved">unsaved</span>}
        <span className="spacer" />
        <button type="button" className="icon" aria-label="Close the memory" title="Close" onClick={() => void close()}>
          ×
        </button>
      </div>
      <label>
        <span>Title</span>
        <input data-testid="memory-title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        <span>Hook</span>
        <input data-testid="memory-hook" value={hook} maxLength={500} placeholder="One sentence: when is it useful?" onChange={(e) => setHook(e.target.value)} />
      </label>
      <label>
        <span>Type</span>
        <select data-testid="memory-type" value={type} onChange={(e) => setType(e.target.value as MemoryType)}>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">{TYPE_HINT[type]}</p>
      <textarea data-testid="memory-body" value={body} spellCheck={false} aria-label="The memory's text" placeholder="The memory itself (Markdown)" onChange={(e) => setBody(e.target.value)} />
      {entry && (
        <p className="hint">
          {entry.writer ? `Written by ${entry.writer}` : "Writer unknown"}
          {entry.updatedAt ? `, ${new Date(entry.updatedAt * 1000).toLocaleString()}` : ""}
        </p>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="memory-error" />}
      <div className="form-buttons">
        {entry && (
          <button type="button" className="danger" data-testid="memory-delete" disabled={busy} onClick={remove}>
            Delete
          </button>
        )}
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="memory-save" disabled={busy || !title.trim() || !hook.trim() || (entry !== null && !dirty)}>
          Save
        </button>
      </div>
    </form>
  );
}
