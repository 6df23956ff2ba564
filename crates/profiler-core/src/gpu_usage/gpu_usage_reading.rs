//! One per-process GPU busy share.

use super::GpuUsageSource;

/// This process's share of its busiest GPU engine over the interval since the previous sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuUsageReading {
    /// Busy share in percent, `0.0..=100.0`: the busiest engine (render, compute, copy, video…)
    /// of the busiest GPU, so several engines busy at once never read above 100.
    pub busy_percent: f64,
    /// The counter it was read from.
    pub source: GpuUsageSource,
}
