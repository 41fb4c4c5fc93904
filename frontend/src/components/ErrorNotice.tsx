import { describeError, errorAction } from "../api";
import { useWorkspace } from "../state/workspace";

/** An API error shown in place (a cell, a form), with its action ("Go to cell") if any. */
export function ErrorNotice({ error, onDismiss, testId = "error" }: { error: unknown; onDismiss?(): void; testId?: string }) {
  const { goToCell } = useWorkspace();
  const action = errorAction(error);
  return (
    <div className="error-notice" role="alert" data-testid={testId}>
      <span className="error-text">{describeError(error)}</span>
      {action && (
        <button type="button" className="link" data-testid="error-goto" onClick={() => goToCell(action.layoutId, action.nodeId)}>
          {action.label}
        </button>
      )}
      {onDismiss && (
        <button type="button" className="icon" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
