import { useEffect, useState } from "react";
import { request } from "../api";
import { useWorkspace } from "../state/workspace";
import type { Agent, AgentProfile } from "../types";
import { ErrorNotice } from "./ErrorNotice";
import { profileChoice } from "./Modal";

const LAST_PROFILE_KEY = "idea.lastProfile";

/** Creates an agent: a name, a runtime profile, and a persona template or a blank one. */
export function CreateAgentForm({ onCreated, onCancel }: { onCreated(agent: Agent): void; onCancel(): void }) {
  const { data } = useWorkspace();
  const [name, setName] = useState("");
  const [profileId, setProfileId] = useState("");
  // Until the user picks one, the profile follows the catalogue (and what is installed) as it loads.
  const [picked, setPicked] = useState(false);
  const [template, setTemplate] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  // Where it works: the project's own tree (default), or a worktree of its own.
  const [ownBranch, setOwnBranch] = useState(false);
  const [base, setBase] = useState("");

  useEffect(() => {
    if (picked && data.profilesById.has(profileId)) return;
    const fallback = defaultProfile(data.profiles, data.missingProfiles, localStorage.getItem(LAST_PROFILE_KEY));
    if (fallback !== profileId) setProfileId(fallback);
  }, [data.profiles, data.profilesById, data.missingProfiles, profileId, picked]);

  const chosenTemplate = data.templates.find((t) => t.id === template);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const agent = await request("createAgent", { name: name.trim(), profileId, ...(template ? { template } : {}) });
      localStorage.setItem(LAST_PROFILE_KEY, profileId);
      if (ownBranch) {
        try {
          await request("createWorktree", { agentId: agent.agentId, base: base.trim() || undefined });
        } catch (e) {
          // The agent exists; its branch can be made from the Branches panel once fixed.
          setError(e);
          onCreated(agent);
          return;
        }
      }
      setName("");
      onCreated(agent);
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="create-agent"
      data-testid="create-agent-form"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
    >
      <label>
        <span>Name</span>
        <input
          autoFocus
          data-testid="create-agent-name"
          value={name}
          maxLength={64}
          placeholder="e.g. Reviewer"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        <span>Profile</span>
        <select data-testid="create-agent-profile" value={profileId} onChange={(e) => {
            setPicked(true);
            setProfileId(e.target.value);
          }}>
          {data.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {profileChoice(p, data.missingProfiles.has(p.id))}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Persona</span>
        <select data-testid="create-agent-template" value={template} onChange={(e) => setTemplate(e.target.value)}>
          <option value="">Blank (from scratch)</option>
          {data.templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.project ? `${t.title} (this project's)` : t.title}
            </option>
          ))}
        </select>
      </label>
      {chosenTemplate && (
        <p className="hint" data-testid="create-agent-template-summary">
          {chosenTemplate.project && <span className="badge">this project's</span>} {chosenTemplate.summary}
        </p>
      )}
      {chosenTemplate && chosenTemplate.skills.length > 0 && (
        <p className="hint" data-testid="create-agent-template-skills">
          Also gets the skills {chosenTemplate.skills.join(", ")}.
        </p>
      )}
      <label className="checkbox">
        <input type="checkbox" data-testid="create-agent-own-branch" checked={ownBranch} onChange={(e) => setOwnBranch(e.target.checked)} />
        <span>Work on its own branch (a git worktree outside the project)</span>
      </label>
      {ownBranch && (
        <label>
          <span>Base</span>
          <input data-testid="create-agent-base" value={base} placeholder="the current branch" onChange={(e) => setBase(e.target.value)} />
        </label>
      )}
      {data.profileProblems.length > 0 && (
        <p className="hint warning" title={data.profileProblems.map((p) => `${p.source}: ${p.message}`).join("\n")}>
          {data.profileProblems.length} user profile{data.profileProblems.length > 1 ? "s" : ""} could not be loaded.
        </p>
      )}
      {error !== null && <ErrorNotice error={error} testId="create-agent-error" />}
      <div className="form-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="create-agent-submit" disabled={saving || !name.trim() || !profileId}>
          Create
        </button>
      </div>
    </form>
  );
}

/** The last profile used if it is still there and installed, else the first installed one
 * (a new agent should start), else the first of the catalogue. */
function defaultProfile(profiles: readonly AgentProfile[], missing: ReadonlySet<string>, last: string | null): string {
  const installed = profiles.filter((p) => !missing.has(p.id));
  return (installed.find((p) => p.id === last) ?? installed[0] ?? profiles[0])?.id ?? "";
}
