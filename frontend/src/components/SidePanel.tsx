import { useEffect, useState } from "react";
import { onEvent, request } from "../api";
import { useCommands } from "../state/commandBus";
import { useConfirm } from "../state/confirm";
import { SHARED_SECTIONS, type SharedSection } from "../state/knowledge";
import { useWorkspace } from "../state/workspace";
import type { Agent } from "../types";
import { AgentRow } from "./AgentRow";
import { CreateAgentForm } from "./CreateAgentForm";
import { ErrorNotice } from "./ErrorNotice";
import { Icon } from "./Icon";
import { PermissionsPanel } from "./PermissionsPanel";
import { PersonaEditor } from "./PersonaEditor";
import { ReviewPanel } from "./ReviewPanel";
import { SharedPanel, type NewRequest } from "./SharedPanel";

type SideView = "agents" | "branches" | "permissions" | "shared";

const SIDE_VIEWS: readonly SideView[] = ["agents", "branches", "permissions", "shared"];
const VIEW_LABEL: Record<SideView, string> = { agents: "Agents", branches: "Branches", permissions: "Permissions", shared: "Shared" };

/** The side panel: the agents (list, create, edit persona, delete), their branches, the
 * permissions, or what the project shares with every agent. */
export function SidePanel({ newAgentSeq, hidden, onClose }: { newAgentSeq: number; hidden: boolean; onClose?: () => void }) {
  const [view, setView] = useState<SideView>("agents");
  const [section, setSection] = useState<SharedSection>("skills");
  const [newRequest, setNewRequest] = useState<NewRequest | null>(null);
  // Once shown, the shared views stay mounted: an unsaved shared context still guards a reload.
  const [sharedShown, setSharedShown] = useState(false);
  if (view === "shared" && !sharedShown) setSharedShown(true);

  useEffect(() => {
    if (newAgentSeq > 0) setView("agents");
  }, [newAgentSeq]);

  // "agents", "branches", "branches:<agentId>", "permissions", "shared:<section>" and
  // "shared:<skills|memory>:new".
  useCommands("side-panel", (command) => {
    const [name, part, action] = command.split(":");
    if (name === "agents" || name === "permissions" || name === "branches") setView(name);
    const shared = SHARED_SECTIONS.find((s) => s === part);
    if (name === "shared" && shared) {
      setView("shared");
      setSection(shared);
      if (action === "new" && (shared === "skills" || shared === "memory")) setNewRequest((r) => ({ section: shared, seq: (r?.seq ?? 0) + 1 }));
    }
  });

  return (
    <aside className="side-panel" data-testid="side-panel" hidden={hidden}>
      <div className="side-tabs" role="tablist">
        {SIDE_VIEWS.map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            className={`side-tab${view === v ? " active" : ""}`}
            data-testid={`side-tab-${v}`}
            onClick={() => setView(v)}
          >
            {VIEW_LABEL[v]}
          </button>
        ))}
        {/* A sheet (on a phone) covers the top bar's toggle: it closes itself. */}
        {onClose && (
          <button type="button" className="icon side-close" data-testid="side-panel-close" aria-label="Close the side panel" title="Close the side panel" onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </div>
      {/* The agents stay mounted: an unsaved persona survives a look at the permissions. */}
      <AgentsPanel newAgentSeq={newAgentSeq} hidden={view !== "agents"} />
      {view === "permissions" && <PermissionsPanel />}
      {view === "branches" && <ReviewPanel />}
      {sharedShown && <SharedPanel section={section} onSection={setSection} newRequest={newRequest} hidden={view !== "shared"} />}
    </aside>
  );
}

/** The agents: list, create, edit persona, delete. */
function AgentsPanel({ newAgentSeq, hidden }: { newAgentSeq: number; hidden: boolean }) {
  const { data, sessions } = useWorkspace();
  const confirm = useConfirm();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [editorDirty, setEditorDirty] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (newAgentSeq > 0) setCreating(true);
  }, [newAgentSeq]);

  // An agent deleted elsewhere closes its editor.
  useEffect(() => {
    if (editing && data.agents.length > 0 && !data.agentsById.has(editing)) {
      setEditing(null);
      setEditorDirty(false);
    }
  }, [editing, data.agents, data.agentsById]);

  /** Leaves the persona being edited, asking first if it has unsaved changes. */
  const leaveEditor = async (): Promise<boolean> => {
    if (!editing || !editorDirty) return true;
    const name = data.agentsById.get(editing)?.name ?? "this agent";
    return confirm({
      title: `Discard your changes to ${name}'s persona?`,
      message: "They have not been saved.",
      confirmLabel: "Discard changes",
      danger: true,
    });
  };

  const edit = async (agentId: string | null) => {
    if (agentId === editing) return;
    if (!(await leaveEditor())) return;
    setEditorDirty(false);
    setEditing(agentId);
  };

  const remove = async (agent: Agent) => {
    setError(null);
    const live = sessions.runningByAgent.get(agent.agentId);
    const kept = `its persona file (.ideai/${agent.mdPath}) is kept.`;
    const ok = await confirm(
      live
        ? {
            title: `Stop and delete the agent ${agent.name}?`,
            message: `${agent.name} is running: it is stopped, then removed from the project; ${kept}`,
            confirmLabel: "Stop and delete",
            danger: true,
          }
        : { title: `Delete the agent ${agent.name}?`, message: `It is removed from the project; ${kept}`, confirmLabel: "Delete agent", danger: true },
    );
    if (!ok) return;
    try {
      if (live) await stopAndWait(live.sessionId);
      await request("deleteAgent", { agentId: agent.agentId });
      if (editing === agent.agentId) {
        setEditing(null);
        setEditorDirty(false);
      }
      data.refreshAgents();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div className="agents-panel" hidden={hidden}>
      <div className="panel-header">
        <span className="panel-title">Agents</span>
        <span className="panel-count">{data.agents.length}</span>
        <span className="spacer" />
        <button type="button" className="small primary" data-testid="agent-new" onClick={() => setCreating((c) => !c)}>
          {creating ? "Cancel" : "+ New agent"}
        </button>
      </div>
      {creating && (
        <CreateAgentForm
          onCreated={(agent) => {
            setCreating(false);
            data.refreshAgents();
            void edit(agent.agentId);
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="panel-error" />}
      <ul className={`agent-list${editing ? " compact" : ""}`} data-testid="agent-list">
        {data.agents.map((agent) => (
          <AgentRow
            key={agent.agentId}
            agent={agent}
            profile={data.profilesById.get(agent.profileId)}
            running={sessions.runningByAgent.get(agent.agentId)}
            selected={editing === agent.agentId}
            onEdit={() => void edit(agent.agentId)}
            onDelete={() => void remove(agent)}
          />
        ))}
        {data.agents.length === 0 && <li className="muted">No agents yet.</li>}
      </ul>
      {editing && data.agentsById.has(editing) && (
        <PersonaEditor
          key={editing}
          agent={data.agentsById.get(editing)!}
          onDirtyChange={setEditorDirty}
          onClose={() => void edit(null)}
        />
      )}
    </div>
  );
}

/** Stops a session and resolves once it has exited (or after 10 s, when delete will say why). */
async function stopAndWait(sessionId: string): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    const timer = setTimeout(done, 10_000);
    const unsubscribe = onEvent((event) => {
      if (event.type === "sessionExited" && event.sessionId === sessionId) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
  await request("stopSession", { sessionId });
  await exited;
}
