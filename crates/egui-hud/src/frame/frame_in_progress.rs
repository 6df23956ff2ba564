use std::time::Duration;

use profiler_core::{Clock, FrameOrigin};

use crate::frame::frame_facts::FrameFacts;
use crate::repaint::repaint_ledger::RequestMark;

/// One frame of a viewport, from the input hook of its first pass to the output hook of its
/// final one: its start, what decides whose frame it is, and the time that is not the app's.
///
/// Every clock read of the HUD in the frame goes through [`FrameInProgress::stamp`], so the
/// cost of reading the clock is the HUD's too: the reads that fall between two of its own
/// stamps are inside a measured interval; each other read but the frame's first adds one
/// read's cost (calibrated once per sampler, see [`FrameInProgress::hud_cost`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FrameInProgress {
    /// On the HUD's clock: when the frame's first pass received its input.
    pub(crate) started: Duration,
    /// Filled as the hooks learn them; `origin` is set once they are all known.
    pub(crate) facts: FrameFacts,
    pub(crate) origin: Option<FrameOrigin>,
    /// The HUD's own time: its drawing and its bookkeeping.
    measured_cost: Duration,
    /// Immediate child viewports' frames, run inside this one: neither the app's nor the HUD's.
    nested_cost: Duration,
    measured_intervals: u32,
    clock_reads: u32,
    /// When the immediate child viewport that runs now began.
    nested_since: Option<Duration>,
    /// The HUD asked egui to redo the pass in progress (a click changed its size).
    pub(crate) discard_requested: bool,
    /// Whether `fps_monitor` drew the HUD in this frame.
    pub(crate) drawn: bool,
    /// The app's request that fell due first among those that woke the frame (latency path).
    pub(crate) waking_request: Option<RequestMark>,
}

impl FrameInProgress {
    /// A frame beginning now (the first of the frame's clock reads).
    pub(crate) fn begin(clock: &dyn Clock, facts: FrameFacts) -> Self {
        Self {
            started: clock.now(),
            facts,
            origin: None,
            measured_cost: Duration::ZERO,
            nested_cost: Duration::ZERO,
            measured_intervals: 0,
            clock_reads: 1,
            nested_since: None,
            discard_requested: false,
            drawn: false,
            waking_request: None,
        }
    }

    /// Reads the clock for the HUD.
    pub(crate) fn stamp(&mut self, clock: &dyn Clock) -> Duration {
        self.clock_reads += 1;
        clock.now()
    }

    /// Adds an interval of the HUD's own work, from `since` (a stamp) to now.
    pub(crate) fn add_cost_since(&mut self, clock: &dyn Clock, since: Duration) {
        let now = self.stamp(clock);
        self.measured_cost = self.measured_cost.saturating_add(now.saturating_sub(since));
        self.measured_intervals += 1;
    }

    /// An immediate child viewport's frame begins inside this one.
    pub(crate) fn begin_nested(&mut self, clock: &dyn Clock) {
        self.nested_since = Some(self.stamp(clock));
    }

    /// The child viewport's pass ended: its time is not this frame's.
    pub(crate) fn end_nested(&mut self, clock: &dyn Clock) {
        if let Some(since) = self.nested_since.take() {
            let now = self.stamp(clock);
            self.nested_cost = self.nested_cost.saturating_add(now.saturating_sub(since));
            // A measured interval all the same: it holds one clock read's cost.
            self.measured_intervals += 1;
        }
    }

    /// Immediate child viewports' time in this frame (see [`FrameInProgress::begin_nested`]).
    pub(crate) fn nested_cost(&self) -> Duration {
        self.nested_cost
    }

    /// The HUD had egui redo this frame's pass: all of it so far is the HUD's doing, so the
    /// frame starts again with the redone pass.
    pub(crate) fn restart_after_discard(&mut self, clock: &dyn Clock) {
        self.started = clock.now();
        self.measured_cost = Duration::ZERO;
        self.nested_cost = Duration::ZERO;
        self.measured_intervals = 0;
        self.clock_reads = 1;
        self.discard_requested = false;
    }

    /// The HUD's own time in the frame: its measured intervals, and one clock read
    /// (`read_cost`) for each read not inside one of them. The frame's first read is outside
    /// the frame whichever side of the stamp a read's cost falls, and each interval holds one.
    pub(crate) fn hud_cost(&self, read_cost: Duration) -> Duration {
        let unmeasured_reads = self
            .clock_reads
            .saturating_sub(1)
            .saturating_sub(self.measured_intervals);
        self.measured_cost
            .saturating_add(read_cost.saturating_mul(unmeasured_reads))
    }
}
