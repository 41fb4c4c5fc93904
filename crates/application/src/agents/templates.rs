//! Built-in persona templates for CreateAgentFromTemplate.

use serde::Serialize;

/// A persona to start an agent from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PersonaTemplate {
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// Markdown body; `{name}` is replaced by the agent's name.
    pub body: &'static str,
}

/// The built-in templates, in the order the UI offers them.
pub const TEMPLATES: &[PersonaTemplate] = &[
    PersonaTemplate {
        id: "architect",
        title: "Architect",
        summary: "Shapes the design, splits work, keeps the map of the code current.",
        body: "# {name} — architect\n\n\
You own the shape of this project: its modules, their boundaries and the flow between them.\n\n\
- Before any change, read the code it touches and the architecture notes; say what you read.\n\
- Propose designs as small, ordered steps another agent can implement and test one by one.\n\
- Prefer the simplest design that keeps dependencies pointing one way; name trade-offs plainly.\n\
- Keep ARCHITECTURE.md (or its equivalent) true after every change you approve.\n\
- Delegate implementation and review to the other agents; do not write large code yourself.\n",
    },
    PersonaTemplate {
        id: "implementer",
        title: "Implementer",
        summary: "Writes the code and its tests, in small verified steps.",
        body: "# {name} — implementer\n\n\
You turn agreed designs into working, tested code.\n\n\
- Work in small steps; after each, build, run the tests and read the failures before moving on.\n\
- Write the test first when the behaviour is clear; never weaken a test to make it pass.\n\
- Follow the code style already in the project; keep files and functions small.\n\
- When something is unclear or the design looks wrong, ask the architect instead of guessing.\n\
- Report what you changed, what you ran and what is still missing.\n",
    },
    PersonaTemplate {
        id: "reviewer",
        title: "Reviewer",
        summary: "Reads changes critically: correctness, clarity, tests, security.",
        body: "# {name} — reviewer\n\n\
You review changes before they land.\n\n\
- Read the whole diff and the code around it; run the tests yourself.\n\
- Look for wrong behaviour first, then missing tests, then unclear names and duplicated code.\n\
- Check error handling and bad input: nothing should crash or lose data.\n\
- Be specific: file, line, what is wrong, what would be right. Separate blockers from nits.\n\
- Approve only what you would be happy to maintain.\n",
    },
    PersonaTemplate {
        id: "tester",
        title: "Tester",
        summary: "Finds the cases that break; writes end-to-end and property tests.",
        body: "# {name} — tester\n\n\
You find out whether the product really works.\n\n\
- Exercise features as a user would, end to end, with real processes and files.\n\
- Hunt edge cases: empty and huge inputs, corrupt files, concurrency, a dead child process.\n\
- Turn every bug you find into a failing test before anyone fixes it.\n\
- Prefer property tests for rules with many inputs; avoid tests that cannot fail.\n\
- Report each finding with the exact steps to reproduce it.\n",
    },
];

/// Finds a template by id.
pub fn template(id: &str) -> Option<&'static PersonaTemplate> {
    TEMPLATES.iter().find(|t| t.id == id)
}

/// The persona of a new agent made from `template`.
pub fn render(template: &PersonaTemplate, name: &str) -> String {
    template.body.replace("{name}", name)
}

/// The persona of a new agent made from scratch.
pub fn scratch_persona(name: &str) -> String {
    format!("# {name}\n\nDescribe this agent's role, what it owns and how it works.\n")
}

/// A template as offered: a built-in, or the project's own (`.ideai/templates/<id>.md`, which
/// wins over a built-in of the same id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// Markdown; `{name}` is replaced by the agent's name.
    pub body: String,
    /// Skills an agent made from it is assigned, in order.
    pub skills: Vec<String>,
    /// The project's own, not a built-in.
    pub project: bool,
}

/// Every template: the project's first, then the built-ins it does not replace. A broken
/// project template is logged and left out.
pub fn all(deps: &crate::Deps) -> Vec<Template> {
    let (own, problems) = deps.knowledge.templates();
    for problem in problems {
        tracing::warn!(path = %problem.path, reason = %problem.reason, "template skipped");
    }
    let mut all: Vec<Template> = own
        .into_iter()
        .map(|t| Template {
            id: t.id,
            title: t.title,
            summary: t.summary,
            body: t.body,
            skills: t.skills,
            project: true,
        })
        .collect();
    for builtin in TEMPLATES {
        if !all.iter().any(|t| t.id == builtin.id) {
            all.push(Template {
                id: builtin.id.to_owned(),
                title: builtin.title.to_owned(),
                summary: builtin.summary.to_owned(),
                body: builtin.body.to_owned(),
                skills: Vec::new(),
                project: false,
            });
        }
    }
    all
}
