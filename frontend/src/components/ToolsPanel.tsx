import { useEffect, useState } from "react";
import type { ProjectTool } from "../generated/ProjectTool";
import type { ToolRunRecord } from "../generated/ToolRunRecord";
import { clockTime } from "../state/clock";
import { refreshKnowledge, useKnowledge } from "../state/knowledge";
import { ErrorNotice } from "./ErrorNotice";
import { ProblemList } from "./ProblemList";
import { ToolRunForm } from "./ToolRunForm";

/**
 * The project tools (`.ideai/tools/<name>/TOOL.json`, then the user's): each with its
 * description, parameters and run line, and a form that runs it; the broken ones and why; the
 * last runs, whoever called them.
 */
export function ToolsPanel({ hidden }: { hidden: boolean }) {
  const { value: view, error } = useKnowledge("tools");
  // Read again each time the view is shown: a TOOL.json edited by hand may have changed.
  useEffect(() => {
    if (!hidden) refreshKnowledge("tools");
  }, [hidden]);
  const [running, setRunning] = useState<string | null>(null);
  const tools = view?.tools ?? [];
  return (
    <section className="shared-view tools-panel" data-testid="tools-panel" hidden={hidden}>
      <div className="panel-header">
        <span className="panel-title">Tools</span>
        <span className="panel-count">{tools.length}</span>
        <span className="spacer" />
        <button type="button" className="small" data-testid="tools-refresh" title="Read the folders again" onClick={() => refreshKnowledge("tools")}>
          Reload
        </button>
      </div>
      <p className="shared-note">
        Agents call these over MCP. Unless a permission rule allows a tool, each call waits for your answer; it runs in the agent's sandbox.
      </p>
      {error !== null && <ErrorNotice error={error} testId="tools-list-error" />}
      <div className="shared-scroll">
        <ul className="shared-list" data-testid="tool-list">
          {tools.map((tool) => (
            <ToolRow key={`${tool.source}/${tool.name}`} tool={tool} open={running === tool.name} onToggle={() => setRunning((r) => (r === tool.name ? null : tool.name))} />
          ))}
          {view && tools.length === 0 && <li className="muted">No tools: add one as .ideai/tools/&lt;name&gt;/TOOL.json.</li>}
        </ul>
        {view && <ProblemList problems={view.problems} testId="tool-problems" what="skipped" />}
        {view && view.recent.length > 0 && <RecentRuns runs={view.recent} />}
      </div>
    </section>
  );
}

function ToolRow({ tool, open, onToggle }: { tool: ProjectTool; open: boolean; onToggle(): void }) {
  return (
    <li className="tool-row" data-testid="tool-row" data-tool={tool.name}>
      <div className="skill-head">
        <strong className="tool-name">{tool.name}</strong>
        {tool.source === "user" && <span className="badge">yours</span>}
        <span className="spacer" />
        <button type="button" className={`small${open ? "" : " primary"}`} data-testid="tool-run-toggle" aria-expanded={open} onClick={onToggle}>
          {open ? "Close" : "Run…"}
        </button>
      </div>
      <p className="skill-desc">{tool.description}</p>
      {tool.params.length > 0 && (
        <ul className="tool-params" aria-label="Parameters">
          {tool.params.map((param) => (
            <li key={param.name} data-testid="tool-param" title={param.description}>
              <code>{param.name}</code> <span className="muted">{param.type}</span>{" "}
              {param.default !== undefined ? <span className="muted">= {param.default}</span> : <span className="tool-required">required</span>}
              {param.description && <span className="tool-param-desc"> — {param.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <code className="tool-line" title={`Runs in ${tool.folder}`}>
        {tool.run.join(" ")}
      </code>
      {open && <ToolRunForm tool={tool} />}
    </li>
  );
}

function RecentRuns({ runs }: { runs: ToolRunRecord[] }) {
  return (
    <section className="tool-recent" data-testid="tool-recent">
      <h3>Last runs</h3>
      <ul className="shared-list">
        {runs.map((run, i) => (
          <li key={`${String(run.startedAt)}-${run.tool}-${i}`} className="tool-run-record" data-testid="tool-run-record" data-outcome={run.outcome}>
            <code>{run.tool}</code> <span>by {run.caller}</span>{" "}
            <span className={`tool-outcome outcome-${run.outcome}`}>{run.outcome}</span>
            <span className="muted">
              {run.exitCode !== undefined ? ` · exit ${run.exitCode}` : ""}
              {run.timedOut ? " · timed out" : ""} · {Number(run.durationMs)} ms · {clockTime(Number(run.startedAt))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
