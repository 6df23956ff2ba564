use std::time::Duration;

/// A counted frame's draw, judged by [`FrameSampler::judge_frame`](crate::FrameSampler::judge_frame)
/// and not yet in the sampler's statistics: [`FrameSampler::count_draw`](crate::FrameSampler::count_draw)
/// adds it, once, in the order the frames were judged (not `Copy`, so that it is not counted
/// twice by accident). Plain data, 56 bytes.
///
/// The split lets a caller that records frames in a hot path (egui-hud's output hook) hand the
/// statistics' share of the work to a batch: a [`FrameRecorder`](crate::record::frame_recorder::FrameRecorder)
/// counts the draws it was given with each frame's end ([`FrameEnd::pending_draw`](crate::record::frame_end::FrameEnd::pending_draw))
/// at its flush.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingDraw {
    /// The draw without the overlay's cost and the excluded time, in nanoseconds.
    pub(crate) draw_nanos: u64,
    /// The overlay's cost, in and after the draw, in nanoseconds.
    pub(crate) overlay_nanos: u64,
    /// Repaint requests coalesced into the frame.
    pub(crate) invalidations: u32,
    /// The frame's present, if it was a possible one.
    pub(crate) present: Option<Duration>,
    /// The present before it, when the frame was judged: its interval's start.
    pub(crate) previous_present: Option<Duration>,
    /// Whether the frame was wanted right after the previous one (its interval counts).
    pub(crate) back_to_back: bool,
}

const _: () = assert!(
    size_of::<PendingDraw>() == 56,
    "the size the docs of `PendingDraw` and `FrameEnd` state"
);

impl PendingDraw {
    /// The overlay's own time the sampler judged for the frame (bounded as a draw is): its time
    /// inside the frame, which FRAME leaves out, and its time after the previous frame's end,
    /// inside no frame's draw. What [`crate::Snapshot::overlay_cost`] averages once the draw
    /// is counted. Free.
    #[must_use]
    pub fn overlay_cost(&self) -> Duration {
        Duration::from_nanos(self.overlay_nanos)
    }
}
