use std::sync::Arc;
use std::time::Duration;

use crate::label_table::LabelTable;
use crate::latency_path::LatencyPath;
use crate::nearest_rank::nearest_rank_index;
use crate::pending_draw::PendingDraw;
use crate::presentation::{MatchedPresentation, PresentationOutcome};
use crate::presentation_stats::PresentationStats;
use crate::sample_ring::SampleRing;
use crate::session_stats::SessionStats;
use crate::snapshot_parts::SnapshotParts;
use crate::{
    Bound, Clock, ConfigError, FrameBudget, FrameOrigin, FrameRecord, FrameVerdict, GpuBusySource,
    LatencyMarks, RejectedEvents, SamplerConfig, Snapshot,
};

/// Presents kept for FPS; at 1 s of window this covers up to 1024 Hz, and a faster loop still
/// reads right because FPS is computed over the presents that are kept.
const PRESENT_CAPACITY: usize = 1024;

/// The window over which GPU time per second is summed for the busy share.
const GPU_BUSY_WINDOW: Duration = Duration::from_secs(1);

/// Turns frame events into the HUD's readouts.
///
/// Feed it one [`FrameRecord`] per frame with [`FrameSampler::record_frame`] (about 20 ns, no
/// allocation; or in two halves, [`FrameSampler::judge_frame`] at the frame's end and
/// [`FrameSampler::count_draw`] later, as a [`crate::record::frame_recorder::FrameRecorder`]
/// does), GPU results with [`FrameSampler::record_gpu_frame`], and read a [`Snapshot`]
/// whenever the display refreshes (every 500 ms in the HUD; O(capacity)).
///
/// The sampler starts empty and discards its first [`SamplerConfig::warmup_frames`] frames, so a
/// freshly opened window reads healthy. Frames the HUD's own tick caused
/// ([`FrameOrigin::SelfInduced`]) and impossible events never enter a readout; both are counted.
pub struct FrameSampler {
    config: SamplerConfig,
    budget: FrameBudget,
    clock: Arc<dyn Clock>,
    draws: SampleRing<DrawSample>,
    /// 128 bits: draws have no upper bound (a stall is shown), and the sum stays exact.
    draw_sum_nanos: u128,
    /// When the last frame began: a frame that begins before it is time going back.
    last_draw_start: Option<Duration>,
    /// The newest present the ring has evicted: the start of the first interval when the ring
    /// holds less than a window (over 1024 presents a second).
    evicted_present: Option<u64>,
    invalidation_sum: u64,
    /// Refreshes missed by the retained draws, and how many of them missed any.
    missed_refresh_sum: u64,
    missed_frame_count: u64,
    overlay_sum_nanos: u64,
    presents: SampleRing<u64>,
    last_present: Option<Duration>,
    gpu_frames: SampleRing<GpuFrameSample>,
    gpu_sum_nanos: u64,
    /// The same GPU frames for the busy share over the last second: sized like `presents`, so
    /// a GPU faster than `capacity` frames per second is not under-read.
    gpu_busy_frames: SampleRing<GpuFrameSample>,
    gpu_passes: LabelTable,
    /// CPU time per frame (the draw and the phases around it), for the frames phases were
    /// reported for.
    cpu_frames: SampleRing<u64>,
    cpu_sum_nanos: u64,
    /// The lows and hitch ratio since the start or a reset.
    session: SessionStats,
    /// Phase names that did not fit their frame's record, since start.
    untracked_cpu_phases: u64,
    cpu_phases: LabelTable,
    warmup_left: u32,
    self_induced: u64,
    rejected: RejectedEvents,
    scratch_nanos: Vec<u64>,
    latency: LatencyPath,
    scratch_signed_nanos: Vec<i64>,
    presentation: PresentationStats,
}

#[derive(Clone, Copy, Debug)]
struct DrawSample {
    draw_nanos: u64,
    overlay_nanos: u64,
    invalidations: u32,
    missed_refreshes: u32,
}

/// The presents FPS and INTERVAL are read from (see `FrameSampler::present_window`), in
/// nanoseconds of the sampler's clock.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct PresentWindow {
    latest_nanos: u64,
    /// Presents in the window that ends at `latest_nanos`, that one included.
    count: u64,
    /// The window's first present.
    first_nanos: u64,
    /// The last present before the window (or evicted from the ring before it).
    before_nanos: Option<u64>,
}

/// FPS and INTERVAL, computed together.
struct PresentRate {
    fps: f64,
    interval: Option<Duration>,
}

#[derive(Clone, Copy, Debug)]
struct GpuFrameSample {
    arrived_nanos: u64,
    total_nanos: u64,
}

impl FrameSampler {
    /// A sampler that reads time from `clock`. Allocates its rings once, here.
    ///
    /// # Errors
    /// A [`ConfigError`] when [`SamplerConfig::validate`] refuses the configuration.
    pub fn new(config: SamplerConfig, clock: Arc<dyn Clock>) -> Result<Self, ConfigError> {
        config.validate()?;
        let budget = FrameBudget::new(config.frame_budget)?;
        let capacity = config.capacity;
        Ok(Self {
            warmup_left: config.warmup_frames,
            config,
            budget,
            clock,
            draws: SampleRing::with_capacity(capacity),
            draw_sum_nanos: 0,
            last_draw_start: None,
            evicted_present: None,
            invalidation_sum: 0,
            missed_refresh_sum: 0,
            missed_frame_count: 0,
            overlay_sum_nanos: 0,
            presents: SampleRing::with_capacity(PRESENT_CAPACITY),
            last_present: None,
            gpu_frames: SampleRing::with_capacity(capacity),
            gpu_sum_nanos: 0,
            gpu_busy_frames: SampleRing::with_capacity(PRESENT_CAPACITY),
            gpu_passes: LabelTable::new(capacity),
            cpu_frames: SampleRing::with_capacity(capacity),
            cpu_sum_nanos: 0,
            untracked_cpu_phases: 0,
            session: SessionStats::new(),
            cpu_phases: LabelTable::new(capacity),
            self_induced: 0,
            rejected: RejectedEvents::default(),
            scratch_nanos: Vec::with_capacity(capacity),
            latency: LatencyPath::new(capacity),
            scratch_signed_nanos: Vec::with_capacity(capacity),
            presentation: PresentationStats::new(capacity),
        })
    }

    /// The configuration this sampler was built with.
    pub fn config(&self) -> &SamplerConfig {
        &self.config
    }

    /// The clock every timestamp must come from.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// The current time on the sampler's clock.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// The budget in effect.
    pub fn budget(&self) -> FrameBudget {
        self.budget
    }

    /// Tells the sampler the display's refresh rate (`None` when unknown): it clamps MAX FPS and,
    /// unless a budget is pinned, sets the budget to one refresh period.
    pub fn set_refresh_hz(&mut self, refresh_hz: Option<f64>) {
        self.budget.set_refresh_hz(refresh_hz);
    }

    /// Pins a frame budget, or un-pins it with `None`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroBudget`] for a zero budget; the previous budget stays.
    pub fn set_frame_budget(&mut self, budget: Option<Duration>) -> Result<(), ConfigError> {
        let mut next = FrameBudget::new(budget)?;
        next.set_refresh_hz(self.budget.refresh_hz());
        self.budget = next;
        self.config.frame_budget = budget;
        Ok(())
    }

    /// Counts the integration's input time running backwards (see
    /// [`RejectedEvents::input_time_back_in_time`]): the HUD's refresh restarted.
    pub fn reject_input_time_back(&mut self) {
        self.rejected.input_time_back_in_time += 1;
    }

    /// Records one frame. Cost: a few comparisons and two ring writes; never allocates.
    ///
    /// Only impossible input is rejected (and counted): a draw that ends before it starts, or a
    /// frame that begins before the previous one. However long a draw, it is a real frame.
    ///
    /// The same as [`Self::judge_frame`] and, for a counted frame, [`Self::count_draw`] at once.
    pub fn record_frame(&mut self, frame: FrameRecord) -> FrameVerdict {
        let (verdict, pending) = self.judge_frame(frame);
        if let Some(draw) = pending {
            self.count_draw(draw);
        }
        verdict
    }

    /// [`Self::record_frame`]'s first half: judges `frame` (warm-up, the HUD's own, rejected,
    /// or counted) and keeps what the next frames are judged against; a counted frame's draw is
    /// returned instead of counted, for [`Self::count_draw`] to add later. Until then the
    /// readouts lack it. Draws are to be counted in the order they were judged, before any
    /// readout is read or the budget or refresh rate changes (their missed refreshes are
    /// counted against the budget in effect when they are counted), and not after a
    /// [`Self::reset`]. Cost: a few comparisons; never allocates.
    #[must_use = "a counted frame's draw is only in the readouts once handed to `count_draw`"]
    pub fn judge_frame(&mut self, frame: FrameRecord) -> (FrameVerdict, Option<PendingDraw>) {
        let Some(raw_draw) = frame.draw_end.checked_sub(frame.draw_start) else {
            self.rejected.draw_end_before_start += 1;
            return (FrameVerdict::Rejected, None);
        };
        if self
            .last_draw_start
            .is_some_and(|last| frame.draw_start < last)
        {
            self.rejected.draws_back_in_time += 1;
            return (FrameVerdict::Rejected, None);
        }
        self.last_draw_start = Some(frame.draw_start);
        // The draw is still real when only its hand-off time is impossible. A present that is
        // not after the previous one, or lies outside its own frame, is dropped: kept, one bad
        // timestamp far in the future would refuse every real present until the clock got there.
        let present = match frame.present {
            Some(at)
                if at < frame.draw_start
                    || at.saturating_sub(frame.draw_end) > self.config.max_draw_duration =>
            {
                self.rejected.presents_outside_frame += 1;
                None
            }
            Some(at) if self.last_present.is_some_and(|last| at <= last) => {
                self.rejected.presents_back_in_time += 1;
                None
            }
            present => present,
        };
        let previous_present = self.last_present;
        if let Some(at) = present {
            self.last_present = Some(at);
        }
        if self.warmup_left > 0 {
            self.warmup_left -= 1;
            // Warm-up leaves the draw out (first frames are slow for reasons of their own), not
            // the present: FPS counts what reached the screen, so a click's burst that ends the
            // warm-up reads its frames, not one counted frame over the burst's last interval.
            if frame.origin != FrameOrigin::SelfInduced {
                self.push_present(present);
            }
            return (FrameVerdict::WarmUp, None);
        }
        if frame.origin == FrameOrigin::SelfInduced {
            self.self_induced += 1;
            return (FrameVerdict::SelfInduced, None);
        }
        let overlay = frame.overlay_cost.min(raw_draw);
        let draw = PendingDraw {
            draw_nanos: nanos(
                raw_draw
                    .saturating_sub(overlay)
                    .saturating_sub(frame.excluded),
            ),
            // Bounded like a draw, so that no value a caller passes can overflow the sum.
            overlay_nanos: nanos(
                overlay.saturating_add(
                    frame
                        .overlay_cost_after_end
                        .min(self.config.max_draw_duration),
                ),
            ),
            invalidations: frame.invalidations,
            present,
            previous_present,
            back_to_back: frame.back_to_back,
        };
        (FrameVerdict::Counted, Some(draw))
    }

    /// [`Self::record_frame`]'s second half: adds a counted frame's `draw` (from
    /// [`Self::judge_frame`]) to the readouts: its draw time, its present for FPS, its interval
    /// for the session's lows and the refreshes it missed. Cost: two ring writes and a
    /// histogram bucket; never allocates.
    #[expect(
        clippy::needless_pass_by_value,
        reason = "taken, so that a draw counted is used up and cannot be counted twice"
    )]
    pub fn count_draw(&mut self, pending: PendingDraw) {
        let PendingDraw {
            draw_nanos,
            overlay_nanos,
            invalidations,
            present,
            previous_present,
            back_to_back,
        } = pending;
        // Presents enter FPS's ring in order: a draw counted twice, out of order or after a
        // reset would put an older one after a newer one.
        debug_assert!(
            pending
                .present
                .is_none_or(|at| self.presents.back().is_none_or(|newest| nanos(at) > newest)),
            "draws are counted once each, in the order they were judged, and none after a reset"
        );
        let missed_refreshes = match (present, previous_present) {
            (Some(at), Some(previous)) if back_to_back => {
                let interval = at.saturating_sub(previous);
                let period = self
                    .budget
                    .refresh_period()
                    .unwrap_or_else(|| self.budget.duration());
                self.session.record(interval, period);
                self.missed_refreshes(interval)
            }
            _ => 0,
        };
        let sample = DrawSample {
            draw_nanos,
            overlay_nanos,
            invalidations,
            missed_refreshes,
        };
        if let Some(evicted) = self.draws.push(sample) {
            self.draw_sum_nanos -= u128::from(evicted.draw_nanos);
            self.overlay_sum_nanos -= evicted.overlay_nanos;
            self.invalidation_sum -= u64::from(evicted.invalidations);
            self.missed_refresh_sum -= u64::from(evicted.missed_refreshes);
            self.missed_frame_count -= u64::from(evicted.missed_refreshes > 0);
        }
        self.draw_sum_nanos += u128::from(sample.draw_nanos);
        self.overlay_sum_nanos += sample.overlay_nanos;
        self.invalidation_sum += u64::from(sample.invalidations);
        self.missed_refresh_sum += u64::from(sample.missed_refreshes);
        self.missed_frame_count += u64::from(sample.missed_refreshes > 0);
        self.push_present(present);
    }

    /// Adds a present to FPS's ring, remembering the one it evicts.
    fn push_present(&mut self, present: Option<Duration>) {
        if let Some(at) = present
            && let Some(evicted) = self.presents.push(nanos(at))
        {
            self.evicted_present = Some(evicted);
        }
    }

    /// Refreshes missed over a present interval of a frame wanted back to back: `k − 1` for
    /// an interval of `k = round(interval / period)` refresh periods; 0 while the rate is
    /// unknown.
    fn missed_refreshes(&self, interval: Duration) -> u32 {
        let Some(refresh_hz) = self.budget.refresh_hz() else {
            return 0;
        };
        let periods = (interval.as_secs_f64() * refresh_hz).round();
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a non-negative count, saturated by `as`"
        )]
        let periods = periods as u32;
        periods.saturating_sub(1)
    }

    /// Records one frame's GPU results (labelled pass durations), arriving at `arrived_at`
    /// (results come back a few frames late). The frame's GPU time is the sum of its passes.
    /// A pass longer than [`SamplerConfig::max_draw_duration`] is dropped and counted; a frame
    /// with no pass left, or whose total exceeds that bound, adds no GPU frame time. A label seen for the first time allocates its slot;
    /// nothing else allocates.
    pub fn record_gpu_frame<'a>(
        &mut self,
        arrived_at: Duration,
        passes: impl IntoIterator<Item = (&'a str, Duration)>,
    ) {
        let limit = self.config.max_draw_duration;
        let mut total = Duration::ZERO;
        let mut recorded = 0_usize;
        for (label, duration) in passes {
            if duration > limit {
                self.rejected.implausible_gpu_passes += 1;
                continue;
            }
            total = total.saturating_add(duration);
            self.gpu_passes.record(label, duration);
            recorded += 1;
        }
        // Bounding the frame's total too keeps the running sum exact.
        if recorded == 0 || total > limit {
            return;
        }
        let sample = GpuFrameSample {
            arrived_nanos: nanos(arrived_at),
            total_nanos: nanos(total),
        };
        if let Some(evicted) = self.gpu_frames.push(sample) {
            self.gpu_sum_nanos -= evicted.total_nanos;
        }
        self.gpu_sum_nanos += sample.total_nanos;
        self.gpu_busy_frames.push(sample);
    }

    /// Records one counted frame's CPU time: `total` (its draw and the phases timed around it,
    /// such as eframe's render) and its labelled phases (inside or around the draw). Phases
    /// are shown as they are; `total` is what BOUND and MAX FPS compare with the GPU. Call it
    /// only for frames [`FrameSampler::record_frame`] counted, and not for those handed to
    /// [`crate::record::frame_recorder::FrameRecorder::cpu_reported`], which records them here
    /// itself. `untracked` is how many of the
    /// frame's phase names did not fit its record ([`crate::record::frame_phases::MAX_PHASES`]);
    /// they and the names beyond the table's 8 are counted in
    /// [`Snapshot::cpu_phases_untracked`]. A total longer than
    /// [`SamplerConfig::max_draw_duration`] is dropped; a label seen for the first time
    /// allocates its slot, nothing else allocates.
    pub fn record_cpu_frame<'a>(
        &mut self,
        total: Duration,
        phases: impl IntoIterator<Item = (&'a str, Duration)>,
        untracked: u32,
    ) {
        if total > self.config.max_draw_duration {
            return;
        }
        self.untracked_cpu_phases = self
            .untracked_cpu_phases
            .saturating_add(u64::from(untracked));
        for (label, duration) in phases {
            self.cpu_phases
                .record(label, duration.min(self.config.max_draw_duration));
        }
        if let Some(evicted) = self.cpu_frames.push(nanos(total)) {
            self.cpu_sum_nanos -= evicted;
        }
        self.cpu_sum_nanos += nanos(total);
    }

    /// Records one counted frame's latency marks, once they are all in (the GPU's come a few
    /// frames late). Each stage with both marks enters its distribution. No allocation.
    pub fn record_latency(&mut self, marks: &LatencyMarks) {
        self.latency.record(marks);
    }

    /// The retained draw times, oldest first: what the HUD's plot draws. No allocation.
    pub fn retained_draws(&self) -> impl DoubleEndedIterator<Item = Duration> + '_ {
        self.draws
            .iter()
            .map(|s| Duration::from_nanos(s.draw_nanos))
    }

    /// GPU results dropped because their label did not fit the per-pass table (8 labels).
    pub fn untracked_gpu_passes(&self) -> u64 {
        self.gpu_passes.untracked()
    }

    /// Names what reports the presentations ([`crate::presentation::PresentationSource::name`]),
    /// for the reading. Cost: none.
    pub fn set_presentation_source(&mut self, source: &'static str) {
        self.presentation.set_source(source);
    }

    /// One committed frame matched to what the window system said of it: DISPLAYED, MISS from
    /// the refresh counter, and the shown / discarded / skipped / unknown counts. Every committed
    /// frame counts here, the HUD's own too (what is on screen is on screen). Cost: O(1), no
    /// allocation.
    pub fn record_presentation(&mut self, matched: &MatchedPresentation) {
        let on_screen = match matched.outcome {
            Some(PresentationOutcome::Shown(shown)) => self.clock.time_of(shown.on_screen),
            _ => None,
        };
        self.presentation.record(matched, on_screen);
    }

    /// Forgets the GPU results (GPU time per frame, busy share, passes) and keeps the rest: for a
    /// timer that paused, so that the GPU figures start over instead of mixing in results from
    /// before the pause. Allocates nothing; costs clearing three rings.
    pub fn forget_gpu_frames(&mut self) {
        self.gpu_frames.clear();
        self.gpu_busy_frames.clear();
        self.gpu_sum_nanos = 0;
        self.gpu_passes.clear();
    }

    /// Forgets everything and starts a new warm-up, as if just created. Draws judged before it
    /// and not yet counted are to be dropped, not counted after it: with a
    /// [`crate::record::frame_recorder::FrameRecorder`], restart it too
    /// ([`crate::record::frame_recorder::FrameRecorder::restart`]).
    pub fn reset(&mut self) {
        self.draws.clear();
        self.draw_sum_nanos = 0;
        self.last_draw_start = None;
        self.evicted_present = None;
        self.invalidation_sum = 0;
        self.missed_refresh_sum = 0;
        self.missed_frame_count = 0;
        self.overlay_sum_nanos = 0;
        self.presents.clear();
        self.last_present = None;
        self.forget_gpu_frames();
        self.cpu_frames.clear();
        self.cpu_sum_nanos = 0;
        self.untracked_cpu_phases = 0;
        self.session.clear();
        self.cpu_phases.clear();
        self.latency.clear();
        self.presentation.clear();
        self.warmup_left = self.config.warmup_frames;
        self.self_induced = 0;
        self.rejected = RejectedEvents::default();
    }

    /// The readouts now, every part of them ([`SnapshotParts::ALL`]). Cost: O(capacity) (a
    /// selection for P95, a scan for DROP, a p50 and a p95 selection for each of the latency
    /// path's eleven distributions); allocates the snapshot's lists.
    pub fn snapshot(&mut self) -> Snapshot {
        self.snapshot_of(SnapshotParts::ALL)
    }

    /// The readouts now, with only the costlier `parts` asked for: the others are `None` (the
    /// lows) or empty (the latency path) until [`Self::fill`] reads them. Cost: that of
    /// [`Self::snapshot`], less the parts left out.
    pub fn snapshot_of(&mut self, parts: SnapshotParts) -> Snapshot {
        let now = self.clock.now();
        let mut snapshot = Snapshot::empty(self.budget);
        snapshot.samples = self.draws.len();
        snapshot.self_induced_frames = self.self_induced;
        snapshot.warmup_frames_left = self.warmup_left;
        snapshot.rejected = self.rejected;

        if let Ok(count) = u64::try_from(self.draws.len())
            && count > 0
        {
            let mean_nanos = self.draw_sum_nanos / u128::from(count);
            let frame = Duration::from_nanos(u64::try_from(mean_nanos).unwrap_or(u64::MAX));
            snapshot.frame = Some(frame);
            snapshot.overlay_cost = Some(Duration::from_nanos(self.overlay_sum_nanos / count));
            snapshot.overlay_cost_p50 = Some(Duration::from_nanos(self.overlay_p50_nanos()));
            snapshot.inv = Some(self.invalidation_sum as f64 / count as f64);
            snapshot.p95 = Some(Duration::from_nanos(self.p95_nanos()));
            let budget_nanos = nanos(self.budget.duration());
            let dropped = self
                .draws
                .iter()
                .filter(|s| s.draw_nanos > budget_nanos)
                .count();
            snapshot.drop = Some(dropped as f64 / count as f64);
            if self.budget.refresh_hz().is_some() {
                snapshot.missed_refreshes = Some(self.missed_refresh_sum);
                snapshot.missed_frames = Some(self.missed_frame_count as f64 / count as f64);
            }
        }

        snapshot.presentation = self.presentation.reading(&mut self.scratch_nanos);
        if let Some(presentation) = &snapshot.presentation
            && self.presentation.counts_misses()
        {
            snapshot.missed_refreshes = Some(presentation.missed_refreshes);
            snapshot.missed_frames = presentation.missed_frames;
            snapshot.miss_from_refresh_counter = true;
        }

        snapshot.hitch_ms_per_s = self.session.hitch_ms_per_s();
        // Read from the first counted frame on, over every present (the warm-up's too).
        if self.draws.len() > 0
            && let Some(rate) = self.present_rate(now)
        {
            snapshot.fps = Some(rate.fps);
            snapshot.interval = rate.interval;
        }

        if let Ok(count) = u64::try_from(self.gpu_frames.len())
            && count > 0
        {
            let gpu_frame = Duration::from_nanos(self.gpu_sum_nanos / count);
            snapshot.gpu_frame = Some(gpu_frame);
            snapshot.gpu_busy_percent = Some(self.gpu_busy_percent(now, snapshot.fps));
            snapshot.gpu_busy_source = Some(GpuBusySource::Timestamps);
            self.gpu_passes.readings(&mut snapshot.gpu_passes);
        }
        if let Ok(count) = u64::try_from(self.cpu_frames.len())
            && count > 0
        {
            snapshot.cpu_frame = Some(Duration::from_nanos(self.cpu_sum_nanos / count));
            self.cpu_phases.readings(&mut snapshot.cpu_phases);
            snapshot.cpu_phases_untracked = self.untracked_cpu_phases + self.cpu_phases.untracked();
        }
        self.fill(&mut snapshot, parts);
        self.set_max_fps_and_bound(&mut snapshot);
        snapshot
    }

    /// Reads `parts` of `snapshot` now: what [`Self::snapshot_of`] left out, read when something
    /// asks for it, from the frames recorded until now: up to a refresh interval's more than
    /// the rest of the snapshot's. Cost: that of the parts.
    pub fn fill(&mut self, snapshot: &mut Snapshot, parts: SnapshotParts) {
        if parts.lows {
            snapshot.lows = self.session.lows();
        }
        if parts.latency && self.latency.latest().is_some() {
            self.latency
                .readings(&mut snapshot.latency, &mut self.scratch_signed_nanos);
            snapshot.latency_total = self.latency.total(&mut self.scratch_signed_nanos);
            snapshot.latency_latest = self.latency.latest();
        }
    }

    /// MAX FPS from the slower side, and BOUND when it is over budget (see [`Bound`]).
    fn set_max_fps_and_bound(&self, snapshot: &mut Snapshot) {
        // The CPU's whole time per frame when phases around the draw are known, else FRAME.
        let Some(frame) = snapshot.cpu_frame.or(snapshot.frame) else {
            return;
        };
        let (side, slower) = match snapshot.gpu_frame {
            Some(gpu) if gpu > frame => (Bound::Gpu, gpu),
            _ => (Bound::Cpu, frame),
        };
        // A zero time (every draw was the HUD's own cost) has no finite inverse: no reading
        // unless the display's rate bounds it.
        let unclamped = 1.0 / slower.as_secs_f64();
        snapshot.max_fps = match self.budget.refresh_hz() {
            Some(hz) => Some(unclamped.min(hz)),
            None => Some(unclamped).filter(|fps| fps.is_finite()),
        };
        snapshot.max_fps_set_by = Some(side);
        if snapshot.gpu_frame.is_some() {
            snapshot.bound = Some(if slower > self.budget.duration() {
                side
            } else {
                Bound::Neither
            });
        }
    }

    /// FPS and INTERVAL at `now`, as [`Snapshot::fps`] defines them. No allocation.
    fn present_rate(&self, now: Duration) -> Option<PresentRate> {
        let window_nanos = nanos(self.config.present_window);
        let PresentWindow {
            latest_nanos: latest,
            count,
            first_nanos: first,
            before_nanos: before,
        } = self.present_window()?;
        debug_assert!(count >= 1, "the latest present is in its own window");
        let spread_nanos = latest - first;
        // Each present ends an interval; the first one's start is known from an earlier present
        // (at most a window back: an idle spell is not part of the rate). Without one, the
        // first present only starts the count.
        let (intervals, closed_nanos) = match before {
            Some(before) => (
                count,
                spread_nanos + first.saturating_sub(before).min(window_nanos),
            ),
            None => (count - 1, spread_nanos),
        };
        if intervals == 0 || closed_nanos == 0 {
            return None;
        }
        let typical_nanos = closed_nanos / intervals;
        let since_latest_nanos = nanos(now).saturating_sub(latest);
        // Nothing presented in the last second: no reading. The latest present is given one
        // interval of grace (the mean between the window's presents, else the first interval),
        // or an app drawing once a second would read nothing whenever its next frame is a
        // little late. A burst's interval is short, so its reading still ends after a second.
        let grace_nanos = if count >= 2 {
            spread_nanos / (count - 1)
        } else {
            typical_nanos
        };
        if since_latest_nanos > window_nanos.saturating_add(grace_nanos) {
            return None;
        }
        let span_nanos = closed_nanos + since_latest_nanos.saturating_sub(typical_nanos);
        Some(PresentRate {
            fps: intervals as f64 / Duration::from_nanos(span_nanos).as_secs_f64(),
            interval: (count >= 2).then(|| Duration::from_nanos(spread_nanos / (count - 1))),
        })
    }

    /// The presents of the window that ends at the latest one, and the one before them;
    /// `None` without a present. Presents only increase (one not after the last is
    /// rejected), so those before the window are a prefix of the ring, found by a search: a
    /// walk through its 1024 presents was a quarter of a snapshot's own time.
    fn present_window(&self) -> Option<PresentWindow> {
        let window_nanos = nanos(self.config.present_window);
        let latest = self.presents.back()?;
        debug_assert!(
            // Non-decreasing: a present is later than the last, but nanoseconds saturate.
            self.presents.iter().is_sorted(),
            "presents only increase"
        );
        let outside_count = self
            .presents
            .partition_point(|&at| latest.saturating_sub(at) >= window_nanos);
        Some(PresentWindow {
            latest_nanos: latest,
            count: u64::try_from(self.presents.len() - outside_count).unwrap_or(u64::MAX),
            first_nanos: self.presents.get(outside_count).unwrap_or(latest),
            before_nanos: outside_count
                .checked_sub(1)
                .and_then(|index| self.presents.get(index))
                .or(self.evicted_present),
        })
    }

    /// The GPU busy share, 0 to 100: the mean GPU time of the frames whose results arrived in
    /// the last [`GPU_BUSY_WINDOW`], times the app's frame rate `fps`. Frames the timer could
    /// not time (ring full, untimed tick frames) do not dilute it. Without a frame rate (no
    /// present in the last second), the results' GPU time per second of wall time.
    fn gpu_busy_percent(&self, now: Duration, fps: Option<f64>) -> f64 {
        let window_start = nanos(now).saturating_sub(nanos(GPU_BUSY_WINDOW));
        let (busy_nanos, count) = self
            .gpu_busy_frames
            .iter()
            .filter(|s| s.arrived_nanos >= window_start)
            .fold((0_u64, 0_u64), |(sum, n), s| (sum + s.total_nanos, n + 1));
        if count == 0 {
            return 0.0;
        }
        let busy_secs = Duration::from_nanos(busy_nanos).as_secs_f64();
        let share = match fps {
            Some(fps) => busy_secs / count as f64 * fps,
            None => busy_secs / GPU_BUSY_WINDOW.as_secs_f64(),
        };
        // Results that arrive together can cover a little more than the window.
        (100.0 * share).clamp(0.0, 100.0)
    }

    /// Nearest-rank 95th percentile of the draws: the ⌈0.95·n⌉-th smallest sample.
    fn p95_nanos(&mut self) -> u64 {
        self.scratch_nanos.clear();
        self.scratch_nanos
            .extend(self.draws.iter().map(|s| s.draw_nanos));
        nearest_rank(&mut self.scratch_nanos, 95)
    }

    /// Nearest-rank median of the HUD's own cost per frame.
    fn overlay_p50_nanos(&mut self) -> u64 {
        self.scratch_nanos.clear();
        self.scratch_nanos
            .extend(self.draws.iter().map(|s| s.overlay_nanos));
        nearest_rank(&mut self.scratch_nanos, 50)
    }
}

/// The ⌈p·n/100⌉-th smallest of `values` (reordered); 0 when empty.
fn nearest_rank(values: &mut [u64], percent: usize) -> u64 {
    let n = values.len();
    if n == 0 {
        return 0;
    }
    let index = nearest_rank_index(n, percent);
    *values.select_nth_unstable(index).1
}

impl std::fmt::Debug for FrameSampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameSampler")
            .field("config", &self.config)
            .field("budget", &self.budget)
            .field("samples", &self.draws.len())
            .field("warmup_left", &self.warmup_left)
            .field("rejected", &self.rejected)
            .finish_non_exhaustive()
    }
}

/// Durations here are well below 584 years, so saturating is only a guard.
fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::{FrameSampler, PresentWindow, nanos};
    use crate::{FrameRecord, ManualClock, SamplerConfig};

    /// The window as the sampler found it before it searched its ring: a walk through every
    /// present, the window's first found as the least inside it, the one before it as the last
    /// outside it.
    fn window_by_walk(sampler: &FrameSampler) -> Option<PresentWindow> {
        let window_nanos = nanos(sampler.config.present_window);
        let latest = sampler.presents.iter().next_back()?;
        let mut before = sampler.evicted_present;
        let (mut count, mut first) = (0_u64, latest);
        for at in sampler.presents.iter() {
            if latest.saturating_sub(at) >= window_nanos {
                before = Some(at);
            } else {
                count += 1;
                first = first.min(at);
            }
        }
        Some(PresentWindow {
            latest_nanos: latest,
            count,
            first_nanos: first,
            before_nanos: before,
        })
    }

    /// The window found by the search is the one the walk found, at every frame of a run that
    /// wraps the ring of presents several times, in bursts of 0.2–0.6 ms frames and spells of
    /// 2–40 ms ones: windows of 25 to about 2500 presents, inside the ring, across its wrap
    /// and longer than it (the evicted present then starts the first interval).
    #[test]
    fn the_window_searched_in_the_ring_is_the_one_a_walk_found() {
        let clock = ManualClock::new();
        let config = SamplerConfig {
            warmup_frames: 0,
            ..SamplerConfig::default()
        };
        let mut sampler =
            FrameSampler::new(config, Arc::new(clock.clone())).expect("the default config");
        let (mut at, mut state) = (Duration::ZERO, 0x9e37_79b9_7f4a_7c15_u64);
        for frame in 0..6000_u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let micros = if (frame / 700) % 2 == 0 {
                200 + state % 400
            } else {
                2_000 + state % 38_000
            };
            let start = at;
            at += Duration::from_micros(micros);
            clock.set(at);
            sampler.record_frame(FrameRecord {
                draw_start: start,
                draw_end: at,
                present: Some(at),
                ..FrameRecord::default()
            });
            assert_eq!(
                sampler.present_window(),
                window_by_walk(&sampler),
                "frame {frame}"
            );
        }
    }
}
