import { useCallback, useEffect, useState } from "react";
import { describeError, request } from "./api";
import type { Agent, Profile, Project, Template } from "./types";

/** The project's agents, and a form to create one. The tiled terminals come next. */
export function App() {
  const [project, setProject] = useState<Project | null>(null);
  const [agents, setAgents] = useState<Agent[]>([]);
  const [profiles, setProfiles] = useState<Profile[]>([]);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setProject(await request<Project>("getProject"));
      setAgents(await request<Agent[]>("listAgents"));
      setProfiles((await request<{ profiles: Profile[] }>("listProfiles")).profiles);
      setTemplates(await request<Template[]>("listTemplates"));
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: 16 }}>
      <h1>IdeA {project ? `— ${project.name}` : ""}</h1>
      {error && <p role="alert" style={{ color: "#b00020" }}>{error}</p>}
      <CreateAgentForm profiles={profiles} templates={templates} onCreated={refresh} onError={setError} />
      <ul data-testid="agents">
        {agents.map((a) => (
          <li key={a.agentId}>
            <strong>{a.name}</strong> <code>{a.profileId}</code>
          </li>
        ))}
      </ul>
    </main>
  );
}

interface FormProps {
  profiles: Profile[];
  templates: Template[];
  onCreated: () => void;
  onError: (message: string) => void;
}

function CreateAgentForm({ profiles, templates, onCreated, onError }: FormProps) {
  const [name, setName] = useState("");
  const [profileId, setProfileId] = useState("shell");
  const [template, setTemplate] = useState("");

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      await request("createAgent", { name, profileId, template: template || null });
      setName("");
      onCreated();
    } catch (e) {
      onError(describeError(e));
    }
  }

  return (
    <form onSubmit={submit}>
      <input aria-label="Agent name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Agent name" />
      <select aria-label="Profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <select aria-label="Template" value={template} onChange={(e) => setTemplate(e.target.value)}>
        <option value="">From scratch</option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.title}
          </option>
        ))}
      </select>
      <button type="submit">Create agent</button>
    </form>
  );
}
