use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// A measured correspondence between the GPU clock and the CPU's [`Instant`] clock (`web_time`'s
/// `Instant` on wasm32, where std's panics).
///
/// Made by [`crate::GpuTimer::calibrate`], which brackets a GPU timestamp between two CPU clock
/// reads: the GPU stamp happened somewhere in that window, so mapped times are good to
/// ± [`Self::uncertainty`]. The two clocks drift apart over time (measure it with
/// [`Self::drift_nanos`]), so recalibrate every few seconds. Plain data; mapping is O(1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockCalibration {
    gpu_nanos: u64,
    cpu_midpoint: Instant,
    half_window: Duration,
}

impl ClockCalibration {
    /// Pairs a GPU reading with the CPU bracket `[cpu_before, cpu_after]` known to contain it.
    pub fn from_bracket(gpu_nanos: u64, cpu_before: Instant, cpu_after: Instant) -> Self {
        let half_window = cpu_after.saturating_duration_since(cpu_before) / 2;
        Self {
            gpu_nanos,
            cpu_midpoint: cpu_before + half_window,
            half_window,
        }
    }

    /// The GPU clock reading, in nanoseconds (period applied).
    pub fn gpu_nanos(&self) -> u64 {
        self.gpu_nanos
    }

    /// The CPU instant taken to coincide with [`Self::gpu_nanos`]: the bracket's midpoint.
    pub fn cpu_instant(&self) -> Instant {
        self.cpu_midpoint
    }

    /// Half the bracket: the most a mapped time can be off (plus drift since calibrating).
    pub fn uncertainty(&self) -> Duration {
        self.half_window
    }

    /// Time since this calibration was taken.
    pub fn age(&self) -> Duration {
        self.cpu_midpoint.elapsed()
    }

    /// Maps a GPU-clock time (e.g. [`crate::GpuPassResult::begin_gpu_nanos`]) to a CPU
    /// [`Instant`]; `None` if the result is not representable.
    pub fn gpu_to_cpu(&self, gpu_nanos: u64) -> Option<Instant> {
        if gpu_nanos >= self.gpu_nanos {
            self.cpu_midpoint
                .checked_add(Duration::from_nanos(gpu_nanos - self.gpu_nanos))
        } else {
            self.cpu_midpoint
                .checked_sub(Duration::from_nanos(self.gpu_nanos - gpu_nanos))
        }
    }

    /// How far this calibration's mapping is off at `later`'s sample, in nanoseconds: positive
    /// when the CPU clock ran ahead of the GPU clock. Divide by the time between the two to get
    /// the drift rate.
    pub fn drift_nanos(&self, later: &Self) -> i128 {
        let cpu_delta = signed_nanos_between(self.cpu_midpoint, later.cpu_midpoint);
        let gpu_delta = i128::from(later.gpu_nanos) - i128::from(self.gpu_nanos);
        cpu_delta - gpu_delta
    }
}

/// `to - from` in signed nanoseconds.
fn signed_nanos_between(from: Instant, to: Instant) -> i128 {
    if to >= from {
        i128::try_from(to.duration_since(from).as_nanos()).unwrap_or(i128::MAX)
    } else {
        -i128::try_from(from.duration_since(to).as_nanos()).unwrap_or(i128::MAX)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::ClockCalibration;

    #[test]
    fn mapping_and_drift_follow_the_bracket() {
        let before = Instant::now();
        let after = before + Duration::from_micros(60);
        let cal = ClockCalibration::from_bracket(1_000_000_000, before, after);
        assert_eq!(cal.uncertainty(), Duration::from_micros(30));
        assert_eq!(
            cal.gpu_to_cpu(1_000_000_000),
            Some(before + Duration::from_micros(30))
        );
        assert_eq!(
            cal.gpu_to_cpu(1_000_001_000),
            Some(before + Duration::from_micros(31))
        );
        assert_eq!(
            cal.gpu_to_cpu(999_999_000),
            Some(before + Duration::from_micros(29))
        );

        // One second later the CPU clock advanced 2 µs more than the GPU clock.
        let later = ClockCalibration::from_bracket(
            2_000_000_000,
            before + Duration::from_micros(1_000_002),
            before + Duration::from_micros(1_000_062),
        );
        assert_eq!(cal.drift_nanos(&later), 2_000);
        assert_eq!(later.drift_nanos(&cal), -2_000);
    }
}
