//! A small command-line reader for the fake CLIs: known options only, `--opt=value`, variadic
//! options that take values up to the next option (as Claude Code's do), and `--` ending the
//! options. Each fake words the errors the way its real CLI does.

use std::collections::HashMap;

/// How many values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    Flag,
    Value,
    /// One or more, up to the next argument that starts with `-`.
    Many,
}

/// One known option: its names (the first is the key it is stored under) and arity.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub names: &'static [&'static str],
    pub arity: Arity,
}

/// What a command line said.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    options: HashMap<&'static str, Vec<String>>,
    /// Arguments that are not options, in order.
    pub positionals: Vec<String>,
    /// How many of `positionals` came before `--` (all of them when there was none).
    pub before_dash_dash: usize,
}

impl Parsed {
    /// Whether option `key` was given.
    pub fn has(&self, key: &str) -> bool {
        self.options.contains_key(key)
    }

    /// The last value of option `key`.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.options
            .get(key)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of option `key`.
    pub fn values(&self, key: &str) -> &[String] {
        self.options.get(key).map_or(&[], Vec::as_slice)
    }
}

/// Why a command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgError {
    /// An option no spec names.
    Unknown(String),
    /// An option given without its value (its first name).
    MissingValue(&'static str),
}

/// Reads `args` against `specs`.
///
/// # Errors
/// An unknown option, or one missing its value.
pub fn parse(args: &[String], specs: &[Spec]) -> Result<Parsed, ArgError> {
    let mut parsed = Parsed::default();
    let mut rest = args.iter();
    let mut dash_dash = false;
    let mut pending: Option<&String> = None;
    while let Some(arg) = pending.take().or_else(|| rest.next()) {
        if dash_dash || arg == "-" || !arg.starts_with('-') {
            parsed.positionals.push(arg.clone());
            continue;
        }
        if arg == "--" {
            dash_dash = true;
            parsed.before_dash_dash = parsed.positionals.len();
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if arg.starts_with("--") => (name, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let spec = specs
            .iter()
            .find(|s| s.names.contains(&name))
            .ok_or_else(|| ArgError::Unknown(name.to_owned()))?;
        let key = spec.names[0];
        let mut values = Vec::new();
        match (spec.arity, inline) {
            (Arity::Flag, None) => {}
            (Arity::Flag, Some(_)) => return Err(ArgError::Unknown(arg.clone())),
            (_, Some(value)) => values.push(value),
            (Arity::Value, None) => {
                values.push(rest.next().ok_or(ArgError::MissingValue(key))?.clone());
            }
            (Arity::Many, None) => {
                for next in rest.by_ref() {
                    if next.starts_with('-') {
                        pending = Some(next);
                        break;
                    }
                    values.push(next.clone());
                }
                if values.is_empty() {
                    return Err(ArgError::MissingValue(key));
                }
            }
        }
        parsed.options.entry(key).or_default().extend(values);
    }
    if !dash_dash {
        parsed.before_dash_dash = parsed.positionals.len();
    }
    Ok(parsed)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    const SPECS: &[Spec] = &[
        Spec {
            names: &["-p", "--print"],
            arity: Arity::Flag,
        },
        Spec {
            names: &["--resume", "-r"],
            arity: Arity::Value,
        },
        Spec {
            names: &["--add-dir"],
            arity: Arity::Many,
        },
    ];

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn options_values_and_positionals() {
        let parsed = parse(
            &strings(&["-p", "--add-dir", "a", "b", "--resume=x", "hi", "--", "-y"]),
            SPECS,
        )
        .unwrap();
        assert!(parsed.has("-p"));
        assert_eq!(parsed.values("--add-dir"), ["a", "b"]);
        assert_eq!(parsed.value("--resume"), Some("x"));
        assert_eq!(parsed.positionals, ["hi", "-y"]);
        assert_eq!(parsed.before_dash_dash, 1);
    }

    #[test]
    fn unknown_and_incomplete_options_are_refused() {
        assert_eq!(
            parse(&strings(&["--bogus"]), SPECS).unwrap_err(),
            ArgError::Unknown("--bogus".into())
        );
        assert_eq!(
            parse(&strings(&["-r"]), SPECS).unwrap_err(),
            ArgError::MissingValue("--resume")
        );
        assert_eq!(
            parse(&strings(&["--add-dir", "-p"]), SPECS).unwrap_err(),
            ArgError::MissingValue("--add-dir")
        );
    }
}
