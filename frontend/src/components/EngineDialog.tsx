import { useEffect, useRef, useState } from "react";
import { request } from "../api";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import { ErrorNotice } from "./ErrorNotice";
import { Modal, profileChoice } from "./Modal";

/**
 * "Change engine…": moves an agent to another runtime profile. Shows the handoff the new
 * engine will be given (drafted from the conversation and the uncommitted changes), which the
 * user can edit first. A live agent is relaunched in its cell on the new engine.
 */
export function EngineDialog({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const { data } = useWorkspace();
  const choices = data.profiles.filter((p) => p.id !== agent.profileId && p.contextInjection.kind !== "none");
  const [profileId, setProfileId] = useState(() => choices.find((p) => !data.missingProfiles.has(p.id))?.id ?? choices[0]?.id ?? "");
  const [objective, setObjective] = useState("");
  const [summary, setSummary] = useState("");
  const [drafting, setDrafting] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const first = useRef<HTMLSelectElement>(null);

  useEffect(() => {
    let cancelled = false;
    first.current?.focus();
    request("draftHandoff", { agentId: agent.agentId })
      .then((draft) => {
        if (cancelled) return;
        setObjective(draft.objective);
        setSummary(draft.summary);
      })
      .catch((e: unknown) => !cancelled && setError(e))
      .finally(() => !cancelled && setDrafting(false));
    return () => {
      cancelled = true;
    };
  }, [agent.agentId]);

  const change = async () => {
    setSaving(true);
    setError(null);
    try {
      await request("changeAgentProfile", { agentId: agent.agentId, profileId, handoff: { objective, summary } });
      onClose();
    } catch (e) {
      setError(e);
      setSaving(false);
    }
  };

  const current = data.profilesById.get(agent.profileId)?.name ?? agent.profileId;
  return (
    <Modal label={`Change ${agent.name}'s engine`} testId="engine-dialog" className="engine-dialog" onClose={onClose}>
      <h2>Change {agent.name}&apos;s engine</h2>
      <p>
        {agent.name} runs on {current}. On the new engine it keeps its persona and its conversation with you, and starts
        from the handoff below. Moving it back later continues its {current} conversation where that CLI can resume one.
      </p>
      <label>
        New engine
        <select ref={first} data-testid="engine-profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>
          {choices.map((p) => (
            <option key={p.id} value={p.id}>
              {profileChoice(p, data.missingProfiles.has(p.id))}
            </option>
          ))}
        </select>
      </label>
      <label>
        Objective
        <textarea data-testid="engine-objective" rows={2} value={objective} disabled={drafting} onChange={(e) => setObjective(e.target.value)} />
      </label>
      <label>
        Where the work stands
        <textarea
          data-testid="engine-summary"
          rows={10}
          value={summary}
          disabled={drafting}
          placeholder={drafting ? "Drafting: the agent summarises its own work when it can (a turn of up to two minutes), else from its conversation…" : "What the new engine should know"}
          onChange={(e) => setSummary(e.target.value)}
        />
      </label>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="engine-error" />}
      <div className="modal-buttons">
        <button type="button" data-testid="engine-cancel" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="engine-change" disabled={!profileId || drafting || saving} onClick={() => void change()}>
          {saving ? "Changing…" : "Change engine"}
        </button>
      </div>
    </Modal>
  );
}
