import type { RefObject } from "react";
import { StateBadge } from "./StateBadge";
import type { CellBusy } from "../hooks/useCellActions";
import type { CellDragHandle } from "../hooks/useCellDrag";
import type { Agent, AgentProfile, Direction, SessionInfo } from "../types";
import { ICON_WIDTH, useHeaderFit } from "../hooks/useHeaderFit";
import { occupantName, showsAgentState, statusOf } from "../state/cells";
import { TOUCH_TARGET } from "../state/phone";
import { Icon, type IconName } from "./Icon";
import { OverflowMenu, type MenuAction } from "./OverflowMenu";
import { ProfileBadge } from "./ProfileBadge";
import { SandboxBadge } from "./SandboxBadge";
import { sendCommand } from "../state/commandBus";
import { useWorktreeOf } from "../state/worktrees";

interface Props {
  /** The cell's place in reading order (1-based), which Alt+1…9 goes to. */
  number: number;
  session: SessionInfo | undefined;
  agent: Agent | undefined;
  profile: AgentProfile | undefined;
  busy: CellBusy;
  /** Who this cell's agent is answering right now (a running ask), if anyone. */
  answering: string | null;
  /** The title the program set (OSC 0/2), if any. */
  processTitle: string | null;
  only: boolean;
  zoomed: boolean;
  picking: boolean;
  searchOpen: boolean;
  drag: CellDragHandle;
  onRestart(): void;
  /** Compacts the agent's conversation with its CLI's own command (an agent whose CLI has one). */
  onCompact?(): void;
  /** Moves the cell's agent to another engine, with a handoff (a cell showing an agent). */
  onChangeEngine?(): void;
  /** Says what IdeA does when the cell's agent hits a usage limit. */
  onLimitPolicy?(): void;
  onStop(): void;
  onSplit(direction: Direction): void;
  onClose(): void;
  /** Zooms the cell (none on a phone, which shows one cell at a time anyway). */
  onZoom?(): void;
  onSearch(): void;
  onPick(): void;
  /** On a phone: the title area becomes the switcher that lists the layout's cells. */
  switcher?: { onShow(): void; needingElsewhere: number };
}

/** One action of the header: a button there, or an item of the overflow menu. */
interface HeaderAction extends MenuAction {
  /** Drawn as this icon (with `label` as its accessible name), else as a text button. */
  icon?: IconName;
  text?: string;
  title: string;
  className?: string;
  /** Lower numbers stay in the header longer when it is narrow. */
  priority: number;
}

/** A cell's title bar: who runs there, its status, and the cell's actions. */
export function CellHeader(props: Props) {
  const { session, agent, busy, drag } = props;
  const worktree = useWorktreeOf(agent?.agentId);
  const status = statusOf(session, busy);
  const title = occupantName(session, agent);
  const running = session?.status === "running";
  const actions = headerActions(props, running, worktree !== undefined);
  const { header, essentials, visible, measure } = useHeaderFit(actions, props.switcher ? TOUCH_TARGET : ICON_WIDTH);
  // A running agent's state ("needs you", "working") says more than "running": the status
  // keeps only its dot then, and the state badge its whole width.
  const stateShown = showsAgentState(session);
  const dotOnly = stateShown && busy === null;
  const hidden = actions.filter((action) => !visible.has(action.id));
  const switcher = props.switcher;

  const identity = (
    <>
      {drag.draggable && (
        <span className="cell-grip">
          <Icon name="grip" />
        </span>
      )}
      <span className="cell-number" data-testid="cell-number" title={props.number <= 9 ? `Cell ${props.number} (Alt+${props.number})` : `Cell ${props.number}`}>
        {props.number}
      </span>
      {session && (
        <span className="cell-title" data-testid="cell-title" title={session.pid ? `pid ${session.pid}` : undefined}>
          {title}
        </span>
      )}
      {stateShown && <StateBadge session={session} />}
      {worktree && worktree.overlaps.length > 0 && (
        <span
          className="badge badge-overlap"
          data-testid="cell-overlap"
          title={`Also changed by another agent: ${worktree.overlaps.map((o) => `${o.path} (${o.with.join(", ")})`).join("; ")}`}
        >
          overlap
        </span>
      )}
      {props.answering !== null && (
        <span className="badge badge-answering" data-testid="cell-answering" title={`Answering a request from ${props.answering} (see the requests panel)`}>
          answering {props.answering === "You" ? "you" : props.answering}
        </span>
      )}
      <span className={`status status-${status.kind}${dotOnly ? " status-dot" : ""}`} data-testid="cell-status" data-status={status.kind} role="status" title={dotOnly ? status.text : undefined}>
        {dotOnly ? <span className="visually-hidden">{status.text}</span> : status.text}
      </span>
      {/* What gives way first when the header is narrow. */}
      <span className="cell-extras">
        {session && props.processTitle && (
          <span className="cell-process-title" data-testid="cell-process-title" title={props.processTitle}>
            {props.processTitle}
          </span>
        )}
        {worktree && (
          <span className="badge badge-branch" data-testid="cell-branch" title={`Works on its own branch ${worktree.branch}, from ${worktree.baseRef}, in ${worktree.path}`}>
            ⎇ {worktree.branch}
            {worktree.behindBase ? ` · ${worktree.behindBase} behind` : ""}
          </span>
        )}
        {agent && <ProfileBadge profile={props.profile} profileId={agent.profileId} />}
        {session?.agentId && <SandboxBadge sandbox={session.sandbox} />}
      </span>
    </>
  );

  return (
    <div className="cell-header" data-testid="cell-header" ref={header}>
      {switcher ? (
        <button
          ref={essentials as RefObject<HTMLButtonElement>}
          type="button"
          className="cell-drag cell-switcher"
          data-testid="cell-switcher"
          aria-haspopup="dialog"
          title="Show another cell of this layout"
          onClick={switcher.onShow}
        >
          {identity}
          {switcher.needingElsewhere > 0 && (
            <span className="badge state-badge state-needsYou switcher-needing" data-testid="switcher-needing" title={`${switcher.needingElsewhere} other cell(s) here need you`}>
              +{switcher.needingElsewhere}
            </span>
          )}
          <span className="switcher-chevron">
            <Icon name="down" />
          </span>
        </button>
      ) : (
        <div
          ref={essentials as RefObject<HTMLDivElement>}
          className={`cell-drag${drag.draggable ? " draggable" : ""}`}
          data-testid="cell-drag"
          draggable={drag.draggable}
          title={drag.draggable ? "Drag onto another cell: an edge moves this cell there, the centre swaps the two" : undefined}
          onDragStart={drag.onDragStart}
          onDragEnd={drag.onDragEnd}
        >
          {identity}
        </div>
      )}
      {actions
        .filter((action) => visible.has(action.id))
        .map((action) => (
          <button
            key={action.id}
            ref={(element) => measure(action.id, element)}
            type="button"
            className={action.className ?? (action.icon ? "icon" : "small")}
            data-testid={action.id}
            disabled={action.disabled}
            aria-label={action.icon ? action.label : undefined}
            title={action.title}
            onClick={action.run}
          >
            {action.icon ? <Icon name={action.icon} /> : action.text}
          </button>
        ))}
      {hidden.length > 0 && <OverflowMenu actions={hidden} />}
    </div>
  );
}

/** The header's actions for this cell, in the order they are shown. */
function headerActions(props: Props, running: boolean, ownBranch: boolean): HeaderAction[] {
  const { session, busy } = props;
  const actions: HeaderAction[] = [];
  if (session && !props.picking) {
    actions.push({
      id: "cell-search",
      icon: "search",
      label: "Find in the terminal",
      title: "Find (Ctrl+Shift+F)",
      className: `icon${props.searchOpen ? " on" : ""}`,
      priority: 5,
      run: props.onSearch,
    });
  }
  if (session && !running) {
    actions.push({
      id: "cell-change",
      text: props.picking ? "Back" : "Change…",
      label: props.picking ? "Back to the terminal" : "Start another agent or a shell here",
      title: "Start another agent or a shell here",
      priority: 4,
      run: props.onPick,
    });
  }
  if (session) {
    actions.push(
      running
        ? { id: "cell-restart", icon: "restart", label: "Restart", title: "Restart in this cell", disabled: busy !== null, priority: 3, run: props.onRestart }
        : {
            id: "cell-restart",
            text: "Restart",
            label: "Restart",
            title: "Start it again in this cell",
            className: "small primary",
            disabled: busy !== null,
            priority: 0,
            run: props.onRestart,
          },
    );
  }
  if (running) {
    actions.push({ id: "cell-stop", icon: "stop", label: "Stop", title: "Stop the process", disabled: busy !== null, priority: 1, run: props.onStop });
  }
  if (running && props.onCompact) {
    const idle = props.session?.state === "idle";
    actions.push({
      id: "cell-compact",
      text: "Compact",
      label: "Compact the conversation",
      title: idle ? "Compact the conversation (the CLI's own command)" : "Compact the conversation: once the agent is idle",
      disabled: busy !== null || !idle,
      priority: 9,
      run: props.onCompact,
    });
  }
  if (props.onChangeEngine) {
    actions.push({
      id: "cell-engine",
      text: "Engine…",
      label: "Change engine…",
      title: "Move this agent to another engine (CLI), with a handoff of where it stands",
      disabled: busy !== null,
      priority: 10,
      run: props.onChangeEngine,
    });
  }
  if (props.onLimitPolicy) {
    actions.push({
      id: "cell-limit-policy",
      text: "At a limit…",
      label: "At a usage limit…",
      title: "Wait for the reset, move to another engine at once, or leave it to you",
      priority: 11,
      run: props.onLimitPolicy,
    });
  }
  if (props.agent) {
    const agentId = props.agent.agentId;
    actions.push({
      id: "cell-branch-action",
      text: ownBranch ? "Branch…" : "Own branch…",
      label: ownBranch ? "Review its branch…" : "Work on its own branch…",
      title: ownBranch ? "Review, squash or archive the agent's own branch" : "Give the agent its own git worktree and branch",
      priority: 12,
      run: () => sendCommand("side-panel", `branches:${agentId}`),
    });
  }
  actions.push(
    { id: "cell-split-h", icon: "splitRight", label: "Split right", title: "Split: new cell on the right", priority: 6, run: () => props.onSplit("horizontal") },
    { id: "cell-split-v", icon: "splitDown", label: "Split down", title: "Split: new cell below", priority: 7, run: () => props.onSplit("vertical") },
  );
  if (props.onZoom) {
    actions.push({
      id: "cell-zoom",
      icon: props.zoomed ? "unzoom" : "zoom",
      label: props.zoomed ? "Restore the layout" : "Zoom this cell",
      title: props.zoomed ? "Restore the layout (Ctrl+Shift+Enter)" : "Zoom this cell (Ctrl+Shift+Enter)",
      className: `icon${props.zoomed ? " on" : ""}`,
      priority: 8,
      run: props.onZoom,
    });
  }
  actions.push(
    {
      id: "cell-close",
      icon: "close",
      label: "Close the cell",
      title: props.only ? "The last cell cannot be closed" : "Close the cell",
      disabled: props.only,
      priority: 2,
      run: props.onClose,
    },
  );
  return actions;
}
