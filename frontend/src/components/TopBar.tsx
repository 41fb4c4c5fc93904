import { transportKind, type ConnectionState } from "../api";
import { Icon } from "./Icon";

const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: "connecting…",
  open: "connected",
  closed: "disconnected — reconnecting…",
};

/** Project name, connection state and the side panel toggle. */
export function TopBar(props: {
  projectName: string | null;
  connection: ConnectionState;
  sidePanelOpen: boolean;
  onToggleSidePanel(): void;
}) {
  return (
    <header className="topbar" data-testid="topbar">
      <button
        type="button"
        className="icon"
        data-testid="toggle-side-panel"
        aria-pressed={props.sidePanelOpen}
        title={props.sidePanelOpen ? "Hide the agents panel" : "Show the agents panel"}
        onClick={props.onToggleSidePanel}
      >
        <Icon name="menu" />
      </button>
      <span className="brand">IdeA</span>
      {props.projectName && (
        <span className="project-name" data-testid="project-name">
          {props.projectName}
        </span>
      )}
      <span className="spacer" />
      <span className="shortcuts" title="Keyboard shortcuts">
        Alt+←↑→↓ move · Ctrl+Shift+Enter zoom · Ctrl+Shift+F find · Ctrl+Shift+C/V copy/paste
      </span>
      {transportKind() === "websocket" && (
        <span className={`connection connection-${props.connection}`} data-testid="connection-status" data-state={props.connection}>
          <span className="dot" />
          {CONNECTION_TEXT[props.connection]}
        </span>
      )}
    </header>
  );
}
