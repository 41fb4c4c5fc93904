import { useEffect, useState } from "react";
import { request } from "../api";
import type { Skill } from "../generated/Skill";
import type { SkillSource } from "../generated/SkillSource";
import { useConfirm } from "../state/confirm";
import { refreshKnowledge, useKnowledge } from "../state/knowledge";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import { ErrorNotice } from "./ErrorNotice";
import { Icon } from "./Icon";
import { ProblemList } from "./ProblemList";
import { CreateSkillForm, scopeOf, SkillFileEditor } from "./SkillForms";

const GROUPS: { source: SkillSource; title: string }[] = [
  { source: "project", title: "This project — .ideai/skills" },
  { source: "user", title: "Yours — ~/.ideai/skills" },
  { source: "claudeFolder", title: "Found in .claude/skills" },
  { source: "agentsFolder", title: "Found in .agents/skills" },
];

/**
 * The skills: IdeA's own (the project's and the user's), each with the agents that have it and
 * a way to give it to or take it from each; those found in the project's `.claude/skills` and
 * `.agents/skills`, to adopt; the broken ones with their path and why. Create, edit the whole
 * `SKILL.md`, delete.
 */
export function SkillsPanel({ hidden, newSeq }: { hidden: boolean; newSeq: number }) {
  const { value: listing, error: listError } = useKnowledge("skills");
  // Read again each time the view is shown: a SKILL.md edited by hand publishes nothing.
  useEffect(() => {
    if (!hidden) refreshKnowledge("skills");
  }, [hidden]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);

  useEffect(() => {
    if (newSeq > 0) setCreating(true);
  }, [newSeq]);

  const skills = listing?.skills ?? [];
  return (
    <section className="shared-view skills-panel" data-testid="skills-panel" hidden={hidden}>
      <div className="panel-header">
        <span className="panel-title">Skills</span>
        <span className="panel-count">{skills.length}</span>
        <span className="spacer" />
        <button type="button" className="small" data-testid="skills-refresh" title="Read the folders again" onClick={() => refreshKnowledge("skills")}>
          Reload
        </button>
        <button type="button" className="small primary" data-testid="skill-new" onClick={() => setCreating((c) => !c)}>
          {creating ? "Cancel" : "+ New"}
        </button>
      </div>
      <p className="shared-note">
        Claude Code agents also load this project's own .claude/skills, and Codex agents its .agents/skills, by themselves: IdeA cannot hide those.
      </p>
      {listError !== null && <ErrorNotice error={listError} testId="skills-list-error" />}
      {creating && <CreateSkillForm onCreated={() => setCreating(false)} onCancel={() => setCreating(false)} />}
      <div className="shared-scroll">
        {GROUPS.map(({ source, title }) => {
          const inGroup = skills.filter((s) => s.source === source);
          if (inGroup.length === 0) return null;
          return (
            <section key={source} className="skill-group" data-testid="skill-group" data-source={source}>
              <h3>{title}</h3>
              <ul className="shared-list">
                {inGroup.map((skill) => (
                  <SkillRow key={`${source}/${skill.name}`} skill={skill} editing={editing === `${source}/${skill.name}`} onEdit={(on) => setEditing(on ? `${source}/${skill.name}` : null)} />
                ))}
              </ul>
            </section>
          );
        })}
        {listing && skills.length === 0 && <p className="muted">No skills yet.</p>}
        {listing && <ProblemList problems={listing.problems} testId="skill-problems" what="skipped" />}
      </div>
    </section>
  );
}

function SkillRow({ skill, editing, onEdit }: { skill: Skill; editing: boolean; onEdit(on: boolean): void }) {
  const { data } = useWorkspace();
  const confirm = useConfirm();
  const [assigning, setAssigning] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const scope = scopeOf(skill);
  const holders = data.agents.filter((a) => hasSkill(a, skill.name));

  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (agent: Agent) =>
    act(async () => {
      const method = hasSkill(agent, skill.name) ? "unassignSkill" : "assignSkill";
      await request(method, { agent: agent.agentId, skill: skill.name });
      data.refreshAgents();
    });

  const remove = () =>
    act(async () => {
      if (!scope) return;
      const taken = holders.length > 0 ? ` It is taken from ${holders.map((a) => a.name).join(", ")}.` : "";
      const where = scope === "project" ? ".ideai/skills" : "~/.ideai/skills";
      const ok = await confirm({ title: `Delete the skill ${skill.name}?`, message: `Its folder ${where}/${skill.name} is removed.${taken}`, confirmLabel: "Delete skill", danger: true });
      if (!ok) return;
      await request("deleteSkill", { scope, name: skill.name });
      refreshKnowledge("skills");
      data.refreshAgents();
    });

  const adopt = () =>
    act(async () => {
      await request("adoptSkill", { source: skill.source, name: skill.name });
      refreshKnowledge("skills");
    });

  return (
    <li className="skill-row" data-testid="skill-row" data-skill={skill.name} data-source={skill.source}>
      <div className="skill-head">
        <strong className="skill-name">{skill.name}</strong>
        {skill.files.length > 0 && (
          <span className="muted skill-files" title={skill.files.join("\n")}>
            +{skill.files.length} {skill.files.length === 1 ? "file" : "files"}
          </span>
        )}
        <span className="spacer" />
        {scope ? (
          <>
            <button type="button" className="icon" data-testid="skill-edit" aria-label={`Edit the skill ${skill.name}`} title="Edit SKILL.md" onClick={() => onEdit(!editing)}>
              <Icon name="edit" />
            </button>
            <button type="button" className="icon danger" data-testid="skill-delete" aria-label={`Delete the skill ${skill.name}`} title="Delete the skill" disabled={busy} onClick={() => void remove()}>
              <Icon name="trash" />
            </button>
          </>
        ) : (
          <button type="button" className="small" data-testid="skill-adopt" disabled={busy} title="Copy it into .ideai/skills, where IdeA can give it to any agent" onClick={() => void adopt()}>
            Adopt
          </button>
        )}
      </div>
      <p className="skill-desc" title={skill.description}>
        {skill.description}
      </p>
      {skill.warnings.map((warning) => (
        <p key={warning} className="hint warning">
          {warning}
        </p>
      ))}
      {scope ? (
        <div className="skill-agents">
          <span data-testid="skill-holders">{holders.length > 0 ? `Given to ${holders.map((a) => a.name).join(", ")}` : "No agent has it."}</span>
          {data.agents.length > 0 && (
            <button type="button" className="link" data-testid="skill-assign-toggle" aria-expanded={assigning} onClick={() => setAssigning((a) => !a)}>
              {assigning ? "Done" : "Choose agents…"}
            </button>
          )}
        </div>
      ) : (
        <p className="hint">Adopt it to give it to an agent of any engine.</p>
      )}
      {assigning && scope && (
        <div className="skill-chips" role="group" aria-label={`The agents that have ${skill.name}`}>
          {data.agents.map((agent) => (
            <button
              key={agent.agentId}
              type="button"
              className={`chip${hasSkill(agent, skill.name) ? " on" : ""}`}
              data-testid="skill-assign"
              data-agent={agent.name}
              aria-pressed={hasSkill(agent, skill.name)}
              disabled={busy}
              onClick={() => void toggle(agent)}
            >
              {agent.name}
            </button>
          ))}
        </div>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="skill-error" />}
      {editing && scope && <SkillFileEditor skill={skill} onClose={() => onEdit(false)} />}
    </li>
  );
}

/** Whether `agent` is given the skill `name` (a skill is named once among the project's and the
 * user's: the project's wins). */
function hasSkill(agent: Agent, name: string): boolean {
  return agent.skills.some((ref) => ref.skillId === name);
}
