import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { ToastContext, type Toast } from "../state/toasts";

const TOAST_MS = { error: 10000, info: 4000 };

/** Provides `useToaster()` and shows the toasts, newest at the bottom. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);

  const show = useCallback(
    (toast: Omit<Toast, "id">) => {
      const id = nextId.current++;
      // The same message twice in a row is shown once.
      setToasts((list) => [...list.filter((t) => t.text !== toast.text), { ...toast, id }].slice(-5));
      setTimeout(() => dismiss(id), TOAST_MS[toast.kind]);
    },
    [dismiss],
  );

  const toaster = useMemo(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`} data-testid="toast" role={toast.kind === "error" ? "alert" : "status"}>
            <span className="toast-text">{toast.text}</span>
            {toast.action && (
              <button
                type="button"
                className="link"
                data-testid="toast-action"
                onClick={() => {
                  toast.action!.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            )}
            <button type="button" className="icon" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
