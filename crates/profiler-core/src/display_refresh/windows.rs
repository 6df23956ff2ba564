//! Windows: the window's monitor and its current display mode (GDI).
//!
//! Unverified: written against windows-sys 0.61 and Microsoft's documentation, type-checked for
//! `x86_64-pc-windows-msvc`, never run.
#![expect(
    unsafe_code,
    reason = "Win32 FFI: MonitorFromWindow, GetMonitorInfoW, EnumDisplaySettingsW"
)]

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};
use windows_sys::Win32::Graphics::Gdi::{
    DEVMODEW, ENUM_CURRENT_SETTINGS, EnumDisplaySettingsW, GetMonitorInfoW, MONITOR_DEFAULTTONULL,
    MONITORINFO, MONITORINFOEXW, MonitorFromWindow,
};

use super::DisplayRefreshError;

/// A window, by its `HWND` value (an integer, so the query stays `Send`).
#[derive(Debug)]
pub(super) struct PlatformTarget {
    hwnd: isize,
}

impl PlatformTarget {
    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the platform modules that can fail here"
    )]
    pub(super) fn from_raw(
        window_handle: RawWindowHandle,
        _display_handle: RawDisplayHandle,
    ) -> Result<Option<Self>, DisplayRefreshError> {
        Ok(match window_handle {
            RawWindowHandle::Win32(handle) => Some(Self {
                hwnd: handle.hwnd.get(),
            }),
            _ => None,
        })
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

    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        // SAFETY: MonitorFromWindow only reads the handle value; an HWND that no longer names a
        // window makes it return null (MONITOR_DEFAULTTONULL), which is handled below.
        let monitor = unsafe { MonitorFromWindow(self.hwnd as _, MONITOR_DEFAULTTONULL) };
        if monitor.is_null() {
            return Ok(None); // the window is on no monitor (minimised off-screen, or gone)
        }

        // SAFETY: MONITORINFOEXW is plain data (integers and a u16 array); all-zero is valid.
        let mut info: MONITORINFOEXW = unsafe { std::mem::zeroed() };
        info.monitorInfo.cbSize = u32_size_of::<MONITORINFOEXW>();
        // SAFETY: `monitor` came from MonitorFromWindow; `info` is a MONITORINFOEXW whose cbSize
        // says so, which GetMonitorInfoW accepts through a MONITORINFO pointer (documented).
        let ok = unsafe { GetMonitorInfoW(monitor, (&raw mut info).cast::<MONITORINFO>()) };
        if ok == 0 {
            return Err(DisplayRefreshError::Win32 {
                call: "GetMonitorInfoW",
            });
        }

        // SAFETY: DEVMODEW is plain data (integers, u16 arrays, unions of integers); all-zero is
        // valid.
        let mut mode: DEVMODEW = unsafe { std::mem::zeroed() };
        mode.dmSize = u16::try_from(size_of::<DEVMODEW>()).unwrap_or(u16::MAX);
        // SAFETY: `szDevice` is the NUL-terminated device name GetMonitorInfoW filled in; `mode`
        // is a DEVMODEW with dmSize set, as EnumDisplaySettingsW requires.
        let ok = unsafe {
            EnumDisplaySettingsW(info.szDevice.as_ptr(), ENUM_CURRENT_SETTINGS, &raw mut mode)
        };
        if ok == 0 {
            return Err(DisplayRefreshError::Win32 {
                call: "EnumDisplaySettingsW",
            });
        }
        // 0 and 1 mean "the hardware's default rate": unknown. The field is whole hertz, so a
        // 59.94 Hz mode reads 59 or 60 depending on the driver.
        Ok(match mode.dmDisplayFrequency {
            0 | 1 => None,
            rate_hz => Some(f64::from(rate_hz)),
        })
    }
}

/// `size_of::<T>()` as the `u32` Win32 size fields want (the structs are far below 4 GiB).
fn u32_size_of<T>() -> u32 {
    u32::try_from(size_of::<T>()).unwrap_or(u32::MAX)
}
