import { useCallback, useEffect, useState } from "react";

/** The workspace's panels. `cells` (the list of the shown layout's cells) is the phone's only. */
export type Panel = "side" | "requests" | "overview" | "cells";

const SIDE_PANEL_KEY = "idea.sidePanel";
const REQUESTS_PANEL_KEY = "idea.requestsPanel";

export interface Panels {
  isOpen(panel: Panel): boolean;
  open(panel: Panel): void;
  close(panel: Panel): void;
  toggle(panel: Panel): void;
  /** Closes whatever covers the cells on a phone (a jump to a cell must show the cell). */
  closeSheets(): void;
}

/**
 * Which panels are shown. On a desktop they sit beside the cells, several at once, and the side
 * panel and requests panel are remembered across reloads. On a phone (`phone`) each is a
 * full-screen sheet: one at a time, none at load, and the desktop's choice is left as it was
 * so widening the window again brings it back.
 */
export function usePanels(phone: boolean): Panels {
  const [sidePanelOpen, setSidePanelOpen] = useState(() => localStorage.getItem(SIDE_PANEL_KEY) !== "closed");
  useEffect(() => localStorage.setItem(SIDE_PANEL_KEY, sidePanelOpen ? "open" : "closed"), [sidePanelOpen]);
  const [requestsOpen, setRequestsOpen] = useState(() => localStorage.getItem(REQUESTS_PANEL_KEY) === "open");
  useEffect(() => localStorage.setItem(REQUESTS_PANEL_KEY, requestsOpen ? "open" : "closed"), [requestsOpen]);
  const [overviewOpen, setOverviewOpen] = useState(false);
  const [sheet, setSheet] = useState<Panel | null>(null);

  const isOpen = useCallback(
    (panel: Panel) => {
      if (phone) return sheet === panel;
      return panel === "side" ? sidePanelOpen : panel === "requests" ? requestsOpen : panel === "overview" ? overviewOpen : false;
    },
    [phone, sheet, sidePanelOpen, requestsOpen, overviewOpen],
  );

  const set = useCallback(
    (panel: Panel, open: boolean | ((was: boolean) => boolean)) => {
      if (phone) {
        setSheet((current) => {
          const next = typeof open === "function" ? open(current === panel) : open;
          return next ? panel : current === panel ? null : current;
        });
        return;
      }
      if (panel === "side") setSidePanelOpen(open);
      else if (panel === "requests") setRequestsOpen(open);
      else if (panel === "overview") setOverviewOpen(open);
    },
    [phone],
  );

  return {
    isOpen,
    open: useCallback((panel: Panel) => set(panel, true), [set]),
    close: useCallback((panel: Panel) => set(panel, false), [set]),
    toggle: useCallback((panel: Panel) => set(panel, (was) => !was), [set]),
    closeSheets: useCallback(() => setSheet(null), []),
  };
}
