/// Everything that can go wrong in this crate; each message says how to fix it.
///
/// A device without timestamp features is *not* an error: [`crate::GpuTimer`] degrades to a
/// no-op and says so through [`crate::GpuTimer::support`].
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum GpuTimingError {
    /// A [`crate::GpuTimerSettings`] field is out of range.
    #[error(
        "invalid GpuTimerSettings.{field}: {problem}; fix the value or start from GpuTimerSettings::default()"
    )]
    InvalidSettings {
        /// The offending field.
        field: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },

    /// Calibration needs at least `TIMESTAMP_QUERY`.
    #[error(
        "clock calibration needs TIMESTAMP_QUERY on the device; create it with \
         gpu_timing::with_timestamp_features"
    )]
    CalibrationUnsupported,

    /// The timer was disposed; create a new one.
    #[error("the GpuTimer was disposed; create a new GpuTimer to time again")]
    Disposed,

    /// Waiting for the calibration submission failed or timed out.
    #[error(
        "waiting for the GPU failed during calibration ({0}); retry later, when the GPU is not saturated"
    )]
    PollFailed(String),

    /// The calibration readback could not be mapped.
    #[error("mapping the calibration readback failed ({0}); the device may be lost, recreate it")]
    MapFailed(String),

    /// Every calibration attempt produced an unusable timestamp.
    #[error(
        "no calibration attempt gave a usable GPU timestamp (zero or out of the CPU bracket); the \
         backend's timestamps are unreliable here (e.g. Metal on macOS 26 returns zeros)"
    )]
    NoUsableSample,
}
