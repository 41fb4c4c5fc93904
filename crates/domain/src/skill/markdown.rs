//! Reading and writing `SKILL.md`. Reading is as lenient as the CLIs (a file one of them
//! loads loads here too); writing gives a file every CLI loads the same way.

use super::name::{MAX_DESCRIPTION_CHARS, valid_skill_name};
use super::{Skill, SkillSource};
use crate::front_matter::{self, trim_body, yaml_quoted};

/// Reads the `SKILL.md` of the folder `folder`. The folder's name is the skill's name: a
/// different front-matter `name` only warns (and a missing one is fine).
///
/// # Errors
/// Why the skill cannot load, in plain English: the folder is not a valid skill name, no
/// front matter, no description, a description over 1024 characters.
pub fn parse_skill(
    folder: &str,
    text: &str,
    source: SkillSource,
    mut files: Vec<String>,
) -> Result<Skill, String> {
    valid_skill_name(folder)
        .map_err(|reason| format!("the folder name `{folder}` is not a skill name: {reason}"))?;
    let (yaml, body) = front_matter::split(text).ok_or_else(|| {
        "SKILL.md has no front matter: it must start with a `---` line, then `name:` and \
         `description:` lines, then a closing `---` line"
            .to_owned()
    })?;
    let fields = front_matter::parse(yaml);
    let mut warnings = fields.warnings.clone();
    if let Some(name) = fields.get("name").filter(|name| *name != folder) {
        warnings.push(format!(
            "its front matter names it `{name}`: the folder's name `{folder}` is used"
        ));
    }
    let description = fields.get("description").ok_or_else(|| {
        "the front matter has no `description` (what the skill does and when to use it)".to_owned()
    })?;
    let chars = description.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        return Err(format!(
            "the description has {chars} characters, over the limit of {MAX_DESCRIPTION_CHARS}"
        ));
    }
    files.sort();
    files.dedup();
    Ok(Skill {
        name: folder.to_owned(),
        source,
        description: description.to_owned(),
        body: trim_body(body).to_owned(),
        files,
        warnings,
    })
}

/// The same `SKILL.md` with its front matter's top-level `name:` set to `folder` (replaced,
/// with any continuation lines of the old value, or inserted as the first line), the rest
/// byte for byte. Delivery writes it because Gemini CLI drops a skill without `name` and
/// Codex prefers `name` over the folder. `folder` must be a valid skill name.
pub fn skill_md_with_name(text: &str, folder: &str) -> String {
    let Some(at) = front_matter::layout(text) else {
        let (bom, rest) = match text.strip_prefix('\u{FEFF}') {
            Some(rest) => ("\u{FEFF}", rest),
            None => ("", text),
        };
        return format!("{bom}---\nname: {folder}\n---\n{rest}");
    };
    let line_break = if text[..at.yaml_start].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let name_line = format!("name: {folder}");
    let mut yaml = String::with_capacity(at.yaml_end - at.yaml_start + name_line.len() + 2);
    let mut replaced = false;
    let mut in_name_value = false;
    for line in text[at.yaml_start..at.yaml_end].split_inclusive('\n') {
        if in_name_value && line.starts_with([' ', '\t']) {
            continue;
        }
        in_name_value = is_name_line(line);
        if !in_name_value {
            yaml.push_str(line);
        } else if !replaced {
            replaced = true;
            yaml.push_str(&name_line);
            yaml.push_str(line_ending(line).unwrap_or(line_break));
        }
    }
    let mut out = String::with_capacity(text.len() + name_line.len() + 2);
    out.push_str(&text[..at.yaml_start]);
    if !replaced {
        out.push_str(&name_line);
        out.push_str(line_break);
    }
    out.push_str(&yaml);
    out.push_str(&text[at.yaml_end..]);
    out
}

/// A new `SKILL.md`: `name`, `description` (double-quoted, so any text survives), a blank
/// line, then the body ending in one newline. [`parse_skill`] reads back the same
/// description and body (both trimmed as it trims them).
pub fn render_skill_md(name: &str, description: &str, body: &str) -> String {
    let name = if valid_skill_name(name).is_ok() {
        name.to_owned()
    } else {
        yaml_quoted(name)
    };
    let mut text = format!(
        "---\nname: {name}\ndescription: {}\n---\n",
        yaml_quoted(description.trim())
    );
    let body = trim_body(body);
    if !body.is_empty() {
        text.push('\n');
        text.push_str(body);
        text.push('\n');
    }
    text
}

fn is_name_line(line: &str) -> bool {
    line.strip_prefix("name:")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

fn line_ending(line: &str) -> Option<&'static str> {
    if line.ends_with("\r\n") {
        Some("\r\n")
    } else if line.ends_with('\n') {
        Some("\n")
    } else {
        None
    }
}
