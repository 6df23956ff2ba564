use std::sync::Arc;
use std::time::Duration;

use profiler_core::{
    Clock, FrameRecord, FrameSampler, FrameVerdict, LatencyMarks, MonotonicClock, PendingDraw,
    ResourceMonitor, Snapshot, SystemTime,
};

use profiler_core::Instant;
use profiler_core::SnapshotParts;
use profiler_core::presentation::{CommittedFrame, PresentationError, PresentationSource};
use profiler_core::record::frame_assembly::PaintMarks;
use profiler_core::record::frame_end::FrameEnd;
use profiler_core::record::frame_log::FrameLog;
use profiler_core::record::frame_phases::{FramePhases, PhaseName, PhaseStart};
use profiler_core::record::frame_recorder::FrameRecorder;
use profiler_core::record::frame_trace::FrameCauses;
use profiler_core::record::retained_frames::TrackFrames;
use profiler_core::record::spike_threshold::SpikeThreshold;
use profiler_core::record::wall_clock_anchor::WallClockAnchor;
use profiler_core::{BenchmarkComparison, BenchmarkSummary};

use crate::frame::frame_facts::{FrameFacts, Pacing};
use crate::frame::frame_in_progress::FrameInProgress;
use crate::frame::window_fingerprint::WindowFingerprint;
#[cfg(feature = "wgpu")]
use crate::gpu::gpu_sampling::GpuSampling;
use crate::phases::cpu_phases::CpuPhases;
use crate::plugin::benchmark_run::{BenchmarkRun, BenchmarkStep, summarize};
use crate::plugin::gpu_sampled::GpuSampled;
use crate::plugin::hud_config::{HudConfig, ShowSettings};
use crate::plugin::hud_draw::DrawOutcome;
use crate::plugin::presentation_feed::{PresentationFeed, PresentationRead};
use crate::plugin::view_home::ViewHome;
use crate::repaint::own_discard::OWN_DISCARD_FILE;
use crate::repaint::repaint_ledger::RepaintLedger;
use crate::repaint::repaint_sites::RepaintSites;
use crate::repaint::tick::{Tick, TickInput};
use crate::repaint::why_reading::WhyReading;
use crate::view::benchmark_status::BenchmarkStatus;
use crate::view::details_window::DetailsData;
use crate::view::hud_ids::HudIds;
use crate::view::hud_preset::HudPreset;
use crate::view::hud_row::HudRow;
use crate::view::hud_view::{HudView, Relayout};
use crate::view::readout_hover::ReadoutHover;
use crate::view::row_choice::RowChoice;
use crate::view::row_list::RowList;

/// After frames without the HUD for this long (two refresh ticks) it counts as hidden: its
/// sampler is dropped. Measured from the first frame without it, never between frames that draw
/// it, so an app slower than one frame per second is still measured.
const HIDDEN_AFTER: Duration = Duration::from_secs(1);

/// The refresh rates a display can have; anything else is a wrong answer, taken as unknown.
pub(crate) const REFRESH_HZ_RANGE: std::ops::RangeInclusive<f64> = 1.0..=1000.0;

/// The least time from the last frame to this one, in egui time, for a refresh's layout to be
/// made off the UI thread (see [`ViewportState::relayout`]): a loop at more than 500 frames a
/// second starts its next frames about as soon as the worker starts the layout (55–140 µs on
/// lavapipe here), so they would draw the last layout (a stand-in) for several frames and
/// then wait for it; laid out in the pass, the new numbers show at once, for the cost of one
/// frame. In egui time, not on the HUD's clock, so that where the layout is made does not
/// depend on how busy the machine is (a test's frames).
const LAYOUT_WORKER_MIN_FRAME_INTERVAL_SECS: f64 = 0.002;

/// Everything the HUD keeps for one viewport, owned by the frame plugin: the per-frame work
/// of the plugin's hooks is done here, by the methods it calls once per hook.
pub(crate) struct ViewportState {
    /// The config in effect: the one given, or the defaults where it did not validate.
    pub(crate) config: HudConfig,
    /// The config as the last [`Self::attach`] was given it: the same one again (every frame,
    /// as a rule) changes nothing, and is not validated again.
    given_config: Option<HudConfig>,
    clock: Arc<dyn Clock>,
    /// The cost of one read of `clock`, calibrated when the sampler starts.
    read_cost: Duration,
    sample_resources: bool,
    /// `None` while hidden: a hidden HUD keeps its view preferences and setup, nothing else.
    sampler: Option<FrameSampler>,
    pub(crate) frame: Option<FrameInProgress>,
    pub(crate) tick: Tick,
    /// How the integration ran the last frame (see [`Pacing`]).
    pub(crate) pacing: Pacing,
    /// The view: here, out to draw, or being laid out after a refresh.
    view: ViewHome,
    /// The HUD's egui ids on this viewport, worked out at the first draw.
    ids: Option<HudIds>,
    /// Shared with the view until its next layout formats the rows from it (off the UI thread
    /// after a refresh in an app that runs every frame): a part read into it meanwhile (the
    /// hover, the API, a preset brought then) copies it first.
    displayed: Option<Arc<Snapshot>>,
    /// The costlier readings the last refresh left out of `displayed` because no row shown
    /// then needed them; read into it when something asks (the API, the hover, a preset
    /// chosen between refreshes).
    displayed_lacks: SnapshotParts,
    refresh_hz: Option<f64>,
    /// The window at the previous frame, to tell a window-driven frame from the tick's.
    window: Option<WindowFingerprint>,
    visibility: Visibility,
    /// GPU pass labels that cannot be timed on this backend (no line; the hover says why).
    unavailable_passes: &'static [&'static str],
    /// GPU frames the timer could not time, from its statistics.
    gpu_dropped_frames: u64,
    /// The GPU clock calibration's uncertainty, when one is used.
    gpu_clock_uncertainty: Option<Duration>,
    /// The HUD's own GPU drawing in the latest timed frame (left out of the app's GPU time).
    gpu_overlay_cost: Option<Duration>,
    /// The HUD's work on the last frame after its end, counted with the next frame's cost.
    hud_cost_after_end: Duration,
    /// Which frames the GPU timer times, and what it chose so far.
    gpu_sampled: GpuSampled,
    /// Whether the last frame decided for the GPU timer showed something that reads GPU
    /// results (see `shows_gpu_results`).
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(dead_code, reason = "only wgpu times GPU passes")
    )]
    gpu_results_shown: bool,
    /// The app's CPU phases on this viewport (shared with the app's handles).
    phases: CpuPhases,
    /// The last frame the sampler counted, until its CPU time is reported at the next frame
    /// (eframe tells its render time a frame late).
    counted: Option<CountedFrame>,
    /// The phases timed inside the last frame, kept here (not in `counted`) so that a frame
    /// without phases moves none: a set is ~600 bytes.
    counted_inside: FramePhases,
    /// Where a counted frame's CPU phases are gathered for its report, reused.
    cpu_phases: FramePhases,
    /// The counted frames: those still waiting for their CPU time, paint marks or GPU
    /// results, and the complete ones (the retained window and the spikes).
    recorder: FrameRecorder,
    /// Whether the details window is open.
    details_open: bool,
    /// What woke the frame in progress and why its passes were redone.
    frame_causes: FrameCauses,
    /// The latest frame's hand-off, for the next one's interval.
    last_handoff: Option<Duration>,
    /// The latest frame's egui time, for the next one's interval.
    last_frame_secs: Option<f64>,
    /// The number of the latest frame begun: paint marks name their frame by it.
    frame_sequence: u64,
    /// The app's repaint requests and discards since the last refresh.
    repaint_sites: RepaintSites,
    /// WHY as of the last refresh.
    why: Option<WhyReading>,
    /// The HUD's clock at the last refresh: the window WHY's rates are over (the clock FPS
    /// is read on).
    last_refresh: Option<Duration>,
    /// Where the HUD's clock meets the wall clock, taken at each refresh: frames' wall-clock
    /// ends (the CSV's) are placed from it, one addition instead of a read of the wall clock a
    /// frame. `None` before the sampler's first refresh and with a clock that does not follow
    /// `Instant` (a replay's): those frames read the wall clock.
    wall_clock_anchor: Option<WallClockAnchor>,
    /// Warnings already logged for this viewport (each once).
    logged: LoggedOnce,
    /// Passes of the frame in progress that egui redid for the HUD's own discard.
    own_redone_passes: usize,
    /// The rows the cycling key chose, over the app's; `None` until it is pressed (or a
    /// choice kept in egui memory is restored).
    chosen_rows: Option<RowChoice>,
    /// A benchmark counting down or recording.
    benchmark: Option<BenchmarkRun>,
    /// The last finished benchmark's summary, and whether it is new (not yet handed out to be
    /// saved).
    benchmark_summary: Option<(Arc<BenchmarkSummary>, bool)>,
    /// The last two finished benchmarks compared (the earlier as A), for the details window.
    benchmark_comparison: Option<Arc<str>>,
    /// The last finished benchmark, kept across resets to be compared with the next.
    previous_benchmark: Option<Arc<BenchmarkSummary>>,
    /// The window's presentation source, or why there is none.
    presentation: PresentationFeed,
}

/// Warnings a viewport logs once, not every frame.
#[derive(Clone, Copy, Debug, Default)]
struct LoggedOnce {
    /// Invalid settings, replaced by the defaults.
    config_error: bool,
    /// A refresh rate no display has, taken as unknown.
    refresh_rate: bool,
}

/// Whether the HUD is drawn: calls, passes and how long it has been missing.
#[derive(Clone, Copy, Debug, Default)]
struct Visibility {
    /// `cumulative_pass_nr` of the last pass that drew the HUD: a second call is a no-op.
    last_drawn_pass: Option<u64>,
    /// egui time at the end of the first frame, of the frames since, that ended without the
    /// HUD; `None` while it is drawn.
    hidden_since_secs: Option<f64>,
}

/// The costlier parts of a snapshot that `rows` show: the lows in their row, the latency path
/// in LATENCY's row and its bar.
fn parts_shown_in(rows: RowList) -> SnapshotParts {
    SnapshotParts {
        lows: rows.contains(HudRow::Lows),
        latency: rows.contains(HudRow::Latency),
    }
}

/// Where the cycling key's choice is kept in egui memory, per viewport.
fn preset_memory_id(viewport: egui::ViewportId) -> egui::Id {
    egui::Id::unique(("egui_hud_preset", viewport))
}

impl ViewportState {
    /// [`Self::default`], out of line: the plugin looks its state up several times a frame,
    /// and a default state built in place would put its code between those lookups' (the
    /// HUD's frames run with cold caches in a real window: every instruction line counts).
    #[cold]
    #[inline(never)]
    pub(crate) fn new_out_of_line() -> Self {
        Self::default()
    }
}

impl Default for ViewportState {
    fn default() -> Self {
        Self {
            config: HudConfig::default(),
            given_config: None,
            clock: Arc::new(MonotonicClock::new()),
            read_cost: Duration::ZERO,
            sample_resources: true,
            sampler: None,
            frame: None,
            tick: Tick::default(),
            pacing: Pacing::default(),
            view: ViewHome::default(),
            ids: None,
            displayed: None,
            displayed_lacks: SnapshotParts::NONE,
            refresh_hz: None,
            window: None,
            visibility: Visibility::default(),
            unavailable_passes: &[],
            gpu_dropped_frames: 0,
            gpu_clock_uncertainty: None,
            gpu_overlay_cost: None,
            hud_cost_after_end: Duration::ZERO,
            gpu_sampled: GpuSampled::default(),
            gpu_results_shown: false,
            phases: CpuPhases::default(),
            counted: None,
            counted_inside: FramePhases::default(),
            cpu_phases: FramePhases::default(),
            recorder: FrameRecorder::new(0, SpikeThreshold::default()),
            frame_causes: FrameCauses::default(),
            last_handoff: None,
            last_frame_secs: None,
            details_open: false,
            frame_sequence: 0,
            repaint_sites: RepaintSites::default(),
            why: None,
            last_refresh: None,
            wall_clock_anchor: None,
            logged: LoggedOnce::default(),
            own_redone_passes: 0,
            chosen_rows: None,
            benchmark: None,
            benchmark_summary: None,
            benchmark_comparison: None,
            previous_benchmark: None,
            presentation: PresentationFeed::default(),
        }
    }
}

impl ViewportState {
    /// The frame in progress and the clock to stamp it with.
    pub(crate) fn frame_and_clock(&mut self) -> Option<(&mut FrameInProgress, &dyn Clock)> {
        Some((self.frame.as_mut()?, &*self.clock))
    }

    /// The rows to show: the cycling key's choice, else the app's. A few bytes copied.
    pub(crate) fn rows_to_show(&self) -> RowList {
        self.chosen_rows.unwrap_or(self.config.rows).rows()
    }

    /// Takes the cycling key's choice kept in egui memory, if there is one (eframe persists it
    /// across runs with its `persistence` feature, and may restore memory after the first
    /// frames): called at refreshes, one lookup in egui memory each.
    pub(crate) fn restore_rows(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        if let Some(index) = ctx.data_mut(|d| d.get_persisted::<u8>(preset_memory_id(viewport))) {
            self.chosen_rows = HudPreset::from_index(index).map(RowChoice::Preset);
        }
    }

    /// The cycling key was pressed: the next preset (see [`RowChoice::next`]), kept in egui
    /// memory (an app's own list is kept as "the app's").
    pub(crate) fn cycle_rows(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        let next = self
            .chosen_rows
            .unwrap_or(self.config.rows)
            .next(self.config.rows);
        self.chosen_rows = Some(next);
        let kept = match next {
            RowChoice::Preset(preset) => preset.index(),
            RowChoice::Custom(_) => u8::MAX,
        };
        ctx.data_mut(|d| d.insert_persisted(preset_memory_id(viewport), kept));
    }

    /// What the details window shows, when it is open (copied only then).
    pub(crate) fn details(&mut self) -> Option<DetailsData> {
        let budget = self.sampler.as_ref()?.budget().duration();
        if !self.details_open {
            return None;
        }
        self.flush_recorder();
        let mut data = DetailsData::copy(
            self.recorder.log().retained().iter(),
            self.recorder.log().spikes().iter(),
            budget,
        );
        data.benchmark_comparison
            .clone_from(&self.benchmark_comparison);
        Some(data)
    }

    /// A copy of the retained frames and spikes, as the export track `name`.
    pub(crate) fn copy_track(&mut self, name: String) -> TrackFrames {
        self.flush_recorder_for_app();
        let log = self.recorder.log();
        TrackFrames {
            name,
            frames: log.retained().iter().cloned().collect(),
            spikes: log.spikes().iter().cloned().collect(),
            clock: Arc::clone(&self.clock),
            gpu_clock_uncertainty: self.gpu_clock_uncertainty,
        }
    }

    /// The retained frames and spikes, every frame completed until now, for the app (the
    /// API).
    pub(crate) fn log(&mut self) -> &FrameLog {
        self.flush_recorder_for_app();
        self.recorder.log()
    }

    /// Hands what the recorder kept on (see [`FrameRecorder::flush`]): before the log or any
    /// readout of the sampler is read, and before its budget changes.
    fn flush_recorder(&mut self) {
        if let Some(sampler) = &mut self.sampler {
            self.recorder.flush(sampler);
        }
    }

    /// As [`Self::flush_recorder`], for a read the app makes through the API, outside the
    /// HUD's own spans: the work handed on was put off from the HUD's frames, so its time is
    /// the HUD's own cost in the frame in progress, not the app's FRAME. Free when nothing is
    /// kept.
    fn flush_recorder_for_app(&mut self) {
        if !self.recorder.has_kept() {
            return;
        }
        let since = self.stamp();
        self.flush_recorder();
        self.add_hud_cost_since(since);
    }

    /// WHY as of the last refresh.
    pub(crate) fn why(&self) -> Option<&WhyReading> {
        self.why.as_ref()
    }

    /// The readouts on screen, with the parts the last refresh left out read now (see
    /// [`Self::fill_displayed`]).
    pub(crate) fn displayed(&mut self) -> Option<&Snapshot> {
        // For the API, the app's read: the snapshot is the last refresh's, and only the parts
        // it left out are read from the frames recorded until now (an app that polls it every
        // frame hands on what the recorder kept once a refresh, not every frame).
        if self.displayed_lacks.any() {
            self.flush_recorder_for_app();
        }
        self.fill_displayed(SnapshotParts::ALL);
        self.displayed.as_deref()
    }

    /// Reads into the displayed snapshot the parts of `wanted` that the last refresh left out:
    /// from the frames recorded until now, once per refresh at most.
    fn fill_displayed(&mut self, wanted: SnapshotParts) {
        let missing = self.displayed_lacks.and(wanted);
        if !missing.any() {
            return;
        }
        if let (Some(sampler), Some(snapshot)) = (&mut self.sampler, &mut self.displayed) {
            self.recorder.flush(sampler);
            sampler.fill(Arc::make_mut(snapshot), missing);
            self.displayed_lacks = self.displayed_lacks.without(missing);
        }
    }

    /// The app's phase handle for this viewport.
    pub(crate) fn phases(&self) -> &CpuPhases {
        &self.phases
    }

    /// The number of the latest frame begun (paint marks name their frame by it).
    #[cfg(feature = "wgpu")]
    pub(crate) fn frame_sequence(&self) -> u64 {
        self.frame_sequence
    }

    /// Opens or closes the details window.
    pub(crate) fn set_details_open(&mut self, open: bool) {
        self.details_open = open;
    }

    /// GPU pass labels that cannot be timed on this backend.
    pub(crate) fn set_unavailable_passes(&mut self, labels: &'static [&'static str]) {
        self.unavailable_passes = labels;
    }

    /// The GPU timer's state for the next refresh: passes it cannot time, frames it dropped,
    /// its calibration's uncertainty.
    #[cfg(feature = "wgpu")]
    pub(crate) fn set_gpu_status(
        &mut self,
        unavailable_passes: &'static [&'static str],
        dropped_frames: u64,
        clock_uncertainty: Option<Duration>,
    ) {
        self.unavailable_passes = unavailable_passes;
        self.gpu_dropped_frames = dropped_frames;
        self.gpu_clock_uncertainty = clock_uncertainty;
    }

    /// The HUD's egui ids on `viewport` (this state's).
    pub(crate) fn ids(&mut self, viewport: egui::ViewportId) -> HudIds {
        let ids = *self.ids.get_or_insert_with(|| HudIds::of(viewport));
        debug_assert_eq!(
            ids.readout,
            HudIds::of(viewport).readout,
            "a state is asked for its own viewport's ids"
        );
        ids
    }

    /// The view, out for drawing (a default one the first time; a stand-in that draws the last
    /// layout while the layout worker lays the view out, see [`ViewHome`]).
    pub(crate) fn take_view(&mut self, now_secs: f64) -> Box<HudView> {
        self.view.take(now_secs)
    }

    /// Where this pass may make a refresh's layout: off the UI thread when the frame was asked
    /// for at once after the last (an app that runs every frame), so that the next frame, which
    /// shows it, follows soon; and not at more than 500 frames a second
    /// ([`LAYOUT_WORKER_MIN_FRAME_INTERVAL_SECS`]), whose next frames would start before the
    /// worker is done. Free.
    pub(crate) fn relayout(&self) -> Relayout {
        let next_soon = self.frame.as_ref().is_some_and(|frame| {
            let interval_secs = self
                .last_frame_secs
                .map(|last| frame.facts.time_secs - last);
            frame.facts.back_to_back()
                && interval_secs
                    .is_some_and(|interval| interval >= LAYOUT_WORKER_MIN_FRAME_INTERVAL_SECS)
        });
        self.view.relayout(next_soon)
    }

    /// After the HUD drew: the view comes back, the details window's state is kept, the time
    /// since `started` is the HUD's cost, and a resize redoes the pass. Returns a benchmark
    /// summary that finished since the last call, when [`DrawOutcome::take_new_summary`] asks.
    pub(crate) fn end_draw(&mut self, drawn: DrawOutcome) -> Option<Arc<BenchmarkSummary>> {
        let new_summary = if drawn.take_new_summary {
            self.take_new_benchmark_summary()
        } else {
            None
        };
        self.view.put_back(drawn.view);
        self.details_open = drawn.details_open;
        if let Some((frame, clock)) = self.frame_and_clock() {
            frame.discard_requested |= drawn.resized;
            if let Some(started) = drawn.started {
                frame.add_cost_since(clock, started);
            }
        }
        new_summary
    }

    /// A pass ended: the app's requests egui recorded for it (`causes`; the HUD's own, from
    /// `own_file`, left out of the frame's) and its discard reasons (the HUD's own left out) go
    /// to WHY and to the frame's causes; a final pass counts the frame's passes, the ones the
    /// HUD had redone left out. Those of the frame's first pass (`pass_index` 0) are the ones that
    /// woke it.
    pub(crate) fn record_pass_causes(
        &mut self,
        causes: &[egui::RepaintCause],
        own_file: &str,
        platform: &egui::PlatformOutput,
        pass_index: usize,
        discarded: bool,
    ) {
        self.repaint_sites.record_requests(causes, own_file);
        let app_discards = platform
            .request_discard_reasons
            .iter()
            .filter(|reason| reason.file != OWN_DISCARD_FILE);
        self.repaint_sites.record_discards(app_discards.clone());
        if pass_index == 0 {
            for cause in causes.iter().filter(|cause| cause.file != own_file) {
                self.frame_causes
                    .add_woke_by(cause.file, cause.line, &cause.reason);
            }
        }
        for reason in app_discards {
            self.frame_causes
                .add_discard(reason.file, reason.line, &reason.reason);
        }
        if !discarded {
            self.repaint_sites
                .record_frame(self.app_passes(platform.num_completed_passes));
        }
    }

    /// The frame's pass ended: a `discarded` one restarts the frame (when the HUD asked for
    /// it) and `None` is returned; the final one (of `passes`) ends and records the frame.
    /// The HUD's work for the pass since `hud_since` (a stamp) is its own cost.
    pub(crate) fn end_pass(
        &mut self,
        discarded: bool,
        passes: usize,
        hud_since: Duration,
    ) -> Option<EndedFrame> {
        let (frame, clock) = self.frame_and_clock()?;
        frame.add_cost_since(clock, hud_since);
        if discarded {
            if frame.discard_requested {
                frame.restart_after_discard(clock);
                self.own_redone_passes += 1;
            }
            return None;
        }
        let ended_at = frame.stamp(clock);
        let now_secs = frame.facts.time_secs;
        let drawn = self.end_frame(ended_at, self.app_passes(passes));
        Some(EndedFrame {
            ended_at,
            drawn,
            now_secs,
        })
    }

    /// `passes` of the frame ending, without those egui redid for the HUD's own discard.
    fn app_passes(&self, passes: usize) -> usize {
        passes.saturating_sub(self.own_redone_passes).max(1)
    }

    /// Asks for the next refresh after a frame that drew the HUD (see [`Tick::schedule`]).
    pub(crate) fn schedule_tick(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        input: TickInput,
        ledger: &RepaintLedger,
        output: &mut egui::FullOutput,
    ) {
        self.tick.schedule(ctx, viewport, input, ledger, output);
    }

    /// Starts the readouts over, as if the HUD had just been shown: the sampler (warm-up,
    /// lows, hitch ratio, MISS and every window), the frame log (spikes and their worst), and
    /// any benchmark and its summary.
    pub(crate) fn reset(&mut self) {
        self.benchmark = None;
        self.benchmark_summary = None;
        self.reset_readouts();
    }

    /// Starts a benchmark: `countdown`, then a reset and `length` of recording.
    pub(crate) fn start_benchmark(&mut self, countdown: Duration, length: Duration) {
        self.benchmark = Some(BenchmarkRun::new(self.clock.now(), countdown, length));
        self.benchmark_summary = None;
    }

    /// The last finished benchmark's summary.
    pub(crate) fn benchmark_summary(&self) -> Option<Arc<BenchmarkSummary>> {
        self.benchmark_summary.as_ref().map(|(s, _)| Arc::clone(s))
    }

    /// The summary of a benchmark that finished since the last call (to be saved), once.
    fn take_new_benchmark_summary(&mut self) -> Option<Arc<BenchmarkSummary>> {
        let (summary, new) = self.benchmark_summary.as_mut()?;
        std::mem::take(new).then(|| Arc::clone(summary))
    }

    /// Where a benchmark stands, for the HUD's rows.
    fn benchmark_status(&self) -> Option<BenchmarkStatus> {
        match (&self.benchmark, &self.benchmark_summary) {
            (Some(run), _) => Some(run.status(self.clock.now())),
            (None, Some((summary, _))) => Some(BenchmarkStatus::Done(Arc::clone(summary))),
            (None, None) => None,
        }
    }

    /// The benchmark's step at the end of a frame at `now`.
    #[inline(never)] // see the call: out of the path of frames without a benchmark
    fn step_benchmark(&mut self, now: Duration) {
        let Some(run) = &mut self.benchmark else {
            return;
        };
        match run.step(now) {
            BenchmarkStep::Continue => {}
            BenchmarkStep::Reset => {
                // Reports of the frames before the reset are read now, not counted in the run.
                self.read_presentations(PresentationRead::Now);
                self.reset_readouts();
            }
            BenchmarkStep::Finished {
                seconds,
                frame_ms,
                interval_ms,
            } => {
                self.benchmark = None;
                self.read_presentations(PresentationRead::Now);
                if let Some(sampler) = &mut self.sampler {
                    self.recorder.flush(sampler);
                    let snapshot = sampler.snapshot();
                    let summary = summarize(
                        seconds,
                        frame_ms,
                        interval_ms,
                        &snapshot,
                        self.recorder.log(),
                    );
                    if let Some(previous) = &self.previous_benchmark {
                        let table = BenchmarkComparison::of(previous, &summary).table();
                        self.benchmark_comparison = Some(Arc::from(table));
                    }
                    let summary = Arc::new(summary);
                    self.previous_benchmark = Some(Arc::clone(&summary));
                    self.benchmark_summary = Some((summary, true));
                }
            }
        }
    }

    /// The readouts start over (see [`Self::reset`]); a benchmark in progress goes on.
    fn reset_readouts(&mut self) {
        if let Some(sampler) = &mut self.sampler {
            sampler.reset();
        }
        self.recorder
            .restart(self.config.capacity, self.config.spike_threshold);
        self.counted = None;
        self.last_handoff = None;
        self.displayed = None;
    }

    /// egui's time ran backwards (the refresh restarted): counted with the rejected inputs.
    pub(crate) fn reject_input_time_back(&mut self) {
        if let Some(sampler) = &mut self.sampler {
            sampler.reject_input_time_back();
        }
    }

    pub(crate) fn is_sampling(&self) -> bool {
        self.sampler.is_some()
    }

    /// The display refresh rate from the platform; `None` = unknown (no clamp, 60 Hz budget).
    /// A rate outside [`REFRESH_HZ_RANGE`] (or not a number) is taken as unknown, logged once.
    pub(crate) fn set_refresh_hz(&mut self, refresh_hz: Option<f64>) {
        // The rate of the output that showed the window (Wayland's presentations) wins over
        // the display watch's, which cannot tell outputs apart there.
        let refresh_hz = self.presentation.refresh_hz().or(refresh_hz);
        let refresh_hz = refresh_hz.filter(|hz| {
            let plausible = REFRESH_HZ_RANGE.contains(hz);
            if !plausible && !std::mem::replace(&mut self.logged.refresh_rate, true) {
                log::warn!(
                    "egui-hud: a display refresh rate of {hz} Hz is not one any display has \
                     (1 to 1000 Hz); the rate is unknown: MAX FPS is unclamped and the budget is 60 Hz"
                );
            }
            plausible
        });
        let changed = self.refresh_hz != refresh_hz;
        self.refresh_hz = refresh_hz;
        if let Some(sampler) = &mut self.sampler {
            if changed {
                // The frames the recorder kept complete under the budget in effect until now,
                // as they would have without being kept.
                self.recorder.flush(sampler);
            }
            sampler.set_refresh_hz(refresh_hz);
        }
    }

    /// The window's presentation source (built by `install_window`), or why there is none.
    pub(crate) fn set_presentation(
        &mut self,
        source: Result<PresentationSource, PresentationError>,
    ) {
        self.presentation.set_source(source);
    }

    /// Reads what the window system reported of the frames since the last read, every few
    /// frames ([`crate::plugin::presentation_feed::READ_EVERY_FRAMES`]): DISPLAYED, MISS and
    /// each counted frame's `on screen` mark; a refresh rate it names becomes the viewport's.
    /// Called once a frame, from the HUD's draw.
    pub(crate) fn poll_presentations(&mut self) {
        self.read_presentations(PresentationRead::InTurn);
    }

    /// Reads what the window system reported when `when` says (see
    /// [`PresentationFeed::read`]) and adopts the refresh rate it names.
    fn read_presentations(&mut self, when: PresentationRead) {
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        self.presentation
            .read(when, sampler, &mut self.recorder, &self.clock);
        self.adopt_presented_refresh_rate();
    }

    /// The refresh rate the latest presentation named becomes the viewport's, if it differs.
    fn adopt_presented_refresh_rate(&mut self) {
        let presented_hz = self.presentation.refresh_hz();
        if presented_hz.is_some_and(|hz| self.refresh_hz.is_none_or(|old| (old - hz).abs() > 0.01))
        {
            self.set_refresh_hz(presented_hz);
        }
    }

    /// A frame's first pass received `input`: the frame begins (one clock read, returned).
    pub(crate) fn begin_frame(&mut self, input: &egui::RawInput) -> Duration {
        // The frame begins first: what the HUD does below is inside it, and its own cost.
        let mut frame = FrameInProgress::begin(&*self.clock, FrameFacts::default());
        let window = WindowFingerprint::of(input);
        frame.facts.has_events = WindowFingerprint::has_events(input);
        frame.facts.window_changed = self.window.replace(window).is_some_and(|w| w != window);
        self.frame = Some(frame);
        self.frame_began(frame.started);
        frame.started
    }

    /// Reads the clock for the HUD in the frame in progress (see [`FrameInProgress::stamp`]);
    /// `None` without one.
    pub(crate) fn stamp(&mut self) -> Option<Duration> {
        let (frame, clock) = self.frame_and_clock()?;
        Some(frame.stamp(clock))
    }

    /// Counts the HUD's work on the frame that ended at `ended_at`, from then to now, as its
    /// own cost (with the next frame's: it ran outside both). One clock read.
    pub(crate) fn add_hud_cost_after_end(&mut self, ended_at: Duration) {
        if self.sampler.is_some() {
            let after = self.clock.now().saturating_sub(ended_at);
            self.hud_cost_after_end = self.hud_cost_after_end.saturating_add(after);
        }
    }

    /// Counts the HUD's work since `since` (a stamp of the frame in progress) as its own cost.
    pub(crate) fn add_hud_cost_since(&mut self, since: impl Into<Option<Duration>>) {
        if let (Some(since), Some((frame, clock))) = (since.into(), self.frame_and_clock()) {
            frame.add_cost_since(clock, since);
        }
    }

    /// What every begun frame starts: its number, its phases and causes, the previous frame's
    /// next-start mark.
    fn frame_began(&mut self, started: Duration) {
        self.frame_sequence += 1;
        self.phases.begin_frame();
        self.frame_causes.clear();
        self.own_redone_passes = 0;
        if let Some(sampler) = &mut self.sampler {
            self.recorder.frame_started(started, sampler);
        }
    }

    /// Begins a frame from the HUD's draw when the input hook did not (the frame that starts
    /// the sampler): no events or window state are known for it.
    pub(crate) fn begin_frame_late(&mut self) {
        if self.frame.is_none() && self.sampler.is_some() {
            let mut frame = FrameInProgress::begin(&*self.clock, FrameFacts::default());
            frame.drawn = true;
            self.frame = Some(frame);
            self.frame_began(frame.started);
        }
    }

    /// Whether this pass already drew the HUD (two calls in one pass draw one HUD).
    pub(crate) fn claim_pass(&mut self, pass_nr: u64) -> bool {
        if self.visibility.last_drawn_pass == Some(pass_nr) {
            return false;
        }
        self.visibility.last_drawn_pass = Some(pass_nr);
        true
    }

    /// Makes sure a sampler runs with `config`; a changed capacity or clock, or a HUD hidden
    /// for a second, starts a fresh one (with its warm-up). Returns whether one started.
    pub(crate) fn attach(&mut self, settings: &ShowSettings, now_secs: f64) -> bool {
        let clock_changed = settings
            .clock
            .as_ref()
            .is_some_and(|c| !Arc::ptr_eq(c, &self.clock));
        let same_settings = self.sampler.is_some()
            && !clock_changed
            && self.visibility.hidden_since_secs.is_none()
            && self.given_config == Some(settings.config);
        self.sample_resources = settings.sample_resources;
        if let Some(frame) = &mut self.frame {
            frame.drawn = true;
        }
        // The frame's common case (the same settings as in the last frame) checks no more.
        if same_settings {
            return false;
        }
        self.attach_changed(settings, clock_changed, now_secs)
    }

    /// [`Self::attach`] with something changed (or a sampler to start), out of line: the check
    /// above runs every frame, this code only when the settings, the clock or the HUD's
    /// visibility changed.
    #[cold]
    #[inline(never)]
    fn attach_changed(
        &mut self,
        settings: &ShowSettings,
        clock_changed: bool,
        now_secs: f64,
    ) -> bool {
        let (config, clock) = (settings.config, settings.clock.as_ref());
        self.given_config = Some(config);
        if let Some(clock) = clock.filter(|_| clock_changed) {
            self.clock = Arc::clone(clock);
        }
        let config = match config.validate() {
            Ok(()) => config,
            Err(error) => {
                if !std::mem::replace(&mut self.logged.config_error, true) {
                    log::warn!("egui-hud: {error}; using the defaults instead");
                }
                HudConfig {
                    anchor: config.anchor,
                    offset: config.offset,
                    rows: config.rows,
                    ..HudConfig::default()
                }
            }
        };
        let rebuild = self.sampler.is_none()
            || clock_changed
            || config.capacity != self.config.capacity
            || self.hidden_for_secs(now_secs) >= HIDDEN_AFTER.as_secs_f64();
        if rebuild {
            match FrameSampler::new(config.sampler_config(), Arc::clone(&self.clock)) {
                Ok(mut sampler) => {
                    sampler.set_refresh_hz(self.refresh_hz);
                    self.sampler = Some(sampler);
                }
                Err(error) => log::warn!("egui-hud: cannot start the sampler: {error}"),
            }
            self.read_cost = calibrate_read_cost(&*self.clock);
            self.forget_repaint_sites();
            self.wall_clock_anchor = None;
            self.phases.set_shown(true, clock);
            self.counted = None;
            self.recorder
                .restart(config.capacity, config.spike_threshold);
            self.last_handoff = None;
            self.displayed = None;
            self.tick = Tick::default();
            self.frame = None;
            // A new sampler starts with its own frames' cost, not the old one's last.
            self.hud_cost_after_end = Duration::ZERO;
        } else if config.frame_budget != self.config.frame_budget
            && let Some(sampler) = &mut self.sampler
        {
            // As for a new refresh rate (see `set_refresh_hz`).
            self.recorder.flush(sampler);
            if let Err(error) = sampler.set_frame_budget(config.frame_budget) {
                log::warn!("egui-hud: {error}");
            }
        }
        self.config = config;
        self.visibility.hidden_since_secs = None;
        rebuild
    }

    /// WHY starts over with the sampler: its window is on the sampler's clock.
    fn forget_repaint_sites(&mut self) {
        self.repaint_sites = RepaintSites::default();
        self.why = None;
        self.last_refresh = None;
    }

    /// Seconds since the first frame without the HUD; 0 while it is drawn.
    fn hidden_for_secs(&self, now_secs: f64) -> f64 {
        self.visibility
            .hidden_since_secs
            .map_or(0.0, |since| now_secs - since)
    }

    /// Builds the view's hover text from the last refresh's readouts, if the pointer is over
    /// the main readout (where the text shows) and it was not built since: a refresh leaves it
    /// to be built, since most are never hovered. Not for the pointer anywhere over the HUD:
    /// the HUD covers a corner of the app, where a pointer may rest for minutes, and the text
    /// reads every part of the snapshot the rows left out. The pointer is this pass's and the
    /// readout where the last pass drew it, as egui's hit test for this pass has them.
    pub(crate) fn ensure_hover(&mut self, ctx: &egui::Context) {
        // The pointer over where the readout was drawn: egui may still find another window
        // above it there, and then the text is built for nothing, once.
        // As last drawn: a frame after a refresh does not wait for its layout to check.
        if self.view.drawn_mut().is_none_or(|view| {
            !view.lacks_hover() || !view.pointer_over_readout(ctx.input(|i| i.pointer.hover_pos()))
        }) {
            return;
        }
        // The hover names the lows and the latency stages whatever the rows.
        self.flush_recorder();
        self.fill_displayed(SnapshotParts::ALL);
        let (Some(view), Some(snapshot)) = (self.view.get_mut(), &self.displayed) else {
            return;
        };
        let hover = ReadoutHover {
            snapshot,
            why: self.why.as_ref(),
            unavailable_passes: self.unavailable_passes,
            log: Some(self.recorder.log()),
        };
        view.set_hover(hover.text());
    }

    /// Refreshes the readouts from the sampler (and the resource thread's latest reading);
    /// `export_note` says how the latest background export went, for a few seconds.
    pub(crate) fn refresh(&mut self, resources: &ResourceMonitor, export_note: Option<&str>) {
        // The lows and the latency path only for rows that show them: for the default rows they
        // were most of the snapshot's time (the p50, p95 and max of eleven distributions, three
        // walks of the interval histogram).
        let parts = parts_shown_in(self.rows_to_show());
        // Every report that came, read now, not in its turn: the readouts are up to date.
        self.read_presentations(PresentationRead::Now);
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        self.recorder.flush(sampler);
        let now = sampler.now();
        // Only on a clock that follows the process's `Instant` (a replay's manual clock runs at
        // its own pace: its frames read the wall clock each).
        let clock_now = self.clock.now();
        self.wall_clock_anchor = self
            .clock
            .time_of(Instant::now())
            .map(|_| WallClockAnchor::take(clock_now));
        if let Some(since) = self.last_refresh.replace(now) {
            self.why = self
                .repaint_sites
                .take_reading(now.saturating_sub(since).as_secs_f64());
        }
        let mut snapshot = sampler.snapshot_of(parts);
        self.displayed_lacks = SnapshotParts::ALL.without(parts);
        if self.sample_resources {
            snapshot.apply_resources(&resources.request());
        }
        snapshot.gpu_dropped_frames = self.gpu_dropped_frames;
        snapshot.gpu_timed_share = self.gpu_sampled.take_timed_share();
        snapshot.gpu_clock_uncertainty = self.gpu_clock_uncertainty;
        snapshot.gpu_overlay_cost = self.gpu_overlay_cost;
        snapshot.presentation_unavailable = self.presentation.note().cloned();
        if let Some(view) = self.view.get_mut() {
            // The frames the log completed (a few behind the sampler's), so that spike markers
            // sit on their frames.
            let log = self.recorder.log();
            if log.retained().is_empty() {
                view.set_plot(sampler.retained_draws(), snapshot.budget);
            } else {
                view.set_plot(log.retained_draws(), snapshot.budget);
            }
        }
        self.displayed = Some(Arc::new(snapshot));
        self.cover_shown_rows(export_note);
    }

    /// Whether the view's readouts were set for every row to show (a refresh sets only the
    /// rows shown then), or there is nothing to format them from yet (before the
    /// first refresh). A bit test a frame, after building the list to show.
    pub(crate) fn readouts_cover_shown(&mut self) -> bool {
        let rows = self.rows_to_show();
        self.displayed.is_none()
            || self
                .view
                .drawn_mut()
                .is_none_or(|view| view.readouts_cover(rows))
    }

    /// Sets the view's readouts to the last refresh's snapshot for the rows to show now
    /// (formatted by the view's next layout): at each refresh, and when a preset chosen
    /// between refreshes shows rows not set then, so that a row appears at once, with the values the others show, not at the next
    /// refresh.
    pub(crate) fn cover_shown_rows(&mut self, export_note: Option<&str>) {
        let rows = self.rows_to_show();
        self.flush_recorder();
        self.fill_displayed(parts_shown_in(rows));
        let benchmark = self.benchmark_status();
        let (Some(view), Some(snapshot)) = (self.view.get_mut(), &self.displayed) else {
            return;
        };
        view.set_rows(rows);
        view.set_readouts(Arc::clone(snapshot), self.why.as_ref());
        view.set_notes(self.recorder.log(), export_note, benchmark.as_ref());
    }

    /// The frame's final pass (of `passes`) ended at `ended_at`: records it, or, after a second
    /// of frames without the HUD, stops sampling. Returns whether the HUD was drawn in the
    /// frame.
    fn end_frame(&mut self, ended_at: Duration, passes: usize) -> bool {
        let Some(frame) = self.frame.take() else {
            return false;
        };
        self.last_frame_secs = Some(frame.facts.time_secs);
        if !frame.drawn && self.detach_if_hidden(frame.facts.time_secs) {
            return false;
        }
        let Some(sampler) = &mut self.sampler else {
            return false;
        };
        debug_assert!(
            frame.origin.is_some(),
            "every frame is classified by its end"
        );
        let record = FrameRecord {
            draw_start: frame.started,
            draw_end: ended_at,
            present: Some(ended_at),
            invalidations: frame.facts.invalidations(),
            origin: frame.origin.unwrap_or_default(),
            overlay_cost: frame.hud_cost(self.read_cost),
            overlay_cost_after_end: std::mem::take(&mut self.hud_cost_after_end),
            excluded: frame.nested_cost(),
            back_to_back: frame.facts.back_to_back(),
        };
        self.phases.end_frame(&mut self.counted_inside);
        // Judged now (whether the frame counts decides what follows), counted in the sampler's
        // statistics when the recorder hands the frame on, a few frames at a time (see
        // `FrameRecorder`): every read of the sampler flushes the recorder first.
        let (verdict, pending_draw) = sampler.judge_frame(record);
        let counted = verdict == FrameVerdict::Counted;
        // Only with a presentation source: an app without one pays no clock read or row scan.
        if self.presentation.has_source() {
            self.commit_presentation(CommittedFrame {
                sequence: self.frame_sequence,
                committed_at: Instant::now(),
                counted,
                back_to_back: record.back_to_back,
            });
        }
        let Some(sampler) = &mut self.sampler else {
            debug_assert!(false, "the sampler that judged the frame is still there");
            return false;
        };
        let previous_handoff = self.last_handoff.replace(ended_at);
        self.counted = counted.then(|| CountedFrame::of(self.frame_sequence, &record));
        if counted {
            let request = frame.waking_request;
            let marks = LatencyMarks {
                request: request.and_then(|r| self.clock.time_of(r.requested_at)),
                due: request.and_then(|r| self.clock.time_of(r.due_at)),
                frame_start: Some(frame.started),
                ui_end: Some(ended_at),
                ..LatencyMarks::default()
            };
            let draw = self.counted.as_ref().map_or(Duration::ZERO, |c| c.draw);
            let handoff_interval = previous_handoff
                .filter(|_| record.back_to_back)
                .map(|previous| ended_at.saturating_sub(previous));
            if let Some(run) = &mut self.benchmark {
                run.record(draw, handoff_interval);
            }
            // As the sampler judged it: `judge_frame` gives every counted frame its draw.
            let overlay_cost = pending_draw.as_ref().map(PendingDraw::overlay_cost);
            debug_assert!(overlay_cost.is_some(), "a counted frame has a judged draw");
            let overlay_cost = overlay_cost.unwrap_or_default();
            let end = FrameEnd {
                sequence: self.frame_sequence,
                wall_clock: self
                    .wall_clock_anchor
                    .map_or_else(SystemTime::now, |anchor| anchor.wall_clock_of(ended_at)),
                marks,
                draw,
                overlay_cost,
                handoff_interval,
                invalidations: record.invalidations,
                passes: u32::try_from(passes).unwrap_or(u32::MAX),
                // The next frame starts with none.
                causes: std::mem::take(&mut self.frame_causes),
                pending_draw,
            };
            self.recorder.frame_ended(end, sampler);
        }
        // Only while a benchmark runs: its step (and its summary's code) stays out of the
        // other frames' path.
        if self.benchmark.is_some() {
            self.step_benchmark(ended_at);
        }
        frame.drawn
    }

    /// A frame ended without the HUD drawn: from the first such frame on the HUD counts as
    /// hidden, and after [`HIDDEN_AFTER`] of them it lets its sampler go. Returns whether it
    /// did. Out of line, as the frame's other rare paths (see [`Self::new_out_of_line`]).
    #[cold]
    #[inline(never)]
    fn detach_if_hidden(&mut self, now_secs: f64) -> bool {
        self.visibility.hidden_since_secs.get_or_insert(now_secs);
        let detach = self.hidden_for_secs(now_secs) >= HIDDEN_AFTER.as_secs_f64();
        if detach {
            self.detach();
        }
        detach
    }

    /// Tells the presentation source the frame that ended is being `committed`. Out of line:
    /// only a window with a source runs it.
    #[inline(never)]
    fn commit_presentation(&mut self, committed: CommittedFrame) {
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        let wanted = self
            .chosen_rows
            .unwrap_or(self.config.rows)
            .rows()
            .contains(HudRow::Displayed);
        self.presentation.frame_committing(
            committed,
            wanted,
            sampler,
            &mut self.recorder,
            &self.clock,
        );
    }

    /// Reports the last counted frame's CPU time, now that whatever followed its draw is
    /// known: the phases timed between it and this frame and, from eframe, its whole CPU time
    /// (`eframe_cpu_usage`, which eframe hands to the next frame). Nothing is reported for an
    /// app that times no phase and gives no eframe frame: then FRAME stands for the CPU side.
    pub(crate) fn report_cpu_time(&mut self, eframe_cpu_usage: Option<Duration>) {
        let phases = &mut self.cpu_phases;
        phases.clear();
        let (Some(counted), Some(sampler)) = (self.counted.take(), &mut self.sampler) else {
            // Nothing to report them with: the sets still start over.
            self.phases.drain_between_and_reported(phases);
            return;
        };
        // eframe's figure covers the raw draw (the HUD included) and what followed it:
        // tessellation, upload, callbacks' prepare, encoding.
        let render = eframe_cpu_usage.map(|cpu| cpu.saturating_sub(counted.raw_draw));
        if let Some(render) = render {
            let (start, ui_end) = (counted.start, counted.start + counted.raw_draw);
            phases.add(
                PhaseName::Static("ui"),
                counted.draw,
                Some(PhaseStart::Clock(start)),
            );
            phases.add(
                PhaseName::Static("render"),
                render,
                Some(PhaseStart::Clock(ui_end)),
            );
        }
        for phase in self.counted_inside.entries() {
            phases.add_phase(phase);
        }
        let (between, sets_overflow) = self.phases.drain_between_and_reported(phases);
        if phases.is_empty() {
            return;
        }
        let total = counted.draw + between + render.unwrap_or_default();
        // Names beyond the record's room, in any of the sets or in their union.
        let overflow = [self.counted_inside.overflow, sets_overflow, phases.overflow]
            .into_iter()
            .fold(0_u32, u32::saturating_add);
        // Into the sampler's CPU readouts when the recorder hands the frame on, a few frames
        // at a time (see `FrameRecorder`).
        self.recorder
            .cpu_reported(counted.sequence, total, phases, overflow, sampler);
    }

    fn detach(&mut self) {
        self.visibility.hidden_since_secs = None;
        self.sampler = None;
        self.presentation.stop_watching();
        self.forget_repaint_sites();
        self.wall_clock_anchor = None;
        self.phases.set_shown(false, None);
        self.counted = None;
        self.recorder.restart(0, self.config.spike_threshold);
        self.displayed = None;
        self.frame = None;
        self.tick = Tick::default();
        self.hud_cost_after_end = Duration::ZERO;
        if let Some(view) = self.view.get_mut() {
            view.clear_readouts();
        }
    }

    #[cfg(feature = "wgpu")]
    /// Records one frame's GPU results (labelled pass durations) as they arrive, and its GPU
    /// marks on the latency path.
    pub(crate) fn record_gpu_frame(&mut self, frame: &crate::gpu::egui_gpu_timer::TimedGpuFrame) {
        if frame.hud_cost.is_some() {
            self.gpu_overlay_cost = frame.hud_cost;
        }
        let now = self.clock.now();
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        sampler.record_gpu_frame(now, frame.named.iter());
        let clock = &self.clock;
        let egui_pass = frame
            .egui_pass
            .and_then(|(begin, end)| Some((clock.time_of(begin)?, clock.time_of(end)?)));
        let total = frame.named.total();
        self.recorder.gpu_done(
            frame.frame.index(),
            (total, &frame.named),
            egui_pass,
            sampler,
        );
    }

    #[cfg(feature = "wgpu")]
    /// The renderer's marks of the latest frame painted with stamps, if any.
    pub(crate) fn record_painted(
        &mut self,
        painted: Option<crate::gpu::egui_gpu_timer::PaintedFrame>,
    ) {
        let paint = painted.map(|painted| PaintMarks {
            sequence: painted.sequence,
            gpu_frame: painted.frame.index(),
            render_start: self.clock.time_of(painted.render_start),
            encode_end: self.clock.time_of(painted.encode_end),
        });
        self.record_paint(paint);
    }

    /// The paint marks of the latest frame painted with stamps; `None` also hands on the
    /// frames that were not (glow, no GPU timer): they are complete.
    pub(crate) fn record_paint(&mut self, paint: Option<PaintMarks>) {
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        self.recorder.painted(paint, sampler);
    }

    #[cfg(feature = "wgpu")]
    /// Whether the frame in progress is the app's (not only the HUD's tick).
    pub(crate) fn frame_is_apps(&self) -> bool {
        self.frame
            .is_some_and(|f| f.origin == Some(profiler_core::FrameOrigin::App))
    }

    #[cfg(feature = "wgpu")]
    /// Whether the GPU timer times the frame in progress: the app's frames (not only the HUD's
    /// tick) while something shown reads GPU results ([`Self::shows_gpu_results`]), as many as
    /// `sampling` admits. Decided once a frame: every pass of it gets the same answer. When
    /// timing resumes after a pause, the GPU figures start over.
    pub(crate) fn gpu_times_frame(&mut self, sampling: GpuSampling) -> bool {
        let read = self.shows_gpu_results();
        if read
            && !self.gpu_results_shown
            && let Some(sampler) = &mut self.sampler
        {
            sampler.forget_gpu_frames();
        }
        self.gpu_results_shown = read;
        let apps = self.frame_is_apps() && read;
        let Some(frame) = self.frame else {
            return false;
        };
        self.gpu_sampled
            .decide(sampling, self.frame_sequence, frame.started, apps)
    }

    /// Whether the frame in progress may be timed, foreseen at the start of its first pass with
    /// the last frame's settings: the app's frame, something shown reads GPU results, and the
    /// sampling would admit it. A frame foreseen untimed gets no paint callback at its start;
    /// should its settings then time it after all, its begin stamp comes later (see
    /// `EguiGpuTimer::stamp_frame`).
    #[cfg(feature = "wgpu")]
    pub(crate) fn gpu_may_time_frame(&self) -> bool {
        self.frame_is_apps()
            && self.shows_gpu_results()
            && self.frame.is_some_and(|frame| {
                self.gpu_sampled
                    .would_admit(self.config.gpu_sampling, frame.started)
            })
    }

    /// Whether the GPU timer timed a frame of this viewport since its last refresh. Free.
    #[cfg(feature = "wgpu")]
    pub(crate) fn gpu_timed_since_refresh(&self) -> bool {
        self.gpu_sampled.timed_since_refresh()
    }

    /// Whether anything the HUD shows reads GPU results: the expanded HUD with the GPU,
    /// LATENCY (request → GPU end) or SPIKES (a spike's GPU part) row, the details window (the
    /// spikes' GPU parts), or a benchmark run (its summary's GPU time per frame). Timing a
    /// frame costs tens of µs of CPU (see [`GpuSampling`]); a row not shown costs nothing.
    #[cfg(feature = "wgpu")]
    fn shows_gpu_results(&self) -> bool {
        let rows = self.rows_to_show();
        let expanded = self.view.is_expanded();
        let row_reads = [HudRow::Gpu, HudRow::Latency, HudRow::Spikes]
            .into_iter()
            .any(|row| rows.contains(row));
        (expanded && row_reads) || self.details_open || self.benchmark.is_some()
    }
}

/// A frame that ended, as the plugin needs it to ask for the next refresh.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndedFrame {
    /// When it ended, on the HUD's clock.
    pub(crate) ended_at: Duration,
    /// Whether the HUD was drawn in it.
    pub(crate) drawn: bool,
    /// egui's time at its input.
    pub(crate) now_secs: f64,
}

/// The cost of one read of `clock`: the least of a few back-to-back pairs (a real clock is
/// interrupted now and then; a test clock that steps on every read gives its step).
fn calibrate_read_cost(clock: &dyn Clock) -> Duration {
    (0..4)
        .map(|_| {
            let first = clock.now();
            clock.now().saturating_sub(first)
        })
        .min()
        .unwrap_or_default()
}

/// The last frame the sampler counted, kept until its CPU time is reported.
#[derive(Clone, Debug)]
struct CountedFrame {
    /// The HUD's number for the frame.
    sequence: u64,
    /// Its draw as FRAME counts it: without the HUD's cost and nested viewports.
    draw: Duration,
    /// Its draw from the first pass's start to the final pass's end, all included.
    raw_draw: Duration,
    /// When it started, on the HUD's clock.
    start: Duration,
}

impl CountedFrame {
    fn of(sequence: u64, record: &FrameRecord) -> Self {
        let raw_draw = record.draw_end.saturating_sub(record.draw_start);
        Self {
            sequence,
            draw: raw_draw
                .saturating_sub(record.overlay_cost)
                .saturating_sub(record.excluded),
            raw_draw,
            start: record.draw_start,
        }
    }
}
