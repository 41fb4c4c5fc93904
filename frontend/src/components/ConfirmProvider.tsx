import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { ConfirmContext, type ConfirmRequest } from "../state/confirm";

interface Open extends ConfirmRequest {
  resolve(answer: boolean): void;
}

/** Provides `useConfirm()`: an in-page modal dialog (no `window.confirm`). */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);

  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        setOpen((previous) => {
          previous?.resolve(false);
          return { ...request, resolve };
        });
      }),
    [],
  );

  const answer = (value: boolean) => {
    open?.resolve(value);
    setOpen(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {open && <ConfirmDialog request={open} onAnswer={answer} />}
    </ConfirmContext.Provider>
  );
}

function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest; onAnswer(value: boolean): void }) {
  const okRef = useRef<HTMLButtonElement>(null);
  const previousFocus = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    okRef.current?.focus();
    const previous = previousFocus.current;
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  return (
    <div className="modal-backdrop" onMouseDown={() => onAnswer(false)}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={request.title}
        data-testid="confirm-dialog"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onAnswer(false);
          }
        }}
      >
        <h2>{request.title}</h2>
        {request.message && <p>{request.message}</p>}
        <div className="modal-buttons">
          <button type="button" data-testid="confirm-cancel" onClick={() => onAnswer(false)}>
            Cancel
          </button>
          <button
            type="button"
            ref={okRef}
            className={request.danger ? "danger" : "primary"}
            data-testid="confirm-ok"
            onClick={() => onAnswer(true)}
          >
            {request.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
