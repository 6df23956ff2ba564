use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use profiler_core::{
    Clock, FrameOrigin, FrameRecord, FrameSampler, MonotonicClock, ResourceMonitor, Snapshot,
};

use crate::hud_config::HudConfig;
use crate::hud_view::HudView;
use crate::tick;

/// How often the numbers on screen change.
pub(crate) const REFRESH_INTERVAL: Duration = Duration::from_millis(500);

/// After frames without the HUD for this long (two refresh ticks) it counts as hidden: its
/// sampler is dropped. Measured from the first frame without it, never between frames that draw
/// it, so an app slower than one frame per second is still measured.
const HIDDEN_AFTER: Duration = Duration::from_secs(1);

/// The tick's tolerance: a frame this close to the refresh time refreshes, and no tick is asked
/// for sooner than this.
const TICK_SLACK: Duration = Duration::from_millis(10);

/// Everything the HUD keeps for one viewport, in egui memory under [`HudState::id`].
pub(crate) type SharedHudState = Arc<Mutex<HudState>>;

pub(crate) struct HudState {
    pub(crate) config: HudConfig,
    clock: Arc<dyn Clock>,
    sample_resources: bool,
    /// `None` while hidden: a hidden HUD keeps its view preferences, nothing else.
    sampler: Option<FrameSampler>,
    resources: ResourceMonitor,
    frame: FrameInProgress,
    /// Whether `fps_monitor` drew the HUD in the frame in progress.
    drawn_in_frame: bool,
    /// egui time (`InputState::time`) at the end of the first frame, of the frames since, that
    /// ended without the HUD; `None` while it is drawn.
    hidden_since_secs: Option<f64>,
    /// `cumulative_pass_nr` of the last pass that drew the HUD: a second call is a no-op.
    last_drawn_pass: Option<u64>,
    last_refresh_secs: Option<f64>,
    pub(crate) displayed: Option<Snapshot>,
    pub(crate) view: HudView,
    refresh_hz: Option<f64>,
    /// The viewport's rect at the last frame, to tell window-driven frames from the tick's.
    last_window_rect: Option<egui::Rect>,
    config_error_logged: bool,
    /// GPU pass labels that cannot be timed on this backend (shown as "n/a").
    pub(crate) unavailable_passes: &'static [&'static str],
    /// The soonest frame the HUD asked for in the pass in progress.
    wake_request: Option<WakeRequest>,
    /// egui time at which the next frame is the HUD's own, if nothing else wakes it first: set
    /// when the HUD's request was the soonest of the last pass.
    own_wake_due_secs: Option<f64>,
}

/// A repaint the HUD asked for: its delay, and the egui time it falls due.
#[derive(Clone, Copy, Debug)]
struct WakeRequest {
    delay: Duration,
    due_secs: f64,
}

/// The frame being drawn, between its first pass and its final one.
#[derive(Clone, Copy, Debug, Default)]
struct FrameInProgress {
    started: Option<Duration>,
    origin: FrameOrigin,
    invalidations: u32,
    overlay: Duration,
    /// The HUD asked egui to redo the pass in progress (a click changed its size).
    discard_requested: bool,
}

impl HudState {
    pub(crate) fn id(viewport: egui::ViewportId) -> egui::Id {
        egui::Id::unique(("egui_hud", viewport))
    }

    /// This viewport's state, if the HUD was ever shown on it.
    pub(crate) fn get(ctx: &egui::Context, viewport: egui::ViewportId) -> Option<SharedHudState> {
        ctx.data(|d| d.get_temp::<SharedHudState>(Self::id(viewport)))
    }

    pub(crate) fn get_or_insert(ctx: &egui::Context) -> SharedHudState {
        Self::get_or_insert_for(ctx, ctx.viewport_id())
    }

    pub(crate) fn get_or_insert_for(
        ctx: &egui::Context,
        viewport: egui::ViewportId,
    ) -> SharedHudState {
        let id = Self::id(viewport);
        if let Some(state) = ctx.data(|d| d.get_temp::<SharedHudState>(id)) {
            return state;
        }
        // One resource thread per context, whatever the number of viewports: they measure the
        // same process.
        let resources_id = egui::Id::unique("egui_hud_resources");
        let resources = ctx.data_mut(|d| {
            d.get_temp_mut_or_insert_with(resources_id, ResourceMonitor::default)
                .clone()
        });
        let state = Arc::new(Mutex::new(Self::new(resources)));
        ctx.data_mut(|d| d.insert_temp(id, Arc::clone(&state)));
        state
    }

    fn new(resources: ResourceMonitor) -> Self {
        Self {
            config: HudConfig::default(),
            clock: Arc::new(MonotonicClock::new()),
            sample_resources: true,
            sampler: None,
            resources,
            frame: FrameInProgress::default(),
            drawn_in_frame: false,
            hidden_since_secs: None,
            last_drawn_pass: None,
            last_refresh_secs: None,
            displayed: None,
            view: HudView::default(),
            refresh_hz: None,
            last_window_rect: None,
            config_error_logged: false,
            unavailable_passes: &[],
            wake_request: None,
            own_wake_due_secs: None,
        }
    }

    pub(crate) fn now(&self) -> Duration {
        self.clock.now()
    }

    pub(crate) fn is_sampling(&self) -> bool {
        self.sampler.is_some()
    }

    /// The display refresh rate from the platform; `None` = unknown (no clamp, 60 Hz budget).
    pub(crate) fn set_refresh_hz(&mut self, refresh_hz: Option<f64>) {
        self.refresh_hz = refresh_hz;
        if let Some(sampler) = &mut self.sampler {
            sampler.set_refresh_hz(refresh_hz);
        }
    }

    /// Called by the plugin at the start of a frame's first pass, before any UI code.
    pub(crate) fn begin_frame(&mut self, ctx: &egui::Context, began_at: Duration, now_secs: f64) {
        if self.sampler.is_none() {
            return;
        }
        let hook_started = self.clock.now();
        self.drawn_in_frame = false;
        // Within two slacks: an integration may wake a frame a little before the time asked for.
        let at_own_deadline = self
            .own_wake_due_secs
            .take()
            .is_some_and(|due| now_secs + 2.0 * TICK_SLACK.as_secs_f64() >= due);
        let causes = ctx.repaint_causes();
        let app_causes = causes.iter().filter(|c| !tick::is_own_cause(c)).count();
        // A resize, expose or focus change wakes the app without an input event or a repaint
        // cause: such a frame is the window's, not the HUD's tick.
        let (window_rect, window_events) =
            ctx.input(|i| (i.viewport_rect(), !i.raw.viewport().events.is_empty()));
        let window_changed = window_events || self.last_window_rect != Some(window_rect);
        self.last_window_rect = Some(window_rect);
        let origin = if !window_changed && tick::is_hud_frame(ctx, &causes, at_own_deadline) {
            FrameOrigin::SelfInduced
        } else {
            FrameOrigin::App
        };
        self.frame = FrameInProgress {
            started: Some(began_at),
            origin,
            // Something made this frame run even when it left no repaint cause (an input event,
            // the first frame): count at least one invalidation for every app frame.
            invalidations: u32::try_from(app_causes).unwrap_or(u32::MAX).max(1),
            // The HUD's own bookkeeping in this hook is not the app's frame time either.
            overlay: self.clock.now().saturating_sub(hook_started),
            discard_requested: false,
        };
    }

    /// Called by the plugin after each pass at egui time `now_secs`; `presented` is false for a
    /// discarded pass; `repaint_delay` is egui's for the viewport (the soonest request of the
    /// pass). Frames without the HUD are still the app's frames and are recorded, until
    /// [`HIDDEN_AFTER`] of them drops the sampler.
    pub(crate) fn end_pass(
        &mut self,
        ended_at: Duration,
        presented: bool,
        now_secs: f64,
        repaint_delay: Option<Duration>,
    ) {
        // egui forgets a pass's repaint requests when the next pass begins: only a presented
        // pass's requests wake the next frame.
        let wake = self.wake_request.take();
        if !presented {
            if std::mem::take(&mut self.frame.discard_requested)
                && let Some(started) = self.frame.started
            {
                // The HUD threw this pass away: all of it, the app's UI included, is the HUD's
                // cost, not the app's frame time.
                self.frame.overlay = ended_at.saturating_sub(started);
            }
            return;
        }
        self.own_wake_due_secs = wake
            .filter(|w| repaint_delay == Some(w.delay))
            .map(|w| w.due_secs);
        if !std::mem::take(&mut self.drawn_in_frame) {
            self.hidden_since_secs.get_or_insert(now_secs);
            if self.hidden_for_secs(now_secs) >= HIDDEN_AFTER.as_secs_f64() {
                self.detach();
                return;
            }
        }
        let frame = std::mem::take(&mut self.frame);
        let (Some(draw_start), Some(sampler)) = (frame.started, self.sampler.as_mut()) else {
            return;
        };
        sampler.record_frame(FrameRecord {
            draw_start,
            draw_end: ended_at,
            present: Some(ended_at),
            invalidations: frame.invalidations,
            origin: frame.origin,
            overlay_cost: frame.overlay,
        });
    }

    /// Records that the HUD asked egui to redo this pass (see [`Self::end_pass`]).
    pub(crate) fn note_discard_requested(&mut self) {
        self.frame.discard_requested = true;
    }

    /// Adds time the HUD spent drawing itself to the current frame.
    pub(crate) fn add_overlay_cost(&mut self, cost: Duration) {
        self.frame.overlay = self.frame.overlay.saturating_add(cost);
    }

    /// Whether this pass already drew the HUD (two calls in one pass draw one HUD).
    pub(crate) fn claim_pass(&mut self, pass_nr: u64) -> bool {
        if self.last_drawn_pass == Some(pass_nr) {
            return false;
        }
        self.last_drawn_pass = Some(pass_nr);
        true
    }

    /// Makes sure a sampler runs with `config`; a changed capacity or clock starts a fresh
    /// sampler. Returns whether a new sampler started (the frame plugin must watch it).
    pub(crate) fn attach(
        &mut self,
        config: HudConfig,
        clock: Option<&Arc<dyn Clock>>,
        sample_resources: bool,
        now_secs: f64,
    ) -> bool {
        let clock_changed = clock.is_some_and(|c| !Arc::ptr_eq(c, &self.clock));
        if let Some(clock) = clock.filter(|_| clock_changed) {
            self.clock = Arc::clone(clock);
        }
        self.sample_resources = sample_resources;
        let config = match config.validate() {
            Ok(()) => config,
            Err(error) => {
                if !self.config_error_logged {
                    self.config_error_logged = true;
                    log::warn!("egui-hud: {error}; using the defaults instead");
                }
                HudConfig {
                    anchor: config.anchor,
                    offset: config.offset,
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
            self.displayed = None;
            self.last_refresh_secs = Some(now_secs);
            self.frame = FrameInProgress::default();
        } else if config.frame_budget != self.config.frame_budget
            && let Some(sampler) = &mut self.sampler
            && let Err(error) = sampler.set_frame_budget(config.frame_budget)
        {
            log::warn!("egui-hud: {error}");
        }
        self.config = config;
        self.drawn_in_frame = true;
        self.hidden_since_secs = None;
        rebuild
    }

    /// Seconds since the first frame without the HUD; 0 while it is drawn.
    fn hidden_for_secs(&self, now_secs: f64) -> f64 {
        self.hidden_since_secs.map_or(0.0, |since| now_secs - since)
    }

    fn detach(&mut self) {
        self.hidden_since_secs = None;
        self.sampler = None;
        self.displayed = None;
        self.last_refresh_secs = None;
        self.frame = FrameInProgress::default();
        self.view.clear_readouts();
    }

    /// Refreshes the readouts when the tick is due and schedules the next tick. Returns whether
    /// the readouts changed.
    pub(crate) fn tick(&mut self, ctx: &egui::Context, now_secs: f64) -> bool {
        let interval_secs = REFRESH_INTERVAL.as_secs_f64();
        let slack_secs = TICK_SLACK.as_secs_f64();
        let due_secs = self.last_refresh_secs.map(|t| t + interval_secs);
        // Any frame from `slack` before the refresh is due refreshes: that saves a tick frame.
        // A NaN (a clock gone wrong) refreshes rather than stalls.
        let refreshed = due_secs.is_none_or(|due| due.is_nan() || now_secs >= due - slack_secs);
        if refreshed {
            // On time (an app frame a little early, the tick's own frame a little late), the
            // refreshes stay on a 500 ms grid; after a pause a new grid starts now.
            let on_grid = due_secs.filter(|&due| now_secs <= due + 2.0 * slack_secs);
            self.refresh(on_grid.unwrap_or(now_secs));
        }
        let next_due_secs = self.last_refresh_secs.unwrap_or(now_secs) + interval_secs;
        // Asked for `slack` after the refresh falls due, so that an app frame due at the same
        // moment (its own `request_repaint_after(500 ms)`) is the sooner request: that frame is
        // the app's, and it refreshes the readouts on the way. Never zero: a zero delay is an
        // immediate repaint, which the HUD never asks for.
        let delay = Duration::try_from_secs_f64(next_due_secs + slack_secs - now_secs)
            .unwrap_or(REFRESH_INTERVAL)
            .max(TICK_SLACK);
        tick::schedule(ctx, delay);
        self.note_wake_request(delay, now_secs);
        refreshed
    }

    /// Asks for a frame soon to collect pending GPU results (see [`tick::schedule_result_poll`]).
    #[cfg(feature = "wgpu")]
    pub(crate) fn poll_gpu_results_soon(&mut self, ctx: &egui::Context, now_secs: f64) {
        let delay = tick::schedule_result_poll(ctx);
        self.note_wake_request(delay, now_secs);
    }

    /// Remembers the soonest frame the HUD asked for in this pass.
    fn note_wake_request(&mut self, delay: Duration, now_secs: f64) {
        if self.wake_request.is_none_or(|w| delay < w.delay) {
            self.wake_request = Some(WakeRequest {
                delay,
                due_secs: now_secs + delay.as_secs_f64(),
            });
        }
    }

    fn refresh(&mut self, at_secs: f64) {
        self.last_refresh_secs = Some(at_secs);
        let Some(sampler) = &mut self.sampler else {
            return;
        };
        let mut snapshot = sampler.snapshot();
        if self.sample_resources {
            snapshot.apply_resources(&self.resources.request());
        }
        self.view
            .set_plot(sampler.retained_draws(), snapshot.budget);
        self.view.set_readouts(&snapshot, self.unavailable_passes);
        self.displayed = Some(snapshot);
    }

    /// Records one frame's GPU results (labelled pass durations) as they arrive.
    #[cfg(feature = "wgpu")]
    pub(crate) fn record_gpu_frame<'a>(
        &mut self,
        passes: impl IntoIterator<Item = (&'a str, Duration)>,
    ) {
        let now = self.clock.now();
        if let Some(sampler) = &mut self.sampler {
            sampler.record_gpu_frame(now, passes);
        }
    }

    /// Whether the frame in progress is the app's (not only the HUD's tick).
    #[cfg(feature = "wgpu")]
    pub(crate) fn frame_is_apps(&self) -> bool {
        self.frame.started.is_some() && self.frame.origin == FrameOrigin::App
    }

    pub(crate) fn resources_running(&self) -> bool {
        self.resources.is_running()
    }
}
