import { useState } from "react";
import { usePermissions } from "../hooks/usePermissions";
import type { PermissionFileView, PermissionRuleView, RuleKind } from "../types";
import { useWorkspace } from "../state/workspace";
import { ErrorNotice } from "./ErrorNotice";
import { runningAgents, SandboxRestartNote, type StartedBefore } from "./SandboxRestartNote";

const KINDS: RuleKind[] = ["allow", "ask", "deny"];

/** ALLOW / ASK / DENY, coloured by family. */
export function RuleKindBadge({ kind }: { kind: RuleKind }) {
  return (
    <span className={`perm-badge perm-${kind}`} data-testid="perm-badge" data-kind={kind}>
      {kind.toUpperCase()}
    </span>
  );
}

/**
 * The permissions files, one section each (the user's, then the project's): their rules under
 * ALLOW / ASK / DENY badges, only the families that have some; what was skipped and why; and a
 * form adding a rule to the project's file.
 */
export function PermissionsPanel() {
  const permissions = usePermissions();
  const { view } = permissions;
  const { sessions } = useWorkspace();
  // The agents running when the rules last changed: they keep their old sandbox.
  const [startedBefore, setStartedBefore] = useState<StartedBefore[]>([]);
  const afterSave = async (saved: Promise<boolean>) => {
    const running = runningAgents(sessions.all.values());
    const ok = await saved;
    if (ok) setStartedBefore(running);
    return ok;
  };
  return (
    <div className="permissions-panel" data-testid="permissions-panel">
      <div className="panel-header">
        <span className="panel-title">Permissions</span>
        <span className="spacer" />
        <button type="button" className="small" data-testid="perm-reload" title="Read the files again" onClick={permissions.refresh}>
          Reload
        </button>
      </div>
      {permissions.error !== null && (
        <ErrorNotice error={permissions.error} onDismiss={permissions.dismissError} testId="perm-error" />
      )}
      <SandboxRestartNote before={startedBefore} onDismiss={() => setStartedBefore([])} />
      {view && !view.hasRules && (
        <p className="muted" data-testid="perm-none">
          No rules: every tool call is asked.
        </p>
      )}
      <div className="perm-files">
        {view?.files.map((file) => (
          <FileSection
            key={file.path}
            file={file}
            busy={permissions.saving}
            onRemove={(rule) => void afterSave(permissions.remove(rule.kind, rule.rule))}
          />
        ))}
        {view && view.warnings.length > 0 && (
          <ul className="perm-warnings" data-testid="perm-warnings">
            {view.warnings.map((w, i) => (
              <li key={i} data-testid="perm-warning" title={w.path}>
                <span className="perm-warning-file">{fileName(w.path)}</span>
                {w.rule !== undefined && <code>{w.rule}</code>}
                <span>{w.message}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {view && <AddRuleForm busy={permissions.saving} onAdd={(kind, rule) => afterSave(permissions.add(kind, rule))} />}
    </div>
  );
}

function FileSection({ file, busy, onRemove }: { file: PermissionFileView; busy: boolean; onRemove(rule: PermissionRuleView): void }) {
  return (
    <section className="perm-file" data-testid="perm-file" data-scope={file.scope}>
      <div className="perm-file-header">
        <span className="perm-scope">{file.scope === "project" ? "Project" : "User"}</span>
        <code className="perm-path" title={file.path}>
          {shortPath(file.path)}
        </code>
      </div>
      {!file.exists && <p className="muted">No file.</p>}
      {file.exists && file.rules.length === 0 && <p className="muted">No rules.</p>}
      {KINDS.map((kind) => {
        const rules = file.rules.filter((r) => r.kind === kind);
        if (rules.length === 0) return null;
        return (
          <div className="perm-kind" key={kind} data-testid={`perm-kind-${kind}`}>
            <RuleKindBadge kind={kind} />
            <ul>
              {rules.map((rule, i) => (
                <li key={`${rule.rule}#${i}`} className={rule.problem ? "perm-invalid" : undefined} data-testid="perm-rule">
                  <code title={rule.problem ?? undefined}>{rule.rule}</code>
                  {file.editable && (
                    <button
                      type="button"
                      className="icon danger"
                      aria-label={`Remove ${rule.rule}`}
                      data-testid="perm-remove"
                      disabled={busy}
                      onClick={() => onRemove(rule)}
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}

function AddRuleForm({ busy, onAdd }: { busy: boolean; onAdd(kind: RuleKind, rule: string): Promise<boolean> }) {
  const [kind, setKind] = useState<RuleKind>("allow");
  const [rule, setRule] = useState("");
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (rule.trim() === "") return;
    if (await onAdd(kind, rule.trim())) setRule("");
  };
  return (
    <form className="perm-add" data-testid="perm-add" onSubmit={submit} aria-label="Add a rule to the project's file">
      <select data-testid="perm-add-kind" value={kind} onChange={(e) => setKind(e.target.value as RuleKind)}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      <input
        data-testid="perm-add-rule"
        value={rule}
        placeholder="e.g. Bash(git *)"
        title="A rule for the project's file: Tool or Tool(pattern), e.g. Bash(npm run test:*), Read(./.env), WebFetch(domain:*.example.org)"
        onChange={(e) => setRule(e.target.value)}
      />
      <button type="submit" className="small primary" data-testid="perm-add-submit" disabled={busy || rule.trim() === ""}>
        Add
      </button>
    </form>
  );
}

/** The last two parts of a path (`.ideai/permissions.json`); the whole path is its title. */
function fileName(path: string): string {
  const parts = path.split("/");
  return parts.slice(-2).join("/");
}

/** A path cut to its last three parts, with an ellipsis when it was longer. */
function shortPath(path: string): string {
  const parts = path.split("/");
  return parts.length > 4 ? `…/${parts.slice(-3).join("/")}` : path;
}
