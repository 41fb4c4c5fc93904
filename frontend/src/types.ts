// Shapes of the API's answers. The domain types are generated from the Rust types by ts-rs
// (`src/generated/`); this module re-exports them under one import and adds the few shapes
// that only exist on the wire (answers built ad hoc by the API layer).

import type { AgentProfile } from "./generated/AgentProfile";
import type { LayoutNode } from "./generated/LayoutNode";
import type { ProfileProblem } from "./generated/ProfileProblem";

export type { Agent } from "./generated/Agent";
export type { AgentId } from "./generated/AgentId";
export type { AgentProfile } from "./generated/AgentProfile";
export type { Direction } from "./generated/Direction";
export type { DomainEvent } from "./generated/DomainEvent";
export type { ExitInfo } from "./generated/ExitInfo";
export type { LayoutId } from "./generated/LayoutId";
export type { LayoutNode } from "./generated/LayoutNode";
export type { Layouts } from "./generated/Layouts";
export type { Leaf } from "./generated/Leaf";
export type { NamedLayout } from "./generated/NamedLayout";
export type { NodeId } from "./generated/NodeId";
export type { PersonaTemplate } from "./generated/PersonaTemplate";
export type { ProfileProblem } from "./generated/ProfileProblem";
export type { Project } from "./generated/Project";
export type { SessionId } from "./generated/SessionId";
export type { SessionInfo } from "./generated/SessionInfo";
export type { Side } from "./generated/Side";
export type { Split } from "./generated/Split";

/** `listProfiles`' answer. */
export interface ProfilesAnswer {
  profiles: AgentProfile[];
  problems: ProfileProblem[];
}

/** A layout node narrowed to a cell / a split (the generated union is an intersection). */
export type LeafNode = Extract<LayoutNode, { type: "leaf" }>;
export type SplitNode = Extract<LayoutNode, { type: "split" }>;
