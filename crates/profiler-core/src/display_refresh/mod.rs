//! The refresh rate of the display a window is on, asked from the platform.
//!
//! The rate cannot be derived from present timings: present intervals are whole multiples of the
//! panel's period, so they only bound the rate from below. So the HUD asks the platform, and when
//! the platform cannot say, it says `None` rather than guessing.
//!
//! [`DisplayRefreshQuery`] is built from the window's handles (cheap, on the UI thread) and is
//! `Send`, so that [`DisplayRefreshQuery::refresh_hz`], which may take a server round trip, runs on
//! a background thread. The platform code behind it is picked here with `cfg`:
//!
//! | platform | source | answers |
//! |---|---|---|
//! | X11 (Xlib/Xcb handles) | RandR over an own connection: the CRTC overlapping the window (or the [`ScreenArea`]) most | exact mode rate; `None` under Xvfb |
//! | Wayland | every `wl_output`'s current mode over an own connection | one output's rate, or the rate all share (±0.01 Hz); else `None` |
//! | Windows | `MonitorFromWindow` (`MonitorFromRect` for an area) → `QueryDisplayConfig` path of that GDI device (else `EnumDisplaySettingsW`) | exact rational rate, else integer Hz (unverified) |
//! | macOS | `NSScreen` → `CGDisplayCopyDisplayMode`, `maximumFramesPerSecond` when 0 | (unverified); an area answers `None` |
//! | anything else | — | `None` |

mod display_refresh_error;
mod display_refresh_query;
mod randr_mode_timing;
#[cfg(any(windows, test))]
mod rational_rate;
mod screen_area;

#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod wayland;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod x11;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
use x11 as platform;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as platform;

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as platform;

#[cfg(not(any(
    all(unix, not(target_vendor = "apple"), not(target_os = "android")),
    windows,
    target_os = "macos"
)))]
mod unsupported;
#[cfg(not(any(
    all(unix, not(target_vendor = "apple"), not(target_os = "android")),
    windows,
    target_os = "macos"
)))]
use unsupported as platform;

pub use display_refresh_error::DisplayRefreshError;
pub use display_refresh_query::DisplayRefreshQuery;
pub use randr_mode_timing::RandrModeTiming;
pub use screen_area::ScreenArea;
