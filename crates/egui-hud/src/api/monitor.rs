use std::sync::Arc;
use std::time::Duration;

use profiler_core::Clock;

use crate::gpu::gpu_sampling::GpuSampling;
use crate::plugin::frame_plugin::FramePlugin;
use crate::plugin::hud_config::ShowSettings;
use crate::plugin::hud_draw::{DrawOutcome, HudDraw};
use crate::repaint::own_discard::{OwnDiscard, request_own_discard};
use crate::view::hud_ids::HudIds;
use crate::view::hud_preset::HudPreset;
use crate::view::hud_row::HudRow;
use crate::view::hud_view::{HudView, Relayout};
use crate::view::layer_widgets::LayerWidgets;
use crate::view::row_choice::RowChoice;
use crate::view::row_list::RowList;

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
    /// What the plugin takes from each `show`.
    settings: ShowSettings,
    /// The key that saves the exports, and where.
    export_key: Option<(egui::Key, Option<std::path::PathBuf>)>,
    /// The key that shows the next preset.
    preset_key: Option<egui::Key>,
    /// The key that starts the readouts over.
    reset_key: Option<egui::Key>,
    /// The key that starts a benchmark, and its length.
    benchmark_key: Option<(egui::Key, Duration)>,
}

impl FpsMonitor {
    /// The default HUD: 120 samples, budget from the display (else 60 Hz), top-right corner.
    pub fn new() -> Self {
        Self {
            settings: ShowSettings::default(),
            export_key: None,
            preset_key: None,
            reset_key: None,
            benchmark_key: None,
        }
    }

    /// How many draw samples FRAME, P95, DROP, INV and the plot cover. Default 120.
    pub fn capacity(mut self, frames: usize) -> Self {
        self.settings.config.capacity = frames;
        self
    }

    /// Pins the frame budget FRAME, P95 and DROP are graded against. Default: one refresh
    /// period of the display when known (see [`crate::set_refresh_rate`]), else 1/60 s.
    pub fn frame_budget(mut self, budget: Duration) -> Self {
        self.settings.config.frame_budget = Some(budget);
        self
    }

    /// The corner the HUD sticks to and the offset from it, in points.
    /// Default `Align2::RIGHT_TOP` with `vec2(-8.0, 8.0)`.
    pub fn anchor(mut self, align: egui::Align2, offset: egui::Vec2) -> Self {
        self.settings.config.anchor = align;
        self.settings.config.offset = offset;
        self
    }

    /// Shows `preset`'s rows. Default [`HudPreset::Compact`]: the number, the plot, FRAME, P95,
    /// GPU, CPU and MEM. Free: the choice is a few bytes copied per frame, and fewer rows cost
    /// less to lay out and paint. A preset chosen with the cycling key
    /// ([`Self::cycle_preset_on_key`]) takes precedence.
    pub fn preset(mut self, preset: HudPreset) -> Self {
        self.settings.config.rows = RowChoice::Preset(preset);
        self
    }

    /// Shows exactly `rows`, in this order (a row listed twice shows where it is first listed;
    /// a row whose readout is unknown is absent). Default: [`HudPreset::Compact`]'s rows.
    /// Allocates nothing: the list is copied into a fixed array.
    pub fn rows(mut self, rows: &[HudRow]) -> Self {
        self.settings.config.rows = RowChoice::Custom(RowList::new(rows));
        self
    }

    /// Which of the app's frames the GPU timer times, on wgpu. Default
    /// [`GpuSampling::AtMostPerSecond`] 120: every frame of an app drawing up to 120 frames a
    /// second, a sample spread in time above that, so that the timer's CPU cost per second stays
    /// bounded however fast the app draws. [`GpuSampling::EveryFrame`] times every frame (each
    /// costs about 30 to 45 µs of CPU, see [`GpuSampling`]). Whatever the sampling, frames are
    /// timed only while the HUD shows something that reads the results: the expanded HUD with
    /// the GPU, LATENCY or SPIKES row, the details window, or a benchmark run. Free; does
    /// nothing without a GPU timer (glow, the web).
    pub fn gpu_sampling(mut self, sampling: GpuSampling) -> Self {
        self.settings.config.gpu_sampling = sampling;
        self
    }

    /// A key that shows the next preset (number only → compact → full, and the app's own
    /// [`Self::rows`] list after full, when given), on the viewport where it is pressed. The
    /// choice is kept in egui memory, so an app that persists it (eframe's `persistence`
    /// feature) opens with it next time. Default: no key; the demo uses F10 (MangoHud's
    /// `toggle_preset` is Shift+F10).
    pub fn cycle_preset_on_key(mut self, key: egui::Key) -> Self {
        self.preset_key = Some(key);
        self
    }

    /// A key that starts the readouts over ([`crate::reset`]) on the viewport where it is
    /// pressed. Default: no key; the demo uses F8.
    pub fn reset_on_key(mut self, key: egui::Key) -> Self {
        self.reset_key = Some(key);
        self
    }

    /// A key that starts a benchmark of `length` ([`crate::benchmark`]: a 3 s countdown, a
    /// reset, the recording, a summary card). With [`Self::export_on_key`], the summary is
    /// saved beside the exports as `egui-hud-benchmark-<unix seconds>.json` and `.csv`, on a
    /// background thread. Default: no key; the demo uses F9 with 10 s.
    pub fn benchmark_on_key(mut self, key: egui::Key, length: Duration) -> Self {
        self.benchmark_key = Some((key, length));
        self
    }

    /// The clock frames are timed with. Default: the process's monotonic clock. Tests and
    /// replays pass a [`profiler_core::ManualClock`] to get the same numbers on every run.
    /// Pass the same `Arc` every frame: a different one (compared by pointer) restarts the
    /// sampler, warm-up included.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.settings.clock = Some(clock);
        self
    }

    /// Whether the CPU, MEM and process GPU rows are sampled (on a background thread). Default
    /// `true`; `false` hides those rows and starts no thread.
    pub fn sample_resources(mut self, enabled: bool) -> Self {
        self.settings.sample_resources = enabled;
        self
    }

    /// A key that saves the retained frames as CSV and Chrome trace (see
    /// [`crate::api::export::save_exports`]) into `directory`, or next to the executable when `None`, on a
    /// background thread. Default: no key.
    pub fn export_on_key(mut self, key: egui::Key, directory: Option<std::path::PathBuf>) -> Self {
        self.export_key = Some((key, directory));
        self
    }

    /// When a frame is kept as a spike (see [`crate::spikes`]). Default
    /// [`profiler_core::record::spike_threshold::SpikeThreshold::Stutter`] with 2 × the frame budget
    /// and 2.5 × the median of the 21 frames before it.
    pub fn spike_threshold(
        mut self,
        threshold: profiler_core::record::spike_threshold::SpikeThreshold,
    ) -> Self {
        self.settings.config.spike_threshold = threshold;
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
        self.settings.eframe_cpu_usage = frame
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
        self.settings.config.validate()
    }

    /// Draws the HUD on the current viewport for this pass.
    pub fn show(self, ctx: &egui::Context) {
        let viewport = ctx.viewport_id();
        // Keys and clicks act in pass 0 only: a redone pass sees the same ones again.
        let first_pass = ctx.current_pass_index() == 0;
        let export_pressed = first_pass && self.handle_keys(ctx, viewport);
        let plugin = FramePlugin::handle(ctx);
        let Some(HudDraw {
            mut view,
            relayout,
            ids,
            rows,
            details,
            anchor,
            offset,
            started,
            #[cfg(feature = "wgpu")]
            hud_layer_end,
        }) = plugin.lock().begin_draw(ctx, &self.settings)
        else {
            return;
        };
        // egui hit-tests at the start of a pass, so a click is known before the HUD is laid out.
        // The HUD is placed by its size in this pass (it lays itself out first), but egui's
        // hit test of the next pass uses this pass's place: after a click that resizes it the
        // pass is redone. Only pass 0 applies a click: the redone pass sees the same one again.
        // A click comes with an input event (a button, a key on the focused readout, an
        // accessibility action) or while a pointer is held (a long touch, which egui reports
        // once the finger has rested long enough, in a pass without events): in any other
        // pass the readout's response, a look-up in egui's widgets of the last pass (several
        // hundred instructions), is not read.
        view.set_rows(rows);
        let resized = first_pass
            && ctx.input(|input| !input.raw.events.is_empty() || input.pointer.any_down())
            && ctx
                .read_response(ids.readout)
                .is_some_and(|readout| view.apply_clicks(&readout));
        if resized {
            request_own_discard(ctx, OwnDiscard::Resized);
        }
        draw_on_layer(ctx, &ids, (anchor, offset), relayout, &mut view);
        // On wgpu, the HUD's own GPU drawing is stamped apart (opened in `begin_draw`).
        #[cfg(feature = "wgpu")]
        if let Some(end) = hud_layer_end {
            end.add(ctx);
        }
        let mut details_open = details.is_some();
        if let Some(details) = &details {
            crate::view::details_window::show(ctx, viewport, details, &mut details_open);
        }
        if std::mem::take(&mut view.details_clicked) {
            details_open = !details_open;
        }
        let new_summary = plugin.lock().end_draw(
            viewport,
            DrawOutcome {
                view,
                details_open,
                resized,
                started,
                take_new_summary: self.export_key.is_some(),
            },
        );
        self.export_if_asked(ctx, new_summary, export_pressed);
    }

    /// The preset, reset and benchmark keys, read once a frame in one look at egui's input
    /// (called in pass 0 only: a redone pass sees the same presses again), and acted on.
    /// Returns whether the export key was pressed.
    fn handle_keys(&self, ctx: &egui::Context, viewport: egui::ViewportId) -> bool {
        let keys = [
            self.preset_key,
            self.reset_key,
            self.benchmark_key.map(|(key, _)| key),
            self.export_key.as_ref().map(|(key, _)| *key),
        ];
        let [
            preset_pressed,
            reset_pressed,
            benchmark_pressed,
            export_pressed,
        ] = ctx.input(|i| keys.map(|key| key.is_some_and(|key| i.key_pressed(key))));
        if preset_pressed {
            FramePlugin::with(ctx, |plugin| plugin.cycle_rows(ctx, viewport));
        }
        if reset_pressed {
            FramePlugin::with(ctx, |plugin| plugin.reset(viewport));
        }
        if let Some((_, length)) = self.benchmark_key
            && benchmark_pressed
        {
            crate::api::benchmark::benchmark(ctx, length);
        }
        export_pressed
    }

    /// With `export_on_key`: saves a benchmark summary that just finished, and the exports when
    /// the key was pressed, both on background threads.
    fn export_if_asked(
        &self,
        ctx: &egui::Context,
        new_summary: Option<Arc<profiler_core::BenchmarkSummary>>,
        export_pressed: bool,
    ) {
        if let Some((_, directory)) = &self.export_key
            && let Some(summary) = new_summary
        {
            save_benchmark_in_background(summary, export_directory(directory.as_ref()));
        }
        if let Some((_, directory)) = &self.export_key
            && export_pressed
        {
            match export_directory(directory.as_ref())
                .map(|directory| crate::api::export::save_exports(ctx, directory))
            {
                Some(Ok(())) => {}
                Some(Err(error)) => log::warn!("egui-hud: {error}"),
                None => {
                    log::warn!("egui-hud: no directory to export to (pass one to export_on_key)");
                }
            }
        }
    }
}

/// Draws `view` on its own foreground layer, anchored to a corner of the viewport, and registers
/// the layer with egui's areas so that egui's hit test finds the HUD's widgets above the app's.
/// Not an `egui::Area`: the HUD knows its size before it draws, and an area's state, its own
/// widget and its `Ui` cost four allocations and a few µs a frame; and no `Ui` of its own in a
/// steady pass either (see [`LayerWidgets`]).
fn draw_on_layer(
    ctx: &egui::Context,
    ids: &HudIds,
    (anchor, offset): (egui::Align2, egui::Vec2),
    relayout: Relayout,
    view: &mut HudView,
) {
    use egui::emath::GuiRounding as _;

    // One painter for both steps: a layer's painter clips to the viewport's content rect,
    // the screen the HUD is placed in.
    let painter = ctx.layer_painter(ids.layer);
    let Some(size) = view.prepare(&painter, relayout) else {
        return;
    };
    if view.is_stand_in_outdated() {
        // It draws the last layout as it was (a new look would show in old colours, or text
        // from a cleared font atlas): the redone pass draws the view, laid out again.
        request_own_discard(ctx, OwnDiscard::StandInOutdated);
    }
    let screen = painter.clip_rect();
    debug_assert_eq!(
        screen,
        ctx.content_rect(),
        "a layer's painter clips to the screen"
    );
    let top_left = (anchor.align_size_within_rect(size, screen).left_top() + offset)
        .min(screen.max - size)
        .max(screen.min)
        .round_to_pixels(painter.pixels_per_point())
        .round_ui();
    let rect = egui::Rect::from_min_size(top_left, size);
    let mut widgets = LayerWidgets::new(ctx, ids.layer, screen);
    view.draw(&painter, &mut widgets, rect.min, ids);
    drop(widgets); // a `Ui` made for a new widget registers itself as it is dropped
    ctx.memory_mut(|memory| {
        memory.areas_mut().set_state(
            ids.layer,
            egui::AreaState {
                pivot_pos: Some(rect.min),
                pivot: egui::Align2::LEFT_TOP,
                size: Some(rect.size()),
                interactable: true,
                last_became_visible_at: None,
            },
        );
    });
}

/// Where exports go: the directory given, else the executable's.
fn export_directory(directory: Option<&std::path::PathBuf>) -> Option<std::path::PathBuf> {
    directory.cloned().or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf))
    })
}

/// Writes a finished benchmark's summary beside the exports, off the UI thread; a failure is
/// logged (the summary stays in [`crate::benchmark_summary`]).
fn save_benchmark_in_background(
    summary: Arc<profiler_core::BenchmarkSummary>,
    directory: Option<std::path::PathBuf>,
) {
    let Some(directory) = directory else {
        log::warn!("egui-hud: no directory to save the benchmark in (pass one to export_on_key)");
        return;
    };
    let stem = format!(
        "egui-hud-benchmark-{}",
        profiler_core::SystemTime::now()
            .duration_since(profiler_core::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    );
    let spawned = std::thread::Builder::new()
        .name("egui-hud benchmark save".to_owned())
        .spawn(
            move || match crate::api::benchmark::save_benchmark(&summary, &directory, &stem) {
                Ok(path) => log::info!("egui-hud: benchmark saved to {}", path.display()),
                Err(error) => log::warn!("egui-hud: {error}"),
            },
        );
    if let Err(error) = spawned {
        log::warn!("egui-hud: cannot start the thread that saves the benchmark: {error}");
    }
}

impl std::fmt::Debug for FpsMonitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FpsMonitor")
            .field("config", &self.settings.config)
            .field("custom_clock", &self.settings.clock.is_some())
            .field("sample_resources", &self.settings.sample_resources)
            .field("eframe_cpu_usage", &self.settings.eframe_cpu_usage)
            .field("export_key", &self.export_key)
            .field("preset_key", &self.preset_key)
            .field("reset_key", &self.reset_key)
            .field("benchmark_key", &self.benchmark_key)
            .finish()
    }
}

impl Default for FpsMonitor {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use profiler_core::Snapshot;

    use super::draw_on_layer;
    use crate::view::hud_ids::HudIds;
    use crate::view::hud_preset::HudPreset;
    use crate::view::hud_view::{HudView, Relayout};
    use crate::view::row_list::RowList;

    /// Behaviour: a stand-in that finds its layout outdated in a pass (here a new theme, which
    /// it cannot lay out) has egui redo the pass, so that its stale colours are not shown.
    /// Fails before the review fix (the stale layout was drawn and kept).
    #[test]
    fn an_outdated_stand_in_has_its_pass_redone() {
        let ctx = egui::Context::default();
        let ids = HudIds::of(egui::ViewportId::ROOT);
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_millis(4));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let pass = |view: &mut HudView| {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let anchor = (egui::Align2::RIGHT_TOP, egui::Vec2::ZERO);
                draw_on_layer(ui.ctx(), &ids, anchor, Relayout::InThisPass, view);
            });
            output.textures_delta.clear(); // nothing paints here
            output.platform_output.requested_discard()
        };
        assert!(!pass(&mut view), "laid out in its pass");
        let mut stand_in = HudView::default();
        stand_in.stand_in_for(&mut view);
        assert!(!pass(&mut stand_in), "the same look: drawn as it is");
        ctx.set_visuals(egui::Visuals::light());
        assert!(pass(&mut stand_in), "a new look: the pass is redone");
    }
}
