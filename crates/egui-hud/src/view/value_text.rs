//! How the HUD writes its values: durations, milliseconds, percentages, sizes and frame rates,
//! each as a `Display` type, so that a refresh writes a row straight into the string it kept
//! from the last one (`write!`) instead of formatting pieces into strings of their own.

use std::fmt;
use std::time::Duration;

/// A duration in three significant digits, in the unit a person reads fastest:
/// `18 µs`, `4.21 ms`, `16.7 ms`, `250 ms`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DurationText(pub(crate) Duration);

impl fmt::Display for DurationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = self.0.as_secs_f64() * 1e6;
        if micros < 1_000.0 {
            write!(f, "{micros:.0} µs")
        } else if micros < 10_000.0 {
            write!(f, "{:.2} ms", micros / 1e3)
        } else if micros < 100_000.0 {
            write!(f, "{:.1} ms", micros / 1e3)
        } else {
            write!(f, "{:.0} ms", micros / 1e3)
        }
    }
}

/// Milliseconds with three significant digits and no unit (`0.42`, `16.7`, `250`): a GPU
/// pass's or CPU phase's "last mean/max" share one unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MillisText(pub(crate) Duration);

impl fmt::Display for MillisText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0.as_secs_f64() * 1e3;
        if millis < 10.0 {
            write!(f, "{millis:.2}")
        } else if millis < 100.0 {
            write!(f, "{millis:.1}")
        } else {
            write!(f, "{millis:.0}")
        }
    }
}

/// A percentage: one decimal below 10 (`3.3 %`), none above (`150 %`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PercentText(pub(crate) f64);

impl fmt::Display for PercentText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let percent = self.0;
        if percent < 10.0 {
            write!(f, "{percent:.1} %")
        } else {
            write!(f, "{percent:.0} %")
        }
    }
}

/// A size in MiB below a GiB (`85.0 MiB`), else in GiB (`3.00 GiB`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BytesText(pub(crate) u64);

impl fmt::Display for BytesText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: f64 = 1024.0 * 1024.0;
        #[expect(
            clippy::cast_precision_loss,
            reason = "a size shown in three or four digits"
        )]
        let mib = self.0 as f64 / MIB;
        if mib < 1024.0 {
            write!(f, "{mib:.1} MiB")
        } else {
            write!(f, "{:.2} GiB", mib / 1024.0)
        }
    }
}

/// The big number: one decimal below 10 FPS (`7.5`), none above (`144`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FpsText(pub(crate) f64);

impl fmt::Display for FpsText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fps = self.0;
        if fps < 10.0 {
            write!(f, "{fps:.1}")
        } else {
            write!(f, "{fps:.0}")
        }
    }
}

/// [`DurationText`] as a string of its own (the hover text, which is built only when read).
pub(crate) fn format_duration(duration: Duration) -> String {
    DurationText(duration).to_string()
}

/// [`PercentText`] as a string of its own.
pub(crate) fn format_percent(percent: f64) -> String {
    PercentText(percent).to_string()
}

/// [`BytesText`] as a string of its own.
#[cfg(test)]
pub(crate) fn format_bytes(bytes: u64) -> String {
    BytesText(bytes).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_three_digits() {
        assert_eq!(format_duration(Duration::from_micros(18)), "18 µs");
        assert_eq!(format_duration(Duration::from_micros(4_213)), "4.21 ms");
        assert_eq!(format_duration(Duration::from_micros(16_667)), "16.7 ms");
        assert_eq!(format_duration(Duration::from_millis(250)), "250 ms");
        assert_eq!(MillisText(Duration::from_micros(420)).to_string(), "0.42");
        assert_eq!(
            MillisText(Duration::from_micros(16_667)).to_string(),
            "16.7"
        );
        assert_eq!(MillisText(Duration::from_millis(250)).to_string(), "250");
        assert_eq!(format_percent(3.33), "3.3 %");
        assert_eq!(format_percent(150.2), "150 %");
        assert_eq!(format_bytes(85 * 1024 * 1024), "85.0 MiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 * 1024), "3.00 GiB");
        assert_eq!(FpsText(7.46).to_string(), "7.5");
        assert_eq!(FpsText(143.6).to_string(), "144");
    }
}
