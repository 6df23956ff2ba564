//! Free Unix: X11 through RandR over an own connection, Wayland through [`super::wayland`].
//!
//! XIDs are server-global, so a second connection can ask about the app's window. The CRTC that
//! overlaps the window most is "the display the window is on", as winit decides it too.
//!
//! Wayland object ids are per connection, so there a second connection can only compare every
//! output's current mode; see [`super::wayland`] for when that answers.

use std::error::Error;

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};
use x11rb::connection::RequestConnection as _;
use x11rb::protocol::randr::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{ConnectionExt as _, Window};

use super::wayland::WaylandTarget;
use super::{DisplayRefreshError, RandrModeTiming, ScreenArea};

/// The window system the window is on.
#[derive(Debug)]
pub(super) enum PlatformTarget {
    X11(X11Target),
    Wayland(WaylandTarget),
}

impl PlatformTarget {
    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the platform modules that can fail here"
    )]
    pub(super) fn from_raw(
        window_handle: RawWindowHandle,
        display_handle: RawDisplayHandle,
    ) -> Result<Option<Self>, DisplayRefreshError> {
        let window = match window_handle {
            RawWindowHandle::Xlib(handle) => Window::try_from(handle.window).ok(),
            RawWindowHandle::Xcb(handle) => Some(handle.window.get()),
            // The handles' pointers are not kept: the query asks over its own connection.
            RawWindowHandle::Wayland(_) => {
                return Ok(matches!(display_handle, RawDisplayHandle::Wayland(_))
                    .then(|| Self::Wayland(WaylandTarget::from_env())));
            }
            _ => None,
        };
        // Window 0 is `None` in X11: nothing to ask about.
        Ok(window.filter(|&id| id != 0).map(|window| {
            Self::X11(X11Target {
                display_name: std::env::var("DISPLAY").ok(),
                window,
                area: None,
            })
        }))
    }

    pub(super) fn set_x11_display_name(&mut self, display_name: String) {
        if let Self::X11(target) = self {
            target.display_name = Some(display_name);
        }
    }

    pub(super) fn set_wayland_display_name(&mut self, display_name: String) {
        if let Self::Wayland(target) = self {
            target.set_display_name(display_name);
        }
    }

    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the macOS module, which cannot place an area"
    )]
    pub(super) fn at_area(&self, area: ScreenArea) -> Option<Self> {
        Some(match self {
            Self::X11(target) => Self::X11(X11Target {
                area: Some(Rect {
                    x: area.x,
                    y: area.y,
                    width: i32::try_from(area.width).unwrap_or(i32::MAX),
                    height: i32::try_from(area.height).unwrap_or(i32::MAX),
                }),
                ..target.clone()
            }),
            Self::Wayland(target) => Self::Wayland(target.clone()),
        })
    }

    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        match self {
            Self::X11(target) => target.refresh_hz(),
            Self::Wayland(target) => target.refresh_hz(),
        }
    }
}

/// An X11 window on a named (or `DISPLAY`'s) server.
#[derive(Clone, Debug)]
pub(super) struct X11Target {
    display_name: Option<String>,
    /// The window, or for an area query the window whose root the area is on.
    window: Window,
    /// Set: the display under this root-window rectangle, not under the window.
    area: Option<Rect>,
}

impl X11Target {
    fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        let (connection, _screen) =
            x11rb::connect(self.display_name.as_deref()).map_err(|cause| {
                DisplayRefreshError::X11Connect {
                    display_name: self.display_name.clone(),
                    cause: Box::new(cause),
                }
            })?;
        if connection
            .extension_information(randr::X11_EXTENSION_NAME)
            .map_err(request_error)?
            .is_none()
        {
            // A server without RandR has no mode timings to offer.
            return Ok(None);
        }
        // The server treats clients that never announced a version as RandR 1.0 clients.
        let version = connection
            .randr_query_version(1, 3)
            .map_err(request_error)?
            .reply()
            .map_err(request_error)?;
        if (version.major_version, version.minor_version) < (1, 3) {
            return Ok(None);
        }

        let geometry = connection
            .get_geometry(self.window)
            .map_err(request_error)?
            .reply()
            .map_err(request_error)?;
        let window_rect = if let Some(area) = self.area {
            area
        } else {
            let origin = connection
                .translate_coordinates(self.window, geometry.root, 0, 0)
                .map_err(request_error)?
                .reply()
                .map_err(request_error)?;
            Rect {
                x: i32::from(origin.dst_x),
                y: i32::from(origin.dst_y),
                width: i32::from(geometry.width),
                height: i32::from(geometry.height),
            }
        };

        let resources = connection
            .randr_get_screen_resources_current(geometry.root)
            .map_err(request_error)?
            .reply()
            .map_err(request_error)?;
        // Send every CRTC request before waiting for the first reply: one round trip, not N.
        let crtc_cookies = resources
            .crtcs
            .iter()
            .map(|&crtc| connection.randr_get_crtc_info(crtc, resources.config_timestamp))
            .collect::<Result<Vec<_>, _>>()
            .map_err(request_error)?;

        let mut best: Option<(i64, randr::Mode)> = None;
        for cookie in crtc_cookies {
            let crtc = cookie.reply().map_err(request_error)?;
            if crtc.mode == 0 {
                continue; // disabled CRTC
            }
            let crtc_rect = Rect {
                x: i32::from(crtc.x),
                y: i32::from(crtc.y),
                width: i32::from(crtc.width),
                height: i32::from(crtc.height),
            };
            let overlap = window_rect.overlap_area(&crtc_rect);
            if overlap > 0 && best.is_none_or(|(best_overlap, _)| overlap > best_overlap) {
                best = Some((overlap, crtc.mode));
            }
        }
        let Some((_, mode_id)) = best else {
            return Ok(None); // the window is on no active CRTC (off-screen, or all disabled)
        };
        Ok(resources
            .modes
            .iter()
            .find(|mode| mode.id == mode_id)
            .and_then(|mode| timing_of(mode).refresh_hz()))
    }
}

fn timing_of(mode: &randr::ModeInfo) -> RandrModeTiming {
    RandrModeTiming {
        dot_clock_hz: mode.dot_clock,
        htotal_pixels: mode.htotal,
        vtotal_lines: mode.vtotal,
        interlace: mode.mode_flags.contains(randr::ModeFlag::INTERLACE),
        double_scan: mode.mode_flags.contains(randr::ModeFlag::DOUBLE_SCAN),
    }
}

fn request_error(cause: impl Error + Send + Sync + 'static) -> DisplayRefreshError {
    DisplayRefreshError::X11Request(Box::new(cause))
}

/// A rectangle in root-window pixels.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x: i32,
    y: i32,
    width: i32,
    height: i32,
}

impl Rect {
    fn overlap_area(&self, other: &Self) -> i64 {
        let width = (self.x + self.width).min(other.x + other.width) - self.x.max(other.x);
        let height = (self.y + self.height).min(other.y + other.height) - self.y.max(other.y);
        if width <= 0 || height <= 0 {
            0
        } else {
            i64::from(width) * i64::from(height)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rect;

    fn rect(x: i32, y: i32, width: i32, height: i32) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn overlap_counts_the_shared_pixels() {
        let left_monitor = rect(0, 0, 1920, 1080);
        let right_monitor = rect(1920, 0, 2560, 1440);
        let window = rect(1800, 100, 400, 300);
        assert_eq!(window.overlap_area(&left_monitor), 120 * 300);
        assert_eq!(window.overlap_area(&right_monitor), 280 * 300);
        assert_eq!(rect(-500, -500, 100, 100).overlap_area(&left_monitor), 0);
        assert_eq!(rect(1920, 0, 10, 10).overlap_area(&left_monitor), 0);
    }
}
