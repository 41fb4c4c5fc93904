//! The project's own persona templates: `.ideai/templates/<id>.md`.

use super::files;
use super::{FsKnowledgeStore, Place, relative_to};
use idea_domain::front_matter;
use idea_domain::knowledge::ProjectTemplate;
use idea_domain::memory::valid_memory_slug;
use idea_domain::skill::SkillProblem;

pub(super) fn list(store: &FsKnowledgeStore) -> (Vec<ProjectTemplate>, Vec<SkillProblem>) {
    let place = Place {
        dir: store.ideai().join("templates"),
        confined_to: Some(store.root.clone()),
    };
    let (entries, found) = files::entries(&place);
    let mut problems: Vec<SkillProblem> = found
        .into_iter()
        .map(|(path, reason)| SkillProblem {
            path: relative_to(&store.root, &path),
            reason,
        })
        .collect();
    let mut templates = Vec::new();
    for entry in entries.iter().filter(|e| !e.is_dir) {
        let Some(id) = entry.name.strip_suffix(".md") else {
            continue;
        };
        let problem = |reason: String| SkillProblem {
            path: relative_to(&store.root, &entry.path),
            reason,
        };
        if !valid_memory_slug(id) {
            problems.push(problem(
                "the file name is not a slug (lowercase letters, digits and -)".into(),
            ));
            continue;
        }
        match files::read_text(&place, &entry.path) {
            Ok(Some(text)) => templates.push(parse(id, &text)),
            Ok(None) => {}
            Err(e) => problems.push(problem(e.to_string())),
        }
    }
    (templates, problems)
}

/// A template's text: front matter optional (`title`, `summary`, `skills`), the rest the persona.
fn parse(id: &str, text: &str) -> ProjectTemplate {
    let (fields, body) = match front_matter::split(text) {
        Some((yaml, body)) => (front_matter::parse(yaml).fields, body),
        None => (Default::default(), text),
    };
    let field = |key: &str| {
        fields
            .get(key)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    ProjectTemplate {
        id: id.to_owned(),
        title: field("title").unwrap_or_else(|| id.to_owned()),
        summary: field("summary").unwrap_or_default(),
        body: body.trim_start().to_owned(),
        skills: field("skills")
            .map(|list| {
                list.split([',', ' '])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
    }
}
