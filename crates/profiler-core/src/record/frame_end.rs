//! What is known of a counted frame when it ends.

use std::time::Duration;

use crate::SystemTime;
use crate::latency_marks::LatencyMarks;
use crate::pending_draw::PendingDraw;
use crate::record::frame_trace::{FrameCauses, FrameTrace};

/// What is known of a counted frame when it ends: the fields of its [`FrameTrace`] that its
/// end fills (the CPU time, paint, GPU and presentation marks come later). About 0.65 KB, a
/// third of a trace: the recorder keeps it until it writes it into the frame's slot (see
/// [`crate::record::frame_recorder::FrameRecorder::frame_ended`]).
#[derive(Clone, Debug)]
pub struct FrameEnd {
    /// The frame's number ([`FrameTrace::sequence`]).
    pub sequence: u64,
    /// When it ended, by the wall clock ([`FrameTrace::wall_clock`]).
    pub wall_clock: SystemTime,
    /// Its marks known at its end: request, due, frame start, UI end ([`FrameTrace::marks`]).
    pub marks: LatencyMarks,
    /// Its draw time, the HUD's own cost left out ([`FrameTrace::draw`]).
    pub draw: Duration,
    /// The HUD's own CPU time charged to the frame, in it and after the previous frame's end
    /// ([`FrameTrace::overlay_cost`]): [`PendingDraw::overlay_cost`] of the draw the sampler
    /// judged. A caller that counted the frame with `record_frame` gives the overlay cost it
    /// recorded (both parts, bounded as `judge_frame` bounds them), or zero when it has none.
    pub overlay_cost: Duration,
    /// Hand-off to hand-off, for a frame that followed the last without a wait
    /// ([`FrameTrace::handoff_interval`]).
    pub handoff_interval: Option<Duration>,
    /// [`FrameTrace::invalidations`].
    pub invalidations: u32,
    /// [`FrameTrace::passes`].
    pub passes: u32,
    /// What woke it and why its passes were redone ([`FrameTrace::causes`]).
    pub causes: FrameCauses,
    /// Its draw as the sampler judged it, for the recorder to count in the sampler's
    /// statistics when it hands the frame on
    /// ([`FrameSampler::count_draw`](crate::frame_sampler::FrameSampler::count_draw)); `None`
    /// when the sampler counted it already
    /// ([`FrameSampler::record_frame`](crate::frame_sampler::FrameSampler::record_frame)).
    pub pending_draw: Option<PendingDraw>,
}

impl FrameEnd {
    /// Writes this end into `trace`, a record about to hold the frame: what
    /// `FrameTrace::new(sequence, wall_clock)` holds, with these fields filled in.
    pub(crate) fn write_into(self, trace: &mut FrameTrace) {
        debug_assert!(
            self.pending_draw.is_none(),
            "the recorder counts the draw before it writes the end"
        );
        trace.reset(self.sequence, self.wall_clock);
        trace.marks = self.marks;
        trace.draw = self.draw;
        trace.overlay_cost = self.overlay_cost;
        trace.handoff_interval = self.handoff_interval;
        trace.invalidations = self.invalidations;
        trace.passes = self.passes;
        trace.causes = self.causes;
    }
}
