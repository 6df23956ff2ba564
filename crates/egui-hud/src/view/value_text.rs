//! How the HUD writes its values: durations, milliseconds, percentages, sizes and frame rates,
//! each as a `Display` type, so that a refresh writes a row straight into the string it kept
//! from the last one (`write!`) instead of formatting pieces into strings of their own.

use std::fmt;
use std::time::Duration;

// Every type below rounds first and picks its unit and decimals from the rounded value, so a
// value just under a boundary reads as the next unit does (999.6 µs is `1.00 ms`, not
// `1000 µs`; 9.996 ms is `10.0 ms`, not `10.00 ms`): the rows keep their three digits and
// their width. Durations and sizes are whole numbers of nanoseconds and bytes, rounded half up
// in integers and written as integers (a float with a precision goes through core's exact
// decimal conversion, the larger part of formatting a row).

/// A duration in three significant digits, in the unit a person reads fastest:
/// `18 µs`, `4.21 ms`, `16.7 ms`, `250 ms`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DurationText(pub(crate) Duration);

impl fmt::Display for DurationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = rounded_ratio(self.0.as_nanos(), 1_000);
        if micros < 1_000 {
            write!(f, "{micros} µs")
        } else {
            write!(f, "{} ms", MillisText(self.0))
        }
    }
}

/// Milliseconds with three significant digits and no unit (`0.42`, `16.7`, `250`): a GPU
/// pass's or CPU phase's "last mean/max" share one unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MillisText(pub(crate) Duration);

impl fmt::Display for MillisText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nanos = self.0.as_nanos();
        let hundredths = rounded_ratio(nanos, 10_000);
        if hundredths < 1_000 {
            return write!(f, "{}.{:02}", hundredths / 100, hundredths % 100);
        }
        let tenths = rounded_ratio(nanos, 100_000);
        if tenths < 1_000 {
            write!(f, "{}.{}", tenths / 10, tenths % 10)
        } else {
            write!(f, "{}", rounded_ratio(nanos, 1_000_000))
        }
    }
}

/// A percentage: one decimal below 10 (`3.3 %`), none above (`150 %`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PercentText(pub(crate) f64);

impl fmt::Display for PercentText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match tenths_below_ten(self.0) {
            Some(Ok(tenths)) => write!(f, "{}.{} %", tenths / 10, tenths % 10),
            Some(Err(whole)) => write!(f, "{whole} %"),
            None if self.0 < 10.0 => write!(f, "{:.1} %", self.0),
            None => write!(f, "{:.0} %", self.0),
        }
    }
}

/// A size in MiB below a GiB (`85.0 MiB`), else in GiB (`3.00 GiB`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BytesText(pub(crate) u64);

impl fmt::Display for BytesText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: u128 = 1024 * 1024;
        let bytes = u128::from(self.0);
        let tenths_mib = rounded_ratio(bytes * 10, MIB);
        if tenths_mib < 10_240 {
            write!(f, "{}.{} MiB", tenths_mib / 10, tenths_mib % 10)
        } else {
            let hundredths_gib = rounded_ratio(bytes * 100, MIB * 1024);
            write!(
                f,
                "{}.{:02} GiB",
                hundredths_gib / 100,
                hundredths_gib % 100
            )
        }
    }
}

/// The big number: one decimal below 10 FPS (`7.5`), none above (`144`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FpsText(pub(crate) f64);

impl fmt::Display for FpsText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match tenths_below_ten(self.0) {
            Some(Ok(tenths)) => write!(f, "{}.{}", tenths / 10, tenths % 10),
            Some(Err(whole)) => write!(f, "{whole}"),
            None if self.0 < 10.0 => write!(f, "{:.1}", self.0),
            None => write!(f, "{:.0}", self.0),
        }
    }
}

/// `value / unit`, rounded half up.
fn rounded_ratio(value: u128, unit: u128) -> u128 {
    (value + unit / 2) / unit
}

/// A value in tenths when it rounds below 10 (`Ok`), else rounded to a whole number (`Err`),
/// halves away from zero; `None` for what integers do not hold (negative, not finite, from
/// 1e15), written as before.
fn tenths_below_ten(value: f64) -> Option<Result<u64, u64>> {
    const LARGEST: f64 = 1e15; // far past any rate or share, and exact in an f64
    if !(0.0..LARGEST).contains(&value) {
        return None;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "non-negative and below 1e16 after rounding: exact in a u64"
    )]
    let round = |x: f64| x.round() as u64;
    let tenths = round(value * 10.0);
    Some(if tenths < 100 {
        Ok(tenths)
    } else {
        Err(round(value))
    })
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

    #[test]
    fn a_value_rounding_up_to_a_boundary_reads_as_the_next_unit_does() {
        // Each written with three digits (or two below 10 FPS or %), never four: the
        // unit and decimals are picked after rounding.
        let nanos = Duration::from_nanos;
        assert_eq!(format_duration(nanos(999_600)), "1.00 ms");
        assert_eq!(format_duration(nanos(999_400)), "999 µs");
        assert_eq!(format_duration(nanos(9_996_000)), "10.0 ms");
        assert_eq!(format_duration(nanos(99_960_000)), "100 ms");
        assert_eq!(MillisText(nanos(9_996_000)).to_string(), "10.0");
        assert_eq!(MillisText(nanos(99_960_000)).to_string(), "100");
        assert_eq!(format_percent(9.96), "10 %");
        assert_eq!(FpsText(9.96).to_string(), "10");
        assert_eq!(FpsText(9.94).to_string(), "9.9");
        assert_eq!(format_bytes(1024 * 1024 * 1024 - 1024), "1.00 GiB");
        // Half up on the exact duration: 1.005 ms is not 1.00499… ms here.
        assert_eq!(format_duration(nanos(1_005_000)), "1.01 ms");
        // What integers do not hold is written as before.
        assert_eq!(FpsText(f64::NAN).to_string(), "NaN");
        assert_eq!(format_percent(-1.25), "-1.2 %");
        assert_eq!(FpsText(0.0).to_string(), "0.0");
        assert_eq!(FpsText(f64::INFINITY).to_string(), "inf");
        assert_eq!(FpsText(2e15).to_string(), "2000000000000000");
    }
}
