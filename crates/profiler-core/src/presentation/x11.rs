//! X11: the Present extension's `CompleteNotify` events for the app's window, over an own
//! connection.
//!
//! XIDs are server-global and Present sends a window's events to every client that selected
//! them, so a second connection sees each `PresentPixmap` to the window complete: its UST
//! (µs on `CLOCK_MONOTONIC`), MSC (the vblank counter) and mode (flip, copy, skip). The app's
//! present serials tell when a report was missed. A thread of the source's own reads that
//! connection, so the UI thread never calls the server to poll. Renderers that draw with
//! `PutImage` (Mesa's software paths without DRI3, as under Xvfb) send none.

use std::sync::Arc;
use std::thread::JoinHandle;

use parking_lot::Mutex;
use rustix::net::Shutdown;
use x11rb::connection::{Connection as _, RequestConnection as _};
use x11rb::protocol::Event;
use x11rb::protocol::present::{self, CompleteKind, CompleteMode, ConnectionExt as _};
use x11rb::protocol::xproto::Window;
use x11rb::rust_connection::RustConnection;

use crate::presentation::completion_inbox::CompletionInbox;
use crate::presentation::monotonic_anchor::MonotonicAnchor;
use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::PresentationFeedback;
use crate::presentation::presented_frame::{
    PresentationFlags, PresentationOutcome, PresentedFrame,
};

/// The completion source of one X11 window. Its connection is read by a thread of its own,
/// blocked on the server until a completion comes: the UI thread's [`Self::poll`] takes what it
/// read from the [`CompletionInbox`] and makes no call to the server (reading a completion on
/// the UI thread took 15.6–22.3 µs a frame at the median, `benches/presentation_cost.rs`).
#[derive(Debug)]
pub(super) struct X11Source {
    connection: Arc<RustConnection>,
    window: Window,
    /// The event context the selection is made under.
    event_id: u32,
    inbox: Arc<Mutex<CompletionInbox>>,
    /// Ends when the connection is shut down (see `Drop`).
    reader: Option<JoinHandle<()>>,
}

impl X11Source {
    /// Connects to `display_name` (`None`: `DISPLAY`), selects `window`'s completion events and
    /// starts the thread that reads them.
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
        let connection = Arc::new(connection);
        let inbox = Arc::new(Mutex::new(CompletionInbox::new()));
        let reader = std::thread::Builder::new()
            .name("x11-present".into())
            .spawn({
                let (connection, inbox) = (Arc::clone(&connection), Arc::clone(&inbox));
                let anchor = MonotonicAnchor::now(rustix::time::ClockId::Monotonic);
                move || read_completions(&connection, window, anchor, &inbox)
            })
            .map_err(PresentationError::X11Reader)?;
        let mut source = Self {
            connection,
            window,
            event_id,
            inbox,
            reader: Some(reader),
        };
        source.set_watching(true)?;
        Ok(source)
    }

    /// Selects (or deselects) the window's completion events; waits for the server's answer
    /// (a round trip), so that a window that is gone is an error here. Completions not yet
    /// polled, and those the server sent before it took the new selection, are dropped.
    pub(super) fn set_watching(&mut self, watching: bool) -> Result<(), PresentationError> {
        let mask = if watching {
            present::EventMask::COMPLETE_NOTIFY
        } else {
            present::EventMask::NO_EVENT
        };
        let selected = self
            .connection
            .present_select_input(self.event_id, self.window, mask)
            .map_err(request_error)?;
        self.inbox.lock().restart(selected.sequence_number());
        selected.check().map_err(request_error)
    }

    /// The completions that arrived since the last call, oldest first. Makes no call to the
    /// server: one lock of the inbox, which the reader holds only to push a completion.
    pub(super) fn poll(
        &mut self,
        out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        self.inbox.lock().drain(out)
    }
}

impl Drop for X11Source {
    /// Shuts the connection down, which ends the reader's wait with an error, and joins it.
    /// Should the shutdown fail, the reader is left to end with the connection (it holds its
    /// own handle) rather than joined: a join could wait for the server's next event.
    fn drop(&mut self) {
        let Some(reader) = self.reader.take() else {
            return;
        };
        match rustix::net::shutdown(self.connection.stream(), Shutdown::Both) {
            Ok(()) => {
                if reader.join().is_err() {
                    log::warn!("profiler-core: the X11 Present reader panicked");
                }
            }
            Err(error) => {
                log::warn!(
                    "profiler-core: could not shut the X11 Present connection down ({error}); \
                     its reader thread ends with the connection"
                );
            }
        }
    }
}

/// The reader thread: waits for the server's events and puts `window`'s completions in
/// `inbox`, until the connection fails or is shut down.
fn read_completions(
    connection: &RustConnection,
    window: Window,
    anchor: MonotonicAnchor,
    inbox: &Mutex<CompletionInbox>,
) {
    let _told = FailureOnUnwind(inbox);
    loop {
        let (event, sequence) = match connection.wait_for_event_with_sequence() {
            Ok(read) => read,
            Err(error) => {
                inbox.lock().fail(error.to_string());
                return;
            }
        };
        let Event::PresentCompleteNotify(complete) = event else {
            continue;
        };
        if complete.window != window || complete.kind != CompleteKind::PIXMAP {
            continue;
        }
        let outcome = if complete.mode == CompleteMode::SKIP {
            Some(PresentationOutcome::Skipped)
        } else {
            anchor
                .instant_of(u128::from(complete.ust) * 1000)
                .map(|on_screen| {
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
                })
        };
        inbox.lock().receive(sequence, complete.serial, outcome);
    }
}

/// Tells the inbox that the reader stopped if it unwinds (x11rb panics on a poisoned lock), so
/// the UI thread's next poll says so instead of waiting for completions forever.
struct FailureOnUnwind<'a>(&'a Mutex<CompletionInbox>);

impl Drop for FailureOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().fail("the reader thread panicked".to_owned());
        }
    }
}

fn request_error(cause: impl std::error::Error + Send + Sync + 'static) -> PresentationError {
    PresentationError::X11Request(Box::new(cause))
}
