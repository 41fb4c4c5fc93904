import { useRef, useState } from "react";
import { useCommands } from "../state/commandBus";
import type { NamedLayout } from "../types";

/** One layout tab; double-click the name to rename it. */
export function LayoutTab(props: {
  layout: NamedLayout;
  active: boolean;
  canDelete: boolean;
  onSelect(): void;
  onRename(name: string): void;
  onDelete(): void;
  /** How many agents of this layout need the user. */
  needing?: number;
  /** Agents here waiting for their usage limit to reset. */
  limited?: number;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  // Enter commits, and the blur that follows must not commit again.
  const done = useRef(false);

  const startEditing = () => {
    done.current = false;
    setEditing(props.layout.name);
  };

  useCommands(`layout:${props.layout.id}`, (command) => {
    if (command === "rename") startEditing();
    else if (command === "delete" && props.canDelete) props.onDelete();
  });

  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    const name = editing?.trim();
    setEditing(null);
    if (save && name && name !== props.layout.name) props.onRename(name);
  };

  return (
    <div
      className={`tab${props.active ? " active" : ""}`}
      role="tab"
      aria-selected={props.active}
      data-testid="tab"
      data-layout-id={props.layout.id}
      data-active={props.active}
      onClick={() => !props.active && editing === null && props.onSelect()}
      onDoubleClick={startEditing}
      tabIndex={editing === null ? 0 : -1}
      onKeyDown={(e) => {
        if (editing !== null || e.target !== e.currentTarget) return;
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          if (!props.active) props.onSelect();
        } else if (e.key === "F2") {
          e.preventDefault();
          startEditing();
        }
      }}
      title="Double-click (or F2) to rename"
    >
      {editing !== null ? (
        <input
          className="tab-rename"
          data-testid="tab-rename-input"
          autoFocus
          value={editing}
          maxLength={64}
          onChange={(e) => setEditing(e.target.value)}
          onBlur={() => finish(true)}
          onKeyDown={(e) => {
            if (e.key === "Enter") finish(true);
            else if (e.key === "Escape") finish(false);
          }}
          onClick={(e) => e.stopPropagation()}
        />
      ) : (
        <span className="tab-name">{props.layout.name}</span>
      )}
      {editing === null && (props.needing ?? 0) > 0 && (
        <span className="badge state-badge state-needsYou tab-needing" data-testid="tab-needing" title={`${props.needing} agent(s) here need you`}>
          {props.needing}
        </span>
      )}
      {editing === null && (props.limited ?? 0) > 0 && (
        <span className="badge state-badge state-usageLimited tab-limited" data-testid="tab-limited" title={`${props.limited} agent(s) here wait for a usage limit to reset`}>
          {props.limited}
        </span>
      )}
      {props.canDelete && editing === null && (
        <button
          type="button"
          className="icon tab-close"
          data-testid="tab-close"
          aria-label={`Delete layout ${props.layout.name}`}
          title="Delete layout"
          onClick={(e) => {
            e.stopPropagation();
            props.onDelete();
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
