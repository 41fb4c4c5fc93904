//! Every method of the API, declared once (see the crate docs). Adding a method here makes
//! the compiler ask for its handler, `scripts/gen-types.sh` write its TypeScript, and the
//! completeness test ask for its row in `docs/api.md`. Its effect (`Reads`, `Writes` or
//! `Queues`, see [`crate::Effect`]) orders it among its client's calls on every transport.

use crate::handlers as h;
use crate::knowledge::{self as k, *};
use crate::params::*;
use idea_application::agents::ProfileChanged;
use idea_application::agents::templates::Template;
use idea_application::knowledge::memory::MemoryView;
use idea_application::knowledge::skills::{SkillDraft, SkillEdit};
use idea_application::knowledge::tools::{ToolCallResult, ToolsView};
use idea_application::permissions::PermissionsView;
use idea_application::sessions::ResumableAgent;
use idea_domain::handoff::Handoff;
use idea_domain::knowledge::SkillListing;
use idea_domain::layout::{Layouts, NamedLayout};
use idea_domain::memory::{MemoryEntry, MemoryHit};
use idea_domain::orchestrator::{AskAnswer, RequestRecord};
use idea_domain::resume::ScheduledResume;
use idea_domain::skill::Skill;
use idea_domain::terminal::SessionInfo;
use idea_domain::worktree::{PullRequest, RebaseOutcome, Removed, SquashPlan, WorktreeStatus};
use idea_domain::{Agent, CellRef, NodeId, Project};

methods! {
    /// A request run by [`crate::handle`], whatever the transport.
    enum Request; table METHODS; dispatch;

    /// The open project: id, name, path.
    GetProject = "getProject" Reads (()) -> Project,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::get_project;
    /// The runtime profiles (built-ins merged with the user's file) and the user file's problems.
    ListProfiles = "listProfiles" Reads (()) -> ProfilesAnswer, errors [] => h::list_profiles;
    /// The persona templates an agent can start from: the project's own
    /// (`.ideai/templates/<id>.md`, with the skills an agent made from it gets), then the
    /// built-ins they do not replace.
    ListTemplates = "listTemplates" Reads (()) -> Vec<Template>, errors [] => k::list_templates;
    /// The project's agents.
    ListAgents = "listAgents" Reads (()) -> Vec<Agent>,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::list_agents;
    /// Creates an agent, from a template or with an empty persona.
    CreateAgent = "createAgent" Writes (CreateAgentParams) -> Agent,
        errors [InvalidName, AgentNameTaken, ProfileNotFound, TemplateNotFound,
                CorruptFile, NewerSchema, IoError, UnsafePath] => h::create_agent;
    /// An agent's persona (Markdown).
    ReadAgentContext = "readAgentContext" Reads (AgentParams) -> String,
        errors [AgentNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::read_agent_context;
    /// Replaces an agent's persona.
    UpdateAgentContext = "updateAgentContext" Writes (UpdateAgentContextParams) -> (),
        errors [AgentNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::update_agent_context;
    /// Deletes an agent (its persona file is kept); refused while it runs.
    DeleteAgent = "deleteAgent" Writes (AgentParams) -> Agent,
        errors [AgentNotFound, AgentRunning, WorktreeExists, CorruptFile, NewerSchema, IoError, UnsafePath] => h::delete_agent;
    /// What an agent would be handed if it moved to another engine now (its first ask, its
    /// newest exchanges from its CLI's saved conversation, the uncommitted changes): the user
    /// edits it before `changeAgentProfile`.
    DraftHandoff = "draftHandoff" Reads (AgentParams) -> Handoff,
        errors [AgentNotFound, ProfileNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::draft_handoff;
    /// Moves an agent to another profile (engine), keeping its conversation with the user and
    /// handing the new engine `handoff` (drafted when absent); a live agent is relaunched in
    /// its cell on the new engine.
    ChangeAgentProfile = "changeAgentProfile" Writes (ChangeAgentProfileParams) -> ProfileChanged,
        errors [AgentNotFound, ProfileNotFound, InvalidParams, CommandNotFound, AgentBusy, InvalidProfile,
                SpawnFailed, SandboxFailed, CorruptFile, NewerSchema, IoError, UnsafePath] => h::change_agent_profile;
    /// What IdeA does when the agent hits a usage limit: wait for the reset (the default),
    /// fail over at once to another profile with a handoff, or nothing.
    SetLimitPolicy = "setLimitPolicy" Writes (SetLimitPolicyParams) -> Agent,
        errors [AgentNotFound, ProfileNotFound, InvalidParams, CorruptFile, NewerSchema, IoError, UnsafePath] => h::set_limit_policy;
    /// What IdeA types to an agent whose usage limit has reset (`text: null`: the built-in
    /// nudge); one line, at most 2,000 characters.
    SetResumeNudge = "setResumeNudge" Writes (SetResumeNudgeParams) -> Project,
        errors [InvalidParams, NotAProject, CorruptFile, NewerSchema, IoError, UnsafePath] => h::set_resume_nudge;
    /// Every layout and which one is active.
    GetLayouts = "getLayouts" Reads (()) -> Layouts,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::get_layouts;
    /// A new layout with one empty cell.
    CreateLayout = "createLayout" Writes (NameParams) -> NamedLayout,
        errors [InvalidLayoutOperation, CorruptFile, NewerSchema, IoError, UnsafePath] => h::create_layout;
    RenameLayout = "renameLayout" Writes (RenameLayoutParams) -> (),
        errors [LayoutNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema, IoError, UnsafePath]
        => h::rename_layout;
    /// Deletes a layout and stops the sessions of its cells.
    DeleteLayout = "deleteLayout" Writes (LayoutParams) -> (),
        errors [LayoutNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema, IoError, UnsafePath]
        => h::delete_layout;
    SetActiveLayout = "setActiveLayout" Writes (LayoutParams) -> (),
        errors [LayoutNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::set_active_layout;
    /// Splits a cell; the answer is the new cell's id.
    SplitCell = "splitCell" Writes (SplitCellParams) -> NodeId,
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::split_cell;
    /// Closes a cell and stops its session.
    CloseCell = "closeCell" Writes (CellRef) -> (),
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::close_cell;
    /// Moves a cell next to another one (its session moves with it).
    MoveCell = "moveCell" Writes (MoveCellParams) -> (),
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::move_cell;
    /// Swaps two cells' contents (their sessions move with them).
    SwapCells = "swapCells" Writes (SwapCellsParams) -> (),
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::swap_cells;
    ResizeSplit = "resizeSplit" Writes (ResizeSplitParams) -> (),
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::resize_split;
    /// Places an agent in a cell (or empties it) without starting it.
    AssignAgent = "assignAgent" Writes (AssignAgentParams) -> (),
        errors [LayoutNotFound, NodeNotFound, InvalidLayoutOperation, AgentNotFound,
                CorruptFile, NewerSchema, IoError, UnsafePath] => h::assign_agent;
    /// Starts (or resumes) an agent in a cell.
    LaunchAgent = "launchAgent" Writes (LaunchAgentParams) -> SessionInfo,
        errors [AgentNotFound, AgentAlreadyRunning, AgentBusy, CellBusy, ProfileNotFound, InvalidProfile,
                LayoutNotFound, NodeNotFound, CommandNotFound, SpawnFailed, SandboxFailed,
                CorruptFile, NewerSchema, IoError, UnsafePath] => h::launch_agent;
    /// Starts the user's shell in a cell.
    OpenShell = "openShell" Writes (OpenShellParams) -> SessionInfo,
        errors [CellBusy, LayoutNotFound, NodeNotFound, CommandNotFound, SpawnFailed,
                CorruptFile, NewerSchema, IoError, UnsafePath] => h::open_shell;
    /// Stops a session (SIGHUP, then SIGTERM, then SIGKILL).
    StopSession = "stopSession" Writes (SessionParams) -> (), errors [SessionNotFound] => h::stop_session;
    /// Types the agent's CLI's own compaction command (`/compact`, Gemini `/compress`) at its
    /// prompt; only while it is idle.
    CompactAgent = "compactAgent" Writes (SessionParams) -> (),
        errors [SessionNotFound, SessionExited, InvalidParams, AgentBusy] => h::compact_agent;
    /// Stops a session once its process has exited, then starts it again in the same place.
    RestartSession = "restartSession" Writes (SessionSizeParams) -> SessionInfo,
        errors [SessionNotFound, AgentNotFound, ProfileNotFound, InvalidProfile, CommandNotFound,
                SpawnFailed, SandboxFailed, Internal, CorruptFile, NewerSchema, IoError,
                UnsafePath] => h::restart_session;
    /// Every session, live or exited.
    ListSessions = "listSessions" Reads (()) -> Vec<SessionInfo>, errors [] => h::list_sessions;
    /// One of an agent CLI's hooks fired (sent by `idea hook`): its session's state follows.
    /// `null` when the agent has no live terminal session.
    ReportAgentSignal = "reportAgentSignal" Writes (AgentSignalParams) -> Option<SessionInfo>,
        errors [AgentNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::report_agent_signal;
    /// Types text into a session.
    WriteTerminal = "writeTerminal" Writes (WriteTerminalParams) -> (),
        errors [SessionNotFound, SessionExited, InputFull] => h::write_terminal;
    ResizeTerminal = "resizeTerminal" Writes (SessionSizeParams) -> (),
        errors [SessionNotFound, SessionExited] => h::resize_terminal;
    /// Asks an agent and waits for its answer: one turn of its CLI's JSON mode (blocks for the
    /// whole turn; one turn per agent at a time, first in first out).
    AskAgent = "askAgent" Queues (AskAgentParams) -> AskAnswer,
        errors [AgentNotFound, ProfileNotFound, NotAskable, InvalidProfile, AgentBusy,
                TurnTimeout, Cancelled, UsageLimit, TurnFailed, CommandNotFound, SpawnFailed,
                SandboxFailed, CorruptFile, NewerSchema, IoError, UnsafePath] => h::ask_agent;
    /// The recent requests to agents (the last 200 finished, and every one in flight).
    ListRequests = "listRequests" Reads (()) -> Vec<RequestRecord>, errors [] => h::list_requests;
    /// Cancels a request: a queued one leaves its line, a running turn is killed.
    CancelRequest = "cancelRequest" Writes (RequestParams) -> (),
        errors [RequestNotFound] => h::cancel_request;
    /// The cells whose agent can be resumed as the project opens: it was running when IdeA
    /// last closed and is not live now (the resume prompt).
    ListResumableAgents = "listResumableAgents" Reads (()) -> Vec<ResumableAgent>,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::list_resumable_agents;
    /// The resumes scheduled after usage limits, soonest first (docs/usage-limits.md).
    ListResumes = "listResumes" Reads (()) -> Vec<ScheduledResume>,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::list_resumes;
    /// Cancels an agent's scheduled resume: it waits for the user.
    CancelResume = "cancelResume" Writes (AgentParams) -> (),
        errors [ResumeNotFound, CorruptFile, NewerSchema, IoError, UnsafePath] => h::cancel_resume;
    /// Continues an agent now rather than at its reset (relaunched first if it exited).
    ResumeNow = "resumeNow" Writes (AgentParams) -> (),
        errors [ResumeNotFound, AgentNotFound, AgentAlreadyRunning, AgentBusy, CellBusy,
                ProfileNotFound, InvalidProfile, LayoutNotFound, NodeNotFound, CommandNotFound,
                SpawnFailed, SandboxFailed, SessionExited, InputFull, CorruptFile, NewerSchema,
                IoError, UnsafePath] => h::resume_now;
    /// The rules of the user's and the project's permissions files, and what was skipped.
    GetPermissions = "getPermissions" Reads (()) -> PermissionsView, errors [] => h::get_permissions;
    /// Removes then adds rules in the project's `.ideai/permissions.json`; the answer is the
    /// files read again (with a warning for each rule that is skipped).
    SavePermissions = "savePermissions" Writes (SavePermissionsParams) -> PermissionsView,
        errors [CorruptFile, IoError, UnsafePath] => h::save_permissions;
    /// Every agent's own worktree: branch, base, "N behind base", the files it changed
    /// (committed or not, read with a temporary index) and those another agent changed too.
    ListWorktrees = "listWorktrees" Reads (()) -> Vec<WorktreeStatus>,
        errors [CorruptFile, NewerSchema, IoError, UnsafePath] => h::list_worktrees;
    /// Gives an agent its own worktree, outside the repository, on a new branch from `base`
    /// (the current branch's HEAD by default); its launches then work there.
    CreateWorktree = "createWorktree" Writes (CreateWorktreeParams) -> WorktreeStatus,
        errors [AgentNotFound, WorktreeExists, AgentRunning, NotAGitRepository, UnknownRef,
                BranchTaken, GitUnavailable, GitFailed, CorruptFile, NewerSchema, IoError,
                UnsafePath] => h::create_worktree;
    /// The diff of one file an agent's worktree changed.
    WorktreeDiff = "worktreeDiff" Reads (WorktreeDiffParams) -> String,
        errors [AgentNotFound, NoWorktree, InvalidParams, UnknownRef, GitUnavailable, GitFailed,
                CorruptFile, IoError] => h::worktree_diff;
    /// What squashing an agent's work into its base would do: the branch, the user's
    /// checkout of it, the files, the conflicts. Changes nothing.
    PlanSquash = "planSquash" Reads (AgentParams) -> SquashPlan,
        errors [AgentNotFound, NoWorktree, BaseNotABranch, UnknownRef, GitUnavailable,
                GitFailed, CorruptFile, IoError] => h::plan_squash;
    /// Squashes everything in an agent's worktree into its base branch as one commit; a clean
    /// checkout of the base is fast-forwarded by git, a dirty one refuses.
    SquashWorktree = "squashWorktree" Writes (SquashWorktreeParams) -> SquashPlan,
        errors [AgentNotFound, NoWorktree, BaseNotABranch, MergeConflict, CheckoutDirty,
                BaseMoved, RebaseInProgress, AgentRunning, InvalidParams, UnknownRef,
                GitUnavailable, GitFailed, CorruptFile, IoError] => h::squash_worktree;
    /// Saves an agent's uncommitted work under `refs/idea/wip/<slug>` and removes its
    /// worktree folder; the branch stays.
    ArchiveWorktree = "archiveWorktree" Writes (AgentParams) -> WorktreeStatus,
        errors [AgentNotFound, NoWorktree, AgentRunning, RebaseInProgress, GitUnavailable,
                GitFailed, CorruptFile, IoError] => h::archive_worktree;
    /// Rebases an agent's branch onto its base's tip inside its worktree; on conflicts the
    /// rebase stays in progress and the answer lists the files (and what to ask the agent).
    RebaseWorktree = "rebaseWorktree" Writes (AgentParams) -> RebaseOutcome,
        errors [AgentNotFound, NoWorktree, AgentRunning, RebaseInProgress, UnknownRef,
                GitUnavailable, GitFailed, CorruptFile, IoError] => h::rebase_worktree;
    /// Abandons the rebase in progress in an agent's worktree.
    AbortRebase = "abortRebase" Writes (AgentParams) -> WorktreeStatus,
        errors [AgentNotFound, NoWorktree, GitUnavailable, GitFailed, CorruptFile, IoError]
        => h::abort_rebase;
    /// Runs the project's set-up script for an agent's new worktree in a cell (the user sees
    /// it and can stop it), in the worktree, with the agent's `IDEA_*` variables.
    RunWorktreeSetup = "runWorktreeSetup" Writes (RunWorktreeSetupParams) -> SessionInfo,
        errors [InvalidParams, AgentNotFound, NoWorktree, CellBusy, NodeNotFound, LayoutNotFound,
                SpawnFailed, CommandNotFound, CorruptFile, IoError] => h::run_worktree_setup;
    /// Pushes an agent's branch and opens a pull request onto its base with `gh` (installed
    /// and logged in); otherwise answers the commands to run.
    CreatePullRequest = "createPullRequest" Writes (AgentParams) -> PullRequest,
        errors [AgentNotFound, NoWorktree, GitUnavailable, GitFailed, CorruptFile, IoError]
        => h::create_pull_request;
    /// Removes an agent's worktree: archived first (nothing uncommitted is lost), its branch
    /// deleted only when its work is on the base and nothing was saved.
    RemoveWorktree = "removeWorktree" Writes (AgentParams) -> Removed,
        errors [AgentNotFound, NoWorktree, AgentRunning, RebaseInProgress, GitUnavailable,
                GitFailed, CorruptFile, IoError] => h::remove_worktree;
    /// `.ideai/CONTEXT.md`: what every agent is told before its persona (empty when none).
    ReadProjectContext = "readProjectContext" Reads (()) -> String,
        errors [UnsafePath, CorruptFile, IoError] => k::read_project_context;
    /// Replaces `.ideai/CONTEXT.md` (an empty text removes it); agents get it at their next
    /// launch or turn.
    UpdateProjectContext = "updateProjectContext" Writes (ContextText) -> (),
        errors [UnsafePath, IoError] => k::update_project_context;
    /// Every skill: the project's (`.ideai/skills`), the user's (`~/.ideai/skills`) and the
    /// project's own `.claude/skills` and `.agents/skills` (found, read in place), with the
    /// broken ones and why.
    ListSkills = "listSkills" Reads (()) -> SkillListing, errors [] => k::list_skills;
    /// One skill by name: the project's, else the user's, else a found one.
    ShowSkill = "showSkill" Reads (SkillName) -> Skill, errors [SkillNotFound] => k::show_skill;
    /// A skill's whole `SKILL.md`, for editing.
    ReadSkillFile = "readSkillFile" Reads (SkillAt) -> String,
        errors [SkillNotFound, InvalidSkill, UnsafePath, CorruptFile, IoError] => k::read_skill_file;
    /// Writes a new skill (`SKILL.md` with `name` and `description`, then the body).
    CreateSkill = "createSkill" Writes (SkillDraft) -> Skill,
        errors [InvalidSkill, SkillExists, UnsafePath, IoError] => k::create_skill;
    /// Replaces a skill's `SKILL.md`; refused (nothing written) unless it reads as a skill.
    UpdateSkill = "updateSkill" Writes (SkillEdit) -> Skill,
        errors [SkillNotFound, InvalidSkill, UnsafePath, IoError] => k::update_skill;
    /// Removes a skill's folder and unassigns it from every agent.
    DeleteSkill = "deleteSkill" Writes (SkillInScope) -> (),
        errors [SkillNotFound, InvalidSkill, UnsafePath, CorruptFile, IoError] => k::delete_skill;
    /// Copies a found skill (`.claude/skills`, `.agents/skills`) into `.ideai/skills`.
    AdoptSkill = "adoptSkill" Writes (SkillAt) -> Skill,
        errors [SkillNotFound, SkillExists, InvalidSkill, UnsafePath, CorruptFile, IoError] => k::adopt_skill;
    /// Gives an agent a skill, after its others (delivered at its next launch or turn).
    AssignSkill = "assignSkill" Writes (SkillAssignment) -> Agent,
        errors [AgentNotFound, SkillNotFound, CorruptFile, IoError] => k::assign_skill;
    /// Takes a skill from an agent; the others keep their order.
    UnassignSkill = "unassignSkill" Writes (SkillAssignment) -> Agent,
        errors [AgentNotFound, CorruptFile, IoError] => k::unassign_skill;
    /// Every memory entry (`.ideai/memory/`), most useful first, and the unreadable ones.
    ListMemory = "listMemory" Reads (()) -> MemoryView, errors [] => k::list_memory;
    /// One memory entry.
    ReadMemory = "readMemory" Reads (MemorySlug) -> MemoryEntry, errors [MemoryNotFound] => k::read_memory;
    /// Entries whose title, hook or body hold the query's words, best first.
    SearchMemory = "searchMemory" Reads (MemoryQuery) -> Vec<MemoryHit>, errors [] => k::search_memory;
    /// Creates (no slug) or replaces a memory entry, recording who wrote it; the index follows.
    WriteMemory = "writeMemory" Writes (WriteMemoryParams) -> MemoryEntry,
        errors [InvalidParams, MemoryNotFound, UnsafePath, IoError] => k::write_memory;
    /// Removes a memory entry; the index follows.
    DeleteMemory = "deleteMemory" Writes (MemorySlug) -> (),
        errors [InvalidParams, MemoryNotFound, UnsafePath, IoError] => k::delete_memory;
    /// Every project tool (`.ideai/tools`, `~/.ideai/tools`), the broken ones, the last runs
    /// and the calls waiting for the user.
    ListTools = "listTools" Reads (()) -> ToolsView, errors [] => k::list_tools;
    /// Runs a project tool, for an agent (its rules and sandbox apply; an `ask` waits for
    /// the user) or for the user. Declared `Reads`: a run may take minutes and changes no
    /// state of IdeA's, so the client's other calls do not wait for it.
    CallTool = "callTool" Reads (CallToolParams) -> ToolCallResult,
        errors [ToolNotFound, InvalidToolArgs, ToolDenied, ToolFailed, AgentNotFound,
                SandboxFailed, CorruptFile, IoError] => k::call_tool;
    /// The permission rules on an agent's call of one of IdeA's own MCP tools: only rules
    /// naming the tool apply; `ask` waits for the user. Called by the MCP server before each
    /// `idea_*` tool; `Reads`, as it may wait minutes.
    AuthorizeToolCall = "authorizeToolCall" Reads (AuthorizeToolParams) -> (),
        errors [AgentNotFound, ToolDenied, CorruptFile, IoError] => k::authorize_tool_call;
    /// Allows once, or denies, an agent's tool call waiting for the user.
    AnswerToolApproval = "answerToolApproval" Writes (ToolApprovalAnswer) -> (),
        errors [InvalidParams] => k::answer_tool_approval;
    /// Brings an archived worktree back on its branch, with its uncommitted work.
    RestoreWorktree = "restoreWorktree" Writes (AgentParams) -> WorktreeStatus,
        errors [AgentNotFound, NoWorktree, UnknownRef, GitUnavailable, GitFailed, CorruptFile,
                IoError] => h::restore_worktree;
}

methods! {
    /// A terminal-stream method: handled by the transport itself, which owns the stream.
    enum StreamRequest; table STREAM_METHODS;

    /// Starts receiving a session's output: the replay (scrollback and screen drawn anew, at
    /// the client's size when given), then live output.
    AttachTerminal = "attachTerminal" Writes (AttachTerminalParams) -> AttachAnswer, errors [SessionNotFound];
    /// Stops receiving a session's output.
    DetachTerminal = "detachTerminal" Writes (SessionParams) -> (), errors [];
    /// The user typed in this client's terminal, or asked to fit it here: this client leads
    /// the session's size (see `docs/terminal-path.md`, "One size, many clients"). Keystrokes
    /// on the WebSocket do it by themselves.
    FocusTerminal = "focusTerminal" Writes (SessionParams) -> (), errors [];
    /// This client's cell for the session is now `rows` × `cols`: the session follows if
    /// this client leads. Not attached: nothing happens.
    FitTerminal = "fitTerminal" Writes (SessionSizeParams) -> (), errors [SessionNotFound];
    /// Acknowledges output the client has processed (flow control; a notification). Only the
    /// client's own attachment sees it: it waits for none of the client's writes.
    AckTerminal = "ackTerminal" Reads (AckTerminalParams) -> (), errors [];
}
