#![allow(clippy::unwrap_used, clippy::expect_used)]

mod records;
mod resolving;
mod screens;
mod table;
mod untrusted;

use super::*;

/// The rows of a screen as a string shows them, one a line.
fn rows(screen: &str) -> Vec<String> {
    screen.lines().map(str::to_owned).collect()
}

/// The reset words without the parentheses around a zone, as the fixture table writes them.
fn plain(words: &str) -> String {
    words.replace(['(', ')'], "")
}
