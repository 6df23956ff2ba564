//! Why a refresh-rate query could not be built or answered.

/// Boxed cause of a platform failure; platform error types differ per OS, this keeps the enum
/// the same everywhere.
type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why [`DisplayRefreshQuery`](super::DisplayRefreshQuery) could not be built or could not ask
/// the platform.
///
/// "The platform has no answer" (Xvfb, Wayland outputs with different rates, an unsupported OS)
/// is not an error: the query answers `Ok(None)` then.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DisplayRefreshError {
    /// The window or display handle is not available yet.
    #[error(
        "the window's handle is not available ({0}); build the query once the window exists \
         (for eframe: from `CreationContext` or `Frame`, not before the app is created)"
    )]
    Handle(raw_window_handle::HandleError),

    /// No connection to the X server could be opened.
    #[error(
        "cannot connect to the X server {display_name:?}: {cause}; check that DISPLAY (and \
         XAUTHORITY) point at the server the window is on, or pass its name with \
         `DisplayRefreshQuery::with_x11_display_name`"
    )]
    X11Connect {
        /// The display name tried (`None`: `DISPLAY` was not set).
        display_name: Option<String>,
        /// What the X11 client library said.
        #[source]
        cause: Cause,
    },

    /// The X server refused or failed a request.
    #[error(
        "the X server failed a RandR request: {0}; the server needs the RandR extension 1.3 or \
         newer, and the window must still exist"
    )]
    X11Request(#[source] Cause),

    /// No connection to the Wayland compositor could be opened.
    #[error(
        "cannot connect to the Wayland compositor at {display_name:?}: {cause}; check that \
         WAYLAND_DISPLAY (and XDG_RUNTIME_DIR, for a relative name) name the compositor the \
         window is on, or pass its socket with `DisplayRefreshQuery::with_wayland_display_name`"
    )]
    WaylandConnect {
        /// The socket tried: a path, or `WAYLAND_DISPLAY`'s name when `XDG_RUNTIME_DIR` was not
        /// set to resolve it against.
        display_name: String,
        /// What the socket or the Wayland client library said.
        #[source]
        cause: Cause,
    },

    /// The Wayland connection failed while listing the outputs.
    #[error(
        "the Wayland compositor closed the connection or sent a protocol error while listing \
         outputs: {0}; the compositor may have exited"
    )]
    WaylandRequest(#[source] Cause),

    /// A Win32 call failed.
    #[error(
        "the Win32 call {call} failed; the window may have been destroyed: build a new query \
         from the live window"
    )]
    Win32 {
        /// The function that failed.
        call: &'static str,
    },

    /// An `AppKit` query was attempted off the main thread.
    #[error(
        "AppKit may only be asked on the main thread; call `DisplayRefreshQuery::from_window` \
         from the UI thread (eframe's `App::update` or `CreationContext`)"
    )]
    NotMainThread,
}

// By hand rather than `#[from]`: raw-window-handle implements `std::error::Error` only with its
// `std` feature, which this crate does not need to turn on.
impl From<raw_window_handle::HandleError> for DisplayRefreshError {
    fn from(error: raw_window_handle::HandleError) -> Self {
        Self::Handle(error)
    }
}
