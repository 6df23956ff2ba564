//! The platform-independent face of the refresh-rate query.

use raw_window_handle::{HasDisplayHandle, HasWindowHandle, RawDisplayHandle, RawWindowHandle};

use super::{DisplayRefreshError, ScreenArea, platform::PlatformTarget};

/// What is needed to ask the platform for the refresh rate of the display a window is on.
///
/// Build it on the UI thread with [`Self::from_window`] (cheap: it copies ids out of the handles;
/// on macOS it also looks up the window's screen, which `AppKit` only allows there). Then move it
/// to a background thread and call [`Self::refresh_hz`] there: on X11 and Wayland that opens a
/// connection and makes a few round trips (3–36 ms measured under Xvfb), which must not stall a
/// frame.
///
/// When to ask again: the answer describes the display under the window at the time of the call.
/// Ask again when the window may have changed display, that is when egui's
/// `ViewportInfo::outer_rect` or `ViewportInfo::monitor_size` changes; a slow background re-ask
/// every few seconds also catches a mode switch on the same display. On macOS the screen is fixed
/// when the query is built, so rebuild the query (on the main thread) after such a change.
///
/// The query is `Send + Sync` and holds no connection between calls.
#[derive(Debug)]
pub struct DisplayRefreshQuery {
    /// `None`: the window system gives no way to answer (web, Android, unsupported platforms).
    target: Option<PlatformTarget>,
}

impl DisplayRefreshQuery {
    /// Takes what the query needs from a window's handles.
    ///
    /// Works for any window type that implements raw-window-handle 0.6 (`eframe::Frame`,
    /// `eframe::CreationContext`, a winit window). A window system with no supported query
    /// (web, Android, …) is not an error: the query then answers `None`.
    ///
    /// On X11 the server is the one named by the `DISPLAY` environment variable, read now; use
    /// [`Self::with_x11_display_name`] when the window was opened on another one. On Wayland the
    /// compositor is the one at `WAYLAND_DISPLAY` (default `wayland-0`) under `XDG_RUNTIME_DIR`,
    /// both read now; use [`Self::with_wayland_display_name`] for another one. The handles'
    /// pointers (the app's `wl_display` and `wl_surface`) are not kept.
    ///
    /// # Errors
    /// [`DisplayRefreshError::Handle`] when the handles are not available (yet), and on macOS
    /// [`DisplayRefreshError::NotMainThread`] when called off the main thread.
    pub fn from_window(
        window: &(impl HasWindowHandle + HasDisplayHandle + ?Sized),
    ) -> Result<Self, DisplayRefreshError> {
        let window_handle = window.window_handle()?.as_raw();
        let display_handle = window.display_handle()?.as_raw();
        Self::from_raw_handles(window_handle, display_handle)
    }

    /// Same as [`Self::from_window`], from raw handles that the caller has already taken out.
    ///
    /// # Errors
    /// As [`Self::from_window`].
    pub fn from_raw_handles(
        window_handle: RawWindowHandle,
        display_handle: RawDisplayHandle,
    ) -> Result<Self, DisplayRefreshError> {
        Ok(Self {
            target: PlatformTarget::from_raw(window_handle, display_handle)?,
        })
    }

    /// Names the X server to ask (e.g. `":1"`) instead of the `DISPLAY` environment variable.
    ///
    /// Default: `DISPLAY` as read by [`Self::from_window`]. Has no effect on other window
    /// systems. Cost: none until the next query.
    #[must_use]
    pub fn with_x11_display_name(mut self, display_name: impl Into<String>) -> Self {
        if let Some(target) = &mut self.target {
            target.set_x11_display_name(display_name.into());
        }
        self
    }

    /// Names the Wayland compositor to ask, as `WAYLAND_DISPLAY` would: a socket name under
    /// `XDG_RUNTIME_DIR` (e.g. `"wayland-1"`) or an absolute socket path.
    ///
    /// Default: `WAYLAND_DISPLAY` as read by [`Self::from_window`], else `wayland-0`. Has no
    /// effect on other window systems. Cost: none until the next query.
    #[must_use]
    pub fn with_wayland_display_name(mut self, display_name: impl Into<String>) -> Self {
        if let Some(target) = &mut self.target {
            target.set_wayland_display_name(display_name.into());
        }
        self
    }

    /// A query on the same window system for the display under `area` instead of under the
    /// window: for a window this query has no handle for, such as an egui child viewport in
    /// eframe. X11 picks the CRTC that overlaps the area most, Windows `MonitorFromRect`;
    /// Wayland's answer never depended on the window, so it is the same; macOS cannot place an
    /// area off the main thread, so there (and for an empty area) the new query answers `None`.
    /// Cost: a copy of the target (a string on X11 and Wayland); no platform call.
    #[must_use]
    pub fn at_area(&self, area: ScreenArea) -> Self {
        Self {
            target: self
                .target
                .as_ref()
                .filter(|_| !area.is_empty())
                .and_then(|target| target.at_area(area)),
        }
    }

    /// Whether the platform code can answer at all; `false` for unsupported window systems
    /// (web, Android, …), whose queries always answer `None`. Cost: none.
    pub fn is_supported(&self) -> bool {
        self.target.is_some()
    }

    /// Refresh rate in Hz of the display the window is on now, or `None` when the platform cannot
    /// tell (Xvfb, Wayland outputs with different rates, a variable-rate panel with no nominal
    /// rate, any failure).
    ///
    /// Slow (server round trips on X11 and Wayland): call it off the UI thread. Failures are
    /// logged at debug level; use [`Self::try_refresh_hz`] to see them.
    pub fn refresh_hz(&self) -> Option<f64> {
        match self.try_refresh_hz() {
            Ok(rate_hz) => rate_hz,
            Err(error) => {
                log::debug!("display refresh rate unavailable: {error}");
                None
            }
        }
    }

    /// Same as [`Self::refresh_hz`], with the reason when the platform failed.
    ///
    /// `Ok(None)` means the platform answered "unknown" (no timings, no display under the window,
    /// Wayland outputs that disagree, an unsupported window system).
    ///
    /// # Errors
    /// The platform call that failed, see [`DisplayRefreshError`].
    pub fn try_refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        match &self.target {
            Some(target) => target.refresh_hz(),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DisplayRefreshQuery;

    #[test]
    fn the_query_can_move_to_a_background_thread() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<DisplayRefreshQuery>();
    }

    #[test]
    fn an_unsupported_window_system_answers_none() {
        use raw_window_handle::{
            RawDisplayHandle, RawWindowHandle, WebDisplayHandle, WebWindowHandle,
        };
        let query = DisplayRefreshQuery::from_raw_handles(
            RawWindowHandle::Web(WebWindowHandle::new(1)),
            RawDisplayHandle::Web(WebDisplayHandle::new()),
        )
        .expect("an unknown window system is not an error");
        assert!(!query.is_supported(), "web has no refresh query");
        assert_eq!(query.refresh_hz(), None);
    }
}
