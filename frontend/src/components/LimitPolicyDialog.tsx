import { useEffect, useRef, useState } from "react";
import { request } from "../api";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import { ErrorNotice } from "./ErrorNotice";
import { Modal } from "./Modal";

/** "At a usage limit…": whether IdeA waits for the reset, moves the agent to another engine at
 *  once (with a handoff), or leaves it to the user. */
export function LimitPolicyDialog({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const { data } = useWorkspace();
  const others = data.profiles.filter((p) => p.id !== agent.profileId && p.contextInjection.kind !== "none");
  const current = agent.onLimit ?? { kind: "wait" };
  const [choice, setChoice] = useState(current.kind === "failOver" ? `failOver:${current.profileId}` : current.kind);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  /** The project's nudge as loaded (`""`: the built-in one), and as edited. */
  const [nudge, setNudge] = useState<{ loaded: string; text: string } | null>(null);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  useEffect(() => {
    let cancelled = false;
    request("getProject")
      .then((project) => !cancelled && setNudge({ loaded: project.resumeNudge ?? "", text: project.resumeNudge ?? "" }))
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
    };
  }, []);

  const save = async () => {
    setSaving(true);
    setError(null);
    const policy = choice.startsWith("failOver:")
      ? { kind: "failOver" as const, profileId: choice.slice("failOver:".length) }
      : { kind: choice as "wait" | "nothing" };
    try {
      await request("setLimitPolicy", { agentId: agent.agentId, policy });
      if (nudge && nudge.text.trim() !== nudge.loaded.trim()) await request("setResumeNudge", { text: nudge.text.trim() || null });
      onClose();
    } catch (e) {
      setError(e);
      setSaving(false);
    }
  };

  return (
    <Modal label={`When ${agent.name} hits a usage limit`} testId="limit-policy-dialog" className="engine-dialog" onClose={onClose}>
      <h2>When {agent.name} hits a usage limit</h2>
      <label>
        IdeA will
        <select ref={first} data-testid="limit-policy" value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="wait">wait for the reset, then continue it once</option>
          {others.map((p) => (
            <option key={p.id} value={`failOver:${p.id}`}>
              move it to {p.name} at once, with a handoff{data.missingProfiles.has(p.id) ? " (not installed)" : ""}
            </option>
          ))}
          <option value="nothing">leave it to me</option>
        </select>
      </label>
      {choice.startsWith("failOver:") && <p>If it hits a limit there too, IdeA waits for that one to reset.</p>}
      <label>
        What IdeA types when a limit resets (every agent of this project)
        <textarea
          data-testid="resume-nudge"
          rows={3}
          value={nudge?.text ?? ""}
          disabled={nudge === null}
          placeholder="Empty: “Your usage limit has reset. Continue the task you were working on…; do not repeat work that is already complete.”"
          onChange={(e) => setNudge((n) => (n ? { ...n, text: e.target.value } : n))}
        />
      </label>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="limit-policy-error" />}
      <div className="modal-buttons">
        <button type="button" data-testid="limit-policy-cancel" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="limit-policy-save" disabled={saving} onClick={() => void save()}>
          Save
        </button>
      </div>
    </Modal>
  );
}
