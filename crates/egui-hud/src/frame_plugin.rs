use std::time::Duration;

use crate::hud_state::SharedHudState;

/// The egui plugin that timestamps frames for every viewport that shows a HUD.
///
/// Draw start is taken when a frame's first pass receives its input (before egui's own pass
/// setup), draw end when its final, non-discarded pass hands its output to the integration;
/// that hand-off is also the frame's present. All passes of a frame form one sample.
///
/// The plugin keeps the states of the viewports whose HUD is sampling, so a viewport without a
/// shown HUD costs a scan of that short list per pass and nothing else.
#[derive(Default)]
pub(crate) struct FramePlugin {
    /// Passes in progress, innermost last: immediate viewports nest inside their parent's pass.
    passes: Vec<PassInProgress>,
    /// Viewports whose HUD was attached; dropped from the list once the HUD is hidden.
    sampling: Vec<(egui::ViewportId, SharedHudState)>,
}

struct PassInProgress {
    state: Option<SharedHudState>,
    began_at: Duration,
    viewport: egui::ViewportId,
    /// egui time of the pass, read while it runs: in `output_hook` egui has already left the
    /// pass's viewport, so `ctx.input` would read its parent's (or the root's).
    time_secs: Option<f64>,
    /// Whether the frame's start was handed to the HUD state for this pass.
    begun: bool,
    /// Whether egui's own loop runs this pass (`run_ui` / `run_pass`, which call
    /// `on_begin_pass`): only that loop redoes a pass that asked to be discarded. An
    /// integration calling `begin_pass` / `end_pass` itself presents every pass.
    egui_redoes_discards: bool,
}

impl FramePlugin {
    /// Starts timing `viewport`'s frames for `state` (after `fps_monitor` attached a sampler).
    pub(crate) fn watch(ctx: &egui::Context, viewport: egui::ViewportId, state: &SharedHudState) {
        let watch = |plugin: &mut Self| {
            let entry = (viewport, std::sync::Arc::clone(state));
            match plugin.sampling.iter_mut().find(|(id, _)| *id == viewport) {
                // A state replaced under the same viewport (egui memory was cleared): the new
                // one is the one `fps_monitor` draws from.
                Some(watched) => *watched = entry,
                None => plugin.sampling.push(entry),
            }
        };
        if ctx.with_plugin::<Self, _>(watch).is_none() {
            let mut plugin = Self::default();
            watch(&mut plugin);
            ctx.add_plugin(plugin);
        }
    }
}

impl FramePlugin {
    /// Begins the frame from `fps_monitor` when egui did not call `on_begin_pass`: integrations
    /// that drive egui with `Context::begin_pass` / `end_pass` themselves run the
    /// input and output hooks but not that one. Draw start stays the input hook's timestamp.
    pub(crate) fn begin_frame_if_missed(ctx: &egui::Context) {
        ctx.with_plugin::<Self, _>(|plugin| {
            if let Some(pass) = plugin.passes.last_mut()
                && !pass.begun
            {
                pass.begin(ctx);
            }
        });
    }

    /// Whether egui is inside a pass now. `false` when eframe calls `App::logic` for a hidden
    /// window (no pass runs); `true` when the plugin is not registered yet (it cannot tell).
    pub(crate) fn pass_in_progress(ctx: &egui::Context) -> bool {
        ctx.with_plugin::<Self, _>(|plugin| !plugin.passes.is_empty())
            .unwrap_or(true)
    }
}

impl PassInProgress {
    /// Reads the pass's egui time and, in a frame's first pass, begins the frame.
    fn begin(&mut self, ctx: &egui::Context) {
        self.begun = true;
        let Some(state) = &self.state else {
            return;
        };
        let now_secs = ctx.input(|i| i.time);
        self.time_secs = Some(now_secs);
        if ctx.current_pass_index() == 0 {
            state.lock().begin_frame(ctx, self.began_at, now_secs);
        }
    }
}

impl egui::Plugin for FramePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_hud::FramePlugin"
    }

    fn input_hook(&mut self, _ctx: &egui::Context, input: &mut egui::RawInput) {
        // A closed viewport stays listed (one entry to skip per pass). `RawInput::viewports`
        // cannot tell it closed: egui-winit leaves that map to the integration, which may list
        // only the current viewport. And a viewport reopened under the same id must find its
        // sampler still watched.
        let mut pass = PassInProgress {
            state: None,
            began_at: Duration::ZERO,
            viewport: input.viewport_id,
            time_secs: None,
            begun: false,
            egui_redoes_discards: false,
        };
        if let Some(index) = self
            .sampling
            .iter()
            .position(|(id, _)| *id == input.viewport_id)
        {
            let state = &self.sampling[index].1;
            let guard = state.lock();
            if guard.is_sampling() {
                pass.began_at = guard.now();
                drop(guard);
                pass.state = Some(std::sync::Arc::clone(state));
            } else {
                // Hidden: nothing to time until `fps_monitor` attaches (and watches) again.
                drop(guard);
                self.sampling.swap_remove(index);
            }
        }
        self.passes.push(pass);
    }

    fn on_begin_pass(&mut self, ui: &mut egui::Ui) {
        if let Some(pass) = self.passes.last_mut() {
            pass.egui_redoes_discards = true;
            pass.begin(ui.ctx());
        }
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        // A plugin added during a pass sees that pass's output without its input: nothing to pop.
        let Some(pass) = self.passes.pop() else {
            return;
        };
        let Some(state) = pass.state else {
            return;
        };
        let platform = &output.platform_output;
        let max_passes = ctx.options(|o| o.max_passes.get());
        let discarded = pass.egui_redoes_discards
            && platform.requested_discard()
            && platform.num_completed_passes < max_passes;
        let now_secs = pass.time_secs.unwrap_or_else(|| ctx.input(|i| i.time));
        let repaint_delay = output
            .viewport_output
            .get(&pass.viewport)
            .map(|v| v.repaint_delay);
        let mut state = state.lock();
        let ended_at = state.now();
        state.end_pass(ended_at, !discarded, now_secs, repaint_delay);
    }
}
