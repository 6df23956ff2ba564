//! X11: the Present extension's `CompleteNotify` events for the app's window, over an own
//! connection.
//!
//! XIDs are server-global and Present sends a window's events to every client that selected
//! them, so a second connection sees each `PresentPixmap` to the window complete: its UST
//! (µs on `CLOCK_MONOTONIC`), MSC (the vblank counter) and mode (flip, copy, skip). The app's
//! present serials tell when a report was missed. Renderers that draw with `PutImage` (Mesa's
//! software paths without DRI3, as under Xvfb) send none.

use x11rb::connection::{Connection as _, RequestConnection as _};
use x11rb::protocol::Event;
use x11rb::protocol::present::{self, CompleteKind, CompleteMode, ConnectionExt as _};
use x11rb::protocol::xproto::Window;
use x11rb::rust_connection::RustConnection;

use crate::presentation::monotonic_anchor::MonotonicAnchor;
use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::{FeedbackFor, PresentationFeedback};
use crate::presentation::presented_frame::{
    PresentationFlags, PresentationOutcome, PresentedFrame,
};

/// The completion source of one X11 window.
#[derive(Debug)]
pub(super) struct X11Source {
    connection: RustConnection,
    window: Window,
    /// The event context the selection is made under.
    event_id: u32,
    /// The app's serial of the last completion seen.
    last_serial: Option<u32>,
    anchor: MonotonicAnchor,
}

impl X11Source {
    /// Connects to `display_name` (`None`: `DISPLAY`) and selects `window`'s completion events.
    pub(super) fn new(
        display_name: Option<&str>,
        window: Window,
    ) -> Result<Self, PresentationError> {
        let (connection, _screen) =
            x11rb::connect(display_name).map_err(|cause| PresentationError::X11Connect {
                display_name: display_name.map(str::to_owned),
                cause: Box::new(cause),
            })?;
        if connection
            .extension_information(present::X11_EXTENSION_NAME)
            .map_err(request_error)?
            .is_none()
        {
            return Err(PresentationError::X11NoPresent);
        }
        connection
            .present_query_version(1, 0)
            .map_err(request_error)?
            .reply()
            .map_err(request_error)?;
        let event_id = connection.generate_id().map_err(request_error)?;
        let mut source = Self {
            connection,
            window,
            event_id,
            last_serial: None,
            anchor: MonotonicAnchor::now(rustix::time::ClockId::Monotonic),
        };
        source.set_watching(true)?;
        Ok(source)
    }

    /// Selects (or deselects) the window's completion events; waits for the server's answer,
    /// so that a window that is gone is an error here.
    pub(super) fn set_watching(&mut self, watching: bool) -> Result<(), PresentationError> {
        let mask = if watching {
            present::EventMask::COMPLETE_NOTIFY
        } else {
            present::EventMask::NO_EVENT
        };
        self.last_serial = None;
        self.connection
            .present_select_input(self.event_id, self.window, mask)
            .map_err(request_error)?
            .check()
            .map_err(request_error)
    }

    /// The completions that arrived since the last call, oldest first (never blocks).
    pub(super) fn poll(
        &mut self,
        mut out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        while let Some(event) = self.connection.poll_for_event().map_err(request_error)? {
            let Event::PresentCompleteNotify(complete) = event else {
                continue;
            };
            if complete.window != self.window || complete.kind != CompleteKind::PIXMAP {
                continue;
            }
            let lost_before = self.last_serial.replace(complete.serial).map_or(0, |last| {
                complete.serial.wrapping_sub(last).saturating_sub(1)
            });
            let outcome = if complete.mode == CompleteMode::SKIP {
                PresentationOutcome::Skipped
            } else {
                let Some(on_screen) = self.anchor.instant_of(u128::from(complete.ust) * 1000)
                else {
                    continue;
                };
                PresentationOutcome::Shown(PresentedFrame {
                    on_screen,
                    refresh_period: None,
                    refresh_counter: complete.msc,
                    flags: if complete.mode == CompleteMode::FLIP {
                        PresentationFlags::ZERO_COPY
                    } else {
                        PresentationFlags::default()
                    },
                })
            };
            out(PresentationFeedback {
                frame: FeedbackFor::NextInOrder { lost_before },
                outcome,
            });
        }
        Ok(())
    }
}

fn request_error(cause: impl std::error::Error + Send + Sync + 'static) -> PresentationError {
    PresentationError::X11Request(Box::new(cause))
}
