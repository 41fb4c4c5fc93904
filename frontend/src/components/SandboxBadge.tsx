import type { SandboxSummary } from "../generated/SandboxSummary";
import { Icon } from "./Icon";

/** The plan in words, one path a line: what a hover (or a screen reader) tells. */
export function describeSandbox(sandbox: SandboxSummary | null): string {
  if (!sandbox) return "Not sandboxed: no permission rules apply to this project, so the agent runs with your full rights.";
  const list = (paths: string[]) => (paths.length ? paths.map((p) => `  ${p}`).join("\n") : "  (none)");
  return [
    sandbox.limited
      ? "Sandboxed by the kernel (Landlock) — limited sandbox: new top-level entries cannot be created."
      : "Sandboxed by the kernel (namespaces and Landlock).",
    `Writes only in:\n${list(sandbox.writeRoots)}`,
    `Cannot read or write:\n${list(sandbox.readDenied)}`,
    `Cannot write:\n${list(sandbox.writeDenied)}`,
    `Credentials kept out (a permission rule can allow one):\n${list(sandbox.credentials)}`,
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
    <span className="cell-shield" data-testid="cell-sandbox" data-sandboxed="true" data-limited={String(sandbox.limited)} role="img" title={text} aria-label={text} tabIndex={0}>
      <Icon name="shield" />
    </span>
  );
}
