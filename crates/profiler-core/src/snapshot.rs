use std::time::Duration;

use crate::{
    Bound, DurationReading, FrameBudget, FrameRateLows, Grade, LatencyMarks, LatencyReading,
    LatencyTotal, MemoryCounter, RejectedEvents,
};

/// The readouts at one moment: what the HUD shows until its next tick.
///
/// Every readout is an `Option` and is `None` when there is not enough data, never a made-up
/// number. The definitions are in `docs/readouts.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// `1 / max(CPU, GPU time per frame)`: the rate the slower side allows, clamped to the
    /// display refresh rate when it is known. The CPU side is [`Snapshot::cpu_frame`] when
    /// phases around the draw were reported, else FRAME. Without GPU results, `1 / CPU`.
    pub max_fps: Option<f64>,
    /// Which side's time gives [`Snapshot::max_fps`] before the display's clamp: [`Bound::Gpu`]
    /// when the GPU time per frame is longer than the CPU side, else [`Bound::Cpu`] (never
    /// [`Bound::Neither`]). When MAX FPS equals the refresh rate, the display capped it.
    pub max_fps_set_by: Option<Bound>,
    /// The app's presents in the last second, per second of the time they span.
    ///
    /// The `n` presents of the window that ends at the latest one count; the time they span is
    /// the `n` intervals that end with them (the first at most one window long, so a burst after
    /// an idle spell reads no more than its frames), plus the time since the latest present beyond
    /// one typical interval (an app that stopped reads less at every refresh). A steady 60 Hz
    /// app reads 60, a 3-frame burst at most 3, a `request_repaint_after(400 ms)` app 2.5.
    /// `None` once the latest present is more than a second and one interval old (so an app
    /// that draws once a second keeps its reading when a frame is a little late). Before an
    /// earlier present is known (the first frames after the warm-up), the first present only
    /// starts the count: `n − 1` intervals, and `None` for a single present.
    pub fps: Option<f64>,
    /// Mean interval between the presents FPS counts, `(last − first) / (n − 1)`; `None` below
    /// two presents. Equal to `1 / FPS` for a steady app; shorter for a burst.
    pub interval: Option<Duration>,
    /// Mean draw time over the retained samples, without the HUD's own time inside them.
    pub frame: Option<Duration>,
    /// Nearest-rank 95th percentile of the retained draw times: always one of the samples.
    pub p95: Option<Duration>,
    /// Fraction (0..=1) of retained draws strictly longer than the budget.
    pub drop: Option<f64>,
    /// Mean repaint requests coalesced into one retained frame.
    pub inv: Option<f64>,
    /// MISS: display refreshes the retained frames missed. A frame the app wanted right after
    /// the previous one ([`crate::FrameRecord::back_to_back`]) whose present interval is
    /// `k = round(interval / refresh period)` periods long missed `k − 1`; a frame after an
    /// idle spell missed none. `None` while the refresh rate is unknown (frames recorded
    /// before it was known count none).
    pub missed_refreshes: Option<u64>,
    /// Fraction (0..=1) of the retained frames that missed at least one refresh; `None` with
    /// [`Snapshot::missed_refreshes`].
    pub missed_frames: Option<f64>,
    /// Whether MISS above comes from the window system's refresh counter (exact: see
    /// [`crate::PresentationReading::missed_refreshes`]) rather than from present intervals.
    pub miss_from_refresh_counter: bool,
    /// DISPLAYED and the presentation counts, once a presentation source reported a frame
    /// ([`crate::presentation::PresentationSource`]); `None` without one.
    pub presentation: Option<crate::PresentationReading>,
    /// Why there are no presentation times for this window, when a source was asked for and
    /// could not be had or stopped (set by the HUD, not the sampler).
    pub presentation_unavailable: Option<std::sync::Arc<str>>,
    /// The frame budget in effect (pinned, else one refresh period, else 1/60 s).
    pub budget: Duration,
    /// The display refresh rate, when the platform told us.
    pub refresh_hz: Option<f64>,
    /// Whether [`Snapshot::budget`] was pinned by the app rather than taken from the display.
    pub budget_pinned: bool,
    /// Retained draw samples behind FRAME, P95, DROP and INV.
    pub samples: usize,
    /// This process's CPU use, averaged over the last 3 s; 100 = one full core.
    pub cpu_percent: Option<f64>,
    /// Memory attributable to this process, averaged over the last 3 s.
    pub memory_bytes: Option<u64>,
    /// Which counter [`Snapshot::memory_bytes`] comes from.
    pub memory_counter: Option<MemoryCounter>,
    /// Mean GPU time per frame over the retained GPU results (timestamp queries).
    pub gpu_frame: Option<Duration>,
    /// GPU busy share in percent: from timestamps, the mean GPU time of the frames timed in the
    /// last second times the app's frame rate (frames the timer dropped do not dilute it), else
    /// the process's GPU use from a platform counter.
    pub gpu_busy_percent: Option<f64>,
    /// Where [`Snapshot::gpu_busy_percent`] comes from.
    pub gpu_busy_source: Option<GpuBusySource>,
    /// The process's GPU use from a platform counter (DRM fdinfo, NVML, PDH, the macOS I/O registry) in
    /// percent, averaged over 3 s, whatever the timestamps say; `None` where there is none.
    pub gpu_process_busy_percent: Option<f64>,
    /// The counter behind [`Snapshot::gpu_process_busy_percent`], e.g. `"NVML"`.
    pub gpu_process_source: Option<&'static str>,
    /// GPU time of the HUD's own drawing in the latest timed frame, measured in its own scope
    /// and already left out of [`Snapshot::gpu_frame`] and the passes. Set by the integration
    /// that draws the HUD; `None` where it cannot be timed.
    pub gpu_overlay_cost: Option<Duration>,
    /// GPU frames the timer could not time (its ring was full or a readback came late), since
    /// the timer was installed. Set by the integration that owns the timer; 0 without one.
    pub gpu_dropped_frames: u64,
    /// The share of the app's frames the GPU timer timed since the previous refresh (0 to 1),
    /// where the integration times a sample of them (egui-hud's `GpuSampling`); `None` without
    /// a GPU timer. Set by the integration that owns the timer.
    pub gpu_timed_share: Option<f64>,
    /// One entry per labelled GPU pass, in the order the labels were first seen.
    pub gpu_passes: Vec<DurationReading>,
    /// Mean CPU time per frame over the frames phases were reported for: the draw plus the
    /// phases timed around it (eframe's `render`: tessellation, paint, submit). `None` without
    /// phase reports; then BOUND and MAX FPS use FRAME.
    pub cpu_frame: Option<Duration>,
    /// One entry per labelled CPU phase (`egui_hud::cpu_phase`, eframe's `ui` and `render`),
    /// in the order the labels were first seen. Phases inside the draw are parts of FRAME.
    pub cpu_phases: Vec<DurationReading>,
    /// Phase timings not shown since the sampler started: names beyond the 8 a frame's record
    /// keeps ([`crate::record::frame_phases::MAX_PHASES`]) or beyond the 8 labels the readings
    /// keep. The HUD's hover says so when it is not 0.
    pub cpu_phases_untracked: u64,
    /// The latency path: one reading per [`crate::LatencyStage`], path order, over the retained
    /// frames whose marks came in; empty until the first such frame (see `docs/readouts.md`),
    /// and in a snapshot that left the latency path out ([`crate::SnapshotParts`]).
    pub latency: Vec<LatencyReading>,
    /// LATENCY: the distribution of each retained frame's own request → GPU end (or UI end where
    /// no GPU end is known; [`LatencyTotal::end`] says which); `None` until a frame a request
    /// woke came in, or when the latency path was left out. The stages in [`Snapshot::latency`]
    /// on the latency path ([`crate::LatencyStage::is_on_latency_path`]) are its breakdown; the
    /// others (the timer's lateness, the time after the GPU's end, the screen marks) are not.
    pub latency_total: Option<LatencyTotal>,
    /// The marks of the latest frame behind [`Snapshot::latency`].
    pub latency_latest: Option<LatencyMarks>,
    /// How far the GPU marks of the latency path may be off: half the window of the clock
    /// calibration that placed them on the CPU clock (plus drift since). Set by the integration
    /// that owns the GPU timer; `None` without a calibration.
    pub gpu_clock_uncertainty: Option<Duration>,
    /// The side over the frame budget that limits the frame rate, or [`Bound::Neither`] when
    /// both fit in it; `None` until both the CPU side (see [`Snapshot::max_fps`]) and the GPU
    /// time per frame are known.
    pub bound: Option<Bound>,
    /// Mean time the HUD spent on itself per frame: its drawing and bookkeeping inside the
    /// frame (already left out of FRAME) and its bookkeeping after the frame ended
    /// ([`crate::FrameRecord::overlay_cost_after_end`]).
    pub overlay_cost: Option<Duration>,
    /// `AVG`, `1% LOW`, `0.1% LOW` since the sampler started or was reset, over the present
    /// intervals of frames wanted back to back; `None` before the first such interval, and in a
    /// snapshot that left the lows out ([`crate::SnapshotParts`]).
    pub lows: Option<FrameRateLows>,
    /// `HITCH`: milliseconds the frames wanted back to back were shown late (`(k − 1)` refresh
    /// periods for an interval of `k`; the budget when the rate is unknown), per second spent
    /// animating back to back, since the start or a reset (Apple's hitch time ratio: good ≤ 5,
    /// warning 5–10, critical ≥ 10). Idle time never dilutes it.
    pub hitch_ms_per_s: Option<f64>,
    /// Median of the HUD's own time per frame (as [`Self::overlay_cost`]): robust where the
    /// mean is not (a frame preempted inside the HUD's hooks on a loaded machine).
    pub overlay_cost_p50: Option<Duration>,
    /// Frames that only the HUD's tick caused, excluded from every readout, since mount.
    pub self_induced_frames: u64,
    /// Frames still to be discarded as warm-up.
    pub warmup_frames_left: u32,
    /// Events dropped as impossible, since mount.
    pub rejected: RejectedEvents,
}

/// The source of a GPU busy share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuBusySource {
    /// Sum of this app's timed GPU passes per second of wall time.
    Timestamps,
    /// A platform counter of this process's GPU use, named (e.g. `"DRM fdinfo"`, `"NVML"`).
    ProcessCounter(&'static str),
}

impl Snapshot {
    /// A snapshot with no readings, for a budget.
    pub fn empty(budget: FrameBudget) -> Self {
        Self {
            max_fps: None,
            max_fps_set_by: None,
            fps: None,
            interval: None,
            frame: None,
            p95: None,
            drop: None,
            inv: None,
            missed_refreshes: None,
            missed_frames: None,
            miss_from_refresh_counter: false,
            presentation: None,
            presentation_unavailable: None,
            budget: budget.duration(),
            refresh_hz: budget.refresh_hz(),
            budget_pinned: budget.is_pinned(),
            samples: 0,
            cpu_percent: None,
            memory_bytes: None,
            memory_counter: None,
            gpu_frame: None,
            gpu_busy_percent: None,
            gpu_busy_source: None,
            gpu_process_busy_percent: None,
            gpu_process_source: None,
            gpu_overlay_cost: None,
            gpu_dropped_frames: 0,
            gpu_timed_share: None,
            gpu_passes: Vec::new(),
            cpu_frame: None,
            cpu_phases: Vec::new(),
            cpu_phases_untracked: 0,
            latency: Vec::new(),
            latency_total: None,
            latency_latest: None,
            gpu_clock_uncertainty: None,
            bound: None,
            overlay_cost: None,
            overlay_cost_p50: None,
            lows: None,
            hitch_ms_per_s: None,
            self_induced_frames: 0,
            warmup_frames_left: 0,
            rejected: RejectedEvents::default(),
        }
    }

    /// FRAME's grade against the budget.
    pub fn frame_grade(&self) -> Option<Grade> {
        self.frame.map(|d| Grade::of_duration(d, self.budget))
    }

    /// P95's grade against the budget.
    pub fn p95_grade(&self) -> Option<Grade> {
        self.p95.map(|d| Grade::of_duration(d, self.budget))
    }

    /// DROP's grade (see [`Grade::of_drop_fraction`]).
    pub fn drop_grade(&self) -> Option<Grade> {
        self.drop.map(Grade::of_drop_fraction)
    }

    /// Fills the process rows from a resource reading.
    pub fn apply_resources(&mut self, reading: &crate::ResourceReading) {
        self.cpu_percent = reading.cpu_percent;
        self.memory_bytes = reading.memory_bytes;
        self.memory_counter = reading.memory_counter;
        self.gpu_process_busy_percent = reading.gpu_busy_percent;
        self.gpu_process_source = reading.gpu_source;
        if self.gpu_busy_percent.is_none()
            && let Some(gpu) = reading.gpu_busy_percent
        {
            self.gpu_busy_percent = Some(gpu);
            self.gpu_busy_source = reading.gpu_source.map(GpuBusySource::ProcessCounter);
        }
    }
}
