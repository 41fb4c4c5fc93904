import { useState } from "react";
import type { ToolApproval } from "../generated/ToolApproval";
import { answerToolApproval, argumentsText, useToolApprovals } from "../state/toolApprovals";
import { useWorkspace } from "../state/workspace";
import { ErrorNotice } from "./ErrorNotice";

/**
 * The agents' tool calls waiting for the user, over everything at the top of the window (a
 * phone's sheets included): "Ada wants to run run_tests {…}", Allow once or Deny, and a way to
 * the agent's cell when it has one. "Later" folds them into a small reminder at the bottom
 * (they cover what is under them); a new call unfolds them again.
 */
export function ToolApprovalPrompts() {
  const approvals = useToolApprovals();
  // The calls folded away by "Later": a call not among them shows the prompts again.
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set());
  if (approvals.length === 0) return null;
  if (approvals.every((a) => folded.has(a.approvalId))) {
    return (
      <div className="tool-approvals folded" data-testid="tool-approvals" aria-live="polite">
        <button type="button" className="tool-approvals-unfold" data-testid="tool-approvals-unfold" onClick={() => setFolded(new Set())}>
          {approvals.length === 1 ? `${approvals[0]!.agentName} waits for your answer` : `${approvals.length} tool calls wait for your answer`}
        </button>
      </div>
    );
  }
  return (
    <div className="tool-approvals" data-testid="tool-approvals" aria-live="assertive">
      {approvals.map((approval) => (
        <ToolApprovalPrompt key={approval.approvalId} approval={approval} place="window" onLater={() => setFolded(new Set(approvals.map((a) => a.approvalId)))} />
      ))}
    </div>
  );
}

/** The calls of the agent shown in a cell, in that cell. */
export function CellToolApprovals({ agentId }: { agentId: string }) {
  const approvals = useToolApprovals().filter((a) => a.agentId === agentId);
  return (
    <>
      {approvals.map((approval) => (
        <ToolApprovalPrompt key={approval.approvalId} approval={approval} place="cell" />
      ))}
    </>
  );
}

/** One waiting call. `place` "cell" is the agent's own cell (no "Go to cell", its own test ids);
 * `onLater` folds the window's prompts away. */
function ToolApprovalPrompt({ approval, place, onLater }: { approval: ToolApproval; place: "window" | "cell"; onLater?: () => void }) {
  const { sessions, goToCell } = useWorkspace();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const prefix = place === "cell" ? "cell-tool-approval" : "tool-approval";
  const cell = place === "window" ? sessions.runningByAgent.get(approval.agentId)?.cell : null;

  const answer = async (allow: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await answerToolApproval(approval.approvalId, allow);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <div
      className={`tool-approval tool-approval-${place}`}
      role="alertdialog"
      aria-label={`${approval.agentName} wants to run ${approval.tool}`}
      data-testid={prefix}
      data-approval-id={approval.approvalId}
      data-agent={approval.agentName}
    >
      <p className="tool-approval-text">
        <strong>{approval.agentName}</strong> wants to run <code>{approval.tool}</code>{" "}
        <code className="tool-approval-args" title={JSON.stringify(approval.arguments, null, 2)}>
          {argumentsText(approval)}
        </code>
      </p>
      <p className="hint">{approval.rule ? `Asked by the rule ${approval.rule}.` : "No permission rule names this tool: IdeA asks."}</p>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId={`${prefix}-error`} />}
      <div className="tool-approval-buttons">
        {cell && (
          <button type="button" className="small" data-testid={`${prefix}-goto`} onClick={() => goToCell(cell.layoutId, cell.nodeId)}>
            Go to cell
          </button>
        )}
        {onLater && (
          <button type="button" className="small" data-testid="tool-approvals-fold" title="Fold the prompts away until a new call comes" onClick={onLater}>
            Later
          </button>
        )}
        <span className="spacer" />
        <button type="button" className="small danger" data-testid={`${prefix}-deny`} disabled={busy} onClick={() => void answer(false)}>
          Deny
        </button>
        <button type="button" className="small primary" data-testid={`${prefix}-allow`} disabled={busy} onClick={() => void answer(true)}>
          Allow once
        </button>
      </div>
    </div>
  );
}
