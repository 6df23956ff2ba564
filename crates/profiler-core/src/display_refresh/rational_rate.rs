//! The platform-neutral half of the Windows `QueryDisplayConfig` probe: a display's rational
//! vertical sync rate and GDI device names. Compiled on every target for its unit tests.

/// Hertz from a `DISPLAYCONFIG_RATIONAL` (`60000/1001` is the 59.94 Hz that
/// `EnumDisplaySettingsW` rounds to 59 or 60). `None` for the `0/0` and `0/1` drivers leave
/// when they do not know, and for anything outside 1 Hz to 1 kHz, which no display runs at.
pub(super) fn rational_hz(numerator: u32, denominator: u32) -> Option<f64> {
    if denominator == 0 {
        return None;
    }
    let rate_hz = f64::from(numerator) / f64::from(denominator);
    (1.0..=1000.0).contains(&rate_hz).then_some(rate_hz)
}

/// Whether two NUL-terminated UTF-16 GDI device names (`\\.\DISPLAY1`) are the same: the
/// monitor's (`MONITORINFOEXW::szDevice`) and a display path's source
/// (`DISPLAYCONFIG_SOURCE_DEVICE_NAME::viewGdiDeviceName`). GDI compares them without case.
pub(super) fn gdi_names_match(a: &[u16], b: &[u16]) -> bool {
    let until_nul = |name: &[u16]| {
        let end = name.iter().position(|&c| c == 0).unwrap_or(name.len());
        String::from_utf16_lossy(&name[..end]).to_lowercase()
    };
    let a = until_nul(a);
    !a.is_empty() && a == until_nul(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(name: &str, len: usize) -> Vec<u16> {
        let mut wide: Vec<u16> = name.encode_utf16().collect();
        wide.resize(len, 0);
        wide
    }

    #[test]
    fn rational_rates_keep_their_fraction() {
        let ntsc = rational_hz(60_000, 1_001).expect("59.94 Hz");
        assert!((ntsc - 59.940_06).abs() < 1e-4, "{ntsc}");
        assert_eq!(rational_hz(144, 1), Some(144.0));
        assert_eq!(rational_hz(143_981, 1_000), Some(143.981));
        assert_eq!(rational_hz(0, 0), None);
        assert_eq!(rational_hz(0, 1), None);
        assert_eq!(rational_hz(1, 0), None);
        assert_eq!(rational_hz(u32::MAX, 1), None);
    }

    #[test]
    fn device_names_compare_up_to_nul_and_without_case() {
        // szDevice is 32 wide chars, viewGdiDeviceName 32 as well; both NUL-padded.
        assert!(gdi_names_match(
            &wide(r"\\.\DISPLAY1", 32),
            &wide(r"\\.\display1", 32)
        ));
        assert!(!gdi_names_match(
            &wide(r"\\.\DISPLAY1", 32),
            &wide(r"\\.\DISPLAY12", 32)
        ));
        assert!(
            !gdi_names_match(&wide("", 32), &wide("", 32)),
            "empty names match nothing"
        );
        // Garbage after the NUL is ignored.
        let mut dirty = wide(r"\\.\DISPLAY2", 32);
        dirty[20] = u16::from(b'x');
        assert!(gdi_names_match(&dirty, &wide(r"\\.\DISPLAY2", 32)));
    }
}
