use std::sync::Arc;
use std::time::Duration;

use profiler_core::Clock;

use crate::frame_plugin::FramePlugin;
use crate::hud_config::HudConfig;
use crate::hud_view::HudView;
use crate::viewport_hud::ViewportHud;

/// Shows the performance HUD on the current viewport with the default settings.
///
/// Call it once per frame wherever you have the [`egui::Context`] (in eframe's `App::ui` or
/// `App::logic`, inside `Context::run_ui`, or between `Context::begin_pass` and `end_pass`). Calling it shows the HUD; not calling it hides it,
/// and after one second of frames without it the HUD stops all its work (a slow app that calls
/// it every frame is never hidden, however long its frames). Two calls in one pass draw one HUD.
///
/// Cost when shown: a few microseconds per frame (measured by `benches/hud_cost.rs`), which the
/// HUD subtracts from its own FRAME readout. It never requests an immediate repaint: it asks
/// for a frame at the 500 ms refresh (and, on wgpu, ~33 ms later while GPU results are
/// pending), and not even that when a frame the app asked for comes within a second of it;
/// frames caused only by its own requests are left out of every readout.
///
/// To know which frames the app asked for, the HUD sets the context's repaint observer
/// ([`egui::Context::set_repaint_observer`]) when it is first shown, replacing one set before
/// (egui allows one and cannot chain them). An app or integration that sets its own afterwards
/// replaces the HUD's, which the HUD notices at its
/// next refresh and logs once; it then takes frames that land on its own refresh time for its
/// own (as if no app request were due) and no longer waits for the app's frames.
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
    /// eframe's CPU time of the previous frame (`Frame::info().cpu_usage`).
    eframe_cpu_usage: Option<Duration>,
    /// The key that saves the exports, and where.
    export_key: Option<(egui::Key, Option<std::path::PathBuf>)>,
}

impl FpsMonitor {
    /// The default HUD: 120 samples, budget from the display (else 60 Hz), top-right corner.
    pub fn new() -> Self {
        Self {
            config: HudConfig::default(),
            clock: None,
            sample_resources: true,
            eframe_cpu_usage: None,
            export_key: None,
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

    /// A key that saves the retained frames as CSV and Chrome trace (see
    /// [`crate::save_exports`]) into `directory`, or next to the executable when `None`, on a
    /// background thread. Default: no key.
    pub fn export_on_key(mut self, key: egui::Key, directory: Option<std::path::PathBuf>) -> Self {
        self.export_key = Some((key, directory));
        self
    }

    /// When a frame is kept as a spike (see [`crate::spikes`]). Default
    /// [`crate::SpikeThreshold::BudgetTimes`]`(2.0)`: twice the frame budget.
    pub fn spike_threshold(mut self, threshold: crate::SpikeThreshold) -> Self {
        self.config.spike_threshold = threshold;
        self
    }

    /// Hands the HUD eframe's frame, for two CPU phases at no cost: `ui` (the draw FRAME
    /// samples) and `render` (eframe's `frame.info().cpu_usage` minus the draw: tessellation,
    /// texture and buffer upload, callbacks' `prepare`, render-pass encoding; eframe leaves
    /// vsync, acquire, submit and present out of it). Their sum is the CPU side of BOUND and
    /// MAX FPS. Use it in `App::ui` of the root viewport: eframe reports the root's previous
    /// frame. Default: not given, and FRAME alone stands for the CPU side.
    #[cfg(feature = "eframe")]
    pub fn eframe_frame(mut self, frame: &eframe::Frame) -> Self {
        self.eframe_cpu_usage = frame
            .info()
            .cpu_usage
            .and_then(|secs| Duration::try_from_secs_f32(secs).ok());
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
        let viewport = ctx.viewport_id();
        let Some(HudDraw {
            mut view,
            details,
            anchor,
            offset,
            started,
            #[cfg(feature = "wgpu")]
            gpu_timer,
        }) = FramePlugin::with(ctx, |plugin| plugin.begin_draw(ctx, &self))
        else {
            return;
        };
        let area_id = egui::Id::unique(("egui_hud_area", viewport));
        let area = egui::Area::new(area_id)
            .order(egui::Order::Foreground)
            .anchor(anchor, offset)
            // A fade-in asks for immediate repaints for 0.2 s: frames the HUD would then count.
            .fade_in(false)
            .interactable(true);
        // egui hit-tests at the start of a pass, so a click is known before the HUD is laid out.
        // The anchored area is placed by its previous size: after a click the pass is redone so
        // the new size is not drawn for one frame at the old place. Only pass 0 applies a click:
        // the redone pass sees the same one again.
        let readout_id = HudView::readout_id(viewport);
        let resized = ctx.current_pass_index() == 0
            && ctx
                .read_response(readout_id)
                .is_some_and(|readout| view.apply_clicks(&readout));
        if resized {
            ctx.request_discard("egui-hud: the HUD changed size");
        }
        // On wgpu, the HUD's own GPU drawing is stamped apart and left out of the app's.
        #[cfg(feature = "wgpu")]
        let close_gpu_stamps = gpu_timer.and_then(|gpu| {
            gpu.bracket_hud_layer(ctx, egui::LayerId::new(egui::Order::Foreground, area_id))
        });
        area.show(ctx, |ui| view.ui(ui, readout_id));
        #[cfg(feature = "wgpu")]
        if let Some(close) = close_gpu_stamps {
            close(ctx);
        }
        let mut details_open = details.is_some();
        if let Some(details) = &details {
            crate::details_window::show(ctx, viewport, details, &mut details_open);
        }
        if std::mem::take(&mut view.details_clicked) {
            details_open = !details_open;
        }
        FramePlugin::with(ctx, |plugin| {
            plugin.hud_mut(viewport).details_open = details_open;
            plugin.end_draw(viewport, view, resized, started);
        });
        if let Some((key, directory)) = &self.export_key
            && ctx.current_pass_index() == 0
            && ctx.input(|i| i.key_pressed(*key))
        {
            let directory = directory.clone().or_else(|| {
                std::env::current_exe()
                    .ok()
                    .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf))
            });
            match directory.map(|directory| crate::save_exports(ctx, directory)) {
                Some(Ok(())) => {}
                Some(Err(error)) => log::warn!("egui-hud: {error}"),
                None => {
                    log::warn!("egui-hud: no directory to export to (pass one to export_on_key)");
                }
            }
        }
    }
}

/// What `fps_monitor` needs to draw, taken out of the plugin so that its lock is not held
/// while egui widgets run.
pub(crate) struct HudDraw {
    pub(crate) view: HudView,
    pub(crate) anchor: egui::Align2,
    pub(crate) offset: egui::Vec2,
    /// The HUD's stamp when it began this pass's work; `None` when no frame is being timed.
    pub(crate) started: Option<Duration>,
    /// What the details window shows, when it is open.
    pub(crate) details: Option<crate::details_window::DetailsData>,
    /// The GPU timer, in a wgpu app after `install`.
    #[cfg(feature = "wgpu")]
    pub(crate) gpu_timer: Option<crate::EguiGpuTimer>,
}

impl FramePlugin {
    /// The HUD's work for this pass before drawing: claims the pass (a second call draws
    /// nothing), starts the sampler, collects GPU results, refreshes the readouts when due, and
    /// hands out the view. `None` outside a pass, for a second call, and for the call that
    /// registered the plugin.
    fn begin_draw(&mut self, ctx: &egui::Context, monitor: &FpsMonitor) -> Option<HudDraw> {
        let viewport = ctx.viewport_id();
        if !self.in_pass_of(viewport) {
            // Outside a pass (eframe's `App::logic` for a hidden window) nothing is drawn. A call
            // that just registered the plugin cannot tell, so it only registers: the HUD appears
            // from the next pass, whose hooks the plugin sees.
            return None;
        }
        let hud = self.hud_mut(viewport);
        if !hud.claim_pass(ctx.cumulative_pass_nr()) {
            return None;
        }
        let started = hud
            .frame_and_clock()
            .map(|(frame, clock)| frame.stamp(clock));
        // Integrations that call `begin_pass` / `end_pass` themselves skip `on_begin_pass`.
        self.classify(ctx, viewport);
        let now_secs = ctx.input(|i| i.time);
        let hud = self.hud_mut(viewport);
        let attached = hud.attach(
            monitor.config,
            monitor.clock.as_ref(),
            monitor.sample_resources,
            now_secs,
        );
        if attached {
            // The frame that starts the sampler is timed from here (it is warm-up), so that it
            // ends like any other and asks for the first refresh.
            let hud = self.hud_mut(viewport);
            hud.begin_frame_late();
            let frame_open = hud.frame.is_some();
            self.ledger.restart(viewport, frame_open);
            self.classify(ctx, viewport);
        }
        if ctx.current_pass_index() == 0 {
            let hud = self.hud_mut(viewport);
            hud.report_cpu_time(monitor.eframe_cpu_usage);
            if !self.has_gpu_timer() {
                // No paint or GPU marks will come: the last frame is complete now.
                self.hud_mut(viewport).record_paint(None);
            }
        }
        self.collect_gpu_results(ctx, viewport);
        if self.gpu_timing_unavailable {
            self.hud_mut(viewport).unavailable_passes = &[crate::install::EGUI_PASS_LABEL];
        }
        self.refresh_if_due(ctx, viewport, now_secs);
        let hud = self.hud_mut(viewport);
        Some(HudDraw {
            details: hud.details(),
            view: hud.view.take().unwrap_or_default(),
            anchor: hud.config.anchor,
            offset: hud.config.offset,
            started,
            #[cfg(feature = "wgpu")]
            gpu_timer: self.gpu_timer.clone(),
        })
    }

    /// The HUD's work for this pass after drawing: the view goes back, the time since
    /// `started` is the HUD's cost.
    fn end_draw(
        &mut self,
        viewport: egui::ViewportId,
        view: HudView,
        resized: bool,
        started: Option<Duration>,
    ) {
        let hud = self.hud_mut(viewport);
        hud.view = Some(view);
        if let Some((frame, clock)) = hud.frame_and_clock() {
            frame.discard_requested |= resized;
            if let Some(started) = started {
                frame.add_cost_since(clock, started);
            }
        }
    }

    /// Whether a GPU timer will report paint marks and GPU results.
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(clippy::unused_self, reason = "only wgpu has a GPU timer")
    )]
    fn has_gpu_timer(&self) -> bool {
        #[cfg(feature = "wgpu")]
        return self.gpu_timer.is_some();
        #[cfg(not(feature = "wgpu"))]
        false
    }

    /// On wgpu, GPU results: hands those that arrived to their viewports' HUDs and arms the
    /// timer for this viewport's frame if it is the app's.
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(clippy::unused_self, reason = "only wgpu times GPU passes")
    )]
    fn collect_gpu_results(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        #[cfg(feature = "wgpu")]
        if let Some(gpu) = self.gpu_timer.clone() {
            let hud = self.hud_mut(viewport);
            let (apps, sequence) = (hud.frame_is_apps(), hud.frame_sequence);
            if ctx.current_pass_index() == 0 {
                hud.record_painted(gpu.take_painted(viewport));
                gpu.drain(!apps, |frame| {
                    if let Some(hud) = self.hud_mut_if_used(frame.viewport) {
                        hud.record_gpu_frame(frame);
                    }
                });
                gpu.keep_calibrated();
            }
            gpu.stamp_frame(ctx, apps, sequence);
            let hud = self.hud_mut(viewport);
            hud.unavailable_passes = gpu.unavailable_passes();
            hud.gpu_dropped_frames = gpu.timer().stats().dropped_frames;
            hud.gpu_clock_uncertainty = gpu.trusted_calibration().map(|c| c.uncertainty());
        }
        let _ = (ctx, viewport);
    }
}

impl std::fmt::Debug for FpsMonitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FpsMonitor")
            .field("config", &self.config)
            .field("custom_clock", &self.clock.is_some())
            .field("sample_resources", &self.sample_resources)
            .field("eframe_cpu_usage", &self.eframe_cpu_usage)
            .field("export_key", &self.export_key)
            .finish()
    }
}

impl Default for FpsMonitor {
    fn default() -> Self {
        Self::new()
    }
}

/// The readouts currently on screen for the current viewport: `None` before the first tick and
/// while the HUD is hidden. Cost: a lock of the HUD's plugin and a clone of the snapshot.
pub fn snapshot(ctx: &egui::Context) -> Option<profiler_core::Snapshot> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.displayed(viewport))
        .flatten()
}

/// Opens (or closes) the details window of the current viewport's HUD: the retained frames as
/// an interactive plot, histograms of frame times and hand-off intervals, and the spikes. The
/// HUD's "details ▸" control does the same. While closed it costs nothing; while open, a copy of
/// the retained frames per frame (measured in `benches/hud_cost.rs`).
pub fn show_details(ctx: &egui::Context, open: bool) {
    let viewport = ctx.viewport_id();
    FramePlugin::with(ctx, |plugin| plugin.hud_mut(viewport).details_open = open);
}

/// The last 16 spikes on the current viewport, oldest first: frames whose draw, CPU time, GPU
/// time or (wanted right after the previous one) hand-off interval crossed the spike
/// threshold ([`FpsMonitor::spike_threshold`], default twice the budget), with everything the
/// HUD knew about them. Empty while the HUD is hidden. Cost: a lock of the HUD's plugin and a
/// clone of the spikes.
pub fn spikes(ctx: &egui::Context) -> Vec<crate::Spike> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| {
        plugin
            .hud(viewport)
            .filter(|hud| hud.is_sampling())
            .map(|hud| hud.log.spikes().iter().cloned().collect())
    })
    .flatten()
    .unwrap_or_default()
}

/// WHY on the current viewport as of its last refresh: the call sites that asked the app to
/// repaint, as rates, and the frames that took more than one pass. `None` before the second
/// refresh and while the HUD is hidden. Cost: a lock of the HUD's plugin and a clone.
pub fn why(ctx: &egui::Context) -> Option<crate::WhyReading> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| {
        plugin
            .hud(viewport)
            .filter(|hud| hud.is_sampling())
            .and_then(|hud| hud.why.clone())
    })
    .flatten()
}

/// Tells the HUD on the current viewport the display's refresh rate (`None`: unknown, the
/// default). It clamps MAX FPS and sets the budget (unless one is pinned). `install(cc)` does
/// this for eframe apps; other integrations call it with their platform's answer. Kept until
/// changed, whatever happens to egui memory. Cost: a lock; call it when the rate changes, not
/// every frame.
pub fn set_refresh_rate(ctx: &egui::Context, refresh_hz: Option<f64>) {
    let viewport = ctx.viewport_id();
    FramePlugin::with(ctx, |plugin| {
        plugin.hud_mut(viewport).set_refresh_hz(refresh_hz);
    });
}

/// What the HUD on the current viewport is doing. For tests and diagnostics; cost: a lock of
/// the HUD's plugin and one of the resource thread's state.
pub fn activity(ctx: &egui::Context) -> HudActivity {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| HudActivity {
        sampling: plugin.hud(viewport).is_some_and(ViewportHud::is_sampling),
        resources_running: plugin.resources.is_running(),
    })
    .unwrap_or_default()
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
