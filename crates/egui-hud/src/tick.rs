//! The HUD's clock. It lives alone in this file because egui records the file of every repaint
//! request: a frame whose only causes point here was woken by the HUD's tick and nothing else.

use std::time::Duration;

/// Asks for the frame that refreshes the readouts, `after` from now. The HUD's regular repaint
/// request: never immediate, so the HUD never drives the frame loop.
pub(crate) fn schedule(ctx: &egui::Context, after: Duration) {
    ctx.request_repaint_after(after);
}

/// While GPU results are on their way, asks for a frame soon enough to collect them in an idle
/// app. Attributed to the HUD like the tick, so that frame is excluded too. Returns the delay.
#[cfg_attr(
    not(feature = "wgpu"),
    expect(dead_code, reason = "only the GPU timer polls")
)]
pub(crate) fn schedule_result_poll(ctx: &egui::Context) -> Duration {
    ctx.request_repaint_after(RESULT_POLL_INTERVAL);
    RESULT_POLL_INTERVAL
}

/// How soon pending GPU results are collected: about two frames at 60 Hz.
const RESULT_POLL_INTERVAL: Duration = Duration::from_millis(33);

/// Whether the current frame was woken by the HUD alone. Read in the frame's first pass, where
/// repaint causes are those of the previous pass.
///
/// Never when the frame has input events or the previous pass asked for an immediate repaint
/// (animation, input echo). Otherwise yes when every repaint cause is the HUD's, or when
/// `at_own_deadline`: the HUD's request was the soonest of the previous pass (egui's
/// `repaint_delay`) and this frame came when it fell due. The second rule matters for apps that
/// ask for a later frame themselves (a clock's `request_repaint_after(1 s)`): their cause is
/// listed, but it is not what woke this frame.
pub(crate) fn is_hud_frame(
    ctx: &egui::Context,
    causes: &[egui::RepaintCause],
    at_own_deadline: bool,
) -> bool {
    ctx.current_pass_index() == 0
        && !ctx.requested_repaint_last_pass()
        && ctx.input(|i| i.raw.events.is_empty())
        && (at_own_deadline || (!causes.is_empty() && causes.iter().all(is_own_cause)))
}

/// Whether a repaint cause is the HUD's tick.
pub(crate) fn is_own_cause(cause: &egui::RepaintCause) -> bool {
    cause.file == file!()
}
