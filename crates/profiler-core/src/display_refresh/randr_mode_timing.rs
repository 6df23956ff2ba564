//! The refresh-rate arithmetic of an X11 RandR mode, kept free of X11 types so it is testable
//! everywhere.

/// The timing fields of an X11 RandR mode (`xcb_randr_mode_info_t`) that decide its refresh rate.
///
/// Plain data: build it from a mode as the server reports it. Default: all zero (a mode with no
/// timings, like Xvfb's, whose rate is unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandrModeTiming {
    /// Pixel clock in Hz (RandR's `dot_clock`).
    pub dot_clock_hz: u32,
    /// Total pixels per scan line, blanking included (`htotal`).
    pub htotal_pixels: u16,
    /// Total lines per frame, blanking included (`vtotal`).
    pub vtotal_lines: u16,
    /// The mode is interlaced (`RR_Interlace`): each refresh scans half the lines.
    pub interlace: bool,
    /// The mode is double-scanned (`RR_DoubleScan`): each line is scanned twice.
    pub double_scan: bool,
}

impl RandrModeTiming {
    /// Refresh rate of this mode in Hz, as `xrandr` prints it: `dot_clock / (htotal × vtotal)`,
    /// where `vtotal` is doubled for double-scan and halved for interlace (so an interlaced mode
    /// reports its field rate, as `xrandr` does).
    ///
    /// `None` when a timing is zero: Xvfb's only mode has no timings, and its rate is unknown
    /// rather than 0. Cost: a few floating-point operations.
    pub fn refresh_hz(&self) -> Option<f64> {
        // Same order of operations as xrandr's `mode_refresh`, in f64, so that the figures agree
        // to the last digit `xrandr --verbose` prints.
        let mut vtotal_lines = f64::from(self.vtotal_lines);
        if self.double_scan {
            vtotal_lines *= 2.0;
        }
        if self.interlace {
            vtotal_lines /= 2.0;
        }
        let htotal_pixels = f64::from(self.htotal_pixels);
        if self.dot_clock_hz == 0 || htotal_pixels == 0.0 || vtotal_lines == 0.0 {
            return None;
        }
        Some(f64::from(self.dot_clock_hz) / (htotal_pixels * vtotal_lines))
    }
}

#[cfg(test)]
mod tests {
    use super::RandrModeTiming;

    fn timing(dot_clock_hz: u32, htotal_pixels: u16, vtotal_lines: u16) -> RandrModeTiming {
        RandrModeTiming {
            dot_clock_hz,
            htotal_pixels,
            vtotal_lines,
            ..RandrModeTiming::default()
        }
    }

    fn assert_close(actual: Option<f64>, expected_hz: f64) {
        let actual_hz = actual.expect("the mode has timings, so it has a rate");
        assert!(
            (actual_hz - expected_hz).abs() < 1e-9,
            "got {actual_hz} Hz, expected {expected_hz} Hz"
        );
    }

    #[test]
    fn cea_1080p60_is_exactly_60_hz() {
        // CEA-861 1920x1080@60: 148.5 MHz, 2200 x 1125.
        assert_close(timing(148_500_000, 2200, 1125).refresh_hz(), 60.0);
    }

    #[test]
    fn ntsc_style_1080p_is_59_94_hz() {
        // 148.5 MHz / 1.001 gives the 59.94 Hz variant.
        assert_close(
            timing(148_351_648, 2200, 1125).refresh_hz(),
            148_351_648.0 / (2200.0 * 1125.0),
        );
        let rate_hz = timing(148_351_648, 2200, 1125).refresh_hz().unwrap_or(0.0);
        assert!((rate_hz - 59.94).abs() < 0.001, "{rate_hz}");
    }

    #[test]
    fn cvt_1280x720_at_144_is_143_67_hz() {
        // `cvt 1280 720 144`: Modeline "1280x720_144.00" 198.75 1280 1384 1520 1760 720 723 728 786
        let rate_hz = timing(198_750_000, 1760, 786).refresh_hz().unwrap_or(0.0);
        assert_close(Some(rate_hz), 198_750_000.0 / (1760.0 * 786.0));
        assert!((rate_hz - 143.67).abs() < 0.005, "{rate_hz}");
    }

    #[test]
    fn interlace_doubles_the_rate() {
        // 1080i: 74.25 MHz, 2200 x 1125 lines per frame, two fields per frame: 60 fields/s.
        let interlaced = RandrModeTiming {
            interlace: true,
            ..timing(74_250_000, 2200, 1125)
        };
        assert_close(interlaced.refresh_hz(), 60.0);
    }

    #[test]
    fn double_scan_halves_the_rate() {
        // 320x200 double-scanned at 12.587 MHz, 400 x 449: 35.04 Hz, half of 70.08.
        let single = timing(12_587_000, 400, 449);
        let double = RandrModeTiming {
            double_scan: true,
            ..single
        };
        let single_hz = single.refresh_hz().unwrap_or(0.0);
        assert_close(double.refresh_hz(), single_hz / 2.0);
    }

    #[test]
    fn interlace_and_double_scan_cancel() {
        let both = RandrModeTiming {
            interlace: true,
            double_scan: true,
            ..timing(148_500_000, 2200, 1125)
        };
        assert_close(both.refresh_hz(), 60.0);
    }

    #[test]
    fn zero_timings_mean_unknown() {
        // Xvfb: `1920x1080 dot_clock=0 htotal=0 vtotal=0`.
        assert_eq!(RandrModeTiming::default().refresh_hz(), None);
        assert_eq!(timing(0, 2200, 1125).refresh_hz(), None);
        assert_eq!(timing(148_500_000, 0, 1125).refresh_hz(), None);
        assert_eq!(timing(148_500_000, 2200, 0).refresh_hz(), None);
    }

    #[test]
    fn one_line_interlaced_is_not_a_division_by_zero() {
        let odd = RandrModeTiming {
            interlace: true,
            ..timing(1000, 10, 1)
        };
        assert_close(odd.refresh_hz(), 200.0);
    }
}
