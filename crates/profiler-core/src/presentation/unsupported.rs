//! Window systems that report no presentation times to an app: Windows (DXGI frame statistics
//! need the swap chain, which the renderer owns), macOS, the web, Android.

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};

use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::PresentationFeedback;

/// Never built.
#[derive(Debug)]
pub(super) enum PlatformSource {}

impl PlatformSource {
    pub(super) fn from_raw(
        _window: RawWindowHandle,
        _display: RawDisplayHandle,
    ) -> Result<Self, PresentationError> {
        Err(PresentationError::Unsupported {
            window_system: "this platform",
        })
    }

    pub(super) fn x11(
        _display_name: Option<&str>,
        _window: u32,
    ) -> Result<Self, PresentationError> {
        Err(PresentationError::Unsupported {
            window_system: "X11 on this platform",
        })
    }

    pub(super) fn name(&self) -> &'static str {
        match *self {}
    }

    pub(super) fn frame_committing(&mut self, _sequence: u64) {
        match *self {}
    }

    pub(super) fn poll(
        &mut self,
        _out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        match *self {}
    }

    pub(super) fn set_watching(&mut self, _watching: bool) -> Result<(), PresentationError> {
        match *self {}
    }

    pub(super) fn silence_reason(&self) -> &'static str {
        match *self {}
    }
}
