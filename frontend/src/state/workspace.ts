import { createContext, useContext } from "react";
import type { ProjectData } from "../hooks/useProjectData";
import type { LayoutsState } from "../hooks/useLayouts";
import type { RequestsState } from "../hooks/useRequests";
import type { SessionsState } from "../hooks/useSessions";

/** A request to move keyboard focus into a cell (`seq` makes repeated requests distinct). */
export interface FocusRequest {
  nodeId: string;
  seq: number;
}

/** What every cell and panel needs from the workspace. */
export interface Workspace {
  data: ProjectData;
  layouts: LayoutsState;
  sessions: SessionsState;
  /** Requests to agents (asks), for the requests panel and the cells answering one. */
  requests: RequestsState;
  /** The cell that has (or last had) keyboard focus. */
  focused: string | null;
  focusRequest: FocusRequest | null;
  /** A cell briefly highlighted after "Go to cell". */
  flashed: string | null;
  setFocused(nodeId: string): void;
  requestFocus(nodeId: string): void;
  /** True once for the cell named by the pending focus request. */
  claimFocus(nodeId: string): boolean;
  /** The zoomed cell of the shown layout, if any. */
  zoomed: string | null;
  toggleZoom(nodeId: string): void;
  /** Shows layout `layoutId` and focuses cell `nodeId` in it. */
  goToCell(layoutId: string, nodeId: string): void;
  /** Shows an API error as a toast (with its action, e.g. "Go to cell"). */
  reportError(error: unknown): void;
  /** Opens the side panel's "new agent" form. */
  openNewAgent(): void;
  /** The phone layout is shown: one cell at a time, panels as sheets, a key bar. */
  phone: boolean;
  /** On a phone: opens the list of the shown layout's cells. */
  showCells(): void;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace outside WorkspaceContext");
  return workspace;
}
