import type { SandboxSummary } from "../generated/SandboxSummary";
import { Icon } from "./Icon";

/** The plan in words, one path a line: what a hover (or a screen reader) tells. */
export function describeSandbox(sandbox: SandboxSummary | null): string {
  if (!sandbox) return "Not sandboxed: no permission rules apply to this project, so the agent runs with your full rights.";
  const list = (paths: string[]) => (paths.length ? paths.map((p) => `  ${p}`).join("\n") : "  (none)");
  return [
    "Sandboxed by the kernel (Landlock).",
    `Writes only in:\n${list(sandbox.writeRoots)}`,
    `Cannot read or write:\n${list(sandbox.readDenied)}`,
    `Cannot write:\n${list(sandbox.writeDenied)}`,
  ].join("\n");
}

/** A shield when the agent runs sandboxed (its plan on hover), "not sandboxed" otherwise. */
export function SandboxBadge({ sandbox }: { sandbox: SandboxSummary | null }) {
  const text = describeSandbox(sandbox);
  if (!sandbox) {
    return (
      <span className="badge badge-unsandboxed" data-testid="cell-sandbox" data-sandboxed="false" title={text} aria-label={text} tabIndex={0}>
        not sandboxed
      </span>
    );
  }
  return (
    <span className="cell-shield" data-testid="cell-sandbox" data-sandboxed="true" role="img" title={text} aria-label={text} tabIndex={0}>
      <Icon name="shield" />
    </span>
  );
}
