//! Why a presentation source could not be built or read.

/// Boxed cause of a platform failure; platform error types differ per OS, this keeps the enum
/// the same everywhere.
type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why [`PresentationSource`](super::PresentationSource) could not be built or could not read
/// the window system's reports. The HUD then hides the presentation rows and its hover says
/// this.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PresentationError {
    /// The window or display handle is not available yet.
    #[error(
        "the window's handle is not available ({0}); build the source once the window exists \
         (for eframe: from `CreationContext`, not before the app is created)"
    )]
    Handle(raw_window_handle::HandleError),

    /// The window system gives an app no presentation times.
    #[error(
        "{window_system} reports no presentation times to an app (only Wayland's \
         presentation-time and X11's Present extension do); LATENCY ends at the GPU's end"
    )]
    Unsupported {
        /// What the window is on.
        window_system: &'static str,
    },

    /// The Wayland surface handle is not a live `wl_surface`.
    #[error(
        "the window's Wayland surface handle is not a live wl_surface; build the source from \
         the window while it exists"
    )]
    WaylandSurface,

    /// The compositor does not offer `wp_presentation`.
    #[error(
        "the Wayland compositor does not offer wp_presentation (presentation-time), so it \
         cannot say when a frame was shown; weston, mutter, KWin and wlroots compositors do"
    )]
    WaylandNoPresentation,

    /// The compositor's presentation clock is not a monotonic clock the HUD can read.
    #[error(
        "the Wayland compositor's presentation clock is clock {clock_id}, not CLOCK_MONOTONIC \
         (1), CLOCK_MONOTONIC_RAW (4) or CLOCK_MONOTONIC_COARSE (6), so its times cannot be \
         placed beside the HUD's; the presentation rows stay off"
    )]
    WaylandClock {
        /// The clock the compositor named (`wp_presentation.clock_id`).
        clock_id: u32,
    },

    /// The Wayland connection failed.
    #[error(
        "the Wayland connection failed while asking for presentation feedback: {0}; the \
         compositor may have exited"
    )]
    WaylandRequest(#[source] Cause),

    /// No connection to the X server could be opened.
    #[error(
        "cannot connect to the X server {display_name:?}: {cause}; check that DISPLAY (and \
         XAUTHORITY) point at the server the window is on"
    )]
    X11Connect {
        /// The display name tried (`None`: `DISPLAY`).
        display_name: Option<String>,
        /// What the X11 client library said.
        #[source]
        cause: Cause,
    },

    /// The X server lacks the Present extension.
    #[error(
        "the X server has no Present extension, so it reports no completions; Xorg and Xvfb \
         since 1.15 have it"
    )]
    X11NoPresent,

    /// The thread that reads the X server's completions could not be started.
    #[error(
        "could not start the thread that reads the X server's Present completions: {0}; the \
         process may be at its thread or memory limit"
    )]
    X11Reader(#[source] std::io::Error),

    /// The connection to the X server failed while the reader thread waited for completions.
    #[error(
        "the connection to the X server failed while reading Present completions ({0}); the \
         server may have exited: build a new source once it runs again"
    )]
    X11Connection(#[source] Cause),

    /// The X server refused or failed a request.
    #[error("the X server failed a Present request: {0}; the window must still exist")]
    X11Request(#[source] Cause),
}

// By hand rather than `#[from]`: raw-window-handle implements `std::error::Error` only with its
// `std` feature, which this crate does not need to turn on.
impl From<raw_window_handle::HandleError> for PresentationError {
    fn from(error: raw_window_handle::HandleError) -> Self {
        Self::Handle(error)
    }
}
