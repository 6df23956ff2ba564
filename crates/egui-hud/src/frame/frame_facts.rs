use profiler_core::FrameOrigin;

/// A frame counts as woken by the HUD's request when it runs this close before the time asked
/// for: integrations wake on time or late, a timer rarely a little early.
const HUD_DUE_TOLERANCE_SECS: f64 = 0.002;

/// How the integration has been running a viewport's frames, as the last frame showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Pacing {
    /// Frames come when something asks for them (eframe, egui-winit): a frame at the HUD's
    /// deadline with nothing else to it is the HUD's.
    #[default]
    Requested,
    /// The last frame came though nobody asked for it: the integration runs frames on its own
    /// (game engines, custom loops), so a frame at the HUD's deadline would have run anyway.
    Continuous,
    /// The last frame, in a loop that ran on its own, landed on the HUD's deadline with nothing
    /// else to it. The next frame is still wanted back to back (every frame of an engine loop
    /// is), but a frame at the next deadline is the HUD's again until the loop shows once more
    /// that it runs on its own: an on-request app woken once without a cause does not have
    /// every later tick counted as its own.
    ContinuousAtDeadline,
}

/// What the hooks saw of one frame, as plain data: everything that decides whose frame it is.
///
/// Gathered by [`crate::plugin::frame_plugin::FramePlugin`]: events and window state from the first
/// pass's `RawInput`, egui's immediate-repaint flag, the app's requests from the
/// [`crate::repaint::repaint_ledger::RepaintLedger`], and the HUD's own deadline from [`crate::repaint::tick`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct FrameFacts {
    /// egui time of the frame (its first pass).
    pub(crate) time_secs: f64,
    /// Input events, dropped files or viewport events arrived with the frame.
    pub(crate) has_events: bool,
    /// The window changed since the last frame (size, focus, theme, scale, hovered files,
    /// viewport info): an expose, a move or a theme switch wakes a window with no event.
    pub(crate) window_changed: bool,
    /// The previous pass asked for an immediate repaint (or this is egui's echo of one).
    pub(crate) immediate_request_last_pass: bool,
    /// The app's requests, made before the frame, that had fallen due by its time. `None` when
    /// they are not known (another repaint observer replaced the HUD's): then an app frame at
    /// the HUD's deadline is taken for the HUD's.
    pub(crate) app_requests_due: Option<u32>,
    /// When the frame the HUD asked for falls due, if it asked for one since the last frame.
    pub(crate) hud_deadline_secs: Option<f64>,
    /// How the integration ran the previous frame.
    pub(crate) pacing: Pacing,
}

impl FrameFacts {
    /// Whose frame this is: the HUD's only when its own request had fallen due and nothing of
    /// the app's (an event, a window change, a request that fell due) was there too. A frame
    /// nobody asked for is the app's: engine loops and custom integrations run frames on their
    /// own.
    pub(crate) fn origin(&self) -> FrameOrigin {
        if self.hud_due() && !self.app_cause() && self.pacing != Pacing::Continuous {
            FrameOrigin::SelfInduced
        } else {
            FrameOrigin::App
        }
    }

    /// How this frame shows the integration runs frames: on its own when nobody asked for it.
    pub(crate) fn pacing(&self) -> Pacing {
        if self.app_cause() {
            Pacing::Requested
        } else if self.hud_due() {
            if self.pacing == Pacing::Continuous {
                Pacing::ContinuousAtDeadline
            } else {
                Pacing::Requested
            }
        } else {
            Pacing::Continuous
        }
    }

    /// Whether the app wanted this frame as soon as the previous one was done: it asked for
    /// an immediate repaint, or the integration runs frames on its own (the frame after one
    /// that landed on the HUD's deadline included). A late present then missed refreshes;
    /// after an idle spell it did not.
    pub(crate) fn back_to_back(&self) -> bool {
        self.immediate_request_last_pass
            || matches!(
                self.pacing,
                Pacing::Continuous | Pacing::ContinuousAtDeadline
            )
    }

    fn hud_due(&self) -> bool {
        self.hud_deadline_secs
            .is_some_and(|due| self.time_secs + HUD_DUE_TOLERANCE_SECS >= due)
    }

    fn app_cause(&self) -> bool {
        self.has_events
            || self.window_changed
            || self.immediate_request_last_pass
            || self.app_requests_due.is_some_and(|due| due > 0)
    }

    /// The frame's invalidations (INV): the app's requests that fell due for it, at least one
    /// for an app frame (an event or egui's own echo frame woke it).
    pub(crate) fn invalidations(&self) -> u32 {
        self.app_requests_due.unwrap_or(0).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame at t = 10 s in an app whose observer works, with nothing else known.
    fn at_ten_seconds() -> FrameFacts {
        FrameFacts {
            time_secs: 10.0,
            app_requests_due: Some(0),
            ..FrameFacts::default()
        }
    }

    #[test]
    fn whose_frame_is_it() {
        use FrameOrigin::{App, SelfInduced};
        let base = at_ten_seconds();
        let hud_due = FrameFacts {
            hud_deadline_secs: Some(10.0),
            ..base
        };
        let table: [(&str, FrameFacts, FrameOrigin); 13] = [
            ("idle app, the HUD's tick falls due", hud_due, SelfInduced),
            (
                "the tick, woken 1 ms early by the integration",
                FrameFacts {
                    hud_deadline_secs: Some(10.001),
                    ..base
                },
                SelfInduced,
            ),
            (
                "engine loop: nobody asked, the tick is 200 ms away",
                FrameFacts {
                    hud_deadline_secs: Some(10.2),
                    ..base
                },
                App,
            ),
            ("engine loop: nobody asked, no tick pending", base, App),
            (
                "slow engine loop: its frame lands on the tick's time",
                FrameFacts {
                    pacing: Pacing::Continuous,
                    ..hud_due
                },
                App,
            ),
            (
                "animating app (its immediate request) at the tick's time",
                FrameFacts {
                    app_requests_due: Some(1),
                    ..hud_due
                },
                App,
            ),
            (
                "timer app whose request falls due with the tick",
                FrameFacts {
                    app_requests_due: Some(1),
                    ..hud_due
                },
                App,
            ),
            (
                "egui's echo frame after an immediate request",
                FrameFacts {
                    immediate_request_last_pass: true,
                    ..hud_due
                },
                App,
            ),
            (
                "a click at the tick's time",
                FrameFacts {
                    has_events: true,
                    ..hud_due
                },
                App,
            ),
            (
                "a theme switch, resize or expose at the tick's time",
                FrameFacts {
                    window_changed: true,
                    ..hud_due
                },
                App,
            ),
            (
                "an app that asked for a frame in 10 s, woken by the tick",
                hud_due,
                SelfInduced,
            ),
            (
                "observer replaced: the tick's time wins over an unknown app request",
                FrameFacts {
                    app_requests_due: None,
                    ..hud_due
                },
                SelfInduced,
            ),
            (
                "a background thread's request before the tick falls due",
                FrameFacts {
                    app_requests_due: Some(1),
                    hud_deadline_secs: Some(10.3),
                    ..base
                },
                App,
            ),
        ];
        for (situation, facts, expected) in table {
            assert_eq!(facts.origin(), expected, "{situation}");
        }
    }

    #[test]
    fn a_frame_nobody_asked_for_shows_an_integration_running_its_own_frames() {
        let base = at_ten_seconds();
        assert_eq!(base.pacing(), Pacing::Continuous);
        let tick = FrameFacts {
            hud_deadline_secs: Some(10.0),
            ..base
        };
        assert_eq!(tick.pacing(), Pacing::Requested);
        let animating = FrameFacts {
            immediate_request_last_pass: true,
            ..base
        };
        assert_eq!(animating.pacing(), Pacing::Requested);
        // An engine loop's frame on the HUD's deadline, and the frame after it.
        let engine_at_tick = FrameFacts {
            pacing: Pacing::Continuous,
            ..tick
        };
        assert_eq!(engine_at_tick.pacing(), Pacing::ContinuousAtDeadline);
        assert!(engine_at_tick.back_to_back());
        let after = FrameFacts {
            pacing: engine_at_tick.pacing(),
            ..base
        };
        assert!(after.back_to_back(), "every frame of an engine loop is");
        assert_eq!(after.pacing(), Pacing::Continuous);
        let next_tick = FrameFacts {
            pacing: engine_at_tick.pacing(),
            ..tick
        };
        assert_eq!(
            next_tick.origin(),
            FrameOrigin::SelfInduced,
            "the next tick is the HUD's again unless the loop shows it runs on its own"
        );
    }

    #[test]
    fn inv_counts_the_requests_that_fell_due_and_at_least_one() {
        let three = FrameFacts {
            app_requests_due: Some(3),
            ..at_ten_seconds()
        };
        assert_eq!(three.invalidations(), 3);
        assert_eq!(at_ten_seconds().invalidations(), 1, "an event's frame");
    }
}
