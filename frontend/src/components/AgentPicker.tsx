import { useState } from "react";
import { useWorkspace } from "../state/workspace";
import type { LeafNode } from "../types";
import { PickerEntry } from "./PickerEntry";
import { ResumeOffer } from "./ResumeOffer";

/** What an empty cell offers: the project's agents, and a plain shell. */
export function AgentPicker(props: {
  layoutId: string;
  leaf: LeafNode;
  busy: boolean;
  onLaunch(agentId: string): void;
  onShell(): void;
  onChat(agentId: string): void;
}) {
  const { data, sessions, openNewAgent } = useWorkspace();
  const { leaf } = props;
  const [resumeDismissed, setResumeDismissed] = useState(false);
  const assigned = leaf.agent ? data.agentsById.get(leaf.agent) : undefined;
  const offerResume = assigned !== undefined && (leaf.agentWasRunning || !!leaf.conversationId) && !resumeDismissed;

  return (
    <div className="picker" data-testid="picker">
      {offerResume && assigned && (
        <ResumeOffer
          agentName={assigned.name}
          wasRunning={leaf.agentWasRunning}
          busy={props.busy}
          onResume={() => props.onLaunch(assigned.agentId)}
          onDismiss={() => setResumeDismissed(true)}
        />
      )}
      <div className="picker-title">Start in this cell</div>
      <ul className="picker-list">
        {data.agents.map((agent) => {
          const live = sessions.runningByAgent.get(agent.agentId);
          return (
            <PickerEntry
              key={agent.agentId}
              agent={agent}
              profile={data.profilesById.get(agent.profileId)}
              missing={data.missingProfiles.has(agent.profileId)}
              assigned={agent.agentId === leaf.agent}
              elsewhere={live && live.cell?.nodeId !== leaf.id ? live : undefined}
              busy={props.busy}
              onLaunch={() => props.onLaunch(agent.agentId)}
              onChat={
                data.profilesById.get(agent.profileId)?.structured && !data.missingProfiles.has(agent.profileId)
                  ? () => props.onChat(agent.agentId)
                  : undefined
              }
            />
          );
        })}
        <li className="picker-entry">
          <button type="button" className="picker-main" data-testid="picker-shell" data-autofocus={data.agents.length === 0 || undefined} disabled={props.busy} onClick={props.onShell}>
            <span className="picker-name">Open shell</span>
            <span className="picker-hint">a plain terminal, no agent</span>
          </button>
        </li>
      </ul>
      {data.agents.length === 0 && (
        <p className="picker-empty">
          No agents yet.{" "}
          <button type="button" className="link" data-testid="picker-new-agent" onClick={openNewAgent}>
            Create one
          </button>{" "}
          in the side panel.
        </p>
      )}
    </div>
  );
}
