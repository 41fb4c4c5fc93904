import { useState } from "react";
import { request } from "../api";
import type { ProjectTool } from "../generated/ProjectTool";
import type { ToolCallResult } from "../generated/ToolCallResult";
import type { ToolParam } from "../generated/ToolParam";
import { ErrorNotice } from "./ErrorNotice";

/** Runs a tool as the user (no rule asks, no sandbox): an input per parameter, then what it
 * printed. */
export function ToolRunForm({ tool }: { tool: ProjectTool }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ToolCallResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const missing = tool.params.some((p) => p.default === undefined && (values[p.name] ?? "") === "");

  const run = async (event: React.FormEvent) => {
    event.preventDefault();
    setRunning(true);
    setError(null);
    setResult(null);
    try {
      setResult(await request("callTool", { tool: tool.name, arguments: argumentsOf(tool.params, values) }));
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
    }
  };

  return (
    <form className="shared-form tool-run" data-testid="tool-run" onSubmit={run} aria-label={`Run ${tool.name}`}>
      {tool.params.map((param) => (
        <label key={param.name}>
          <span title={param.description}>{param.name}</span>
          <input
            data-testid="tool-run-input"
            data-param={param.name}
            type={param.type === "number" ? "number" : "text"}
            step="any"
            value={values[param.name] ?? ""}
            placeholder={param.default !== undefined ? param.default : "required"}
            onChange={(e) => setValues((v) => ({ ...v, [param.name]: e.target.value }))}
          />
        </label>
      ))}
      <div className="form-buttons">
        <span className="hint">Runs as you, not sandboxed.</span>
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="tool-run-submit" disabled={running || missing}>
          {running ? "Running…" : "Run"}
        </button>
      </div>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="tool-run-error" />}
      {result && <ToolResult result={result} />}
    </form>
  );
}

function ToolResult({ result }: { result: ToolCallResult }) {
  const status = result.timedOut ? "timed out" : result.ok ? "exited 0" : `exited ${result.exitCode ?? "without a code"}`;
  return (
    <div className={`tool-result${result.ok ? "" : " failed"}`} data-testid="tool-result" data-ok={result.ok}>
      <span className="tool-result-status">
        {status}
        {result.truncated ? " · output cut" : ""}
      </span>
      {result.stdout !== "" && (
        <pre data-testid="tool-stdout" aria-label="What it printed">
          {result.stdout}
        </pre>
      )}
      {result.stderr !== "" && (
        <pre className="tool-stderr" data-testid="tool-stderr" aria-label="Its errors">
          {result.stderr}
        </pre>
      )}
      {result.stdout === "" && result.stderr === "" && <span className="muted">No output.</span>}
    </div>
  );
}

/** The call's arguments: each value typed in (a number as a number); an empty one left out,
 * so its default applies. */
function argumentsOf(params: ToolParam[], values: Record<string, string>): Record<string, string | number> {
  const args: Record<string, string | number> = {};
  for (const param of params) {
    const value = values[param.name] ?? "";
    if (value === "") continue;
    args[param.name] = param.type === "number" ? Number(value) : value;
  }
  return args;
}
