/// A raw begin/end pair of GPU timestamps, in device ticks, as read back from a query set.
///
/// [`Self::validate`] is the only way this crate turns ticks into a duration, so every delivered
/// duration has passed its checks. Plain data; validating costs a few arithmetic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampPair {
    /// Tick written when the pass or scope began.
    pub begin_ticks: u64,
    /// Tick written when the pass or scope ended.
    pub end_ticks: u64,
}

/// Why a [`TimestampPair`] was rejected; rejected pairs are counted, never shown.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum TimestampRejection {
    /// A timestamp is 0: the query was never written (skipped callback, unsubmitted pass) or the
    /// backend returns zeros (Metal on macOS 26).
    #[error("a timestamp is zero (never written, or the backend returns zeros)")]
    Unwritten,

    /// The end precedes the begin: a wrapped or reset clock, or commands reordered around the
    /// writes (seen on macOS and with wgpu's GL backend).
    #[error("the end timestamp precedes the begin timestamp")]
    Reversed,

    /// The same begin and end as this pair's previous use in its frame slot: real timestamps
    /// never repeat, so the GPU did not write it this time (a pass that never ran, or an
    /// encoder that was never submitted) and the resolve returned the old values.
    #[error("the pair repeats its previous frame's timestamps (not written this frame)")]
    Repeated,

    /// The queue reported no usable timestamp period (0, negative or not finite).
    #[error("the queue's timestamp period is unusable")]
    NoPeriod,

    /// Longer than the plausibility limit.
    #[error("duration {duration_secs} s exceeds the plausible limit of {limit_secs} s")]
    Implausible {
        /// The computed duration.
        duration_secs: f64,
        /// The limit it broke.
        limit_secs: f64,
    },
}

impl TimestampPair {
    /// Converts the pair to seconds with `period_nanos` (`Queue::get_timestamp_period`),
    /// rejecting anything not believable.
    ///
    /// A zero-length pass is accepted: coarse timers (Chrome quantises to 100 µs) legitimately
    /// produce it.
    ///
    /// # Errors
    /// The [`TimestampRejection`] describing the first failed check, in the order: unwritten,
    /// no period, reversed, implausible (longer than `max_duration_secs`, or a limit that is NaN).
    pub fn validate(
        self,
        period_nanos: f32,
        max_duration_secs: f64,
    ) -> Result<f64, TimestampRejection> {
        if self.begin_ticks == 0 || self.end_ticks == 0 {
            return Err(TimestampRejection::Unwritten);
        }
        if !(period_nanos.is_finite() && period_nanos > 0.0) {
            return Err(TimestampRejection::NoPeriod);
        }
        let Some(ticks) = self.end_ticks.checked_sub(self.begin_ticks) else {
            return Err(TimestampRejection::Reversed);
        };
        let duration_secs = ticks as f64 * f64::from(period_nanos) * 1e-9;
        // A NaN limit compares as nothing: it rejects rather than lets everything through.
        let plausible = matches!(
            duration_secs.partial_cmp(&max_duration_secs),
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
        );
        if !plausible {
            return Err(TimestampRejection::Implausible {
                duration_secs,
                limit_secs: max_duration_secs,
            });
        }
        Ok(duration_secs)
    }
}

/// Converts device ticks to nanoseconds of the GPU clock without `f64` rounding of large values
/// (GPU clocks read ~1.8e18 ns on NVIDIA, beyond `f64`'s exact integers).
pub(crate) fn ticks_to_gpu_nanos(ticks: u64, period_nanos: f32) -> u64 {
    if period_nanos == 1.0 {
        return ticks;
    }
    // 16 fractional bits keep the period within 1e-5 relative even for Intel Metal's 83.333.
    let period_fixed = (f64::from(period_nanos.max(0.0)) * 65_536.0).round();
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "non-negative, far below u128::MAX"
    )]
    let period_fixed = period_fixed as u128;
    u64::try_from((u128::from(ticks) * period_fixed) >> 16).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::{TimestampPair, TimestampRejection};

    fn pair(begin_ticks: u64, end_ticks: u64) -> TimestampPair {
        TimestampPair {
            begin_ticks,
            end_ticks,
        }
    }

    #[test]
    fn good_pair_uses_the_period() {
        let secs = pair(1_000, 3_000).validate(1.0, 1.0).unwrap();
        assert!((secs - 2e-6).abs() < 1e-15, "1 ns ticks: {secs}");
        // Intel Metal's period: 83.333 ns per tick.
        let secs = pair(10, 22).validate(83.333, 1.0).unwrap();
        assert!(
            (secs - 12.0 * 83.333e-9).abs() < 1e-12,
            "83.333 ns ticks: {secs}"
        );
        assert_eq!(pair(5, 5).validate(1.0, 1.0), Ok(0.0));
    }

    #[test]
    fn a_nan_limit_rejects_instead_of_accepting_everything() {
        assert!(matches!(
            pair(1_000, 3_000).validate(1.0, f64::NAN),
            Err(TimestampRejection::Implausible { .. })
        ));
    }

    #[test]
    fn crafted_bad_pairs_are_rejected() {
        assert_eq!(
            pair(0, 5).validate(1.0, 1.0),
            Err(TimestampRejection::Unwritten)
        );
        assert_eq!(
            pair(5, 0).validate(1.0, 1.0),
            Err(TimestampRejection::Unwritten)
        );
        assert_eq!(
            pair(0, 0).validate(1.0, 1.0),
            Err(TimestampRejection::Unwritten)
        );
        assert_eq!(
            pair(10, 9).validate(1.0, 1.0),
            Err(TimestampRejection::Reversed)
        );
        // A wrapped 36-bit clock looks reversed.
        assert_eq!(
            pair((1 << 36) - 10, 20).validate(1.0, 1.0),
            Err(TimestampRejection::Reversed)
        );
        assert_eq!(
            pair(1, 2).validate(0.0, 1.0),
            Err(TimestampRejection::NoPeriod)
        );
        assert_eq!(
            pair(1, 2).validate(f32::NAN, 1.0),
            Err(TimestampRejection::NoPeriod)
        );
        // vello#475-style garbage: hours long.
        match pair(1, 7_200_000_000_000).validate(1.0, 1.0) {
            Err(TimestampRejection::Implausible {
                duration_secs,
                limit_secs,
            }) => {
                assert!((duration_secs - 7200.0).abs() < 1e-6, "{duration_secs}");
                assert_eq!(limit_secs, 1.0);
            }
            other => panic!("expected Implausible, got {other:?}"),
        }
        // Just over a tighter, frame-interval-derived limit.
        assert!(
            pair(1, 20_000_002).validate(1.0, 0.02).is_err(),
            "20 ms + 1 ns > 20 ms"
        );
        assert!(
            pair(1, 20_000_001).validate(1.0, 0.02).is_ok(),
            "exactly 20 ms is allowed"
        );
    }
}
