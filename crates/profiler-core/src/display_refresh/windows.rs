//! Windows: the window's monitor, then the exact rate of its display path (`QueryDisplayConfig`,
//! Windows 7+), or the whole-hertz rate of its GDI mode when that fails.
//!
//! Unverified: written against windows-sys 0.61 and Microsoft's documentation, type-checked for
//! `x86_64-pc-windows-msvc`, never run.
#![expect(
    unsafe_code,
    reason = "Win32 FFI: MonitorFromWindow, MonitorFromRect, GetMonitorInfoW, QueryDisplayConfig, \
              DisplayConfigGetDeviceInfo, EnumDisplaySettingsW"
)]

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};
use windows_sys::Win32::Devices::Display::{
    DISPLAYCONFIG_DEVICE_INFO_GET_SOURCE_NAME, DISPLAYCONFIG_MODE_INFO,
    DISPLAYCONFIG_MODE_INFO_TYPE_TARGET, DISPLAYCONFIG_PATH_INFO, DISPLAYCONFIG_SOURCE_DEVICE_NAME,
    DisplayConfigGetDeviceInfo, GetDisplayConfigBufferSizes, QDC_ONLY_ACTIVE_PATHS,
    QueryDisplayConfig,
};
use windows_sys::Win32::Foundation::{ERROR_INSUFFICIENT_BUFFER, ERROR_SUCCESS, RECT};
use windows_sys::Win32::Graphics::Gdi::{
    DEVMODEW, ENUM_CURRENT_SETTINGS, EnumDisplaySettingsW, GetMonitorInfoW, MONITOR_DEFAULTTONULL,
    MONITORINFO, MONITORINFOEXW, MonitorFromRect, MonitorFromWindow,
};

use super::rational_rate::{gdi_names_match, rational_hz};
use super::{DisplayRefreshError, ScreenArea};

/// Tries of `QueryDisplayConfig`: the topology can change between sizing the buffers and
/// filling them (`ERROR_INSUFFICIENT_BUFFER`), which a retry with new sizes handles.
const QUERY_DISPLAY_CONFIG_TRIES: usize = 3;

/// A window, by its `HWND` value (an integer, so the query stays `Send`), or an area of the
/// virtual screen.
#[derive(Debug)]
pub(super) struct PlatformTarget {
    hwnd: isize,
    /// Set: the monitor under this area, not under the window.
    area: Option<ScreenArea>,
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
                area: None,
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

    #[expect(
        clippy::unnecessary_wraps,
        reason = "same signature as the macOS module, which cannot place an area"
    )]
    pub(super) fn at_area(&self, area: ScreenArea) -> Option<Self> {
        Some(Self {
            hwnd: self.hwnd,
            area: Some(area),
        })
    }

    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        let monitor = match self.area {
            Some(area) => {
                let rect = RECT {
                    left: area.x,
                    top: area.y,
                    right: area
                        .x
                        .saturating_add(i32::try_from(area.width).unwrap_or(i32::MAX)),
                    bottom: area
                        .y
                        .saturating_add(i32::try_from(area.height).unwrap_or(i32::MAX)),
                };
                // SAFETY: MonitorFromRect only reads the rectangle; an area on no monitor makes
                // it return null (MONITOR_DEFAULTTONULL), which is handled below.
                unsafe { MonitorFromRect(&raw const rect, MONITOR_DEFAULTTONULL) }
            }
            // SAFETY: MonitorFromWindow only reads the handle value; an HWND that no longer
            // names a window makes it return null (MONITOR_DEFAULTTONULL), handled below.
            None => unsafe { MonitorFromWindow(self.hwnd as _, MONITOR_DEFAULTTONULL) },
        };
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

        if let Some(rate_hz) = display_path_rate_hz(&info.szDevice) {
            return Ok(Some(rate_hz));
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

/// The exact rate of the active display path whose source is the GDI device `device_name`:
/// its target mode's vertical sync (a rational, e.g. 60000/1001), else the path's own rate.
/// `None` when the query fails or no path matches; the caller falls back to the GDI mode. A
/// cloned desktop (one source on two panels) answers its first path's rate.
fn display_path_rate_hz(device_name: &[u16]) -> Option<f64> {
    let (paths, modes) = active_display_config()?;
    paths.iter().find_map(|path| {
        let source = source_device_name(path)?;
        if !gdi_names_match(&source, device_name) {
            return None;
        }
        // SAFETY: reading a union of two u32 views; without QDC_VIRTUAL_MODE_AWARE it holds
        // `modeInfoIdx` (an index into `modes`, or 0xffffffff when there is none).
        let mode_index = unsafe { path.targetInfo.Anonymous.modeInfoIdx };
        let target_rate = usize::try_from(mode_index)
            .ok()
            .and_then(|i| modes.get(i))
            .filter(|mode| mode.infoType == DISPLAYCONFIG_MODE_INFO_TYPE_TARGET)
            .and_then(|mode| {
                // SAFETY: infoType says the union holds a target mode.
                let vsync = unsafe { mode.Anonymous.targetMode.targetVideoSignalInfo.vSyncFreq };
                rational_hz(vsync.Numerator, vsync.Denominator)
            });
        let path_rate = path.targetInfo.refreshRate;
        target_rate.or_else(|| rational_hz(path_rate.Numerator, path_rate.Denominator))
    })
}

/// The active display paths and their modes, or `None` if Windows would not say.
fn active_display_config() -> Option<(Vec<DISPLAYCONFIG_PATH_INFO>, Vec<DISPLAYCONFIG_MODE_INFO>)> {
    for _ in 0..QUERY_DISPLAY_CONFIG_TRIES {
        let (mut path_count, mut mode_count) = (0_u32, 0_u32);
        // SAFETY: two valid out-pointers to u32.
        let sized = unsafe {
            GetDisplayConfigBufferSizes(
                QDC_ONLY_ACTIVE_PATHS,
                &raw mut path_count,
                &raw mut mode_count,
            )
        };
        if sized != ERROR_SUCCESS {
            return None;
        }
        let mut paths = vec![DISPLAYCONFIG_PATH_INFO::default(); usize::try_from(path_count).ok()?];
        let mut modes = vec![DISPLAYCONFIG_MODE_INFO::default(); usize::try_from(mode_count).ok()?];
        // SAFETY: the arrays hold `path_count` and `mode_count` elements, the counts Windows
        // reads as capacities and overwrites with what it filled; the topology id may be null
        // without QDC_DATABASE_CURRENT.
        let queried = unsafe {
            QueryDisplayConfig(
                QDC_ONLY_ACTIVE_PATHS,
                &raw mut path_count,
                paths.as_mut_ptr(),
                &raw mut mode_count,
                modes.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        match queried {
            ERROR_SUCCESS => {
                paths.truncate(usize::try_from(path_count).ok()?);
                modes.truncate(usize::try_from(mode_count).ok()?);
                return Some((paths, modes));
            }
            ERROR_INSUFFICIENT_BUFFER => {} // a display came or went: size again
            _ => return None,
        }
    }
    None
}

/// The GDI device name (`\\.\DISPLAY1`) of a path's source.
fn source_device_name(path: &DISPLAYCONFIG_PATH_INFO) -> Option<[u16; 32]> {
    let mut name = DISPLAYCONFIG_SOURCE_DEVICE_NAME::default();
    name.header.r#type = DISPLAYCONFIG_DEVICE_INFO_GET_SOURCE_NAME;
    name.header.size = u32_size_of::<DISPLAYCONFIG_SOURCE_DEVICE_NAME>();
    name.header.adapterId = path.sourceInfo.adapterId;
    name.header.id = path.sourceInfo.id;
    // SAFETY: the header is the first field of a DISPLAYCONFIG_SOURCE_DEVICE_NAME whose size and
    // type it states, as DisplayConfigGetDeviceInfo requires.
    let status = unsafe { DisplayConfigGetDeviceInfo(&raw mut name.header) };
    // The return value is a Win32 error code as i32; 0 is ERROR_SUCCESS.
    (status == 0).then_some(name.viewGdiDeviceName)
}

/// `size_of::<T>()` as the `u32` Win32 size fields want (the structs are far below 4 GiB).
fn u32_size_of<T>() -> u32 {
    u32::try_from(size_of::<T>()).unwrap_or(u32::MAX)
}
