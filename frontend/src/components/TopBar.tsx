import { transportKind, type ConnectionState } from "../api";
import { ShortcutsHelp } from "./ShortcutsHelp";
import { Icon } from "./Icon";

const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: "connecting…",
  open: "connected",
  closed: "disconnected — reconnecting…",
};

/** Project name, connection state, and the toggles of the agents and requests panels. */
export function TopBar(props: {
  projectName: string | null;
  connection: ConnectionState;
  sidePanelOpen: boolean;
  onToggleSidePanel(): void;
  requestsOpen: boolean;
  /** Requests queued or running, shown on the requests toggle. */
  activeRequests: number;
  onToggleRequests(): void;
  onOpenPalette(): void;
  overviewOpen: boolean;
  onToggleOverview(): void;
}) {
  const requestsLabel = `${props.requestsOpen ? "Hide" : "Show"} the requests between agents${
    props.activeRequests > 0 ? ` (${props.activeRequests} in progress)` : ""
  }`;
  return (
    <header className="topbar" data-testid="topbar">
      <button
        type="button"
        className="icon"
        data-testid="toggle-side-panel"
        aria-label="Agents panel"
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
      {/* Shown whole or not at all (a wide enough bar); the Keys button lists them always. */}
      <span className="shortcuts" data-testid="shortcut-hints" aria-hidden="true">
        Alt+←↑→↓ move · Alt+1…9 cell · Ctrl+Shift+Enter zoom · Ctrl+Shift+F find · Ctrl+Shift+C/V copy/paste
      </span>
      <ShortcutsHelp />
      <button
        type="button"
        className="small"
        data-testid="open-palette"
        aria-label="Open the command palette (Ctrl+Shift+P)"
        title="Every action by name (Ctrl+Shift+P)"
        onClick={props.onOpenPalette}
      >
        Commands
      </button>
      <button
        type="button"
        className={`small${props.overviewOpen ? " on" : ""}`}
        data-testid="toggle-overview"
        aria-pressed={props.overviewOpen}
        aria-label={props.overviewOpen ? "Hide the sessions overview" : "Show every session across layouts"}
        title="Every session across layouts"
        onClick={props.onToggleOverview}
      >
        Sessions
      </button>
      <button
        type="button"
        className={`small requests-toggle${props.requestsOpen ? " on" : ""}`}
        data-testid="toggle-requests"
        aria-pressed={props.requestsOpen}
        aria-label={requestsLabel}
        title={requestsLabel}
        onClick={props.onToggleRequests}
      >
        Requests
        {props.activeRequests > 0 && (
          <span className="requests-active" data-testid="requests-active">
            {props.activeRequests}
          </span>
        )}
      </button>
      {transportKind() === "websocket" && (
        <span className={`connection connection-${props.connection}`} data-testid="connection-status" data-state={props.connection}>
          <span className="dot" />
          <span className="connection-text">{CONNECTION_TEXT[props.connection]}</span>
        </span>
      )}
    </header>
  );
}
