/// Running counters of a [`crate::GpuTimer`], since it was created.
///
/// Plain data; reading it with [`crate::GpuTimer::stats`] costs one uncontended lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuTimerStats {
    /// Frames whose results were delivered (possibly with some passes rejected).
    pub timed_frames: u64,

    /// Frames that were not timed: every slot was still in flight at `begin_frame`, or the frame's
    /// resolve was never submitted, or its readback failed.
    pub dropped_frames: u64,

    /// Passes and scopes that got no timestamps because the frame's slot was full
    /// (raise `GpuTimerSettings::max_passes_per_frame`).
    pub skipped_passes: u64,

    /// Readbacks recorded: one resolve, one buffer copy and one map each, for a group of up
    /// to `GpuTimerSettings::frames_per_readback` ended frames.
    pub readbacks: u64,
    /// Pass results rejected by validation (zero, reversed or implausible timestamps, unfinished
    /// scopes); they are never delivered.
    pub invalid_results: u64,
}
