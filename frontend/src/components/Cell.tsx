import { useCallback, useEffect, useRef, useState } from "react";
import { useCellActions } from "../hooks/useCellActions";
import { useCellDrag } from "../hooks/useCellDrag";
import { useResume } from "../hooks/useResumes";
import { useTouchScroll } from "../hooks/useTouchScroll";
import { useCommands } from "../state/commandBus";
import { needingYouIn, needsYou } from "../state/attention";
import { cellsInOrder } from "../state/palette";
import { partyName } from "../state/requests";
import { useWorkspace } from "../state/workspace";
import { existingTerminal } from "../terminal/registry";
import type { LeafNode } from "../types";
import { AgentPicker } from "./AgentPicker";
import { CellHeader } from "./CellHeader";
import { ChatView } from "./ChatView";
import { DropOverlay } from "./DropOverlay";
import { EngineDialog } from "./EngineDialog";
import { LimitPolicyDialog } from "./LimitPolicyDialog";
import { ErrorNotice } from "./ErrorNotice";
import { LimitNote } from "./LimitNote";
import { SearchBar } from "./SearchBar";
import { TerminalView } from "./TerminalView";
import { CellToolApprovals } from "./ToolApprovals";

/** One cell: a header, and either its session's terminal or a picker to start one. */
export function Cell({ layoutId, leaf, only, zoomed }: { layoutId: string; leaf: LeafNode; only: boolean; zoomed: boolean }) {
  const workspace = useWorkspace();
  const { data, sessions, requests, focused, flashed, focusRequest, claimFocus, setFocused, toggleZoom, phone } = workspace;
  const session = sessions.byCell.get(leaf.id);
  const number = cellsInOrder(workspace.layouts.layouts, layoutId).indexOf(leaf.id) + 1;
  const agent = session?.agentId ? data.agentsById.get(session.agentId) : undefined;
  const resume = useResume(agent?.agentId);
  const agentName = session ? (session.agentId ? (agent?.name ?? "agent") : "shell") : "";
  // The agent of this cell (running here, or assigned to it) may be answering another's ask.
  const answering = requests.answeringByAgent.get(session?.agentId ?? leaf.agent ?? "");
  const root = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [picking, setPicking] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const [changingEngine, setChangingEngine] = useState(false);
  const [settingPolicy, setSettingPolicy] = useState(false);
  // The agent this cell chats with (a JSON-mode session), kept in this cell's state only.
  const [chatWith, setChatWith] = useState<string | null>(null);
  const chatAgent = chatWith ? data.agentsById.get(chatWith) : undefined;
  const onLaunched = useCallback(() => {
    setPicking(false);
    setChatWith(null);
  }, []);
  const actions = useCellActions(layoutId, leaf, session, agentName, body, onLaunched);
  const drag = useCellDrag(layoutId, leaf.id, root, !only && !zoomed);
  const showTerminal = session !== undefined && !picking && !chatAgent;
  // On a phone the header is also the switcher to the layout's other cells (this one is alone).
  const switcher = phone
    ? {
        onShow: workspace.showCells,
        needingElsewhere: needingYouIn(sessions.all.values(), layoutId) - (session && needsYou(session) ? 1 : 0),
      }
    : undefined;
  const sessionId = session?.sessionId;

  useTouchScroll(body, showTerminal ? sessionId : undefined);

  // Move keyboard focus here when asked (Alt+Arrow, "Go to cell", a new split).
  useEffect(() => {
    if (!focusRequest || focusRequest.nodeId !== leaf.id || !claimFocus(leaf.id)) return;
    const handle = showTerminal && sessionId ? existingTerminal(sessionId) : undefined;
    if (handle) handle.focus();
    else {
      // An empty cell (a new split): its suggested entry, else its first one, so Enter starts it.
      const picker = root.current?.querySelector<HTMLElement>("[data-autofocus]:not(:disabled)") ?? root.current?.querySelector<HTMLElement>(".picker-main:not(:disabled)");
      (picker ?? root.current)?.focus();
    }
  }, [focusRequest, leaf.id, claimFocus, showTerminal, sessionId]);

  // The palette's cell commands run the header's own actions.
  useCommands(`cell:${leaf.id}`, (command) => {
    if (command === "stop") void actions.stop();
    else if (command === "restart") void actions.restart();
    else if (command === "compact") void actions.compact();
    else if (command === "find" && session) setSearchOpen(true);
    else if (command === "change" && session) setPicking(true);
    else if (command === "engine" && agent) setChangingEngine(true);
    else if (command === "limit-policy" && agent) setSettingPolicy(true);
  });

  // Ctrl+Shift+F inside the terminal opens this cell's search bar.
  useEffect(() => {
    if (!sessionId || !showTerminal) return;
    const handle = existingTerminal(sessionId);
    return handle?.onSearchRequest(() => setSearchOpen(true));
  }, [sessionId, showTerminal]);

  useEffect(() => setSearchOpen(false), [sessionId]);

  // The title the program sets (OSC 0/2) shows in the header.
  const [processTitle, setProcessTitle] = useState<string | null>(null);
  useEffect(() => {
    setProcessTitle(null);
    if (!sessionId || !showTerminal) return;
    return existingTerminal(sessionId)?.onTitle(setProcessTitle);
  }, [sessionId, showTerminal]);

  // Typing into an exited terminal offers a restart; Enter takes the offer, Escape dismisses it.
  const [restartOffer, setRestartOffer] = useState(false);
  const exited = session?.status === "exited";
  const restartRef = useRef(actions.restart);
  restartRef.current = actions.restart;
  useEffect(() => {
    setRestartOffer(false);
    if (!sessionId || !showTerminal || !exited) return;
    let offered = false;
    return existingTerminal(sessionId)?.onInputWhileExited((data) => {
      if (offered && data === "\r") void restartRef.current();
      offered = data !== "\x1b" && !(offered && data === "\r");
      setRestartOffer(offered);
    });
  }, [sessionId, showTerminal, exited]);

  return (
    <div
      ref={root}
      className={`cell${focused === leaf.id ? " focused" : ""}${flashed === leaf.id ? " flash" : ""}${drag.dragged ? " drag-source" : ""}`}
      data-testid="cell"
      data-node-id={leaf.id}
      data-session-id={sessionId}
      data-agent-id={leaf.agent ?? undefined}
      data-focused={focused === leaf.id}
      tabIndex={-1}
      onFocusCapture={() => setFocused(leaf.id)}
      onMouseDownCapture={() => setFocused(leaf.id)}
      {...drag.target}
    >
      <CellHeader
        number={number}
        session={session}
        agent={agent}
        profile={agent ? data.profilesById.get(agent.profileId) : undefined}
        busy={actions.busy}
        answering={answering ? partyName(answering.requester, data.agentsById) : null}
        processTitle={processTitle}
        only={only}
        zoomed={zoomed}
        picking={picking}
        searchOpen={searchOpen}
        drag={drag.handle}
        onRestart={() => void actions.restart()}
        onCompact={agent && data.profilesById.get(agent.profileId)?.home ? () => void actions.compact() : undefined}
        onChangeEngine={agent ? () => setChangingEngine(true) : undefined}
        onLimitPolicy={agent ? () => setSettingPolicy(true) : undefined}
        onStop={() => void actions.stop()}
        onSplit={(direction) => void actions.split(direction)}
        onClose={() => void actions.close()}
        onZoom={phone ? undefined : () => toggleZoom(leaf.id)}
        onSearch={() => setSearchOpen((open) => !open)}
        onPick={() => setPicking((p) => !p)}
        switcher={switcher}
      />
      {changingEngine && agent && <EngineDialog agent={agent} onClose={() => setChangingEngine(false)} />}
      {settingPolicy && agent && <LimitPolicyDialog agent={agent} onClose={() => setSettingPolicy(false)} />}
      {actions.error !== null && <ErrorNotice error={actions.error} onDismiss={actions.clearError} testId="cell-error" />}
      {agent && (session?.state === "usageLimited" || resume) && (
        <LimitNote agentId={agent.agentId} limit={session?.usageLimit} resume={resume} />
      )}
      {session?.status === "running" && session.agentId && <CellToolApprovals agentId={session.agentId} />}
      {session?.status === "exited" && session.exit?.hint && (
        <div className="exit-hint" data-testid="cell-exit-hint" role="status">
          {session.exit.hint}
        </div>
      )}
      <div className="cell-body" ref={body}>
        {chatAgent ? (
          <ChatView agent={chatAgent} onClose={() => setChatWith(null)} />
        ) : showTerminal && session ? (
          <>
            <TerminalView sessionId={session.sessionId} running={session.status === "running"} />
            {restartOffer && exited && (
              <div className="restart-offer" data-testid="cell-restart-offer" role="alert">
                {agentName === "shell" ? "The shell" : agentName} is not running.
                <button type="button" className="small primary" data-testid="restart-offer-button" onClick={() => void actions.restart()}>
                  Restart
                </button>
                <span className="hint">Enter restarts · Esc dismisses</span>
              </div>
            )}
            {searchOpen && <SearchBar sessionId={session.sessionId} onClose={() => setSearchOpen(false)} />}
          </>
        ) : (
          <AgentPicker layoutId={layoutId} leaf={leaf} busy={actions.busy !== null} onLaunch={actions.launch} onShell={actions.openShell} onChat={(agentId) => {
              setPicking(false);
              setChatWith(agentId);
            }} />
        )}
      </div>
      {drag.over && <DropOverlay zone={drag.over.zone} />}
    </div>
  );
}
