use profiler_core::record::retained_frames::{RetainedFrames, TrackFrames};
use profiler_core::record::spike::Spike;
use profiler_core::{Clock, FrameOrigin, ResourceMonitor};

use crate::frame::frame_facts::FrameFacts;
use crate::frame::frame_in_progress::FrameInProgress;
use crate::gpu::gpu_sampling::GpuSampling;
use crate::phases::cpu_phases::CpuPhases;
use crate::plugin::display_watch::DisplayWatch;
use crate::plugin::export_outcome::ExportOutcome;
use crate::plugin::hud_config::ShowSettings;
use crate::plugin::hud_draw::{DrawOutcome, HudDraw};
use crate::plugin::viewport_state::ViewportState;
use crate::repaint::repaint_ledger::RepaintLedger;
use crate::repaint::tick::{OWN_REQUEST_FILE, TickInput};
use crate::repaint::why_reading::WhyReading;

/// The one owner of everything the HUD keeps across frames: each viewport's state (sampler,
/// view, tick, settings), the repaint ledger, the resource thread, the GPU timer and the
/// display watches. egui memory holds nothing of the HUD's, so an app may clear it.
///
/// Draw start is taken when a frame's first pass receives its input (before egui's own pass
/// setup), draw end when its final, non-discarded pass hands its output to the integration;
/// that hand-off is also the frame's present. All passes of a frame form one sample. Whose frame
/// it is is decided once, by [`FrameFacts::origin`], from facts these hooks gather.
///
/// The methods below come in the order a frame visits them: the input hook
/// ([`Self::on_input`]), `on_begin_pass` ([`Self::on_pass_begun`]), `fps_monitor`'s two calls
/// ([`Self::begin_draw`], [`Self::end_draw`]) and the output hook ([`Self::on_output`]); then
/// egui's `Plugin` impl, which hands each hook to its step, and what `api` asks for.
///
/// ## Locking
/// egui keeps each plugin behind a mutex and holds it while a hook runs; [`egui::Context::with_plugin`]
/// takes the same mutex. Each hook therefore locks the HUD once; `fps_monitor` locks it twice
/// (before and after drawing: egui widgets call plugin hooks in debug builds, so the lock is
/// never held while the HUD draws). Under the plugin's lock the HUD may call into the context
/// (egui does the same in its hooks) and take the [`RepaintLedger`]'s lock; nothing takes the
/// plugin's lock under either. The display-watch thread takes it to set the refresh rate
/// (through [`Self::set_refresh_hz_of`]).
#[derive(Default)]
pub(crate) struct FramePlugin {
    viewports: egui::ViewportIdMap<ViewportState>,
    /// Passes in progress, innermost last: immediate viewports nest inside their parent's pass.
    passes: Vec<Pass>,
    ledger: RepaintLedger,
    /// One thread for every viewport: they measure the same process.
    resources: ResourceMonitor,
    /// The refresh-rate watch of each viewport that has one (see [`DisplayWatch`]).
    display_watches: egui::ViewportIdMap<DisplayWatch>,
    /// `install` found no way to time egui's pass (glow, or wgpu without the feature).
    gpu_timing_unavailable: bool,
    #[cfg(feature = "wgpu")]
    gpu_timer: Option<crate::gpu::egui_gpu_timer::EguiGpuTimer>,
    /// The latest background export's outcome.
    export_outcome: ExportOutcome,
    /// The frame sink in puffin's profiler, removed with the plugin.
    #[cfg(feature = "puffin")]
    puffin: Option<crate::phases::puffin_phases::PuffinBridge>,
}

/// One pass of one viewport, in progress.
#[derive(Clone, Copy, Debug)]
struct Pass {
    viewport: egui::ViewportId,
    /// Whether egui's own loop runs this pass (`run_ui` / `run_pass`, which call
    /// `on_begin_pass`): only that loop redoes a pass that asked to be discarded. An
    /// integration calling `begin_pass` / `end_pass` itself presents every pass.
    egui_redoes_discards: bool,
}

// ------------------------------------------------------------------------------------------
// The frame, in order: input hook, begin pass, fps_monitor's draw (begin, end), output hook.

impl FramePlugin {
    /// egui's input hook: a pass of `input`'s viewport begins; its first pass begins a frame.
    fn on_input(&mut self, input: &egui::RawInput) {
        let viewport = input.viewport_id;
        // An immediate child viewport runs inside its parent's pass: its time is not the
        // parent's frame time.
        if let Some((frame, clock)) = self.parent_frame(viewport) {
            frame.begin_nested(clock);
        }
        self.passes.push(Pass {
            viewport,
            egui_redoes_discards: false,
        });
        if let Some(state) = state_in(&mut self.viewports, viewport)
            && state.is_sampling()
            && state.frame.is_none()
        {
            let started = state.begin_frame(input);
            // After the first clock read, so the ledger's work is the HUD's; a repaint another
            // thread asks for in between (a few µs) counts for this frame instead of the next.
            self.ledger.open_frame(viewport);
            // The hook's work after the frame's first clock read is the HUD's, not the app's.
            state.add_hud_cost_since(started);
        }
    }

    /// egui's `on_begin_pass`: egui's own loop runs the pass; its first pass is classified,
    /// and on wgpu the GPU timer's first paint callback is added.
    fn on_pass_begun(&mut self, ctx: &egui::Context) {
        let Some(pass) = self.passes.last_mut() else {
            return;
        };
        pass.egui_redoes_discards = true;
        let viewport = pass.viewport;
        let since = state_in(&mut self.viewports, viewport).and_then(ViewportState::stamp);
        if ctx.current_pass_index() == 0 {
            self.classify(ctx, viewport);
        }
        #[cfg(feature = "wgpu")]
        if let Some(gpu) = &self.gpu_timer
            && let Some(state) = self.sampling(viewport)
        {
            gpu.mark_frame_start(
                ctx,
                (state.frame_sequence(), state.frame_is_apps()),
                state.gpu_may_time_frame(),
            );
        }
        if let Some(state) = state_in(&mut self.viewports, viewport) {
            state.add_hud_cost_since(since);
        }
    }

    /// The HUD's work for this pass before drawing: claims the pass (a second call draws
    /// nothing), starts the sampler, collects GPU results, refreshes the readouts when due, and
    /// hands out the view. `None` outside a pass, for a second call, and for the call that
    /// registered the plugin.
    pub(crate) fn begin_draw(
        &mut self,
        ctx: &egui::Context,
        settings: &ShowSettings,
    ) -> Option<HudDraw> {
        let viewport = ctx.viewport_id();
        if !self.in_pass_of(viewport) {
            // Outside a pass (eframe's `App::logic` for a hidden window) nothing is drawn. A call
            // that just registered the plugin cannot tell, so it only registers: the HUD appears
            // from the next pass, whose hooks the plugin sees.
            return None;
        }
        let state = self.state_mut(viewport);
        if !state.claim_pass(ctx.cumulative_pass_nr()) {
            return None;
        }
        let started = state
            .frame_and_clock()
            .map(|(frame, clock)| frame.stamp(clock));
        // Integrations that call `begin_pass` / `end_pass` themselves skip `on_begin_pass`.
        self.classify(ctx, viewport);
        let now_secs = ctx.input(|i| i.time);
        let state = self.state_mut(viewport);
        if state.attach(settings, now_secs) {
            // The frame that starts the sampler is timed from here (it is warm-up), so that it
            // ends like any other and asks for the first refresh.
            state.begin_frame_late();
            let frame_open = state.frame.is_some();
            self.ledger.restart(viewport, frame_open);
            self.classify(ctx, viewport);
        }
        if ctx.current_pass_index() == 0 {
            let has_gpu_timer = self.has_gpu_timer();
            let state = self.state_mut(viewport);
            state.report_cpu_time(settings.eframe_cpu_usage);
            state.poll_presentations();
            if !has_gpu_timer {
                // No paint or GPU marks will come: the last frame is complete now.
                state.record_paint(None);
            }
        }
        self.collect_gpu_results(ctx, viewport, settings.config.gpu_sampling);
        if self.gpu_timing_unavailable {
            self.state_mut(viewport)
                .set_unavailable_passes(&[crate::gpu::EGUI_PASS_LABEL]);
        }
        self.refresh_if_due(ctx, viewport, now_secs);
        if !self.state_mut(viewport).readouts_cover_shown() {
            let export_note = self.export_outcome.note();
            self.state_mut(viewport)
                .cover_shown_rows(export_note.as_deref());
        }
        self.state_mut(viewport).ensure_hover(ctx);
        let state = self.state_mut(viewport);
        let ids = state.ids(viewport);
        let draw = HudDraw {
            details: state.details(),
            rows: state.rows_to_show(),
            relayout: state.relayout(),
            view: state.take_view(now_secs),
            ids,
            anchor: state.config.anchor,
            offset: state.config.offset,
            started,
            // The HUD's own GPU drawing is stamped apart and left out of the app's: opened here,
            // before the HUD draws on its layer (after `stamp_frame` armed the frame).
            #[cfg(feature = "wgpu")]
            hud_layer_end: self
                .gpu_timer
                .as_ref()
                .and_then(|gpu| gpu.bracket_hud_layer(ctx, ids.layer)),
        };
        Some(draw)
    }

    /// The HUD's work for this pass after drawing: the view goes back, the details window's
    /// state is kept, the time since the draw began is the HUD's cost; a benchmark summary
    /// that finished since, when asked for.
    pub(crate) fn end_draw(
        &mut self,
        viewport: egui::ViewportId,
        drawn: DrawOutcome,
    ) -> Option<std::sync::Arc<profiler_core::BenchmarkSummary>> {
        self.state_mut(viewport).end_draw(drawn)
    }

    /// egui's output hook: the pass ends; an immediate child's closes its parent's nested
    /// interval.
    fn on_output(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(pass) = self.passes.pop() else {
            return;
        };
        if let Some(ended_at) = self.end_pass(ctx, output, pass)
            && let Some(state) = state_in(&mut self.viewports, pass.viewport)
        {
            state.add_hud_cost_after_end(ended_at);
        }
        // Closed last: this pass's bookkeeping above is not its parent's frame time either.
        if let Some((frame, clock)) = self.parent_frame(pass.viewport) {
            frame.end_nested(clock);
        }
    }

    /// The end of `pass`: a redone pass restarts its frame; a final one records it and asks
    /// for the next refresh. Returns when the frame ended, if it did.
    fn end_pass(
        &mut self,
        ctx: &egui::Context,
        output: &mut egui::FullOutput,
        pass: Pass,
    ) -> Option<std::time::Duration> {
        let viewport = pass.viewport;
        // The hook's work up to the frame's end is the HUD's, not the app's.
        let since = state_in(&mut self.viewports, viewport).and_then(ViewportState::stamp)?;
        self.classify(ctx, viewport);
        let platform = &output.platform_output;
        let max_passes = ctx.options(|o| o.max_passes.get());
        let discarded = pass.egui_redoes_discards
            && platform.requested_discard()
            && platform.num_completed_passes < max_passes;
        let pass_index = ctx.current_pass_index();
        let enclosed = self.enclosing_viewport(viewport).is_some();
        let state = state_in(&mut self.viewports, viewport)?;
        // egui moved the requests made since the last pass into this pass's causes when it
        // began: each request is counted once, in the pass after it was made.
        state.record_pass_causes(
            &ctx.repaint_causes(),
            OWN_REQUEST_FILE,
            platform,
            pass_index,
            discarded,
        );
        let ended = state.end_pass(discarded, platform.num_completed_passes, since)?;
        let app_due_secs = self.ledger.close_frame(viewport);
        // An immediate child refreshes whenever its parent runs, and asks for no frame: the
        // integration would repaint the parent window for it, a frame neither HUD could tell
        // from the app's.
        if !ended.drawn || enclosed {
            return Some(ended.ended_at);
        }
        let gpu_results_pending = self.gpu_results_pending(viewport);
        if let Some(state) = state_in(&mut self.viewports, viewport) {
            state.schedule_tick(
                ctx,
                viewport,
                TickInput {
                    now_secs: ended.now_secs,
                    app_due_secs,
                    gpu_results_pending,
                },
                &self.ledger,
                output,
            );
        }
        Some(ended.ended_at)
    }
}

// ------------------------------------------------------------------------------------------
// egui's hooks, each handed to its step above (egui holds the plugin's lock while one runs).

impl egui::Plugin for FramePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_hud::FramePlugin"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        self.ledger.observe(ctx);
    }

    fn input_hook(&mut self, _ctx: &egui::Context, input: &mut egui::RawInput) {
        self.on_input(input);
    }

    fn on_begin_pass(&mut self, ui: &mut egui::Ui) {
        self.on_pass_begun(ui.ctx());
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        self.on_output(ctx, output);
    }
}

// ------------------------------------------------------------------------------------------
// What the public functions (`api`) ask for.

impl FramePlugin {
    /// Runs `f` on the plugin of `ctx`, registering it first if needed (a plugin registered
    /// now has seen no pass: `in_pass_of` is false until its next one).
    pub(crate) fn with<R>(ctx: &egui::Context, f: impl FnOnce(&mut Self) -> R) -> R {
        let handle = Self::handle(ctx);
        let mut plugin = handle.lock();
        f(&mut plugin)
    }

    /// The plugin of `ctx`, registered first if needed, to lock more than once (`fps_monitor`
    /// before and after it draws): one look-up in egui's plugins instead of one a lock. Lock
    /// it only outside egui's hooks and never while locked (see [`Self::with`]).
    pub(crate) fn handle(ctx: &egui::Context) -> egui::plugin::TypedPluginHandle<Self> {
        ctx.plugin_or_default::<Self>()
    }

    /// Sets `viewport`'s display refresh rate (`None`: unknown). A plain function, so that the
    /// display watch's thread can be handed it without knowing the plugin.
    pub(crate) fn set_refresh_hz_of(
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        refresh_hz: Option<f64>,
    ) {
        Self::with(ctx, |plugin| {
            plugin.state_mut(viewport).set_refresh_hz(refresh_hz);
        });
    }

    /// `viewport`'s presentation source, or why it has none.
    pub(crate) fn set_presentation_of(
        &mut self,
        viewport: egui::ViewportId,
        source: Result<
            profiler_core::presentation::PresentationSource,
            profiler_core::presentation::PresentationError,
        >,
    ) {
        self.state_mut(viewport).set_presentation(source);
    }

    /// The readouts `viewport` shows, if any, with the parts its last refresh left out read
    /// now.
    pub(crate) fn displayed(
        &mut self,
        viewport: egui::ViewportId,
    ) -> Option<profiler_core::Snapshot> {
        state_in(&mut self.viewports, viewport).and_then(|state| state.displayed().cloned())
    }

    /// `viewport`'s spikes, oldest first; empty while hidden.
    pub(crate) fn spikes(&mut self, viewport: egui::ViewportId) -> Vec<Spike> {
        state_in(&mut self.viewports, viewport)
            .filter(|state| state.is_sampling())
            .map(|state| state.log().spikes().iter().cloned().collect())
            .unwrap_or_default()
    }

    /// WHY on `viewport` as of its last refresh.
    pub(crate) fn why(&self, viewport: egui::ViewportId) -> Option<WhyReading> {
        self.sampling(viewport)
            .and_then(|state| state.why().cloned())
    }

    /// Whether `viewport`'s HUD samples now.
    pub(crate) fn is_sampling(&self, viewport: egui::ViewportId) -> bool {
        self.sampling(viewport).is_some()
    }

    /// Whether the resource thread runs.
    pub(crate) fn resources_running(&self) -> bool {
        self.resources.is_running()
    }

    /// Starts a benchmark on `viewport` (see [`ViewportState::start_benchmark`]).
    pub(crate) fn start_benchmark(
        &mut self,
        viewport: egui::ViewportId,
        countdown: std::time::Duration,
        length: std::time::Duration,
    ) {
        self.state_mut(viewport).start_benchmark(countdown, length);
    }

    /// `viewport`'s last finished benchmark.
    pub(crate) fn benchmark_summary(
        &self,
        viewport: egui::ViewportId,
    ) -> Option<std::sync::Arc<profiler_core::BenchmarkSummary>> {
        state_seen(&self.viewports, viewport)?.benchmark_summary()
    }

    /// Starts `viewport`'s readouts over (see [`ViewportState::reset`]).
    pub(crate) fn reset(&mut self, viewport: egui::ViewportId) {
        self.state_mut(viewport).reset();
    }

    /// Shows `viewport`'s next preset (the cycling key).
    pub(crate) fn cycle_rows(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        self.state_mut(viewport).cycle_rows(ctx, viewport);
    }

    /// Opens or closes `viewport`'s details window.
    pub(crate) fn set_details_open(&mut self, viewport: egui::ViewportId, open: bool) {
        self.state_mut(viewport).set_details_open(open);
    }

    /// `viewport`'s phase handle, its state created if needed.
    pub(crate) fn phases_of(&mut self, viewport: egui::ViewportId) -> CpuPhases {
        self.state_mut(viewport).phases().clone()
    }

    /// `viewport`'s phase handle, if its state was ever used.
    pub(crate) fn phases_if_used(&self, viewport: egui::ViewportId) -> Option<&CpuPhases> {
        state_seen(&self.viewports, viewport).map(ViewportState::phases)
    }

    /// A copy of the frames and spikes every sampling viewport retains, one track per
    /// viewport; `None` when none samples.
    pub(crate) fn copy_retained(&mut self) -> Option<RetainedFrames> {
        let tracks: Vec<TrackFrames> = self
            .viewports
            .iter_mut()
            .filter(|(_, state)| state.is_sampling())
            // egui's short form of the id (`FFFF` for the root), without the quotes its `Debug`
            // adds.
            .map(|(viewport, state)| state.copy_track(viewport.0.short_debug_format()))
            .collect();
        (!tracks.is_empty()).then_some(RetainedFrames { tracks })
    }

    /// The outcome slot background exports report to.
    pub(crate) fn export_outcome(&self) -> ExportOutcome {
        self.export_outcome.clone()
    }

    /// Keeps `viewport`'s display watch (`install_window` and friends).
    pub(crate) fn add_display_watch(&mut self, viewport: egui::ViewportId, watch: DisplayWatch) {
        self.display_watches.insert(viewport, watch);
    }

    /// Records that this backend cannot time egui's pass (glow, or wgpu without the feature):
    /// the GPU row says so.
    #[cfg(any(feature = "eframe", feature = "wgpu"))]
    pub(crate) fn mark_gpu_timing_unavailable(ctx: &egui::Context) {
        Self::with(ctx, |plugin| plugin.gpu_timing_unavailable = true);
    }

    /// Keeps the GPU timer `install_wgpu` made.
    #[cfg(feature = "wgpu")]
    pub(crate) fn set_gpu_timer(&mut self, timer: crate::gpu::egui_gpu_timer::EguiGpuTimer) {
        self.gpu_timer = Some(timer);
    }

    /// The GPU timer, if installed.
    #[cfg(feature = "wgpu")]
    pub(crate) fn gpu_timer(&self) -> Option<crate::gpu::egui_gpu_timer::EguiGpuTimer> {
        self.gpu_timer.clone()
    }

    /// Hands one frame of GPU results timed elsewhere to `viewport`, if its state was used.
    #[cfg(feature = "wgpu")]
    pub(crate) fn record_gpu_frame(
        &mut self,
        viewport: egui::ViewportId,
        frame: &crate::gpu::egui_gpu_timer::TimedGpuFrame,
    ) {
        if let Some(state) = state_in(&mut self.viewports, viewport) {
            // The app's call, outside the HUD's spans: the HUD's bookkeeping (and a hand-on of
            // what its recorder kept, when its room fills) is the HUD's own cost.
            let since = state.stamp();
            state.record_gpu_frame(frame);
            state.add_hud_cost_since(since);
        }
    }

    /// Keeps the puffin frame sink, replacing (and removing) an earlier one.
    #[cfg(feature = "puffin")]
    pub(crate) fn set_puffin(&mut self, bridge: crate::phases::puffin_phases::PuffinBridge) {
        self.puffin = Some(bridge);
    }
}

// ------------------------------------------------------------------------------------------
// Helpers.

impl FramePlugin {
    /// `viewport`'s state, created with the defaults on first use (see [`state_made`]).
    fn state_mut(&mut self, viewport: egui::ViewportId) -> &mut ViewportState {
        state_made(&mut self.viewports, viewport)
    }

    /// `viewport`'s state while it samples.
    fn sampling(&self, viewport: egui::ViewportId) -> Option<&ViewportState> {
        state_seen(&self.viewports, viewport).filter(|state| state.is_sampling())
    }

    /// Whether a pass of `viewport` is in progress (eframe calls `App::logic` for a hidden
    /// window outside any pass).
    fn in_pass_of(&self, viewport: egui::ViewportId) -> bool {
        self.passes.last().is_some_and(|p| p.viewport == viewport)
    }

    /// Decides whose frame the one in progress on `viewport` is, once its facts are known: in
    /// its first pass's `on_begin_pass`, else at the HUD's draw, else at the pass's end.
    fn classify(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        // An immediate child viewport runs inside its parent's frame: when that frame is the
        // HUD's own, so is the child's.
        let parent_is_huds = self
            .enclosing_viewport(viewport)
            .and_then(|parent| state_seen(&self.viewports, parent)?.frame?.origin)
            == Some(FrameOrigin::SelfInduced);
        let Some(state) = state_in(&mut self.viewports, viewport) else {
            return;
        };
        let Some(frame) = state.frame.as_mut().filter(|f| f.origin.is_none()) else {
            return;
        };
        let time_secs = ctx.input_for(viewport, |i| i.time);
        let waking = self.ledger.take_waking(viewport, time_secs);
        frame.waking_request = waking.first;
        frame.facts = FrameFacts {
            time_secs,
            immediate_request_last_pass: ctx.requested_repaint_last_pass_for(&viewport),
            app_requests_due: waking.due,
            hud_deadline_secs: state.tick.take_deadline(),
            pacing: state.pacing,
            ..frame.facts
        };
        frame.origin = Some(if parent_is_huds {
            FrameOrigin::SelfInduced
        } else {
            frame.facts.origin()
        });
        state.pacing = frame.facts.pacing();
    }

    /// Refreshes `viewport`'s readouts when its tick is due at `now_secs`, and asks its display
    /// watch whether the window moved to another display. A viewport without a watch of its own
    /// gets one that asks by area through the root window's query.
    fn refresh_if_due(&mut self, ctx: &egui::Context, viewport: egui::ViewportId, now_secs: f64) {
        if self.state_mut(viewport).tick.refresh_due(now_secs) {
            self.refresh(ctx, viewport);
        }
    }

    /// [`Self::refresh_if_due`]'s refresh, out of line: twice a second, not in the frames
    /// between, whose code it would otherwise be spread through.
    #[cold]
    #[inline(never)]
    fn refresh(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        // The field, not `state_mut`: the GPU timer and the export outcome are read beside it.
        let Some(state) = state_in(&mut self.viewports, viewport) else {
            debug_assert!(false, "`refresh_if_due` made the state");
            return;
        };
        if state.tick.take_time_went_back() {
            state.reject_input_time_back();
        }
        state.restore_rows(ctx, viewport);
        // What the timer knows of itself only shows at a refresh: read it then, not per frame.
        #[cfg(feature = "wgpu")]
        if let Some(gpu) = &self.gpu_timer {
            // A calibration lasts 10 s: checked twice a second, not every frame, while the
            // timer is timing (a frame timed since the last refresh, or results in flight: a
            // sparse `GpuSampling` can leave the timer idle at every refresh).
            if state.gpu_timed_since_refresh() || !gpu.is_idle(viewport) {
                gpu.keep_calibrated();
            }
            state.set_gpu_status(
                gpu.unavailable_passes(),
                gpu.timer().stats().dropped_frames,
                gpu.trusted_calibration().map(|c| c.uncertainty()),
            );
        }
        let export_note = self.export_outcome.note();
        state.refresh(&self.resources, export_note.as_deref());
        if let Some(watch) = self.display_watches.get(&viewport) {
            watch.check(ctx);
        } else if let Some(root) = self.display_watches.get(&egui::ViewportId::ROOT) {
            let watch = root.for_viewport_by_area(ctx);
            self.display_watches.insert(viewport, watch);
        }
    }

    /// The viewport whose pass `viewport`'s pass runs inside: an immediate child's parent.
    fn enclosing_viewport(&self, viewport: egui::ViewportId) -> Option<egui::ViewportId> {
        self.passes
            .iter()
            .rev()
            .map(|pass| pass.viewport)
            .find(|&other| other != viewport)
    }

    /// The frame in progress of the viewport whose pass `viewport`'s pass runs inside (an
    /// immediate child viewport's parent), with its clock.
    fn parent_frame(
        &mut self,
        viewport: egui::ViewportId,
    ) -> Option<(&mut FrameInProgress, &dyn Clock)> {
        let parent = self.passes.last().filter(|p| p.viewport != viewport)?;
        state_in(&mut self.viewports, parent.viewport)?.frame_and_clock()
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

    /// Whether GPU results of `viewport` are still on their way.
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(clippy::unused_self, reason = "only wgpu times GPU passes")
    )]
    fn gpu_results_pending(&self, viewport: egui::ViewportId) -> bool {
        #[cfg(feature = "wgpu")]
        if let Some(gpu) = &self.gpu_timer {
            return gpu.has_pending(viewport);
        }
        let _ = viewport;
        false
    }

    /// On wgpu, GPU results: hands those that arrived to their viewports' states and arms the
    /// timer for this viewport's frame if it is the app's.
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(clippy::unused_self, reason = "only wgpu times GPU passes")
    )]
    fn collect_gpu_results(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        sampling: GpuSampling,
    ) {
        // The timer and the states borrowed apart: no clone of the timer (five `Arc`s) a frame.
        #[cfg(feature = "wgpu")]
        if let Self {
            gpu_timer: Some(gpu),
            viewports,
            ..
        } = self
        {
            let state = state_made(viewports, viewport);
            let apps = state.frame_is_apps();
            let (timed, sequence) = (state.gpu_times_frame(sampling), state.frame_sequence());
            if !timed && gpu.is_idle(viewport) {
                // Nothing to time and nothing in flight: no results to take, no stamp to add.
                // The frame is handed on unpainted.
                if ctx.current_pass_index() == 0 {
                    state.record_painted(None);
                }
                return;
            }
            if ctx.current_pass_index() == 0 {
                state.record_painted(gpu.take_painted(viewport));
                gpu.drain(!apps, |frame| {
                    if let Some(state) = state_in(viewports, frame.viewport) {
                        state.record_gpu_frame(&frame);
                    }
                });
            }
            gpu.stamp_frame(ctx, timed, (sequence, apps));
        }
        let _ = (ctx, viewport, sampling);
    }
}

/// `viewport`'s state in `viewports`, created with the defaults on first use. Out of line, as
/// [`state_in`].
#[inline(never)]
fn state_made(
    viewports: &mut egui::ViewportIdMap<ViewportState>,
    viewport: egui::ViewportId,
) -> &mut ViewportState {
    viewports
        .entry(viewport)
        .or_insert_with(ViewportState::new_out_of_line)
}

/// `viewport`'s state in `viewports`, if it was ever used. Out of line, and with
/// [`state_seen`] and [`state_made`] the plugin's only lookups: a
/// frame looks its state up a dozen times, and each lookup inlined would be a copy of the map's
/// probing code of its own, instruction lines that every frame loads cold in a real window
/// (where the app and the renderer run between the HUD's hooks).
#[inline(never)]
fn state_in(
    viewports: &mut egui::ViewportIdMap<ViewportState>,
    viewport: egui::ViewportId,
) -> Option<&mut ViewportState> {
    viewports.get_mut(&viewport)
}

/// [`state_in`], to read.
#[inline(never)]
fn state_seen(
    viewports: &egui::ViewportIdMap<ViewportState>,
    viewport: egui::ViewportId,
) -> Option<&ViewportState> {
    viewports.get(&viewport)
}
