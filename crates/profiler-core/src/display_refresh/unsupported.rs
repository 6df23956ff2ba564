//! Platforms with no refresh-rate query: every query answers `None`.

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};

use super::{DisplayRefreshError, ScreenArea};

/// Never built: `from_raw` always says "no target".
#[derive(Debug)]
pub(super) enum PlatformTarget {}

impl PlatformTarget {
    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the platform modules"
    )]
    pub(super) fn from_raw(
        _window_handle: RawWindowHandle,
        _display_handle: RawDisplayHandle,
    ) -> Result<Option<Self>, DisplayRefreshError> {
        Ok(None)
    }

    pub(super) fn set_x11_display_name(&mut self, _display_name: String) {
        match *self {}
    }

    pub(super) fn set_wayland_display_name(&mut self, _display_name: String) {
        match *self {}
    }

    pub(super) fn at_area(&self, _area: ScreenArea) -> Option<Self> {
        match *self {}
    }

    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        match *self {}
    }
}
