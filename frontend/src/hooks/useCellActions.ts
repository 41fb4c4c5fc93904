import { useCallback, useState, type RefObject } from "react";
import { request } from "../api";
import { useConfirm } from "../state/confirm";
import { useWorkspace } from "../state/workspace";
import { fitSize } from "../terminal/measure";
import { existingTerminal } from "../terminal/registry";
import type { Direction, LeafNode, SessionInfo } from "../types";

export type CellBusy = "launching" | "restarting" | "stopping" | null;

export interface CellActions {
  busy: CellBusy;
  /** The last failed action's error, shown in the cell. */
  error: unknown;
  clearError(): void;
  launch(agentId: string): Promise<void>;
  openShell(): Promise<void>;
  restart(): Promise<void>;
  compact(): Promise<void>;
  stop(): Promise<void>;
  split(direction: Direction): Promise<void>;
  close(): Promise<void>;
}

/** What a cell can do, each action reporting its failure in the cell. */
export function useCellActions(
  layoutId: string,
  leaf: LeafNode,
  session: SessionInfo | undefined,
  agentName: string,
  body: RefObject<HTMLElement | null>,
  onLaunched: () => void,
): CellActions {
  const { sessions, layouts, requestFocus } = useWorkspace();
  const confirm = useConfirm();
  const [busy, setBusy] = useState<CellBusy>(null);
  const [error, setError] = useState<unknown>(null);
  const nodeId = leaf.id;
  const running = session?.status === "running";

  /** The size the terminal has (or would have) in this cell. */
  const size = useCallback(() => {
    const handle = session ? existingTerminal(session.sessionId) : undefined;
    if (handle && body.current?.querySelector(".terminal-host")) return handle.cellSize();
    return fitSize(body.current);
  }, [session, body]);

  const run = useCallback(
    async (kind: CellBusy, action: () => Promise<void>) => {
      setBusy(kind);
      setError(null);
      try {
        await action();
      } catch (e) {
        setError(e);
      } finally {
        setBusy(null);
      }
    },
    [],
  );

  const started = useCallback(
    (info: SessionInfo) => {
      sessions.upsert(info);
      onLaunched();
      requestFocus(nodeId);
    },
    [sessions, onLaunched, requestFocus, nodeId],
  );

  const launch = (agentId: string) =>
    run("launching", async () => started(await request("launchAgent", { layoutId, nodeId, agentId, ...size() })));

  const openShell = () =>
    run("launching", async () => started(await request("openShell", { layoutId, nodeId, ...size() })));

  const restart = async () => {
    if (!session) return;
    if (
      running &&
      !(await confirm({
        title: `Restart ${agentName}?`,
        message: "The running process is stopped and started again in this cell.",
        confirmLabel: "Restart",
        danger: true,
      }))
    )
      return;
    await run("restarting", async () =>
      started(await request("restartSession", { sessionId: session.sessionId, ...size() })),
    );
  };

  /** Types the CLI's own compaction command (the backend refuses unless the agent is idle). */
  const compact = async () => {
    if (!session || !running) return;
    try {
      await request("compactAgent", { sessionId: session.sessionId });
    } catch (e) {
      setError(e);
    }
  };

  const stop = async () => {
    if (!session || !running) return;
    if (
      !(await confirm({
        title: `Stop ${agentName}?`,
        message: "The process is killed; its output stays readable in the cell.",
        confirmLabel: "Stop",
        danger: true,
      }))
    )
      return;
    await run("stopping", () => request("stopSession", { sessionId: session.sessionId }).then(() => undefined));
  };

  const split = (direction: Direction) =>
    run(null, async () => {
      const created = await request("splitCell", { layoutId, nodeId, direction });
      layouts.refresh();
      requestFocus(created);
    });

  const close = async () => {
    if (
      running &&
      !(await confirm({
        title: `Close this cell?`,
        message: `${agentName} is running in it and will be stopped.`,
        confirmLabel: "Close cell",
        danger: true,
      }))
    )
      return;
    await run(null, async () => {
      await request("closeCell", { layoutId, nodeId });
      layouts.refresh();
      sessions.refresh();
    });
  };

  return { busy, error, clearError: () => setError(null), launch, openShell, restart, compact, stop, split, close };
}
