// Shapes of the API's answers (mirroring the Rust domain types' JSON).

export interface Agent {
  agentId: string;
  name: string;
  mdPath: string;
  profileId: string;
  origin: { kind: "scratch" } | { kind: "template"; template: string };
  skills: { scope: "project" | "global"; skillId: string }[];
}

export interface Profile {
  id: string;
  name: string;
  command: string;
}

export interface Template {
  id: string;
  title: string;
  summary: string;
}

export interface Project {
  id: string;
  name: string;
}
