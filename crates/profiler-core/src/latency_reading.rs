use std::time::Duration;

use crate::LatencyStage;

/// One latency stage over the retained frames: its distribution, computed from each frame's own
/// pair of marks (never as a difference of two means). `frames` is 0 and the percentiles are
/// `None` when no retained frame had both marks: shown as "—", never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencyReading {
    /// The stage.
    pub stage: LatencyStage,
    /// Retained frames that had both of the stage's marks.
    pub frames: usize,
    /// Median (nearest rank); a stage measured below zero (calibration) reads zero.
    pub p50: Option<Duration>,
    /// 95th percentile (nearest rank).
    pub p95: Option<Duration>,
    /// Maximum.
    pub max: Option<Duration>,
}
