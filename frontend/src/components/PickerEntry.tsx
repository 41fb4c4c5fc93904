import { useWorkspace } from "../state/workspace";
import type { Agent, AgentProfile, SessionInfo } from "../types";
import { ProfileBadge } from "./ProfileBadge";

/**
 * One agent in a cell's picker. An agent already running in another cell is greyed and offers
 * "Go to cell"; launching it anyway lets the backend explain (AGENT_ALREADY_RUNNING).
 */
export function PickerEntry(props: {
  agent: Agent;
  profile: AgentProfile | undefined;
  /** Its CLI is not installed: marked, with the profile's install hint. */
  missing?: boolean;
  assigned: boolean;
  elsewhere: SessionInfo | undefined;
  busy: boolean;
  onLaunch(): void;
  /** Opens a chat with the agent here; only for a profile with a JSON mode. */
  onChat?: () => void;
}) {
  const { goToCell } = useWorkspace();
  const { agent, elsewhere } = props;
  const hint = props.profile?.installHint;
  const missingText = `${props.profile?.name ?? agent.profileId} is not installed on this machine${hint ? `. Install it with: ${hint}` : ""}`;
  return (
    <li className={`picker-entry${elsewhere || props.missing ? " greyed" : ""}${props.assigned ? " assigned" : ""}`}>
      <button
        type="button"
        className="picker-main"
        data-testid="picker-agent"
        data-agent-id={agent.agentId}
        data-agent-name={agent.name}
        data-running-elsewhere={elsewhere ? "true" : "false"}
        data-missing={props.missing ? "true" : "false"}
        data-autofocus={props.assigned || undefined}
        disabled={props.busy}
        title={props.missing ? missingText : elsewhere ? `${agent.name} is already running in another cell` : `Launch ${agent.name} here`}
        onClick={props.onLaunch}
      >
        <span className="picker-name">{agent.name}</span>
        <ProfileBadge profile={props.profile} profileId={agent.profileId} />
        {props.assigned && <span className="picker-hint">last in this cell</span>}
        {elsewhere && <span className="picker-hint">running in another cell</span>}
        {props.missing && <span className="picker-hint">not installed</span>}
      </button>
      {props.missing && (
        <p className="picker-install" data-testid="picker-install">
          {missingText}
        </p>
      )}
      {props.onChat && (
        <button type="button" className="small" data-testid="picker-chat" title={`Chat with ${agent.name} here (its JSON mode, no terminal)`} onClick={props.onChat}>
          Chat
        </button>
      )}
      {elsewhere && (
        <button type="button" className="small" data-testid="picker-goto" onClick={() => elsewhere.cell && goToCell(elsewhere.cell.layoutId, elsewhere.cell.nodeId)}>
          Go to cell
        </button>
      )}
    </li>
  );
}
