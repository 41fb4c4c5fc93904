import { useEffect, useMemo, useState } from "react";
import { describeError, request } from "../api";
import type { Template } from "../generated/Template";
import type { Agent, AgentProfile, ProfileProblem, Project } from "../types";
import { useCoalescedRefresh } from "./useCoalescedRefresh";
import { useDomainEvent } from "./useDomainEvent";

export interface ProjectData {
  project: Project | null;
  agents: Agent[];
  agentsById: Map<string, Agent>;
  profiles: AgentProfile[];
  profilesById: Map<string, AgentProfile>;
  /** Profiles whose CLI is not installed (not on the PATH an agent would get). */
  missingProfiles: Set<string>;
  profileProblems: ProfileProblem[];
  /** The persona templates: built in, and the project's own (with the skills they give). */
  templates: Template[];
  /** Why the project could not be read, if it could not. */
  loadError: string | null;
  refreshAgents(): void;
}

/** The project, its agents, and the profile and template catalogues; kept current by events. */
export function useProjectData(epoch: number): ProjectData {
  const [project, setProject] = useState<Project | null>(null);
  const [agents, setAgents] = useState<Agent[]>([]);
  const [profiles, setProfiles] = useState<AgentProfile[]>([]);
  const [missing, setMissing] = useState<string[]>([]);
  const [profileProblems, setProfileProblems] = useState<ProfileProblem[]>([]);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const refreshAgents = useCoalescedRefresh(async () => {
    try {
      setAgents(await request("listAgents"));
      setLoadError(null);
    } catch (error) {
      setLoadError(describeError(error));
    }
  });

  useEffect(() => {
    if (epoch === 0) return;
    let cancelled = false;
    (async () => {
      try {
        const [p, profileAnswer, t] = await Promise.all([
          request("getProject"),
          request("listProfiles"),
          request("listTemplates"),
        ]);
        if (cancelled) return;
        setProject(p);
        setProfiles(profileAnswer.profiles);
        setMissing(profileAnswer.missing);
        setProfileProblems(profileAnswer.problems);
        setTemplates(t);
      } catch (error) {
        if (!cancelled) setLoadError(describeError(error));
      }
    })();
    refreshAgents();
    return () => {
      cancelled = true;
    };
  }, [epoch, refreshAgents]);

  useDomainEvent((event) => {
    if (event.type === "knowledgeChanged" && event.part === "templates") {
      request("listTemplates").then(setTemplates, () => undefined);
    }
    if (event.type === "agentCreated" || event.type === "agentDeleted" || event.type === "agentProfileChanged" || event.type === "agentSettingsChanged") {
      refreshAgents();
    }
  });

  const agentsById = useMemo(() => new Map(agents.map((a) => [a.agentId, a])), [agents]);
  const profilesById = useMemo(() => new Map(profiles.map((p) => [p.id, p])), [profiles]);
  const missingProfiles = useMemo(() => new Set(missing), [missing]);

  return { project, agents, agentsById, profiles, profilesById, missingProfiles, profileProblems, templates, loadError, refreshAgents };
}
