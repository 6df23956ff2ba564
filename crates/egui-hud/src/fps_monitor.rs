use std::sync::Arc;
use std::time::Duration;

use profiler_core::Clock;

use crate::frame_plugin::FramePlugin;
use crate::hud_config::HudConfig;
use crate::hud_state::HudState;
use crate::hud_view::HudView;

/// Shows the performance HUD on the current viewport with the default settings.
///
/// Call it once per frame wherever you have the [`egui::Context`] (in eframe's `App::ui` or
/// `App::logic`, inside `Context::run_ui`, or between `Context::begin_pass` and `end_pass`). Calling it shows the HUD; not calling it hides it,
/// and after one second of frames without it the HUD stops all its work (a slow app that calls
/// it every frame is never hidden, however long its frames). Two calls in one pass draw one HUD.
///
/// Cost when shown: a few tens of microseconds per frame (measured by `benches/hud_cost.rs`),
/// which the HUD subtracts from its own FRAME readout. It never requests an immediate repaint:
/// it asks for the 500 ms refresh tick (and, on wgpu, a frame ~33 ms later while GPU results
/// are pending), and frames caused only by those are left out of every readout.
pub fn fps_monitor(ctx: &egui::Context) {
    FpsMonitor::new().show(ctx);
}

/// The HUD with settings: `FpsMonitor::new().capacity(240).show(ctx)`.
///
/// Settings apply each time [`FpsMonitor::show`] is called; a changed capacity restarts the
/// sampler (with its warm-up). Invalid values (capacity 0, a zero budget) are logged once and
/// replaced by the defaults; check them up front with [`FpsMonitor::validate`].
#[derive(Clone)]
#[must_use = "call .show(ctx) to draw the HUD"]
pub struct FpsMonitor {
    config: HudConfig,
    clock: Option<Arc<dyn Clock>>,
    sample_resources: bool,
}

impl FpsMonitor {
    /// The default HUD: 120 samples, budget from the display (else 60 Hz), top-right corner.
    pub fn new() -> Self {
        Self {
            config: HudConfig::default(),
            clock: None,
            sample_resources: true,
        }
    }

    /// How many draw samples FRAME, P95, DROP, INV and the plot cover. Default 120.
    pub fn capacity(mut self, frames: usize) -> Self {
        self.config.capacity = frames;
        self
    }

    /// Pins the frame budget FRAME, P95 and DROP are graded against. Default: one refresh
    /// period of the display when known (see [`crate::set_refresh_rate`]), else 1/60 s.
    pub fn frame_budget(mut self, budget: Duration) -> Self {
        self.config.frame_budget = Some(budget);
        self
    }

    /// The corner the HUD sticks to and the offset from it, in points.
    /// Default `Align2::RIGHT_TOP` with `vec2(-8.0, 8.0)`.
    pub fn anchor(mut self, align: egui::Align2, offset: egui::Vec2) -> Self {
        self.config.anchor = align;
        self.config.offset = offset;
        self
    }

    /// The clock frames are timed with. Default: the process's monotonic clock. Tests and
    /// replays pass a [`profiler_core::ManualClock`] to get the same numbers on every run.
    /// Pass the same `Arc` every frame: a different one (compared by pointer) restarts the
    /// sampler, warm-up included.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Whether the CPU, MEM and process GPU rows are sampled (on a background thread). Default
    /// `true`; `false` hides those rows and starts no thread.
    pub fn sample_resources(mut self, enabled: bool) -> Self {
        self.sample_resources = enabled;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// A [`profiler_core::ConfigError`] that says which value to change.
    pub fn validate(&self) -> Result<(), profiler_core::ConfigError> {
        self.config.validate()
    }

    /// Draws the HUD on the current viewport for this pass.
    pub fn show(self, ctx: &egui::Context) {
        if !FramePlugin::pass_in_progress(ctx) {
            // eframe's `App::logic` for a hidden window: nothing is drawn, nothing to time.
            return;
        }
        FramePlugin::begin_frame_if_missed(ctx);
        let shared = HudState::get_or_insert(ctx);
        let mut state = shared.lock();
        // Measured on the HUD's clock so a manual clock gives reproducible numbers.
        let started = state.now();
        if !state.claim_pass(ctx.cumulative_pass_nr()) {
            return;
        }
        let now_secs = ctx.input(|i| i.time);
        let attached = state.attach(
            self.config,
            self.clock.as_ref(),
            self.sample_resources,
            now_secs,
        );
        if attached {
            // The plugin locks the state inside its hooks: never hold both locks the other way.
            drop(state);
            FramePlugin::watch(ctx, ctx.viewport_id(), &shared);
            state = shared.lock();
        }
        #[cfg(feature = "wgpu")]
        if ctx.viewport_id() == egui::ViewportId::ROOT
            && let Some(gpu) = crate::EguiGpuTimer::get(ctx)
        {
            if ctx.current_pass_index() == 0 {
                gpu.drain(|passes| state.record_gpu_frame(passes));
            }
            gpu.stamp_frame(ctx, state.frame_is_apps());
            state.unavailable_passes = gpu.unavailable_passes();
            if gpu.has_pending() {
                state.poll_gpu_results_soon(ctx, now_secs);
            }
        }
        if crate::install::gpu_timing_unavailable(ctx) {
            state.unavailable_passes = &[crate::install::EGUI_PASS_LABEL];
        }
        if state.tick(ctx, now_secs) {
            crate::display_watch::DisplayWatch::check(ctx);
        }

        let area = egui::Area::new(egui::Id::unique(("egui_hud_area", ctx.viewport_id())))
            .order(egui::Order::Foreground)
            .anchor(state.config.anchor, state.config.offset)
            // A fade-in asks for immediate repaints for 0.2 s: frames the HUD would then count.
            .fade_in(false)
            .interactable(true);
        // Widgets call egui's plugin hooks (debug builds): the state lock is not held while
        // drawing, so the plugin lock is never taken under it.
        let mut view = std::mem::take(&mut state.view);
        drop(state);

        // egui hit-tests at the start of a pass, so a click is known before the HUD is laid out.
        // The anchored area is placed by its previous size: after a click the pass is redone so
        // the new size is not drawn for one frame at the old place. Only pass 0 applies a click:
        // the redone pass sees the same one again.
        let readout_id = HudView::readout_id(ctx.viewport_id());
        let resized = ctx.current_pass_index() == 0
            && ctx
                .read_response(readout_id)
                .is_some_and(|readout| view.apply_clicks(&readout));
        if resized {
            ctx.request_discard("egui-hud: the HUD changed size");
        }
        area.show(ctx, |ui| view.ui(ui, readout_id));

        let mut state = shared.lock();
        state.view = view;
        if resized {
            state.note_discard_requested();
        }
        let cost = state.now().saturating_sub(started);
        state.add_overlay_cost(cost);
    }
}

impl std::fmt::Debug for FpsMonitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FpsMonitor")
            .field("config", &self.config)
            .field("custom_clock", &self.clock.is_some())
            .field("sample_resources", &self.sample_resources)
            .finish()
    }
}

impl Default for FpsMonitor {
    fn default() -> Self {
        Self::new()
    }
}

/// The readouts currently on screen for the current viewport: `None` before the first tick and
/// while the HUD is hidden. Cost: a memory lookup, a lock and a clone of the snapshot.
pub fn snapshot(ctx: &egui::Context) -> Option<profiler_core::Snapshot> {
    HudState::get(ctx, ctx.viewport_id()).and_then(|state| state.lock().displayed.clone())
}

/// Tells the HUD on the current viewport the display's refresh rate (`None`: unknown, the
/// default). It clamps MAX FPS and sets the budget (unless one is pinned). `install(cc)` does
/// this for eframe apps; other integrations call it with their platform's answer. Cost: a
/// memory lookup and a lock; call it when the rate changes, not every frame.
pub fn set_refresh_rate(ctx: &egui::Context, refresh_hz: Option<f64>) {
    HudState::get_or_insert(ctx)
        .lock()
        .set_refresh_hz(refresh_hz);
}

/// What the HUD on the current viewport is doing. For tests and diagnostics; cost: a memory
/// lookup and two locks.
pub fn activity(ctx: &egui::Context) -> HudActivity {
    HudState::get(ctx, ctx.viewport_id()).map_or_else(HudActivity::default, |state| {
        let state = state.lock();
        HudActivity {
            sampling: state.is_sampling(),
            resources_running: state.resources_running(),
        }
    })
}

/// The HUD's work on a viewport, from [`activity`]. Both are `false` before the HUD was ever
/// shown. After it is hidden, `sampling` turns `false` at the first frame a second later (an
/// app that draws no frame keeps its sampler, idle), and `resources_running` a second after the
/// last reading was asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HudActivity {
    /// A sampler exists and frames are being timed.
    pub sampling: bool,
    /// The background resource thread (CPU, MEM, GPU use) is running.
    pub resources_running: bool,
}
