import { StateBadge } from "./StateBadge";
import { useWorkspace } from "../state/workspace";
import type { Agent, AgentProfile, SessionInfo } from "../types";
import { Icon } from "./Icon";
import { ProfileBadge } from "./ProfileBadge";

/** One agent in the side panel: running indicator, name, profile, actions. */
export function AgentRow(props: {
  agent: Agent;
  profile: AgentProfile | undefined;
  running: SessionInfo | undefined;
  selected: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const { goToCell } = useWorkspace();
  const { agent, running } = props;
  return (
    <li
      className={`agent-row${props.selected ? " selected" : ""}`}
      data-testid="agent-row"
      data-agent-id={agent.agentId}
      data-agent-name={agent.name}
      data-running={running ? "true" : "false"}
    >
      <button
        type="button"
        className={`run-dot${running ? " on" : ""}`}
        data-testid="agent-running"
        aria-label={running ? `${agent.name} is running: go to its cell` : `${agent.name} is not running`}
        title={running ? "Running — go to its cell" : "Not running"}
        disabled={!running}
        onClick={() => running?.cell && goToCell(running.cell.layoutId, running.cell.nodeId)}
      />
      <button type="button" className="agent-name" title="Edit persona" onClick={props.onEdit}>
        {agent.name}
      </button>
      <ProfileBadge profile={props.profile} profileId={agent.profileId} />
      <StateBadge session={running} testId="agent-state" />
      <span className="spacer" />
      <button type="button" className="icon" data-testid="agent-edit" aria-label={`Edit the persona of ${agent.name}`} title="Edit persona" onClick={props.onEdit}>
        <Icon name="edit" />
      </button>
      <button type="button" className="icon danger" data-testid="agent-delete" aria-label={`Delete ${agent.name}`} title="Delete agent" onClick={props.onDelete}>
        <Icon name="trash" />
      </button>
      {agent.skills.length > 0 && (
        <span className="agent-skills" data-testid="agent-skills" title="Its skills, in the order it gets them">
          Skills: {agent.skills.map((ref) => ref.skillId).join(", ")}
        </span>
      )}
    </li>
  );
}
