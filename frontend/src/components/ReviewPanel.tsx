import { useCallback, useEffect, useState } from "react";
import { request } from "../api";
import { useCommands } from "../state/commandBus";
import { useConfirm } from "../state/confirm";
import { refreshWorktrees as refresh, useWorktrees } from "../state/worktrees";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import type { WorktreeStatus } from "../generated/WorktreeStatus";
import { ErrorNotice } from "./ErrorNotice";
import { FileReview } from "./FileReview";
import { leavesOf } from "../state/layoutTree";
import { WorkerPoolContextProvider } from "@pierre/diffs/react";
import DiffsWorkerUrl from "@pierre/diffs/worker/worker.js?worker&url";

/** Diffs are highlighted off the page's main thread, in one worker (the terminals keep it). */
const DIFF_WORKERS = {
  poolOptions: { workerFactory: () => new Worker(DiffsWorkerUrl, { type: "module" }), poolSize: 1 },
  highlighterOptions: {},
};

/** Agents on their own branches (docs/worktrees.md): give an agent a worktree, read what it
 * changed, comment lines and send the comments to it, squash its work into the base, archive
 * and restore. */
export function ReviewPanel() {
  const { data, layouts } = useWorkspace();
  const [setupScript, setSetupScript] = useState<string | null>(null);
  useEffect(() => {
    request("getProject")
      .then((project) => setSetupScript(project.worktrees?.setupScript?.trim() || null))
      .catch(() => setSetupScript(null));
  }, []);

  /** The set-up script for `agentId`'s worktree, in a new cell split off the active layout's
   * first one, where the user sees it. */
  const runSetup = async (agentId: string) => {
    const all = layouts.layouts;
    const active = all?.layouts.find((l) => l.id === all.active);
    const first = active ? leavesOf(active.tree)[0] : undefined;
    if (!all || !first) return;
    const nodeId = await request("splitCell", { layoutId: all.active, nodeId: first.id, direction: "vertical" });
    await request("runWorktreeSetup", { agentId, layoutId: all.active, nodeId, rows: 12, cols: 100 });
  };
  const confirm = useConfirm();
  const { worktrees, error: listError } = useWorktrees();
  const [selected, setSelected] = useState<string | null>(null);
  const [file, setFile] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [stopped, setStopped] = useState<{ agentId: string; files: string[]; ask: string } | null>(null);

  const [newFor, setNewFor] = useState<string | null>(null);
  useEffect(() => refresh(), []);
  // "Own branch…" on a cell: that agent's worktree, or the form to give it one.
  useCommands("side-panel", (command) => {
    const agentId = /^branches:(.+)$/.exec(command)?.[1];
    if (!agentId) return;
    setSelected(agentId);
    setNewFor(agentId);
    setFile(null);
  });

  const act = useCallback(
    async (run: () => Promise<unknown>) => {
      setBusy(true);
      setError(null);
      try {
        await run();
      } catch (e) {
        setError(e);
      } finally {
        setBusy(false);
        refresh();
      }
    },
    [],
  );

  const squash = (status: WorktreeStatus) =>
    act(async () => {
      const plan = await request("planSquash", { agentId: status.agentId });
      const where = plan.checkout
        ? `${plan.baseBranch} is checked out in ${plan.checkout}: git fast-forwards it (it must have no uncommitted changes).`
        : `${plan.baseBranch} is not checked out anywhere: only the branch moves.`;
      if (plan.conflicts.length > 0) {
        throw { code: "MERGE_CONFLICT", files: plan.conflicts, message: `merging would conflict in ${plan.conflicts.join(", ")}` };
      }
      const ok = await confirm({
        title: `Squash ${status.agentName}'s work into ${plan.baseBranch}?`,
        message: `One commit with ${plan.files.length} file(s): ${plan.files.map((f) => f.path).join(", ")}. ${where}`,
        confirmLabel: "Squash",
      });
      if (ok) await request("squashWorktree", { agentId: status.agentId });
    });

  const rebase = (status: WorktreeStatus) =>
    act(async () => {
      const outcome = await request("rebaseWorktree", { agentId: status.agentId });
      setStopped(outcome.conflicts.length > 0 ? { agentId: status.agentId, files: outcome.conflicts, ask: outcome.resolveRequest ?? "" } : null);
    });

  const archive = (status: WorktreeStatus) =>
    act(async () => {
      const ok = await confirm({
        title: `Archive ${status.agentName}'s worktree?`,
        message: `Its uncommitted work is saved under refs/idea/wip and its folder removed; the branch ${status.branch} stays. Restore brings it all back.`,
        confirmLabel: "Archive",
      });
      if (ok) await request("archiveWorktree", { agentId: status.agentId });
    });

  const [told, setTold] = useState<string | null>(null);

  const pullRequest = (status: WorktreeStatus) =>
    act(async () => {
      const pr = await request("createPullRequest", { agentId: status.agentId });
      setTold(pr.url ? `Opened ${pr.url}` : `IdeA did not open it: ${pr.reason ?? "no reason given"}. In ${status.path}, run:\n${pr.commands.join("\n")}`);
    });

  const remove = (status: WorktreeStatus) =>
    act(async () => {
      const ok = await confirm({
        title: `Remove ${status.agentName}'s worktree?`,
        message: `Its uncommitted work is saved first. The branch ${status.branch} is deleted only if its work is on ${status.baseRef}; otherwise it is kept.`,
        confirmLabel: "Remove",
        danger: true,
      });
      if (!ok) return;
      const removed = await request("removeWorktree", { agentId: status.agentId });
      setTold(removed.summary);
      if (removed.recordRemoved) setSelected(null);
    });

  const current = worktrees.find((w) => w.agentId === selected) ?? null;
  const withoutBranch = data.agents.filter((a) => !worktrees.some((w) => w.agentId === a.agentId));

  return (
    <div className="review-panel" data-testid="review-panel">
      <div className="review-head">
        <h2>Branches</h2>
        <button type="button" onClick={refresh} data-testid="review-refresh">
          Refresh
        </button>
      </div>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
      {error === null && listError !== null && <ErrorNotice error={listError} />}
      {worktrees.length === 0 && <p className="hint">No agent works on its own branch yet: every one edits the project's own tree.</p>}
      <ul className="review-list">
        {worktrees.map((w) => (
          <li key={w.agentId} className={`review-item${w.agentId === selected ? " selected" : ""}`} data-testid="review-item" data-agent={w.agentName}>
            <button type="button" className="review-select" onClick={() => { setSelected(w.agentId); setFile(null); }}>
              <strong>{w.agentName}</strong> <code>{w.branch}</code> from <code>{w.baseRef}</code>
              {w.archived ? " · archived" : ` · ${w.changed.length} file(s)`}
              {w.behindBase ? ` · ${w.behindBase} behind base` : ""}
            </button>
            {w.overlaps.length > 0 && (
              <p className="review-overlap" data-testid="review-overlap">
                Also changed by {w.overlaps.map((o) => `${o.with.join(", ")} (${o.path})`).join("; ")}
              </p>
            )}
            {w.problem && <p className="review-problem">{w.problem}</p>}
          </li>
        ))}
      </ul>
      {current && (
        <section className="review-detail" data-testid="review-detail">
          <div className="review-actions">
            {current.archived ? (
              <button type="button" disabled={busy} onClick={() => act(() => request("restoreWorktree", { agentId: current.agentId }))}>
                Restore
              </button>
            ) : (
              <>
                <button type="button" disabled={busy || current.changed.length === 0} onClick={() => squash(current)} data-testid="review-squash">
                  Squash into {current.baseRef}
                </button>
                <button type="button" disabled={busy} onClick={() => rebase(current)} data-testid="review-rebase">
                  Rebase onto {current.baseRef}
                </button>
                <button type="button" disabled={busy} onClick={() => archive(current)}>
                  Archive
                </button>
                <button type="button" disabled={busy} onClick={() => pullRequest(current)} data-testid="review-pr">
                  Pull request
                </button>
                {setupScript && (
                  <button type="button" disabled={busy} title={setupScript} onClick={() => act(() => runSetup(current.agentId))} data-testid="review-setup">
                    Run the set-up script
                  </button>
                )}
              </>
            )}
            <button type="button" disabled={busy} onClick={() => remove(current)} data-testid="review-remove">
              Remove
            </button>
          </div>
          {told && (
            <pre className="review-told" data-testid="review-told">
              {told}
            </pre>
          )}
          {stopped?.agentId === current.agentId && (
            <div className="review-conflicts" data-testid="review-conflicts">
              <p>The rebase stopped on conflicts in {stopped.files.join(", ")}; it is still in progress in {current.path}.</p>
              <button type="button" disabled={busy} onClick={() => act(async () => { await request("abortRebase", { agentId: current.agentId }); setStopped(null); })}>
                Abort the rebase
              </button>
              <button type="button" onClick={() => setStopped(null)}>
                I'll fix it
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  act(async () => {
                    setStopped(null);
                    await request("askAgent", { target: current.agentId, message: stopped.ask });
                  })
                }
              >
                Ask {current.agentName} to resolve
              </button>
            </div>
          )}
          <ul className="review-files">
            {current.changed.map((f) => (
              <li key={f.path}>
                <button type="button" className={f.path === file ? "active" : ""} onClick={() => setFile(f.path)} data-testid="review-file">
                  <span className={`review-status s-${f.status}`}>{f.status}</span> {f.path}{" "}
                  <span className="review-lines">{f.added === undefined ? "binary" : `+${f.added} −${f.removed}`}</span>
                </button>
              </li>
            ))}
          </ul>
          {file && (
            <WorkerPoolContextProvider {...DIFF_WORKERS}>
              <FileReview key={`${current.agentId}:${file}`} agent={data.agentsById.get(current.agentId)} path={file} binary={current.changed.find((f) => f.path === file)?.added === undefined} />
            </WorkerPoolContextProvider>
          )}
        </section>
      )}
      {withoutBranch.length > 0 && (
        <NewBranch
          key={newFor ?? ""}
          initial={newFor}
          agents={withoutBranch}
          busy={busy}
          onCreate={(agentId, base) =>
            act(async () => {
              await request("createWorktree", { agentId, base: base || undefined });
              setSelected(agentId);
              // The project's set-up script runs at once, in a cell of its own.
              if (setupScript) await runSetup(agentId);
            })
          }
        />
      )}
    </div>
  );
}

/** Gives an agent its own branch, from the current branch or a ref the user names. */
function NewBranch({ agents, initial, busy, onCreate }: { agents: Agent[]; initial: string | null; busy: boolean; onCreate: (agentId: string, base: string) => void }) {
  const [agentId, setAgentId] = useState(initial ?? agents[0]?.agentId ?? "");
  const [base, setBase] = useState("");
  const chosen = agents.some((a) => a.agentId === agentId) ? agentId : (agents[0]?.agentId ?? "");
  return (
    <form
      className="review-new"
      data-testid="review-new"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) onCreate(chosen, base.trim());
      }}
    >
      <h3>Work on its own branch</h3>
      <label>
        Agent
        <select value={chosen} onChange={(e) => setAgentId(e.target.value)}>
          {agents.map((a) => (
            <option key={a.agentId} value={a.agentId}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Base
        <input value={base} onChange={(e) => setBase(e.target.value)} placeholder="the current branch" />
      </label>
      <button type="submit" disabled={busy || !chosen}>
        Create its worktree
      </button>
      <p className="hint">Stop the agent first: its next launch works in the new worktree, outside the project's folder.</p>
    </form>
  );
}
