//! The token: where it comes from (`--token`, `--token-file`, `$IDEA_TOKEN`, else made up)
//! and what it may hold. `docs/security.md` says why not the command line.

use std::path::Path;

/// The environment variable that may carry the token (unlike `--token`, not shown by `ps`).
const TOKEN_VARIABLE: &str = "IDEA_TOKEN";
/// A token file is a few bytes; anything larger is not one.
const MAX_TOKEN_FILE: u64 = 4096;

/// A fresh random token: 32 hex digits (the 122 random bits of a v4 uuid).
fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Checks a given token: it travels in URLs, so only URL-safe characters.
///
/// # Errors
/// Why the token cannot be used.
fn check_token(token: &str) -> Result<(), String> {
    if token.is_empty() {
        return Err("the token must not be empty".into());
    }
    if let Some(bad) = token
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
    {
        return Err(format!(
            "the token may only hold letters, digits and - . _ ~ (found {bad:?})"
        ));
    }
    Ok(())
}

/// The token to serve with: `--token`, else `--token-file`, else `$IDEA_TOKEN`, else a fresh
/// random one.
///
/// # Errors
/// Why the given token cannot be used (never the token itself).
pub(super) fn choose_token(flag: Option<String>, file: Option<&Path>) -> Result<String, String> {
    let token = match (flag, file) {
        (Some(token), _) => token,
        (None, Some(file)) => read_token_file(file)?,
        (None, None) => match std::env::var(TOKEN_VARIABLE) {
            Ok(token) if !token.is_empty() => token,
            Ok(_) | Err(std::env::VarError::NotPresent) => return Ok(new_token()),
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err(format!("{TOKEN_VARIABLE} is not text"));
            }
        },
    };
    check_token(&token)?;
    Ok(token)
}

/// Reads a token file: the user's own, readable by nobody else, its one line.
fn read_token_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != nix::unistd::geteuid().as_raw() {
            return Err(format!("{shown}: not your file"));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(format!(
                "{shown}: other users may read it: chmod 600 {shown}"
            ));
        }
    }
    let mut text = String::new();
    file.take(MAX_TOKEN_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("{shown}: {e}"))?;
    if text.len() as u64 > MAX_TOKEN_FILE {
        return Err(format!("{shown}: too large for a token"));
    }
    check_token(text.trim()).map_err(|e| format!("{shown}: {e}"))?;
    Ok(text.trim().to_owned())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn random_tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(check_token(&a).is_ok());
    }

    #[test]
    fn tokens_that_would_break_a_url_are_refused() {
        for bad in ["", "a b", "a;b", "a=b", "a\"b", "é"] {
            assert!(check_token(bad).is_err(), "{bad:?}");
        }
        assert!(check_token("Secret-1.2_3~").is_ok());
    }

    #[test]
    fn a_token_file_must_be_private_and_hold_a_token() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "Secret-1\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_token_file(&path).unwrap(), "Secret-1");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let refused = read_token_file(&path).unwrap_err();
        assert!(refused.contains("chmod 600"), "{refused}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&path, "two words").unwrap();
        let refused = read_token_file(&path).unwrap_err();
        assert!(!refused.contains("two words"), "{refused}");
        assert!(read_token_file(dir.path()).is_err(), "a folder");
        assert!(choose_token(Some("given".into()), Some(&path)).is_ok_and(|t| t == "given"));
    }
}
