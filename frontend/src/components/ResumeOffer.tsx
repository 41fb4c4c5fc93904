/** Offered on a cell whose agent was running (or had a conversation) when IdeA last closed. */
export function ResumeOffer(props: { agentName: string; wasRunning: boolean; busy: boolean; onResume(): void; onDismiss(): void }) {
  return (
    <div className="resume-offer" data-testid="resume-offer">
      <span>
        {props.wasRunning ? `${props.agentName} was running here.` : `${props.agentName} has a conversation in this cell.`}
      </span>
      <button type="button" className="small primary" data-testid="resume-button" data-autofocus disabled={props.busy} onClick={props.onResume}>
        Resume
      </button>
      <button type="button" className="small" data-testid="resume-dismiss" onClick={props.onDismiss}>
        Not now
      </button>
    </div>
  );
}
