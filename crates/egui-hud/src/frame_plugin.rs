use std::time::Duration;

use crate::hud_state::{HudState, SharedHudState};

/// The egui plugin that timestamps frames for every viewport that shows a HUD.
///
/// Draw start is taken when a frame's first pass receives its input (before egui's own pass
/// setup), draw end when its final, non-discarded pass hands its output to the integration;
/// that hand-off is also the frame's present. All passes of a frame form one sample. Viewports
/// without a HUD cost one memory lookup per pass.
#[derive(Default)]
pub(crate) struct FramePlugin {
    /// Passes in progress, innermost last: immediate viewports nest inside their parent's pass.
    passes: Vec<PassInProgress>,
}

struct PassInProgress {
    state: Option<SharedHudState>,
    began_at: Duration,
}

impl FramePlugin {
    pub(crate) fn ensure_added(ctx: &egui::Context) {
        if ctx.with_plugin::<Self, _>(|_| ()).is_none() {
            ctx.add_plugin(Self::default());
        }
    }
}

impl egui::Plugin for FramePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_hud::FramePlugin"
    }

    fn input_hook(&mut self, ctx: &egui::Context, input: &mut egui::RawInput) {
        // A hidden HUD (no sampler) has nothing to time until `fps_monitor` attaches again.
        let (state, began_at) = match HudState::get(ctx, input.viewport_id) {
            Some(state) => {
                let guard = state.lock();
                if guard.is_sampling() {
                    let began_at = guard.now();
                    drop(guard);
                    (Some(state), began_at)
                } else {
                    (None, Duration::ZERO)
                }
            }
            None => (None, Duration::ZERO),
        };
        self.passes.push(PassInProgress { state, began_at });
    }

    fn on_begin_pass(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx();
        if ctx.current_pass_index() != 0 {
            return;
        }
        if let Some(PassInProgress {
            state: Some(state),
            began_at,
        }) = self.passes.last()
        {
            state.lock().begin_frame(ctx, *began_at);
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
        let discarded = platform.requested_discard() && platform.num_completed_passes < max_passes;
        let mut state = state.lock();
        let ended_at = state.now();
        state.end_pass(ended_at, !discarded);
    }
}
