import { useEffect, useState } from "react";
import { request } from "../api";
import type { Skill } from "../generated/Skill";
import type { SkillScope } from "../generated/SkillScope";
import { useConfirm } from "../state/confirm";
import { refreshKnowledge } from "../state/knowledge";
import { ErrorNotice } from "./ErrorNotice";

/** What a CLI shows the model to decide whether to use a skill: at most this long. */
const MAX_DESCRIPTION = 1024;

/** The scope a skill IdeA manages is written to, by its source. */
export function scopeOf(skill: Skill): SkillScope | null {
  return skill.source === "project" || skill.source === "user" ? skill.source : null;
}

/** A new skill: where (this project or the user's), its name, what it does and when to use it,
 * and its instructions. */
export function CreateSkillForm({ onCreated, onCancel }: { onCreated(skill: Skill): void; onCancel(): void }) {
  const [scope, setScope] = useState<SkillScope>("project");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Counted as the server does: characters, not UTF-16 units.
  const length = [...description.trim()].length;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const skill = await request("createSkill", { scope, name: name.trim(), description: description.trim(), body });
      refreshKnowledge("skills");
      onCreated(skill);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="shared-form" data-testid="skill-create" onSubmit={submit} aria-label="A new skill" onKeyDown={(e) => e.key === "Escape" && onCancel()}>
      <label>
        <span>Where</span>
        <select data-testid="skill-create-scope" value={scope} onChange={(e) => setScope(e.target.value as SkillScope)}>
          <option value="project">This project (.ideai/skills)</option>
          <option value="user">Yours, every project (~/.ideai/skills)</option>
        </select>
      </label>
      <label>
        <span>Name</span>
        <input autoFocus data-testid="skill-create-name" value={name} maxLength={64} placeholder="e.g. run-tests" title="Lowercase letters, digits and single dashes" onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="stacked">
        <span>
          What it does and when to use it{" "}
          <span className={`counter${length > MAX_DESCRIPTION ? " over" : ""}`} data-testid="skill-create-count">
            {length}/{MAX_DESCRIPTION}
          </span>
        </span>
        <textarea data-testid="skill-create-description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label className="stacked">
        <span>Instructions (Markdown)</span>
        <textarea data-testid="skill-create-body" rows={5} spellCheck={false} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="skill-create-error" />}
      <div className="form-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="skill-create-submit" disabled={busy || !name.trim() || length === 0 || length > MAX_DESCRIPTION}>
          Create
        </button>
      </div>
    </form>
  );
}

/** A skill's whole `SKILL.md` (front matter included), edited as text and saved when it still
 * reads as a skill. */
export function SkillFileEditor({ skill, onClose }: { skill: Skill; onClose(): void }) {
  const confirm = useConfirm();
  const scope = scopeOf(skill);
  const [baseline, setBaseline] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const dirty = baseline !== null && text !== baseline;

  useEffect(() => {
    let cancelled = false;
    request("readSkillFile", { source: skill.source, name: skill.name })
      .then((content) => {
        if (cancelled) return;
        setBaseline(content);
        setText(content);
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
    };
  }, [skill.source, skill.name]);

  const save = async () => {
    if (!scope || !dirty) return;
    setBusy(true);
    setError(null);
    try {
      await request("updateSkill", { scope, name: skill.name, text });
      setBaseline(text);
      refreshKnowledge("skills");
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const close = async () => {
    if (dirty && !(await confirm({ title: `Discard your changes to ${skill.name}?`, message: "They have not been saved.", confirmLabel: "Discard changes", danger: true }))) return;
    onClose();
  };

  return (
    <div className="shared-form skill-editor" data-testid="skill-editor">
      <div className="panel-header">
        <span className="panel-title">SKILL.md</span>
        {dirty && <span className="unsaved">unsaved</span>}
      </div>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="skill-editor-error" />}
      <textarea
        data-testid="skill-editor-text"
        spellCheck={false}
        rows={12}
        value={text}
        disabled={baseline === null}
        aria-label={`The SKILL.md of ${skill.name}`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
            e.preventDefault();
            void save();
          }
        }}
      />
      <div className="form-buttons">
        <button type="button" onClick={() => void close()}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="skill-editor-save" disabled={busy || !dirty} title="Save (Ctrl+S)" onClick={() => void save()}>
          Save
        </button>
      </div>
    </div>
  );
}
