use profiler_core::{FrameOrigin, ResourceMonitor};

use crate::display_watch::DisplayWatch;
use crate::frame_facts::FrameFacts;
use crate::repaint_ledger::RepaintLedger;
use crate::viewport_hud::ViewportHud;

/// How long the HUD shows the outcome of a background export.
const EXPORT_NOTE_FOR: std::time::Duration = std::time::Duration::from_secs(5);

/// The one owner of everything the HUD keeps across frames: each viewport's HUD (sampler,
/// view, tick, settings), the repaint ledger, the resource thread, the GPU timer and the
/// display watch. egui memory holds nothing of the HUD's, so an app may clear it.
///
/// Draw start is taken when a frame's first pass receives its input (before egui's own pass
/// setup), draw end when its final, non-discarded pass hands its output to the integration;
/// that hand-off is also the frame's present. All passes of a frame form one sample. Whose frame
/// it is is decided once, by [`FrameFacts::origin`], from facts these hooks gather.
///
/// ## Locking
/// egui keeps each plugin behind a mutex and holds it while a hook runs; [`egui::Context::with_plugin`]
/// takes the same mutex. Each hook therefore locks the HUD once; `fps_monitor` locks it twice
/// (before and after drawing: egui widgets call plugin hooks in debug builds, so the lock is
/// never held while the HUD draws). Under the plugin's lock the HUD may call into the context
/// (egui does the same in its hooks) and take the [`RepaintLedger`]'s lock; nothing takes the
/// plugin's lock under either. The display-watch thread takes it to set the refresh rate.
#[derive(Default)]
pub(crate) struct FramePlugin {
    huds: egui::ViewportIdMap<ViewportHud>,
    /// Passes in progress, innermost last: immediate viewports nest inside their parent's pass.
    passes: Vec<Pass>,
    pub(crate) ledger: RepaintLedger,
    /// One thread for every viewport: they measure the same process.
    pub(crate) resources: ResourceMonitor,
    /// The refresh-rate watch of each viewport that has one (see [`DisplayWatch`]).
    pub(crate) display_watches: egui::ViewportIdMap<DisplayWatch>,
    /// `install` found no way to time egui's pass (glow, or wgpu without the feature).
    pub(crate) gpu_timing_unavailable: bool,
    #[cfg(feature = "wgpu")]
    pub(crate) gpu_timer: Option<crate::EguiGpuTimer>,
    /// The latest background export's outcome (see [`crate::save_exports`]).
    pub(crate) last_export: crate::export::ExportOutcome,
    /// The frame sink in puffin's profiler, removed with the plugin.
    #[cfg(feature = "puffin")]
    pub(crate) puffin: Option<crate::puffin_phases::PuffinBridge>,
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

impl FramePlugin {
    /// Runs `f` on the plugin of `ctx`, registering it first if needed (a plugin registered
    /// now has seen no pass: `in_pass_of` is false until its next one).
    pub(crate) fn with<R>(ctx: &egui::Context, f: impl FnOnce(&mut Self) -> R) -> R {
        let handle = ctx.plugin_or_default::<Self>();
        let mut plugin = handle.lock();
        f(&mut plugin)
    }

    /// `viewport`'s HUD, created with the defaults on first use.
    pub(crate) fn hud_mut(&mut self, viewport: egui::ViewportId) -> &mut ViewportHud {
        self.huds.entry(viewport).or_default()
    }

    /// `viewport`'s HUD for changes, if it was ever used.
    #[cfg(feature = "wgpu")]
    pub(crate) fn hud_mut_if_used(
        &mut self,
        viewport: egui::ViewportId,
    ) -> Option<&mut ViewportHud> {
        self.huds.get_mut(&viewport)
    }

    /// The viewports whose HUD samples now.
    pub(crate) fn sampling_huds(&self) -> impl Iterator<Item = (egui::ViewportId, &ViewportHud)> {
        self.huds
            .iter()
            .filter(|(_, hud)| hud.is_sampling())
            .map(|(&viewport, hud)| (viewport, hud))
    }

    /// `viewport`'s HUD, if it was ever used.
    pub(crate) fn hud(&self, viewport: egui::ViewportId) -> Option<&ViewportHud> {
        self.huds.get(&viewport)
    }

    /// Whether a pass of `viewport` is in progress (eframe calls `App::logic` for a hidden
    /// window outside any pass).
    pub(crate) fn in_pass_of(&self, viewport: egui::ViewportId) -> bool {
        self.passes.last().is_some_and(|p| p.viewport == viewport)
    }

    /// Decides whose frame the one in progress on `viewport` is, once its facts are known: in
    /// its first pass's `on_begin_pass`, else at the HUD's draw, else at the pass's end.
    pub(crate) fn classify(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        // An immediate child viewport runs inside its parent's frame: when that frame is the
        // HUD's own, so is the child's.
        let parent_is_huds = self
            .enclosing_viewport(viewport)
            .and_then(|parent| self.huds.get(&parent)?.frame?.origin)
            == Some(FrameOrigin::SelfInduced);
        let Some(hud) = self.huds.get_mut(&viewport) else {
            return;
        };
        let Some(frame) = hud.frame.as_mut().filter(|f| f.origin.is_none()) else {
            return;
        };
        let time_secs = ctx.input_for(viewport, |i| i.time);
        let waking = self.ledger.take_waking(viewport, time_secs);
        frame.waking_request = waking.first;
        frame.facts = FrameFacts {
            time_secs,
            immediate_request_last_pass: ctx.requested_repaint_last_pass_for(&viewport),
            app_requests_due: waking.due,
            hud_deadline_secs: hud.tick.take_deadline(),
            pacing: hud.pacing,
            ..frame.facts
        };
        frame.origin = Some(if parent_is_huds {
            FrameOrigin::SelfInduced
        } else {
            frame.facts.origin()
        });
        hud.pacing = frame.facts.pacing();
    }

    /// Refreshes `viewport`'s readouts when its tick is due at `now_secs`, and asks its display
    /// watch whether the window moved to another display. A viewport without a watch of its own
    /// gets one that asks by area through the root window's query.
    pub(crate) fn refresh_if_due(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        now_secs: f64,
    ) {
        let hud = self.huds.entry(viewport).or_default();
        if !hud.tick.refresh_due(now_secs) {
            return;
        }
        let export_note = self.last_export.lock().as_ref().and_then(|(result, at)| {
            (at.elapsed() < EXPORT_NOTE_FOR).then(|| match result {
                Ok(paths) => format!(
                    "saved {}",
                    paths
                        .first()
                        .and_then(|p| p.file_stem())
                        .map(|stem| stem.to_string_lossy().into_owned())
                        .unwrap_or_default()
                ),
                Err(error) => format!("failed: {error}"),
            })
        });
        hud.refresh(&self.resources, export_note.as_deref());
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
}

impl egui::Plugin for FramePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_hud::FramePlugin"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        self.ledger.observe(ctx);
    }

    fn input_hook(&mut self, _ctx: &egui::Context, input: &mut egui::RawInput) {
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
        if let Some(hud) = self.huds.get_mut(&viewport)
            && hud.is_sampling()
            && hud.frame.is_none()
        {
            self.ledger.open_frame(viewport);
            hud.begin_frame(input);
        }
    }

    fn on_begin_pass(&mut self, ui: &mut egui::Ui) {
        let Some(pass) = self.passes.last_mut() else {
            return;
        };
        pass.egui_redoes_discards = true;
        let viewport = pass.viewport;
        if ui.ctx().current_pass_index() == 0 {
            self.classify(ui.ctx(), viewport);
        }
        #[cfg(feature = "wgpu")]
        if let Some(gpu) = &self.gpu_timer
            && let Some(hud) = self.hud(viewport).filter(|hud| hud.is_sampling())
        {
            gpu.mark_frame_start(ui.ctx(), hud.frame_sequence);
        }
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(pass) = self.passes.pop() else {
            return;
        };
        self.end_pass(ctx, output, pass);
        // Closed last: this pass's bookkeeping above is not its parent's frame time either.
        if let Some((frame, clock)) = self.parent_frame(pass.viewport) {
            frame.end_nested(clock);
        }
    }
}

impl FramePlugin {
    /// The end of `pass`: a redone pass restarts its frame; a final one records it and asks
    /// for the next refresh.
    fn end_pass(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput, pass: Pass) {
        let viewport = pass.viewport;
        if self
            .huds
            .get(&viewport)
            .is_none_or(|hud| hud.frame.is_none())
        {
            return;
        }
        self.classify(ctx, viewport);
        let platform = &output.platform_output;
        let max_passes = ctx.options(|o| o.max_passes.get());
        let discarded = pass.egui_redoes_discards
            && platform.requested_discard()
            && platform.num_completed_passes < max_passes;
        let Some(hud) = self.huds.get_mut(&viewport) else {
            return;
        };
        // egui moved the requests made since the last pass into this pass's causes when it
        // began: each request is counted once, in the pass after it was made. Those of the
        // frame's first pass are the ones that woke it.
        let causes = ctx.repaint_causes();
        let own = crate::tick::OWN_REQUEST_FILE;
        hud.repaint_sites.record_requests(&causes, own);
        hud.repaint_sites
            .record_discards(&platform.request_discard_reasons);
        if ctx.current_pass_index() == 0 {
            for cause in causes.iter().filter(|cause| cause.file != own) {
                hud.frame_causes.add_woke_by(cause);
            }
        }
        for reason in &platform.request_discard_reasons {
            hud.frame_causes.add_discard(reason);
        }
        if !discarded {
            hud.repaint_sites
                .record_frame(platform.num_completed_passes);
        }
        let Some((frame, clock)) = hud.frame_and_clock() else {
            return;
        };
        if discarded {
            if frame.discard_requested {
                frame.restart_after_discard(clock);
            }
            return;
        }
        let ended_at = frame.stamp(clock);
        let now_secs = frame.facts.time_secs;
        let app_due_secs = self.ledger.close_frame(viewport);
        // An immediate child refreshes whenever its parent runs, and asks for no frame: the
        // integration would repaint the parent window for it, a frame neither HUD could tell
        // from the app's.
        let passes = platform.num_completed_passes;
        if !hud.end_frame(ended_at, passes) || self.enclosing_viewport(viewport).is_some() {
            return;
        }
        let gpu_results_pending = self.gpu_results_pending(viewport);
        if let Some(hud) = self.huds.get_mut(&viewport) {
            hud.tick.schedule(
                ctx,
                viewport,
                crate::tick::TickInput {
                    now_secs,
                    app_due_secs,
                    gpu_results_pending,
                },
                &self.ledger,
                output,
            );
        }
    }

    /// The frame in progress of the viewport whose pass `viewport`'s pass runs inside (an
    /// immediate child viewport's parent), with its clock.
    fn parent_frame(
        &mut self,
        viewport: egui::ViewportId,
    ) -> Option<(
        &mut crate::frame_in_progress::FrameInProgress,
        &dyn profiler_core::Clock,
    )> {
        let parent = self.passes.last().filter(|p| p.viewport != viewport)?;
        self.huds.get_mut(&parent.viewport)?.frame_and_clock()
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

    /// The readouts `viewport` shows, if any.
    pub(crate) fn displayed(&self, viewport: egui::ViewportId) -> Option<profiler_core::Snapshot> {
        self.huds
            .get(&viewport)
            .and_then(|hud| hud.displayed.clone())
    }
}
