use crate::{FrameId, GpuPassResult};

/// The validated GPU timings of one frame, delivered about two frames after it was submitted.
///
/// Passes are in the order they were opened. Passes that failed validation are missing and
/// counted in [`Self::rejected_passes`] (and in [`crate::GpuTimerStats::invalid_results`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuFrameResult {
    /// The frame these timings belong to.
    pub frame_id: FrameId,
    /// Accepted passes, in opening order.
    pub passes: Vec<GpuPassResult>,
    /// Passes of this frame whose timestamps were rejected.
    pub rejected_passes: u32,
}

impl GpuFrameResult {
    /// Sum of the passes' durations, in seconds: the GPU time this frame's timed work cost.
    /// Overlapping passes (async compute, tilers) are counted twice. O(passes).
    pub fn total_duration_secs(&self) -> f64 {
        self.passes.iter().map(|p| p.duration_secs).sum()
    }

    /// From the earliest begin to the latest end, in seconds; `None` without passes. O(passes).
    pub fn span_secs(&self) -> Option<f64> {
        let begin = self.passes.iter().map(|p| p.begin_gpu_nanos).min()?;
        let end = self.passes.iter().map(|p| p.end_gpu_nanos).max()?;
        Some(end.saturating_sub(begin) as f64 * 1e-9)
    }

    /// The first pass with this label. O(passes).
    pub fn pass(&self, label: &str) -> Option<&GpuPassResult> {
        self.passes.iter().find(|p| &*p.label == label)
    }
}
