//! macOS: the window's screen (`AppKit`, main thread only) and that display's current mode
//! (Core Graphics, any thread).
//!
//! Unverified: written against objc2-app-kit / objc2-core-graphics 0.3.2 and Apple's
//! documentation, type-checked for `aarch64-apple-darwin`, never run.
//!
//! The screen is looked up once, when the query is built on the main thread; the mode is read at
//! each `refresh_hz`, from any thread (Core Graphics display calls are thread-safe). So a mode
//! switch is followed, but a move to another screen needs a new query.
#![expect(
    unsafe_code,
    reason = "AppKit: the raw NSView pointer from raw-window-handle becomes a reference"
)]

use objc2::runtime::NSObjectProtocol as _;
use objc2::{MainThreadMarker, sel};
use objc2_app_kit::NSView;
use objc2_core_graphics::{CGDisplayCopyDisplayMode, CGDisplayMode};
use objc2_foundation::{NSNumber, NSString};
use raw_window_handle::{RawDisplayHandle, RawWindowHandle};

use super::{DisplayRefreshError, ScreenArea};

/// A display, by its `CGDirectDisplayID`, and what its screen said about variable rates.
#[derive(Debug)]
pub(super) struct PlatformTarget {
    display_id: u32,
    /// `NSScreen.maximumFramesPerSecond` (macOS 12+), used when the mode reports 0 Hz, as
    /// built-in and ProMotion panels do.
    screen_max_fps: Option<f64>,
}

impl PlatformTarget {
    pub(super) fn from_raw(
        window_handle: RawWindowHandle,
        _display_handle: RawDisplayHandle,
    ) -> Result<Option<Self>, DisplayRefreshError> {
        let RawWindowHandle::AppKit(handle) = window_handle else {
            return Ok(None);
        };
        if MainThreadMarker::new().is_none() {
            return Err(DisplayRefreshError::NotMainThread);
        }
        // SAFETY: raw-window-handle guarantees that `ns_view` points to a live `NSView` while the
        // handle is borrowed, which covers this function; we checked we are on the main thread,
        // the only thread where AppKit views may be used.
        let view: &NSView = unsafe { handle.ns_view.cast::<NSView>().as_ref() };
        let Some(screen) = view.window().and_then(|window| window.screen()) else {
            return Ok(None); // not in a window yet, or entirely off-screen
        };
        let display_number = screen
            .deviceDescription()
            .objectForKey(&NSString::from_str("NSScreenNumber"))
            .and_then(|value| value.downcast::<NSNumber>().ok());
        let Some(display_number) = display_number else {
            return Ok(None);
        };
        let screen_max_fps = if screen.respondsToSelector(sel!(maximumFramesPerSecond)) {
            i32::try_from(screen.maximumFramesPerSecond())
                .ok()
                .filter(|&fps| fps > 0)
                .map(f64::from)
        } else {
            None // before macOS 12
        };
        Ok(Some(Self {
            display_id: display_number.unsignedIntValue(),
            screen_max_fps,
        }))
    }

    #[expect(
        clippy::unused_self,
        reason = "same signature as the X11 module, where the name matters"
    )]
    pub(super) fn set_x11_display_name(&mut self, _display_name: String) {}

    #[expect(
        clippy::unused_self,
        reason = "same signature as the free-Unix module, where the name matters"
    )]
    pub(super) fn set_wayland_display_name(&mut self, _display_name: String) {}

    /// `NSScreen` may only be asked on the main thread, and the query runs off it: an area has
    /// no target here.
    #[expect(
        clippy::unused_self,
        reason = "same signature as the modules that can place an area"
    )]
    pub(super) fn at_area(&self, _area: ScreenArea) -> Option<Self> {
        None
    }

    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the platform modules that can fail here"
    )]
    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        let mode_hz = CGDisplayCopyDisplayMode(self.display_id)
            .map(|mode| CGDisplayMode::refresh_rate(Some(&mode)))
            .filter(|&rate_hz| rate_hz > 0.0);
        Ok(mode_hz.or(self.screen_max_fps))
    }
}
