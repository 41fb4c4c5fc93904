//! A terminal's rows and columns, and the one bound on them every entry point applies.

use serde::{Deserialize, Serialize};

/// Rows and columns of a terminal, within [`TerminalSize::MIN`]..=[`TerminalSize::MAX`]
/// whenever it comes from outside: deserialising checks the bound, and every use case that
/// takes a size checks it again ([`TerminalSize::checked`]), so none out of bounds reaches a
/// PTY. The frontend clamps what it sends to the same bound (`TerminalSizeBounds.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", try_from = "UncheckedSize")]
pub struct TerminalSize {
    pub rows: u16,
    pub cols: u16,
}

impl TerminalSize {
    /// The smallest terminal IdeA accepts: `vt100` underflows on a wrap that scrolls a
    /// one-row screen and on a wide character in one column, the replay's model needs two
    /// columns, and xterm.js never fits fewer than two columns.
    pub const MIN: Self = Self { rows: 2, cols: 2 };
    /// The largest terminal IdeA accepts: more than a 4K screen shows at a 6 × 12-pixel font
    /// (640 × 180, or 480 rows of 8 pixels turned portrait) and than an 8K screen's width at
    /// 8 pixels a column (960).
    ///
    /// Memory grows with the area: the replay's model keeps 10 000 lines of scrollback at the
    /// terminal's width plus its two screens (24 bytes a cell), an agent's state watcher two
    /// `vt100` screens (32 bytes a cell). At this size that is at most (10 000 + 2 × 500) ×
    /// 1000 × 24 B ≈ 264 MB for the model, once its scrollback is full of full-width lines
    /// (measured: `idea serve` with one such shell, 294 MB), and 2 × 500 × 1000 × 32 B = 32 MB
    /// for the watcher. At 65535 × 65535 one resize asked for terabytes.
    pub const MAX: Self = Self {
        rows: 500,
        cols: 1000,
    };

    /// `rows` × `cols`, if within the bound.
    ///
    /// # Errors
    /// [`TerminalSizeError`] naming the bound.
    pub fn new(rows: u64, cols: u64) -> Result<Self, TerminalSizeError> {
        let within = |value: u64, min: u16, max: u16| {
            u16::try_from(value)
                .ok()
                .filter(|value| (min..=max).contains(value))
        };
        match (
            within(rows, Self::MIN.rows, Self::MAX.rows),
            within(cols, Self::MIN.cols, Self::MAX.cols),
        ) {
            (Some(rows), Some(cols)) => Ok(Self { rows, cols }),
            _ => Err(TerminalSizeError { rows, cols }),
        }
    }

    /// This size, if within the bound (a size built in code rather than deserialised).
    ///
    /// # Errors
    /// [`TerminalSizeError`] naming the bound.
    pub fn checked(self) -> Result<Self, TerminalSizeError> {
        Self::new(self.rows.into(), self.cols.into())
    }
}

impl Default for TerminalSize {
    fn default() -> Self {
        Self { rows: 24, cols: 80 }
    }
}

/// A size out of [`TerminalSize`]'s bound; its message names the bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a terminal has {min_rows} to {max_rows} rows and {min_cols} to {max_cols} columns, not \
     {rows} rows and {cols} columns",
    min_rows = TerminalSize::MIN.rows,
    max_rows = TerminalSize::MAX.rows,
    min_cols = TerminalSize::MIN.cols,
    max_cols = TerminalSize::MAX.cols
)]
pub struct TerminalSizeError {
    pub rows: u64,
    pub cols: u64,
}

/// What the wire carries, before the bound: wide enough that any number a client sends gets
/// the bound's message rather than "expected u16".
#[derive(Deserialize)]
struct UncheckedSize {
    rows: u64,
    cols: u64,
}

impl TryFrom<UncheckedSize> for TerminalSize {
    type Error = TerminalSizeError;

    fn try_from(size: UncheckedSize) -> Result<Self, Self::Error> {
        Self::new(size.rows, size.cols)
    }
}

/// Run by `scripts/gen-types.sh` (its name matches `export_bindings`): the bounds as
/// TypeScript constants, from the same constants and serialisation as the wire's.
#[cfg(all(test, feature = "ts"))]
#[test]
fn export_bindings_terminal_size_bounds() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::var_os("TS_RS_EXPORT_DIR")
        .map_or_else(|| std::path::PathBuf::from("./bindings"), Into::into);
    let text = format!(
        "// This file was generated from crates/domain/src/terminal/size.rs. Do not edit this \
         file manually.\nimport type {{ TerminalSize }} from \"./TerminalSize\";\n\n\
         /** The smallest terminal IdeA accepts; a smaller size is refused. */\n\
         export const TERMINAL_SIZE_MIN: TerminalSize = {};\n\n\
         /** The largest terminal IdeA accepts; a larger size is refused. */\n\
         export const TERMINAL_SIZE_MAX: TerminalSize = {};\n\n\
         /** The smallest size a client's cell gives a terminal several clients share (a \
         smaller cell scrolls). */\n\
         export const SHARED_SIZE_MIN: TerminalSize = {};\n",
        serde_json::to_string(&TerminalSize::MIN)?,
        serde_json::to_string(&TerminalSize::MAX)?,
        serde_json::to_string(&super::SHARED_MIN)?,
    );
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("TerminalSizeBounds.ts"), text)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn sizes_within_the_bound_are_taken_and_others_refused_naming_it() {
        for ok in [
            TerminalSize::MIN,
            TerminalSize::MAX,
            TerminalSize::default(),
        ] {
            assert_eq!(ok.checked(), Ok(ok));
            let wire = serde_json::to_value(ok).unwrap();
            assert_eq!(serde_json::from_value::<TerminalSize>(wire).unwrap(), ok);
        }
        for (rows, cols) in [
            (1, 80),
            (24, 1),
            (0, 0),
            (501, 80),
            (24, 1001),
            (65535, 65535),
        ] {
            let error = TerminalSize::new(rows, cols).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "a terminal has 2 to 500 rows and 2 to 1000 columns, not {rows} rows and \
                     {cols} columns"
                )
            );
        }
        let refused = serde_json::from_value::<TerminalSize>(json!({"rows": 70000, "cols": 80}));
        assert!(
            refused.unwrap_err().to_string().contains("2 to 500 rows"),
            "a number past u16 gets the bound's message too"
        );
        assert!(serde_json::from_value::<TerminalSize>(json!({"rows": -1, "cols": 80})).is_err());
    }
}
