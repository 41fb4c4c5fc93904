//! The rules for split ratios: what a stored tree may hold and what a resize may ask for.

use super::LayoutError;

/// Smallest share of a split a child may be given by [`super::LayoutTree::resize`], so a cell can
/// never be dragged to nothing and become impossible to grab again.
pub const MIN_RESIZE_RATIO: f64 = 0.05;

/// How far the ratios of a split may sum away from 1; absorbs float rounding from repeated
/// renormalisation without accepting a genuinely wrong file.
pub const RATIO_SUM_TOLERANCE: f64 = 1e-6;

/// Float slack when comparing a normalised ratio with [`MIN_RESIZE_RATIO`], so ratios the UI
/// computed from pixel sizes are not refused for a rounding error.
const MIN_RATIO_SLACK: f64 = 1e-9;

/// The rule for ratios stored in a tree (looser than [`MIN_RESIZE_RATIO`]: splitting halves a
/// cell's share, so deep splits legitimately go below the resize minimum).
pub(super) fn check_stored(ratios: &[f64], children: usize) -> Result<(), String> {
    if ratios.len() != children {
        return Err(format!("{} ratio(s) for {children} children", ratios.len()));
    }
    if let Some(bad) = ratios
        .iter()
        .find(|ratio| !ratio.is_finite() || **ratio <= 0.0)
    {
        return Err(format!("ratio {bad} is not a positive number"));
    }
    let sum: f64 = ratios.iter().sum();
    if (sum - 1.0).abs() > RATIO_SUM_TOLERANCE {
        return Err(format!("ratios sum to {sum}, not 1"));
    }
    Ok(())
}

/// Scales positive ratios to sum to 1.
pub(super) fn normalise(ratios: &mut [f64]) {
    let sum: f64 = ratios.iter().sum();
    if sum.is_finite() && sum > 0.0 {
        for ratio in ratios {
            *ratio /= sum;
        }
    }
}

/// Checks and normalises ratios given to [`super::LayoutTree::resize`].
pub(super) fn normalise_resize(
    mut ratios: Vec<f64>,
    children: usize,
) -> Result<Vec<f64>, LayoutError> {
    if ratios.len() != children {
        return Err(LayoutError::InvalidRatios(format!(
            "{} ratio(s) given for {children} children",
            ratios.len()
        )));
    }
    if let Some(bad) = ratios
        .iter()
        .find(|ratio| !ratio.is_finite() || **ratio <= 0.0)
    {
        return Err(LayoutError::InvalidRatios(format!(
            "{bad} is not a positive number"
        )));
    }
    let sum: f64 = ratios.iter().sum();
    if !sum.is_finite() {
        return Err(LayoutError::InvalidRatios("ratios are too large".into()));
    }
    normalise(&mut ratios);
    if let Some(small) = ratios
        .iter()
        .find(|ratio| **ratio + MIN_RATIO_SLACK < MIN_RESIZE_RATIO)
    {
        return Err(LayoutError::InvalidRatios(format!(
            "a share of {small:.4} is below the minimum of {MIN_RESIZE_RATIO}"
        )));
    }
    Ok(ratios)
}
