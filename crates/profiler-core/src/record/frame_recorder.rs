//! The one owner of a viewport's counted frames after they end.

use std::time::Duration;

use crate::SystemTime;
use crate::frame_sampler::FrameSampler;
use crate::record::frame_assembly::{FrameAssembly, PaintMarks};
use crate::record::frame_log::FrameLog;
use crate::record::frame_phases::FramePhases;
use crate::record::frame_trace::FrameTrace;
use crate::record::spike_threshold::SpikeThreshold;

/// The one owner of a viewport's counted frames after they end: gathers each frame's marks as
/// they arrive ([`FrameAssembly`]), and once a frame is complete records its latency in the
/// sampler and moves it into the retained window and spikes ([`FrameLog`]). Every way a frame
/// completes goes through one private function, so the sampler and the log never disagree.
///
/// No allocation per frame: the assembly's slots and the log's window are allocated once; a
/// spike allocates its lists when it is kept. A frame's record (about 2 KB) is written into a
/// slot once and swapped into the window once.
#[derive(Debug)]
pub struct FrameRecorder {
    assembly: FrameAssembly,
    log: FrameLog,
}

impl FrameRecorder {
    /// A recorder retaining `capacity` frames, keeping spikes by `threshold`.
    pub fn new(capacity: usize, threshold: SpikeThreshold) -> Self {
        Self {
            assembly: FrameAssembly::default(),
            log: FrameLog::new(capacity, threshold),
        }
    }

    /// The retained frames and spikes.
    pub fn log(&self) -> &FrameLog {
        &self.log
    }

    /// A counted frame ended (see [`FrameAssembly::frame_counted`]).
    pub fn frame_counted(&mut self, trace: FrameTrace, sampler: &mut FrameSampler) {
        let log = &mut self.log;
        self.assembly
            .frame_counted(trace, |trace| Self::complete(log, sampler, trace));
    }

    /// A counted frame ended, written where it waits (see
    /// [`FrameAssembly::frame_counted_in_place`]).
    pub fn frame_counted_in_place(
        &mut self,
        sequence: u64,
        wall_clock: SystemTime,
        fill: impl FnOnce(&mut FrameTrace),
        sampler: &mut FrameSampler,
    ) {
        let log = &mut self.log;
        self.assembly
            .frame_counted_in_place(sequence, wall_clock, fill, |trace| {
                Self::complete(log, sampler, trace);
            });
    }

    /// The next frame started at `now` (see [`FrameAssembly::frame_started`]).
    pub fn frame_started(&mut self, now: Duration, sampler: &mut FrameSampler) {
        let log = &mut self.log;
        self.assembly
            .frame_started(now, |trace| Self::complete(log, sampler, trace));
    }

    /// The CPU time of frame `sequence` and its phases (see [`FrameAssembly::cpu_reported`]).
    pub fn cpu_reported(&mut self, sequence: u64, total: Duration, phases: FramePhases) {
        self.assembly.cpu_reported(sequence, total, phases);
    }

    /// The renderer's marks of the latest frame painted with stamps (see
    /// [`FrameAssembly::painted`]).
    pub fn painted(&mut self, paint: Option<PaintMarks>, sampler: &mut FrameSampler) {
        let log = &mut self.log;
        self.assembly
            .painted(paint, |trace| Self::complete(log, sampler, trace));
    }

    /// GPU results of the timer's frame `gpu_frame` arrived (see [`FrameAssembly::gpu_done`]).
    pub fn gpu_done(
        &mut self,
        gpu_frame: u64,
        gpu: (Duration, FramePhases),
        egui_pass: Option<(Duration, Duration)>,
        sampler: &mut FrameSampler,
    ) {
        let log = &mut self.log;
        self.assembly.gpu_done(gpu_frame, gpu, egui_pass, |trace| {
            Self::complete(log, sampler, trace);
        });
    }

    /// Whether a presentation source reports the frames (see
    /// [`FrameAssembly::set_expects_presentations`]).
    pub fn set_expects_presentations(&mut self, expects: bool) {
        self.assembly.set_expects_presentations(expects);
    }

    /// The window system reported frame `sequence` (see [`FrameAssembly::presented`]).
    pub fn presented(
        &mut self,
        sequence: u64,
        on_screen: Option<Duration>,
        sampler: &mut FrameSampler,
    ) {
        let log = &mut self.log;
        self.assembly.presented(sequence, on_screen, |trace| {
            Self::complete(log, sampler, trace);
        });
    }

    /// The HUD stopped or restarted: nothing waits, and the log starts over with `capacity`
    /// and `threshold`.
    pub fn restart(&mut self, capacity: usize, threshold: SpikeThreshold) {
        self.assembly.clear();
        self.log = FrameLog::new(capacity, threshold);
    }

    /// A complete frame: its latency into the sampler, the frame into the log under the budget
    /// in effect (swapped in: the assembly's slot gets the frame the log let go).
    fn complete(log: &mut FrameLog, sampler: &mut FrameSampler, trace: &mut FrameTrace) {
        sampler.record_latency(&trace.marks);
        log.add_swapping(trace, sampler.budget().duration());
    }
}
