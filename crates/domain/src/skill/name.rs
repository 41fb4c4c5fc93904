//! The Agent Skills naming rules, which every CLI enforces the same way.

/// Longest skill name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// Checks a skill name: 1–64 characters of `a-z`, `0-9` and `-`, no `-` at either end nor
/// two in a row. The error is the reason, in plain English.
///
/// # Errors
/// The rule the name breaks.
pub fn valid_skill_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a skill name cannot be empty".into());
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(format!(
            "a skill name is at most {MAX_NAME_CHARS} characters (this one has {chars})"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Err(format!(
            "a skill name may only hold lowercase letters, digits and `-` (not {bad:?})"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err("a skill name cannot start or end with `-`".into());
    }
    if name.contains("--") {
        return Err("a skill name cannot hold `--`".into());
    }
    Ok(())
}
