//! `{name}` placeholders in a profile's templates, replaced in one pass: a value put in is
//! never scanned again, so a message or a path that itself holds `{id}` stays as it is.

/// `template` with each `{name}` of `values` replaced by its value; unknown `{…}` are kept.
pub fn expand(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    'scan: while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        for (name, value) in values {
            if let Some(after) = tail.strip_prefix(*name) {
                out.push_str(value);
                rest = after;
                continue 'scan;
            }
        }
        out.push('{');
        rest = &tail[1..];
    }
    out.push_str(rest);
    out
}

/// Whether `template` holds the placeholder `name` (`{id}`…).
pub fn mentions(template: &[String], name: &str) -> bool {
    template.iter().any(|arg| arg.contains(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_put_in_once_and_never_rescanned() {
        let values = [("{prompt}", "say {id}"), ("{id}", "u1")];
        assert_eq!(expand("{prompt}", &values), "say {id}");
        assert_eq!(expand("--x={id}/{prompt}", &values), "--x=u1/say {id}");
        assert_eq!(expand("{unknown} {", &values), "{unknown} {");
        assert_eq!(expand("été {id}", &values), "été u1");
    }

    #[test]
    fn mentions_finds_a_placeholder_inside_an_argument() {
        let args = ["--prompt={prompt}".to_owned()];
        assert!(mentions(&args, "{prompt}"));
        assert!(!mentions(&args, "{id}"));
    }
}
