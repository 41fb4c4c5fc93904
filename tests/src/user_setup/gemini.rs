//! Placeholder: filled in by the real-CLI work.

use std::path::Path;

/// Prepares `home` for this CLI and returns the environment variables to set.
pub fn prepare_home(_home: &Path, _base_url: &str) -> Vec<(String, String)> {
    Vec::new()
}
