//! Telling what a person typed from what the terminal answered on its own. xterm.js writes its
//! replies into the input stream too: focus in/out (`CSI I`, `CSI O`, when the program asked
//! for focus events), cursor position reports (`CSI row;col R`), device attributes (`CSI ? … c`,
//! `CSI > … c`) and colour queries' answers (`OSC 10/11/… ; rgb:… ST`). None of them answers a
//! prompt, so none of them may clear "needs you".

/// Whether `bytes` hold anything beyond the terminal's own reports.
pub fn is_typed_by_user(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while !rest.is_empty() {
        match report_len(rest) {
            Some(n) => rest = &rest[n..],
            None => return true,
        }
    }
    false
}

/// Whether typed `bytes` press Enter (a carriage return outside a bracketed paste: a pasted
/// text's line breaks submit nothing).
pub fn submits_a_line(bytes: &[u8]) -> bool {
    const PASTE_START: &[u8] = b"\x1b[200~";
    const PASTE_END: &[u8] = b"\x1b[201~";
    let mut rest = bytes;
    loop {
        let Some(start) = find(rest, PASTE_START) else {
            return rest.contains(&b'\r');
        };
        if rest[..start].contains(&b'\r') {
            return true;
        }
        let pasted = &rest[start + PASTE_START.len()..];
        match find(pasted, PASTE_END) {
            Some(end) => rest = &pasted[end + PASTE_END.len()..],
            // The paste goes on in the next write.
            None => return false,
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The length of the terminal report at the start of `bytes`, if it starts with one.
fn report_len(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [0x1b, b'[', rest @ ..] => {
            // Parameters (digits, `;`, and a leading `?` or `>`), then the final byte.
            let params = rest
                .iter()
                .take_while(|b| b.is_ascii_digit() || matches!(b, b';' | b'?' | b'>'))
                .count();
            let last = *rest.get(params)?;
            let report = match last {
                b'I' | b'O' => params == 0,
                b'R' => params > 0 && rest[..params].contains(&b';'),
                b'c' => params > 0 && matches!(rest[0], b'?' | b'>'),
                _ => false,
            };
            report.then_some(2 + params + 1)
        }
        [0x1b, b']', rest @ ..] => {
            // `OSC 1x ; rgb:… BEL` or `… ESC \`: colour answers only.
            let body_end = rest.iter().position(|b| *b == 0x07 || *b == 0x1b)?;
            let body = &rest[..body_end];
            if !(body.starts_with(b"1") || body.starts_with(b"4;"))
                || !body.windows(4).any(|w| w == b"rgb:")
            {
                return None;
            }
            let end = match rest[body_end] {
                0x07 => body_end + 1,
                _ if rest.get(body_end + 1) == Some(&b'\\') => body_end + 2,
                _ => return None,
            };
            Some(2 + end)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{is_typed_by_user, submits_a_line};

    #[test]
    fn enter_submits_but_a_pasted_line_break_does_not() {
        for submit in [
            &b"\r"[..],
            b"hi\r",
            b"\x1b[200~a\rb\x1b[201~\r",
            b"x\r\x1b[200~a",
        ] {
            assert!(submits_a_line(submit), "{submit:?}");
        }
        for not in [
            &b"hi"[..],
            b"\x1b[200~a\rb\x1b[201~",
            b"\x1b[200~a\r",
            b"\n",
        ] {
            assert!(!submits_a_line(not), "{not:?}");
        }
    }

    #[test]
    fn keys_count_and_the_terminal_s_own_reports_do_not() {
        for typed in [
            &b"y"[..],
            b"\r",
            b"\x1b[A",
            b"\x1b",
            b"1\r",
            b"\x1b[Ia",
            b"\x03",
        ] {
            assert!(is_typed_by_user(typed), "{typed:?}");
        }
        for report in [
            &b"\x1b[I"[..],
            b"\x1b[O",
            b"\x1b[12;40R",
            b"\x1b[?1;2c",
            b"\x1b[>0;276;0c",
            b"\x1b]11;rgb:1010/1212/1616\x1b\\",
            b"\x1b]10;rgb:ffff/ffff/ffff\x07",
            b"\x1b[O\x1b[I",
            b"",
        ] {
            assert!(!is_typed_by_user(report), "{report:?}");
        }
    }
}
