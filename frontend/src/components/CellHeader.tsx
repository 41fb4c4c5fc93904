import type { CellBusy } from "../hooks/useCellActions";
import type { CellDragHandle } from "../hooks/useCellDrag";
import type { Agent, AgentProfile, Direction, SessionInfo } from "../types";
import { Icon } from "./Icon";
import { ProfileBadge } from "./ProfileBadge";
import { SandboxBadge } from "./SandboxBadge";

interface Props {
  session: SessionInfo | undefined;
  agent: Agent | undefined;
  profile: AgentProfile | undefined;
  busy: CellBusy;
  /** Who this cell's agent is answering right now (a running ask), if anyone. */
  answering: string | null;
  only: boolean;
  zoomed: boolean;
  picking: boolean;
  searchOpen: boolean;
  drag: CellDragHandle;
  onRestart(): void;
  onStop(): void;
  onSplit(direction: Direction): void;
  onClose(): void;
  onZoom(): void;
  onSearch(): void;
  onPick(): void;
}

function statusOf(session: SessionInfo | undefined, busy: CellBusy): { text: string; kind: string } {
  if (busy === "launching") return { text: "starting…", kind: "starting" };
  if (busy === "restarting") return { text: "restarting…", kind: "starting" };
  if (!session) return { text: "empty", kind: "empty" };
  if (session.status === "running") return { text: busy === "stopping" ? "stopping…" : "running", kind: "running" };
  const exit = session.exit;
  if (!exit) return { text: "exited", kind: "exited" };
  if (exit.stopped) return { text: "stopped", kind: "exited" };
  if (exit.signal) return { text: `killed by ${exit.signal}`, kind: "failed" };
  return { text: `exited with code ${exit.code}`, kind: exit.code === 0 ? "exited" : "failed" };
}

/** A cell's title bar: who runs there, its status, and the cell's actions. */
export function CellHeader(props: Props) {
  const { session, agent, busy, drag } = props;
  const status = statusOf(session, busy);
  const title = session ? (session.agentId ? (agent?.name ?? "unknown agent") : "shell") : "";
  const running = session?.status === "running";

  return (
    <div className="cell-header" data-testid="cell-header">
      <div
        className={`cell-drag${drag.draggable ? " draggable" : ""}`}
        data-testid="cell-drag"
        draggable={drag.draggable}
        title={drag.draggable ? "Drag onto another cell: an edge moves this cell there, the centre swaps the two" : undefined}
        onDragStart={drag.onDragStart}
        onDragEnd={drag.onDragEnd}
      >
        {drag.draggable && (
          <span className="cell-grip">
            <Icon name="grip" />
          </span>
        )}
        {session && (
          <span className="cell-title" data-testid="cell-title" title={session.pid ? `pid ${session.pid}` : undefined}>
            {title}
          </span>
        )}
        {agent && <ProfileBadge profile={props.profile} profileId={agent.profileId} />}
        {session?.agentId && <SandboxBadge sandbox={session.sandbox} />}
        {props.answering !== null && (
          <span className="badge badge-answering" data-testid="cell-answering" title={`Answering a request from ${props.answering} (see the requests panel)`}>
            answering {props.answering === "You" ? "you" : props.answering}
          </span>
        )}
        <span className={`status status-${status.kind}`} data-testid="cell-status" data-status={status.kind}>
          {status.text}
        </span>
      </div>
      {session && !props.picking && (
        <button type="button" className={`icon${props.searchOpen ? " on" : ""}`} data-testid="cell-search" title="Find (Ctrl+Shift+F)" onClick={props.onSearch}>
          <Icon name="search" />
        </button>
      )}
      {session && !running && (
        <button type="button" className="small" data-testid="cell-change" title="Start another agent or a shell here" onClick={props.onPick}>
          {props.picking ? "Back" : "Change…"}
        </button>
      )}
      {session &&
        (running ? (
          <button type="button" className="icon" data-testid="cell-restart" disabled={busy !== null} title="Restart in this cell" onClick={props.onRestart}>
            <Icon name="restart" />
          </button>
        ) : (
          <button type="button" className="small primary" data-testid="cell-restart" disabled={busy !== null} title="Start it again in this cell" onClick={props.onRestart}>
            Restart
          </button>
        ))}
      {running && (
        <button type="button" className="icon" data-testid="cell-stop" disabled={busy !== null} title="Stop the process" onClick={props.onStop}>
          <Icon name="stop" />
        </button>
      )}
      <button type="button" className="icon" data-testid="cell-split-h" title="Split: new cell on the right" onClick={() => props.onSplit("horizontal")}>
        <Icon name="splitRight" />
      </button>
      <button type="button" className="icon" data-testid="cell-split-v" title="Split: new cell below" onClick={() => props.onSplit("vertical")}>
        <Icon name="splitDown" />
      </button>
      <button
        type="button"
        className={`icon${props.zoomed ? " on" : ""}`}
        data-testid="cell-zoom"
        title={props.zoomed ? "Restore the layout (Ctrl+Shift+Enter)" : "Zoom this cell (Ctrl+Shift+Enter)"}
        onClick={props.onZoom}
      >
        <Icon name={props.zoomed ? "unzoom" : "zoom"} />
      </button>
      <button type="button" className="icon" data-testid="cell-close" title={props.only ? "The last cell cannot be closed" : "Close the cell"} disabled={props.only} onClick={props.onClose}>
        <Icon name="close" />
      </button>
    </div>
  );
}
