//! The one owner of a viewport's counted frames after they end.

use std::time::Duration;

use crate::frame_sampler::FrameSampler;
use crate::record::frame_assembly::{FrameAssembly, PaintMarks};
use crate::record::frame_end::FrameEnd;
use crate::record::frame_log::FrameLog;
use crate::record::frame_phases::FramePhases;
use crate::record::frame_trace::FrameTrace;
use crate::record::spike_threshold::SpikeThreshold;

/// Inputs the recorder keeps before it hands them to the assembly: a few frames' worth (a
/// frame brings two to five: its start, its end, its CPU time, its paint marks, GPU results
/// and presentations as they come). See [`FrameRecorder`] for why.
const KEPT_INPUTS: usize = 32;

/// The one owner of a viewport's counted frames after they end: gathers each frame's marks as
/// they arrive ([`FrameAssembly`]), and once a frame is complete records its latency in the
/// sampler and moves it into the retained window and spikes ([`FrameLog`]). Every way a frame
/// completes goes through one private function, so the sampler and the log never disagree.
/// It also counts each frame's draw ([`FrameEnd::pending_draw`], judged by
/// [`FrameSampler::judge_frame`]) and CPU time ([`Self::cpu_reported`]) in the sampler's
/// statistics.
///
/// What it is told is kept, in order, and handed on a few frames at a time ([`Self::flush`]),
/// when its room is full or before anything is read: [`Self::log`] and every readout of the
/// sampler (draws, FPS, MISS, the lows, CPU, latency) are as of the last flush. A frame's share of that work is a few
/// hundred instructions over some forty functions, and in a real window the app's drawing
/// between two frames leaves them out of the CPU's caches: done a few frames at a time, they
/// are fetched once for the lot (a throwaway build without this step read 3.8–7.5 µs a frame
/// lower at the median in the demo, `docs/cost-history.md`). Readers flush first; nothing is lost
/// or reordered. The frame that flushes does the others' share: a median of per-frame costs
/// reads lower than their mean by more than the saving.
///
/// No allocation per frame: the kept inputs, the assembly's slots and the log's window are
/// allocated once; a spike allocates its lists when it is kept. A frame's record (about 2 KB)
/// is written into a slot once and swapped into the window once.
///
/// What is kept is small where it can be: a frame's end (0.65 KB) and its phase sets (0.6 KB
/// for eight phases, of which a frame usually has one to three) wait in queues of their own,
/// in the order they came, and the list of inputs holds a few words each. Kept whole in one
/// list of the largest input, a frame's four inputs wrote 2.6 KB that the flush read back.
#[derive(Debug)]
pub struct FrameRecorder {
    assembly: FrameAssembly,
    log: FrameLog,
    /// What the recorder was told since the last flush, oldest first; room for
    /// [`KEPT_INPUTS`], allocated once, at the first input.
    kept: Vec<RecorderInput>,
    /// The ends of the kept [`RecorderInput::Ended`], in order; as much room.
    ends: Vec<FrameEnd>,
    /// The phase sets of the kept [`RecorderInput::CpuReported`] and
    /// [`RecorderInput::GpuDone`], in order, in the first `phase_sets_kept` sets; the sets are
    /// made once and copied over ([`FramePhases::clone_from`] writes only the phases in use).
    phase_sets: Vec<FramePhases>,
    phase_sets_kept: usize,
}

/// One thing the recorder was told, as it waits for a flush. What is large waits apart (see
/// [`FrameRecorder`]).
#[derive(Debug)]
enum RecorderInput {
    Started(Duration),
    /// The next of the recorder's `ends`.
    Ended,
    /// With the next of the recorder's phase sets.
    CpuReported {
        sequence: u64,
        total: Duration,
        untracked: u32,
    },
    Painted(Option<PaintMarks>),
    /// With the next of the recorder's phase sets (the passes).
    GpuDone {
        gpu_frame: u64,
        gpu_total: Duration,
        egui_pass: Option<(Duration, Duration)>,
    },
    Presented {
        sequence: u64,
        on_screen: Option<Duration>,
    },
}

impl FrameRecorder {
    /// A recorder retaining `capacity` frames, keeping spikes by `threshold`.
    pub fn new(capacity: usize, threshold: SpikeThreshold) -> Self {
        Self {
            assembly: FrameAssembly::default(),
            log: FrameLog::new(capacity, threshold),
            // Its room is allocated at the first input: a viewport that never shows the
            // HUD pays nothing for it.
            kept: Vec::new(),
            ends: Vec::new(),
            phase_sets: Vec::new(),
            phase_sets_kept: 0,
        }
    }

    /// The retained frames and spikes, as of the last [`Self::flush`]: flush first to read
    /// every frame completed until now.
    pub fn log(&self) -> &FrameLog {
        &self.log
    }

    /// Whether anything waits for a [`Self::flush`]. Free.
    pub fn has_kept(&self) -> bool {
        !self.kept.is_empty()
    }

    /// Hands what the recorder was told since the last call on, in order: draws and CPU times
    /// into `sampler`'s statistics, the rest to the assembly, whose completed frames go into
    /// the log and their latency into `sampler`. Call it before reading the log or any of
    /// `sampler`'s readouts, and before changing its budget or refresh rate (a draw's missed
    /// refreshes are counted against the budget in effect); after a reset of `sampler`, call
    /// [`Self::restart`] instead. Free when nothing is kept.
    pub fn flush(&mut self, sampler: &mut FrameSampler) {
        let Self {
            assembly,
            log,
            kept,
            ends,
            phase_sets,
            phase_sets_kept,
        } = self;
        let mut complete = |sampler: &mut FrameSampler, trace: &mut FrameTrace| {
            Self::complete(log, sampler, trace);
        };
        let mut ends = ends.drain(..);
        let mut sets = phase_sets.iter().take(std::mem::take(phase_sets_kept));
        for input in kept.drain(..) {
            match input {
                RecorderInput::Started(now) => {
                    assembly.frame_started(now, |trace| complete(sampler, trace));
                }
                RecorderInput::Ended => {
                    let Some(mut end) = ends.next() else {
                        debug_assert!(false, "an end is kept with each `Ended`");
                        continue;
                    };
                    if let Some(draw) = end.pending_draw.take() {
                        sampler.count_draw(draw);
                    }
                    assembly.frame_counted_in_place(
                        end.sequence,
                        end.wall_clock,
                        |trace| end.write_into(trace),
                        |trace| complete(sampler, trace),
                    );
                }
                RecorderInput::CpuReported {
                    sequence,
                    total,
                    untracked,
                } => {
                    let Some(phases) = sets.next() else {
                        debug_assert!(false, "a phase set is kept with each `CpuReported`");
                        continue;
                    };
                    sampler.record_cpu_frame(total, phases.iter(), untracked);
                    assembly.cpu_reported(sequence, total, phases);
                }
                RecorderInput::Painted(paint) => {
                    assembly.painted(paint, |trace| complete(sampler, trace));
                }
                RecorderInput::GpuDone {
                    gpu_frame,
                    gpu_total,
                    egui_pass,
                } => {
                    let Some(passes) = sets.next() else {
                        debug_assert!(false, "a phase set is kept with each `GpuDone`");
                        continue;
                    };
                    assembly.gpu_done(gpu_frame, (gpu_total, passes), egui_pass, |trace| {
                        complete(sampler, trace);
                    });
                }
                RecorderInput::Presented {
                    sequence,
                    on_screen,
                } => assembly.presented(sequence, on_screen, |trace| complete(sampler, trace)),
            }
        }
    }

    /// A counted frame ended, as a whole record (see [`FrameAssembly::frame_counted`]);
    /// handed on at once, after what was kept.
    pub fn frame_counted(&mut self, trace: FrameTrace, sampler: &mut FrameSampler) {
        self.flush(sampler);
        let log = &mut self.log;
        self.assembly
            .frame_counted(trace, |trace| Self::complete(log, sampler, trace));
    }

    /// A counted frame ended: what is known of it then (see [`FrameEnd`]), written into the
    /// slot where it waits for the rest at the next flush.
    pub fn frame_ended(&mut self, end: FrameEnd, sampler: &mut FrameSampler) {
        self.keep(RecorderInput::Ended, sampler);
        self.ends.push(end);
    }

    /// The next frame started at `now` (see [`FrameAssembly::frame_started`]).
    pub fn frame_started(&mut self, now: Duration, sampler: &mut FrameSampler) {
        self.keep(RecorderInput::Started(now), sampler);
    }

    /// The CPU time of frame `sequence` and its phases, with the number of phase names that
    /// had no room (`untracked`): at the next flush, into the sampler's CPU readouts
    /// ([`FrameSampler::record_cpu_frame`]) and the frame's record (see
    /// [`FrameAssembly::cpu_reported`]).
    pub fn cpu_reported(
        &mut self,
        sequence: u64,
        total: Duration,
        phases: &FramePhases,
        untracked: u32,
        sampler: &mut FrameSampler,
    ) {
        let input = RecorderInput::CpuReported {
            sequence,
            total,
            untracked,
        };
        self.keep(input, sampler);
        self.keep_phases(phases);
    }

    /// The renderer's marks of the latest frame painted with stamps (see
    /// [`FrameAssembly::painted`]).
    pub fn painted(&mut self, paint: Option<PaintMarks>, sampler: &mut FrameSampler) {
        self.keep(RecorderInput::Painted(paint), sampler);
    }

    /// GPU results of the timer's frame `gpu_frame` arrived (see [`FrameAssembly::gpu_done`]).
    pub fn gpu_done(
        &mut self,
        gpu_frame: u64,
        (gpu_total, passes): (Duration, &FramePhases),
        egui_pass: Option<(Duration, Duration)>,
        sampler: &mut FrameSampler,
    ) {
        let input = RecorderInput::GpuDone {
            gpu_frame,
            gpu_total,
            egui_pass,
        };
        self.keep(input, sampler);
        self.keep_phases(passes);
    }

    /// Whether a presentation source reports the frames from now on (see
    /// [`FrameAssembly::set_expects_presentations`]); the frames told of before are handed on
    /// first, under the old rule.
    pub fn set_expects_presentations(&mut self, expects: bool, sampler: &mut FrameSampler) {
        self.flush(sampler);
        self.assembly.set_expects_presentations(expects);
    }

    /// The window system reported frame `sequence` (see [`FrameAssembly::presented`]).
    pub fn presented(
        &mut self,
        sequence: u64,
        on_screen: Option<Duration>,
        sampler: &mut FrameSampler,
    ) {
        let input = RecorderInput::Presented {
            sequence,
            on_screen,
        };
        self.keep(input, sampler);
    }

    /// The HUD stopped or restarted: nothing waits or is kept (the draws and CPU times not
    /// yet counted are dropped with the rest), and the log starts over with `capacity` and
    /// `threshold`. Call it whenever the sampler is reset or replaced.
    pub fn restart(&mut self, capacity: usize, threshold: SpikeThreshold) {
        self.kept.clear();
        self.ends.clear();
        // The sets are kept for reuse, without the names they held (a hidden HUD keeps none).
        for set in &mut self.phase_sets {
            set.clear();
        }
        self.phase_sets_kept = 0;
        self.assembly.clear();
        self.log = FrameLog::new(capacity, threshold);
    }

    /// Keeps `input` for the next flush; a full room is flushed first, so it never grows
    /// (nor do the queues beside it, which hold at most one entry per input). The caller
    /// queues what goes with the input (its end, its phases) right after.
    fn keep(&mut self, input: RecorderInput, sampler: &mut FrameSampler) {
        if self.kept.capacity() == 0 {
            self.kept.reserve_exact(KEPT_INPUTS);
            self.ends.reserve_exact(KEPT_INPUTS);
            self.phase_sets.reserve_exact(KEPT_INPUTS);
        }
        if self.kept.len() == KEPT_INPUTS {
            self.flush(sampler);
        }
        debug_assert!(self.kept.len() < KEPT_INPUTS, "flushed when full");
        self.kept.push(input);
    }

    /// Queues the phase set of the input just kept, copied into a set made once.
    fn keep_phases(&mut self, phases: &FramePhases) {
        if let Some(kept) = self.phase_sets.get_mut(self.phase_sets_kept) {
            kept.clone_from(phases);
        } else {
            debug_assert!(
                self.phase_sets.len() < KEPT_INPUTS,
                "at most one set per kept input"
            );
            self.phase_sets.push(phases.clone());
        }
        self.phase_sets_kept += 1;
    }

    /// A complete frame: its latency into the sampler, the frame into the log under the budget
    /// in effect (swapped in: the assembly's slot gets the frame the log let go).
    fn complete(log: &mut FrameLog, sampler: &mut FrameSampler, trace: &mut FrameTrace) {
        sampler.record_latency(&trace.marks);
        log.add_swapping(trace, sampler.budget().duration());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::{FrameRecorder, KEPT_INPUTS};
    use crate::SystemTime;
    use crate::frame_record::{FrameOrigin, FrameRecord};
    use crate::frame_sampler::FrameSampler;
    use crate::frame_verdict::FrameVerdict;
    use crate::latency_marks::LatencyMarks;
    use crate::manual_clock::ManualClock;
    use crate::record::frame_assembly::{FrameAssembly, PaintMarks};
    use crate::record::frame_end::FrameEnd;
    use crate::record::frame_log::FrameLog;
    use crate::record::frame_phases::{FramePhases, PhaseName};
    use crate::record::frame_trace::{FrameCauses, FrameTrace};
    use crate::record::spike_threshold::SpikeThreshold;
    use crate::sampler_config::SamplerConfig;
    use crate::snapshot::Snapshot;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn new_sampler() -> FrameSampler {
        FrameSampler::new(SamplerConfig::default(), Arc::new(ManualClock::new()))
            .expect("the default config")
    }

    /// Frame `n`'s end: it starts at 16·n ms and its draw takes 2 ms, 80 ms every seventh
    /// frame (a spike).
    fn end_of(n: u64) -> FrameEnd {
        let draw = if n % 7 == 3 { ms(80) } else { ms(2) };
        FrameEnd {
            sequence: n,
            wall_clock: SystemTime::UNIX_EPOCH,
            marks: LatencyMarks {
                request: Some(ms(16 * n)),
                frame_start: Some(ms(16 * n + 1)),
                ui_end: Some(ms(16 * n + 1) + draw),
                ..LatencyMarks::default()
            },
            draw,
            overlay_cost: Duration::ZERO,
            handoff_interval: Some(ms(16)),
            invalidations: 1,
            passes: 1,
            causes: FrameCauses::default(),
            pending_draw: None,
        }
    }

    /// What a frame tells the recorder, in a viewport's order: its start, its end (its record
    /// made as the recorder would), the CPU time and paint marks of the one before at its
    /// draw, GPU results two frames late for every third frame painted with stamps, and from
    /// frame 100 to 199 presentations (a source starts and stops reporting).
    enum Told {
        Started(Duration),
        Ended(u64),
        Cpu(u64),
        Painted(Option<PaintMarks>),
        Gpu(u64),
        ExpectsPresentations(bool),
        Presented(u64),
    }

    /// Frame `n`'s CPU phases: two, of 1 and 2 ms (+ n µs).
    fn cpu_phases_of(n: u64) -> FramePhases {
        let mut phases = FramePhases::default();
        phases.add(PhaseName::Static("ui"), ms(1), None);
        phases.add(
            PhaseName::Static("render"),
            ms(2) + Duration::from_micros(n),
            None,
        );
        phases
    }

    /// The GPU passes of the timer's frame `n`: one, its time told apart by `n`.
    fn gpu_passes_of(n: u64) -> FramePhases {
        let mut passes = FramePhases::default();
        passes.add(
            PhaseName::Static("egui"),
            ms(5) + Duration::from_micros(n),
            None,
        );
        passes
    }

    /// Phase names of frame `n` that had no room: one in every other frame.
    fn untracked_of(n: u64) -> u32 {
        u32::from(n % 2 == 1)
    }

    fn frame_inputs(n: u64) -> Vec<Told> {
        let painted = (n > 0 && (n - 1).is_multiple_of(3)).then(|| PaintMarks {
            sequence: n - 1,
            gpu_frame: n - 1,
            render_start: Some(ms(16 * n - 10)),
            encode_end: Some(ms(16 * n - 9)),
        });
        let mut told = vec![
            Told::Started(ms(16 * n + 1)),
            Told::Cpu(n.saturating_sub(1)),
            Told::Painted(painted),
        ];
        if n >= 3 && (n - 3).is_multiple_of(3) {
            told.push(Told::Gpu(n - 3));
        }
        match n {
            100 => told.push(Told::ExpectsPresentations(true)),
            200 => told.push(Told::ExpectsPresentations(false)),
            // Shown a frame late; every fifth never reported.
            101..200 if !n.is_multiple_of(5) => told.push(Told::Presented(n - 1)),
            _ => {}
        }
        told.push(Told::Ended(n));
        told
    }

    /// The recorder before it kept its inputs: every input handed to the assembly at once.
    struct HandedOnAtOnce {
        assembly: FrameAssembly,
        log: FrameLog,
        sampler: FrameSampler,
    }

    impl HandedOnAtOnce {
        fn tell(&mut self, told: &Told) {
            let (log, sampler) = (&mut self.log, &mut self.sampler);
            let mut complete = |trace: &mut FrameTrace| {
                sampler.record_latency(&trace.marks);
                log.add_swapping(trace, sampler.budget().duration());
            };
            match *told {
                Told::Started(now) => self.assembly.frame_started(now, &mut complete),
                Told::Ended(n) => {
                    let end = end_of(n);
                    self.assembly.frame_counted_in_place(
                        n,
                        end.wall_clock,
                        |trace| end.write_into(trace),
                        &mut complete,
                    );
                }
                Told::Cpu(n) => {
                    let phases = cpu_phases_of(n);
                    sampler.record_cpu_frame(ms(3), phases.iter(), untracked_of(n));
                    self.assembly.cpu_reported(n, ms(3), &phases);
                }
                Told::Painted(paint) => self.assembly.painted(paint, &mut complete),
                Told::Gpu(n) => self.assembly.gpu_done(
                    n,
                    (ms(5), &gpu_passes_of(n)),
                    Some((ms(16 * n + 8), ms(16 * n + 13))),
                    &mut complete,
                ),
                Told::ExpectsPresentations(expects) => {
                    self.assembly.set_expects_presentations(expects);
                }
                Told::Presented(n) => {
                    self.assembly
                        .presented(n, Some(ms(16 * n + 30)), &mut complete);
                }
            }
        }
    }

    fn tell(recorder: &mut FrameRecorder, sampler: &mut FrameSampler, told: &Told) {
        match *told {
            Told::Started(now) => recorder.frame_started(now, sampler),
            Told::Ended(n) => recorder.frame_ended(end_of(n), sampler),
            Told::Cpu(n) => {
                recorder.cpu_reported(n, ms(3), &cpu_phases_of(n), untracked_of(n), sampler);
            }
            Told::Painted(paint) => recorder.painted(paint, sampler),
            Told::Gpu(n) => recorder.gpu_done(
                n,
                (ms(5), &gpu_passes_of(n)),
                Some((ms(16 * n + 8), ms(16 * n + 13))),
                sampler,
            ),
            Told::ExpectsPresentations(expects) => {
                recorder.set_expects_presentations(expects, sampler);
            }
            Told::Presented(n) => recorder.presented(n, Some(ms(16 * n + 30)), sampler),
        }
    }

    /// A recorder and its sampler, and the reference they are compared with.
    fn recorder_and_reference() -> (FrameRecorder, FrameSampler, HandedOnAtOnce) {
        let reference = HandedOnAtOnce {
            assembly: FrameAssembly::default(),
            log: FrameLog::new(120, SpikeThreshold::default()),
            sampler: new_sampler(),
        };
        let recorder = FrameRecorder::new(120, SpikeThreshold::default());
        (recorder, new_sampler(), reference)
    }

    /// Frame `n`'s inputs, told to the recorder and to the reference alike.
    fn tell_both(
        n: u64,
        (recorder, sampler): (&mut FrameRecorder, &mut FrameSampler),
        reference: &mut HandedOnAtOnce,
    ) {
        for told in frame_inputs(n) {
            tell(recorder, sampler, &told);
            reference.tell(&told);
        }
    }

    /// A frame's CPU or GPU part: its total and its phases' names and durations.
    type Part = Option<(Duration, Vec<(String, Duration)>)>;

    /// The log's frames as the exports read them: number, marks, CPU and GPU parts.
    fn retained(log: &FrameLog) -> Vec<(u64, LatencyMarks, Part, Part)> {
        let part = |part: &Option<(Duration, FramePhases)>| {
            part.as_ref().map(|(total, phases)| {
                let named = phases.iter().map(|(name, d)| (name.to_owned(), d));
                (*total, named.collect())
            })
        };
        log.retained()
            .iter()
            .map(|t| (t.sequence, t.marks, part(&t.cpu), part(&t.gpu)))
            .collect()
    }

    #[test]
    fn a_flush_leaves_the_log_and_latency_as_inputs_handed_on_at_once_would() {
        let (mut recorder, mut sampler, mut reference) = recorder_and_reference();
        // Read after every frame: a read right after any input sees what it would have seen.
        for n in 0..300 {
            tell_both(n, (&mut recorder, &mut sampler), &mut reference);
            recorder.flush(&mut sampler);
            assert_eq!(
                retained(recorder.log()),
                retained(&reference.log),
                "frame {n}"
            );
            assert_eq!(recorder.log().spikes_seen(), reference.log.spikes_seen());
            let (ours, theirs) = (sampler.snapshot(), reference.sampler.snapshot());
            assert_eq!(ours.latency, theirs.latency, "frame {n}");
            assert_eq!(ours.latency_total, theirs.latency_total, "frame {n}");
            if n == 190 {
                let retained = recorder.log().retained();
                let shown = retained.iter().filter(|t| t.marks.on_screen.is_some());
                assert!(shown.count() > 50, "the presentations reached their frames");
            }
        }
        assert!(
            recorder.log().spikes_seen() > 10,
            "the 80 ms frames are spikes"
        );
        let timed = recorder.log().retained().iter().filter(|t| t.gpu.is_some());
        assert!(timed.count() > 30, "GPU results reached their frames");
        // Each frame's sets, not another's: the CPU phases and GPU passes wait in one queue.
        for trace in recorder.log().retained() {
            let cpu = trace.cpu.as_ref().map(|(_, phases)| phases.iter().last());
            if let Some(Some((name, duration))) = cpu {
                assert_eq!(
                    (name, duration),
                    ("render", ms(2) + Duration::from_micros(trace.sequence))
                );
            }
        }
    }

    #[test]
    fn inputs_are_kept_until_read_and_never_outgrow_their_room() {
        let (mut recorder, mut sampler, mut reference) = recorder_and_reference();
        for n in 0..5 {
            tell_both(n, (&mut recorder, &mut sampler), &mut reference);
        }
        assert!(
            !reference.log.retained().is_empty(),
            "frames complete by frame 4"
        );
        assert!(
            recorder.log().retained().is_empty(),
            "kept, not yet handed on"
        );
        recorder.flush(&mut sampler);
        assert_eq!(retained(recorder.log()), retained(&reference.log));
        // A thousand frames without a read: the room fills and is handed on, never grown.
        for n in 5..1000 {
            for told in frame_inputs(n) {
                tell(&mut recorder, &mut sampler, &told);
                reference.tell(&told);
                assert!(recorder.kept.len() <= KEPT_INPUTS);
                assert_eq!(recorder.kept.capacity(), KEPT_INPUTS, "allocated once");
                assert_eq!(recorder.ends.capacity(), KEPT_INPUTS, "allocated once");
                assert_eq!(
                    recorder.phase_sets.capacity(),
                    KEPT_INPUTS,
                    "allocated once"
                );
            }
        }
        assert!(
            recorder.log().retained().len() > 100,
            "handed on when the room was full"
        );
        recorder.flush(&mut sampler);
        assert_eq!(retained(recorder.log()), retained(&reference.log));
        let (ours, theirs) = (sampler.snapshot(), reference.sampler.snapshot());
        assert_eq!(ours.latency, theirs.latency);
        assert_eq!(ours.latency_total, theirs.latency_total);
        assert!(theirs.cpu_frame.is_some() && theirs.cpu_phases.len() == 2);
        assert_eq!(ours.cpu_frame, theirs.cpu_frame);
        assert_eq!(ours.cpu_phases, theirs.cpu_phases);
        assert!(theirs.cpu_phases_untracked > 0);
        assert_eq!(ours.cpu_phases_untracked, theirs.cpu_phases_untracked);
    }

    #[test]
    fn a_restart_forgets_what_was_kept() {
        let mut recorder = FrameRecorder::new(120, SpikeThreshold::default());
        let mut sampler = new_sampler();
        for n in 0..3 {
            for told in frame_inputs(n) {
                tell(&mut recorder, &mut sampler, &told);
            }
        }
        recorder.restart(120, SpikeThreshold::default());
        recorder.flush(&mut sampler);
        assert!(recorder.log().retained().is_empty());
        assert!(
            sampler.snapshot().latency_total.is_none(),
            "no frame reached the sampler"
        );
    }

    /// `count` frames as an app's loop records them at 60 Hz, back to back: drawn for 2 ms (80
    /// every seventh), presented at the end of their refresh; every thirteenth only the HUD's,
    /// every eleventh presented a refresh late, and frame 150 impossible (it ends before it
    /// starts).
    fn app_frames(count: u64) -> Vec<FrameRecord> {
        let refresh = Duration::from_nanos(16_666_667);
        let mut start = Duration::ZERO;
        (0..count)
            .map(|n| {
                let draw = if n % 7 == 3 { ms(80) } else { ms(2) };
                let refreshes =
                    draw.as_nanos().div_ceil(refresh.as_nanos()) + u128::from(n % 11 == 5);
                let present = start + refresh * u32::try_from(refreshes).expect("a few");
                let record = FrameRecord {
                    draw_start: start,
                    draw_end: if n == 150 {
                        start.saturating_sub(ms(1))
                    } else {
                        start + draw
                    },
                    present: Some(present),
                    invalidations: u32::from(n % 3 == 0),
                    origin: if n % 13 == 6 {
                        FrameOrigin::SelfInduced
                    } else {
                        FrameOrigin::App
                    },
                    overlay_cost: Duration::from_micros(20),
                    overlay_cost_after_end: Duration::from_micros(5),
                    excluded: Duration::ZERO,
                    back_to_back: true,
                };
                start = present;
                record
            })
            .collect()
    }

    /// The readouts without the latency path (which the recorder's frames feed and a sampler
    /// told only frames does not have).
    fn without_latency(mut snapshot: Snapshot) -> Snapshot {
        snapshot.latency.clear();
        snapshot.latency_total = None;
        snapshot.latency_latest = None;
        snapshot
    }

    #[test]
    fn draws_judged_at_a_frames_end_are_counted_when_the_recorder_hands_it_on() {
        // Two samplers told the same frames: one records each at once, the other judges it
        // and leaves its draw to the recorder, which counts it at a flush. The refresh rate
        // changes (flushed first, as a budget change must be) and the readouts are reset (the
        // recorder restarted, dropping what it kept) on the way.
        let (mut at_once, mut judged) = (new_sampler(), new_sampler());
        at_once.set_refresh_hz(Some(60.0));
        judged.set_refresh_hz(Some(60.0));
        let mut recorder = FrameRecorder::new(120, SpikeThreshold::default());
        let mut verdict_counts = [0_usize; 4];
        for (n, record) in (0_u64..).zip(app_frames(300)) {
            let verdict = at_once.record_frame(record);
            let (judged_verdict, pending_draw) = judged.judge_frame(record);
            assert_eq!(judged_verdict, verdict, "frame {n}");
            assert_eq!(
                pending_draw.is_some(),
                verdict == FrameVerdict::Counted,
                "frame {n}"
            );
            verdict_counts[verdict as usize] += 1;
            if pending_draw.is_some() {
                let end = FrameEnd {
                    pending_draw,
                    ..end_of(n)
                };
                recorder.frame_ended(end, &mut judged);
            }
            if n == 120 {
                recorder.flush(&mut judged);
                judged.set_refresh_hz(Some(30.0));
                at_once.set_refresh_hz(Some(30.0));
            }
            if n == 200 {
                judged.reset();
                recorder.restart(120, SpikeThreshold::default());
                at_once.reset();
            }
            // Read at odd moments, as refreshes and the API do: flushed first.
            if n % 37 == 36 {
                recorder.flush(&mut judged);
                let judged_snapshot = without_latency(judged.snapshot());
                assert_eq!(judged_snapshot, at_once.snapshot(), "after frame {n}");
            }
        }
        assert!(
            verdict_counts.iter().all(|&count| count > 0),
            "every verdict was given: {verdict_counts:?}"
        );
        let snapshot = at_once.snapshot();
        assert!(snapshot.missed_refreshes.is_some_and(|m| m > 0) && snapshot.lows.is_some());
        // Kept, the last frames are not in the readouts yet; handed on, they are.
        assert!(recorder.has_kept());
        let before_flush = without_latency(judged.snapshot());
        assert_ne!(before_flush, snapshot, "frames kept are not counted yet");
        recorder.flush(&mut judged);
        assert_eq!(without_latency(judged.snapshot()), snapshot);
    }
}
