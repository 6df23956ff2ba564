//! Free Unix: Wayland's `wp_presentation` ([`super::wayland`]) or X11's Present extension
//! ([`super::x11`]), by the window's handle.

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};

use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::PresentationFeedback;
use crate::presentation::wayland::WaylandSource;
use crate::presentation::x11::X11Source;

/// The window system's source.
#[derive(Debug)]
pub(super) enum PlatformSource {
    // Boxed, both: one source per window, built once, and the two differ in size by hundreds of
    // bytes (the X11 connection's buffers, the Wayland queue).
    Wayland(Box<WaylandSource>),
    X11(Box<X11Source>),
}

impl PlatformSource {
    pub(super) fn from_raw(
        window: RawWindowHandle,
        display: RawDisplayHandle,
    ) -> Result<Self, PresentationError> {
        match (window, display) {
            (RawWindowHandle::Wayland(window), RawDisplayHandle::Wayland(display)) => {
                WaylandSource::new(display.display, window.surface)
                    .map(|source| Self::Wayland(Box::new(source)))
            }
            (RawWindowHandle::Xlib(handle), _) => {
                let window =
                    u32::try_from(handle.window).map_err(|_| PresentationError::Unsupported {
                        window_system: "an Xlib window id over 32 bits",
                    })?;
                Self::x11(None, window)
            }
            (RawWindowHandle::Xcb(handle), _) => Self::x11(None, handle.window.get()),
            _ => Err(PresentationError::Unsupported {
                window_system: "this window system",
            }),
        }
    }

    pub(super) fn x11(display_name: Option<&str>, window: u32) -> Result<Self, PresentationError> {
        X11Source::new(display_name, window).map(|source| Self::X11(Box::new(source)))
    }

    pub(super) fn name(&self) -> &'static str {
        match self {
            Self::Wayland(_) => "Wayland presentation-time",
            Self::X11(_) => "X11 Present",
        }
    }

    pub(super) fn frame_committing(&mut self, sequence: u64) {
        match self {
            Self::Wayland(source) => source.frame_committing(sequence),
            // X11 completions are matched in order: nothing to ask before the commit.
            Self::X11(_) => {}
        }
    }

    pub(super) fn poll(
        &mut self,
        out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        match self {
            Self::Wayland(source) => source.poll(out),
            Self::X11(source) => source.poll(out),
        }
    }

    pub(super) fn set_watching(&mut self, watching: bool) -> Result<(), PresentationError> {
        match self {
            Self::Wayland(_) => Ok(()),
            Self::X11(source) => source.set_watching(watching),
        }
    }

    /// Why no report came for many frames.
    pub(super) fn silence_reason(&self) -> &'static str {
        match self {
            Self::Wayland(source) if source.dropped() > 0 => {
                "the HUD polled too seldom and dropped the compositor's reports"
            }
            Self::Wayland(_) => "the compositor answered no presentation feedback for this window",
            Self::X11(_) => {
                "the renderer draws this window without the Present extension (software \
                 rendering with PutImage, as under Xvfb), so the X server reports no completions"
            }
        }
    }
}
