// The API's types, all generated from the Rust ones by ts-rs (`src/generated/`, written by
// `scripts/gen-types.sh`); this module re-exports them under one import and adds narrowings.

import type { ErrorKind } from "./generated/ErrorKind";
import type { LayoutNode } from "./generated/LayoutNode";

export type { Agent } from "./generated/Agent";
export type { AgentState } from "./generated/AgentState";
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
export type { PermissionFileView } from "./generated/PermissionFileView";
export type { PermissionRuleView } from "./generated/PermissionRuleView";
export type { PermissionsView } from "./generated/PermissionsView";
export type { PermissionWarning } from "./generated/PermissionWarning";
export type { PersonaTemplate } from "./generated/PersonaTemplate";
export type { ProfileProblem } from "./generated/ProfileProblem";
export type { Project } from "./generated/Project";
export type { RuleKind } from "./generated/RuleKind";
export type { SessionId } from "./generated/SessionId";
export type { SessionInfo } from "./generated/SessionInfo";
export type { Side } from "./generated/Side";
export type { Split } from "./generated/Split";

export type { CellRef } from "./generated/CellRef";
export type { ProfilesAnswer } from "./generated/ProfilesAnswer";
export type { WireError } from "./generated/WireError";

/** Every error code the backend declares (`crates/application/src/error.rs`). */
export type ErrorCode = ErrorKind["code"];

/** A layout node narrowed to a cell / a split (the generated union is an intersection). */
export type LeafNode = Extract<LayoutNode, { type: "leaf" }>;
export type SplitNode = Extract<LayoutNode, { type: "split" }>;
