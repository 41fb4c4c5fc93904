import type { SessionInfo } from "../types";
import { useAttention } from "../hooks/useAttention";
import { NotifyOptIn } from "./NotifyOptIn";
import { ResumePrompt } from "./ResumePrompt";
import { useCallback, useEffect, useRef, useState } from "react";
import { usePanels } from "../hooks/usePanels";
import { usePhoneLayout } from "../hooks/usePhoneLayout";
import { shownCell } from "../state/cells";
import { describeError, errorAction } from "../api";
import { lastFocusedCell, useCellFocus } from "../hooks/useCellFocus";
import { useConnection } from "../hooks/useConnection";
import { useLayouts } from "../hooks/useLayouts";
import { useProjectData } from "../hooks/useProjectData";
import { useRequests } from "../hooks/useRequests";
import { useSessions } from "../hooks/useSessions";
import { useWorkspaceKeys } from "../hooks/useWorkspaceKeys";
import { findLeaf, leavesOf } from "../state/layoutTree";
import { sendCommand, useCommands } from "../state/commandBus";
import { cellsInOrder } from "../state/palette";
import { retainTerminals } from "../terminal/registry";
import { useToaster } from "../state/toasts";
import { WorkspaceContext, type Workspace as WorkspaceApi } from "../state/workspace";
import { CellList } from "./CellList";
import { CommandPalette } from "./CommandPalette";
import { ErrorNotice } from "./ErrorNotice";
import { KeyBar } from "./KeyBar";
import { LayoutView } from "./LayoutView";
import { RequestsPanel } from "./RequestsPanel";
import { SessionsOverview } from "./SessionsOverview";
import { SidePanel } from "./SidePanel";
import { TabBar } from "./TabBar";
import { ToolApprovalPrompts } from "./ToolApprovals";
import { TopBar } from "./TopBar";

/** The whole window: top bar, side panel, layout tabs and the active layout's cells. */
export function Workspace() {
  const toaster = useToaster();
  const phone = usePhoneLayout();
  const panels = usePanels(phone);
  const connection = useConnection();
  const data = useProjectData(connection.epoch);
  // Toasts outlive renders; their "Go to cell" calls the latest goToCell.
  const goToCellRef = useRef<(layoutId: string, nodeId: string) => void>(() => undefined);

  const reportError = useCallback(
    (error: unknown) => {
      const action = errorAction(error);
      toaster.show({
        kind: "error",
        text: describeError(error),
        ...(action ? { action: { label: action.label, run: () => goToCellRef.current(action.layoutId, action.nodeId) } } : {}),
      });
    },
    [toaster],
  );

  const layouts = useLayouts(connection.epoch, reportError);
  const sessions = useSessions(connection.epoch);
  const requests = useRequests(connection.epoch);
  const focus = useCellFocus();
  const [zoomByLayout, setZoomByLayout] = useState<Record<string, string | undefined>>({});
  const [newAgentSeq, setNewAgentSeq] = useState(0);

  const active = layouts.layouts?.layouts.find((l) => l.id === layouts.layouts?.active) ?? null;
  const zoomedId = active ? zoomByLayout[active.id] : undefined;
  const zoomed = active && zoomedId && findLeaf(active.tree, zoomedId) ? zoomedId : null;
  // Each layout's cell shown last on a phone, shown again on coming back to that layout.
  const phoneCells = useRef(new Map<string, string>());
  const phoneCell = phone && active ? shownCell(active, focus.focused, phoneCells.current.get(active.id)) : null;
  useEffect(() => {
    if (active && phoneCell) phoneCells.current.set(active.id, phoneCell);
  }, [active, phoneCell]);
  const phoneSession = phoneCell ? sessions.byCell.get(phoneCell) : undefined;

  const toggleZoom = useCallback(
    (nodeId: string) => {
      if (!active) return;
      setZoomByLayout((prev) => ({ ...prev, [active.id]: prev[active.id] === nodeId ? undefined : nodeId }));
      focus.requestFocus(nodeId);
    },
    [active, focus],
  );

  const { closeSheets } = panels;
  const goToCell = useCallback(
    (layoutId: string, nodeId: string) => {
      closeSheets();
      if (layouts.layouts?.active !== layoutId) void layouts.setActive(layoutId);
      setZoomByLayout((prev) => (prev[layoutId] && prev[layoutId] !== nodeId ? { ...prev, [layoutId]: undefined } : prev));
      focus.requestFocus(nodeId);
      focus.flash(nodeId);
    },
    [layouts, focus, closeSheets],
  );
  goToCellRef.current = goToCell;

  // On a phone only the cell shown is in view: an agent in another cell of the layout notifies.
  const inView = useCallback(
    (session: SessionInfo) =>
      document.visibilityState === "visible" &&
      document.hasFocus() &&
      session.cell?.layoutId === layouts.layouts?.active &&
      (phoneCell === null || session.cell?.nodeId === phoneCell),
    [layouts.layouts?.active, phoneCell],
  );
  const notifications = useAttention(sessions.all, data.agents, layouts.layouts, inView, goToCell);

  // Terminals whose session or cell is gone (closed, restarted, layout deleted) are disposed.
  useEffect(() => {
    if (!layouts.layouts) return;
    const cells = new Set(layouts.layouts.layouts.flatMap((l) => leavesOf(l.tree).map((leaf) => leaf.id)));
    const live = [...sessions.byCell.values()].filter((s) => s.cell && cells.has(s.cell.nodeId)).map((s) => s.sessionId);
    retainTerminals(new Set(live));
  }, [layouts.layouts, sessions.byCell]);

  const [paletteOpen, setPaletteOpen] = useState(false);
  const cellsOfActive = useCallback(() => cellsInOrder(layouts.layouts, layouts.layouts?.active), [layouts.layouts]);
  const openPalette = useCallback(() => setPaletteOpen(true), []);
  useWorkspaceKeys(focus.focused, focus.requestFocus, toggleZoom, cellsOfActive, openPalette);

  // After a reload the focus goes back to the cell that last had it, if the shown layout has it.
  const focusRestored = useRef(false);
  const { requestFocus } = focus;
  useEffect(() => {
    if (focusRestored.current || !active || !sessions.loaded) return;
    focusRestored.current = true;
    const last = lastFocusedCell();
    if (last && findLeaf(active.tree, last)) requestFocus(last);
  }, [active, sessions.loaded, requestFocus]);

  // "Own branch…" on a cell shows the side panel's Branches view for its agent.
  useCommands("side-panel", (command) => {
    if (command.startsWith("branches:")) panels.open("side");
  });

  /** Shows the side panel's view (`agents`, `shared:memory`, `shared:skills:new`…). */
  const showSideView = (view: string) => {
    panels.open("side");
    sendCommand("side-panel", view);
  };

  const { open: openPanel } = panels;
  const openNewAgent = useCallback(() => {
    openPanel("side");
    setNewAgentSeq((n) => n + 1);
  }, [openPanel]);

  const workspace: WorkspaceApi = {
    data,
    layouts,
    sessions,
    requests,
    focused: focus.focused,
    focusRequest: focus.focusRequest,
    flashed: focus.flashed,
    setFocused: focus.setFocused,
    requestFocus: focus.requestFocus,
    claimFocus: focus.claimFocus,
    zoomed,
    toggleZoom,
    goToCell,
    reportError,
    openNewAgent,
    phone,
    showCells: () => panels.open("cells"),
  };

  return (
    <WorkspaceContext.Provider value={workspace}>
      <div className="app" data-testid="app" data-phone={phone}>
        <TopBar
          projectName={data.project?.name ?? null}
          connection={connection.state}
          sidePanelOpen={panels.isOpen("side")}
          onToggleSidePanel={() => panels.toggle("side")}
          requestsOpen={panels.isOpen("requests")}
          activeRequests={requests.active}
          onToggleRequests={() => panels.toggle("requests")}
          onOpenPalette={openPalette}
          overviewOpen={panels.isOpen("overview")}
          onToggleOverview={() => panels.toggle("overview")}
        />
        <CommandPalette
          open={paletteOpen}
          onClose={() => setPaletteOpen(false)}
          panels={{
            overviewOpen: panels.isOpen("overview"),
            requestsOpen: panels.isOpen("requests"),
            sidePanelOpen: panels.isOpen("side"),
            toggleOverview: () => panels.toggle("overview"),
            toggleRequests: () => panels.toggle("requests"),
            toggleSidePanel: () => panels.toggle("side"),
            showPermissions: () => showSideView("permissions"),
            showAgents: () => showSideView("agents"),
            showBranches: () => showSideView("branches"),
            showShared: (section) => showSideView(`shared:${section}`),
            newShared: (section) => showSideView(`shared:${section}:new`),
            showShortcuts: () => sendCommand("shortcuts", "open"),
          }}
        />
        {data.loadError && <ErrorNotice error={data.loadError} testId="load-error" />}
        <ToolApprovalPrompts />
        <div className="main">
          {/* Hidden, not unmounted: an unsaved persona edit stays (and still guards a reload). */}
          <SidePanel newAgentSeq={newAgentSeq} hidden={!panels.isOpen("side")} onClose={phone ? () => panels.close("side") : undefined} />
          <section className="workspace">
            {layouts.layouts && <TabBar layouts={layouts.layouts} />}
            <NotifyOptIn optIn={notifications} />
            <ResumePrompt epoch={connection.epoch} />
            {layouts.loadError && <ErrorNotice error={layouts.loadError} testId="layouts-error" />}
            {active ? (
              <LayoutView key={active.id} layout={active} zoomed={zoomed} phoneCell={phoneCell} />
            ) : (
              <div className="placeholder">{connection.state === "open" ? "Loading…" : "Connecting to IdeA…"}</div>
            )}
            {phoneSession?.status === "running" && <KeyBar sessionId={phoneSession.sessionId} />}
          </section>
          {panels.isOpen("requests") && <RequestsPanel onClose={() => panels.close("requests")} />}
          {panels.isOpen("overview") && <SessionsOverview onClose={() => panels.close("overview")} />}
          {active && panels.isOpen("cells") && <CellList layout={active} shown={phoneCell} onClose={() => panels.close("cells")} />}
        </div>
      </div>
    </WorkspaceContext.Provider>
  );
}
