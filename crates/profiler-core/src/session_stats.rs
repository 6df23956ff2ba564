use std::time::Duration;

use crate::frame_rate_lows::FrameRateLows;
use crate::interval_histogram::IntervalHistogram;

/// What the sampler keeps since it started (or was reset) about the frames wanted back to back:
/// their present intervals (the lows) and how late they were shown (the hitch ratio). Fixed
/// memory (the histogram, 4.6 KiB), O(1) per frame.
#[derive(Clone, Debug)]
pub(crate) struct SessionStats {
    intervals: IntervalHistogram,
    /// Σ (k − 1) · period over the intervals, `k = round(interval / period)`.
    hitch_nanos: u128,
    /// Σ intervals: the time spent animating back to back.
    animating_nanos: u128,
}

/// Intervals below which `0.1% LOW` would be a single frame's.
const LOW_0_1_MIN_INTERVALS: u64 = 1000;

impl SessionStats {
    pub(crate) fn new() -> Self {
        Self {
            intervals: IntervalHistogram::new(),
            hitch_nanos: 0,
            animating_nanos: 0,
        }
    }

    /// One present interval of a frame wanted right after the previous one, against the
    /// display's `period` (one refresh; the budget when the rate is unknown).
    pub(crate) fn record(&mut self, interval: Duration, period: Duration) {
        self.intervals.add(interval);
        self.animating_nanos += interval.as_nanos();
        if !period.is_zero() {
            let periods = (interval.as_secs_f64() / period.as_secs_f64()).round();
            if periods >= 2.0 {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a positive count of periods"
                )]
                let late = period.as_nanos() * (periods as u128 - 1);
                self.hitch_nanos += late;
            }
        }
    }

    pub(crate) fn lows(&self) -> Option<FrameRateLows> {
        let rate = |d: Duration| 1.0 / d.as_secs_f64().max(1e-9);
        let count = self.intervals.count();
        Some(FrameRateLows {
            intervals: count,
            avg_fps: rate(self.intervals.mean()?),
            low_1_percent_fps: rate(self.intervals.percentile(99.0)?),
            low_0_1_percent_fps: (count >= LOW_0_1_MIN_INTERVALS)
                .then(|| self.intervals.percentile(99.9).map(rate))
                .flatten(),
            slowest_1_percent_avg_fps: rate(self.intervals.mean_of_slowest(1.0)?),
        })
    }

    /// Milliseconds late per second spent animating back to back; `None` before any.
    pub(crate) fn hitch_ms_per_s(&self) -> Option<f64> {
        (self.animating_nanos > 0)
            .then(|| self.hitch_nanos as f64 / 1e6 / (self.animating_nanos as f64 / 1e9))
    }

    pub(crate) fn clear(&mut self) {
        self.intervals.clear();
        self.hitch_nanos = 0;
        self.animating_nanos = 0;
    }
}
