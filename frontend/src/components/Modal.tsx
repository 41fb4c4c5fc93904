import type { ReactNode } from "react";

/** An in-page modal dialog: a click outside or Escape closes it. */
export function Modal({ label, testId, className, onClose, children }: { label: string; testId: string; className?: string; onClose(): void; children: ReactNode }) {
  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <div
        className={className ? `modal ${className}` : "modal"}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}

/** A profile as a choice: its name, and whether its CLI is missing. */
export function profileChoice(profile: { name: string }, missing: boolean): string {
  return missing ? `${profile.name} (not installed)` : profile.name;
}
