//! The HUD's clock: when the readouts refresh, and the one place the HUD asks egui for a frame.

use std::time::Duration;

use crate::repaint::repaint_ledger::RepaintLedger;

/// The file that makes the HUD's only repaint request: its causes are not the app's (WHY).
pub(crate) const OWN_REQUEST_FILE: &str = file!();

/// How often the numbers on screen change.
pub(crate) const REFRESH_INTERVAL: Duration = Duration::from_millis(500);

/// The tick's tolerance: a frame this close before the refresh time refreshes, and the HUD asks
/// for its frame this long after the refresh falls due, so that an app frame due at the same
/// moment (its own `request_repaint_after(500 ms)`) is the sooner request and refreshes on the
/// way. No request is ever shorter than this: the HUD never asks for an immediate repaint.
const TICK_SLACK: Duration = Duration::from_millis(10);

/// How long the refresh may wait for a frame the app asked for instead of waking the window:
/// a frame the HUD wakes runs the app's UI, which re-arms the app's own timer, so an app that
/// redraws every second (a clock) would otherwise never get its own frame.
const APP_FRAME_WAIT: Duration = Duration::from_secs(1);

/// How soon pending GPU results are collected in an idle app: about two frames at 60 Hz.
const RESULT_POLL_INTERVAL: Duration = Duration::from_millis(33);

/// What [`Tick::schedule`] needs to know about the frame that just ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TickInput {
    /// The frame's egui time.
    pub(crate) now_secs: f64,
    /// When the soonest frame the app asked for falls due (egui time), from the repaint ledger.
    pub(crate) app_due_secs: Option<f64>,
    /// GPU results of the viewport are on their way.
    pub(crate) gpu_results_pending: bool,
}

/// When the readouts refresh and which frame the HUD asked for. One per viewport's HUD.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tick {
    /// egui time of the last refresh; `None` until the first.
    last_refresh_secs: Option<f64>,
    /// egui time at which the frame the HUD asked for falls due; `None` when it asked for none
    /// since the last frame began.
    deadline_secs: Option<f64>,
    /// The last refresh restarted the grid because egui time had run backwards.
    time_went_back: bool,
}

impl Tick {
    /// Whether a frame at `now_secs` refreshes the readouts; if so, the refresh is recorded.
    /// Any frame from [`TICK_SLACK`] before the refresh falls due refreshes: that saves the
    /// HUD a frame of its own. On time, refreshes stay on a 500 ms grid; after a pause a new
    /// grid starts. A NaN (a clock gone wrong) refreshes rather than stalls, and so does egui
    /// time that ran backwards (an integration that restarted `RawInput::time`): the grid
    /// starts again from the new time instead of waiting for it to catch up.
    pub(crate) fn refresh_due(&mut self, now_secs: f64) -> bool {
        let interval_secs = REFRESH_INTERVAL.as_secs_f64();
        let slack_secs = TICK_SLACK.as_secs_f64();
        let went_back = self.last_refresh_secs.is_some_and(|last| now_secs < last);
        let due_secs = self
            .last_refresh_secs
            .filter(|_| !went_back)
            .map(|t| t + interval_secs);
        let due = due_secs.is_none_or(|due| due.is_nan() || now_secs >= due - slack_secs);
        if due {
            let on_grid = due_secs.filter(|&due| now_secs <= due + 2.0 * slack_secs);
            self.last_refresh_secs = Some(on_grid.unwrap_or(now_secs));
            self.time_went_back = went_back;
        }
        due
    }

    /// Whether the refresh just granted by [`Self::refresh_due`] restarted the grid because
    /// egui time had run backwards; reading it clears it, so each restart is counted once.
    pub(crate) fn take_time_went_back(&mut self) -> bool {
        std::mem::take(&mut self.time_went_back)
    }

    /// The deadline of the HUD's request, taken by the frame that begins: every frame consumes
    /// the requests made before it, the HUD's included.
    pub(crate) fn take_deadline(&mut self) -> Option<f64> {
        self.deadline_secs.take()
    }

    /// Called after the final pass of a frame that drew the HUD. Asks for the frame that
    /// refreshes the readouts (and, while GPU results are on their way, one ~33 ms away to
    /// collect them), unless a frame the app asked for falls due soon enough to do it (within
    /// [`APP_FRAME_WAIT`] of that time).
    ///
    /// The request is made outside the pass, so `output`'s `repaint_delay` (which egui computed
    /// before) is lowered to match, for integrations that schedule from it.
    pub(crate) fn schedule(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        input: TickInput,
        ledger: &RepaintLedger,
        output: &mut egui::FullOutput,
    ) {
        let TickInput {
            now_secs,
            app_due_secs,
            gpu_results_pending,
        } = input;
        let next_refresh_secs =
            self.last_refresh_secs.unwrap_or(now_secs) + REFRESH_INTERVAL.as_secs_f64();
        let mut wanted_secs = next_refresh_secs + TICK_SLACK.as_secs_f64();
        if gpu_results_pending {
            wanted_secs = wanted_secs.min(now_secs + RESULT_POLL_INTERVAL.as_secs_f64());
        }
        let app_frame_soon =
            app_due_secs.is_some_and(|due| due <= wanted_secs + APP_FRAME_WAIT.as_secs_f64());
        if app_frame_soon && ledger.is_observed() {
            self.deadline_secs = None;
            return;
        }
        let delay = Duration::try_from_secs_f64(wanted_secs - now_secs)
            .unwrap_or(REFRESH_INTERVAL)
            .max(TICK_SLACK);
        ledger.expect_own(viewport, delay);
        ctx.request_repaint_after_for(delay, viewport);
        ledger.confirm_own(viewport);
        if let Some(viewport_output) = output.viewport_output.get_mut(&viewport) {
            viewport_output.repaint_delay = viewport_output.repaint_delay.min(delay);
        }
        self.deadline_secs = Some(now_secs + delay.as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refreshes_stay_on_a_500_ms_grid_and_restart_after_a_pause() {
        let mut tick = Tick::default();
        assert!(tick.refresh_due(1.0), "the first frame refreshes");
        assert!(!tick.refresh_due(1.2));
        assert!(tick.refresh_due(1.495), "a frame 5 ms early refreshes");
        assert_eq!(tick.last_refresh_secs, Some(1.5), "on the grid");
        assert!(tick.refresh_due(7.3), "after a pause");
        assert_eq!(tick.last_refresh_secs, Some(7.3), "a new grid");
        assert!(tick.refresh_due(0.2), "after egui time ran backwards");
        assert_eq!(
            tick.last_refresh_secs,
            Some(0.2),
            "a new grid from the new time"
        );
        assert!(!tick.refresh_due(0.4));
    }
}
