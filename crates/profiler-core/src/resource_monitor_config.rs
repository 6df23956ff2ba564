use std::time::Duration;

/// The shortest `sample_interval`: a faster probe would only measure itself.
pub(crate) const MIN_SAMPLE_INTERVAL: Duration = Duration::from_millis(10);
/// The most samples one averaging window may hold (the thread keeps them all).
pub(crate) const MAX_WINDOW_SAMPLES: u128 = 1024;

/// How the background resource thread samples. Plain data with documented defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceMonitorConfig {
    /// Time between samples. Default 250 ms. A sample costs about 15 µs for CPU and memory on
    /// Linux, plus the GPU-use probe (about 0.1 ms for DRM fdinfo, about 2 ms with NVML), all
    /// on the background thread.
    pub sample_interval: Duration,
    /// Readings are averaged over this window. Default 3 s.
    pub average_window: Duration,
    /// The thread stops when nobody asked for a reading for this long. Default 1 s.
    pub idle_timeout: Duration,
}

impl ResourceMonitorConfig {
    /// Checks that `sample_interval` is at least 10 ms, that the window holds between one and
    /// 1024 samples, and that `idle_timeout` is positive.
    ///
    /// # Errors
    /// A message naming the field, for logs.
    pub fn validate(&self) -> Result<(), &'static str> {
        if self.sample_interval < MIN_SAMPLE_INTERVAL {
            return Err("sample_interval must be at least 10 ms (default 250 ms)");
        }
        if self.average_window < self.sample_interval {
            return Err("average_window must hold at least one sample_interval (default 3 s)");
        }
        if self.average_window.as_nanos() / self.sample_interval.as_nanos() > MAX_WINDOW_SAMPLES {
            return Err(
                "average_window must hold at most 1024 sample_intervals (default 3 s of 250 ms)",
            );
        }
        if self.idle_timeout.is_zero() {
            return Err("idle_timeout must be positive (default 1 s)");
        }
        Ok(())
    }
}

impl Default for ResourceMonitorConfig {
    fn default() -> Self {
        Self {
            sample_interval: Duration::from_millis(250),
            average_window: Duration::from_secs(3),
            idle_timeout: Duration::from_secs(1),
        }
    }
}
