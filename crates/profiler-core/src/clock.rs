use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// A source of monotonic time for the sampler.
///
/// Every timestamp in this crate is a [`Duration`] since the clock's own epoch, so a test can
/// drive the sampler with a [`ManualClock`](crate::ManualClock) and get exactly the same numbers on every run, while
/// the app uses [`MonotonicClock`](crate::MonotonicClock).
pub trait Clock: Send + Sync {
    /// The current time since this clock's epoch. Must never go backwards.
    fn now(&self) -> Duration;

    /// `instant` on this clock's time line, for marks taken as [`Instant`]s elsewhere (repaint
    /// requests, paint callbacks, GPU times placed through a calibration); `None` when this
    /// clock does not follow `Instant` (a manual clock): those marks are then unknown.
    /// Default `None`.
    fn time_of(&self, instant: Instant) -> Option<Duration> {
        let _ = instant;
        None
    }
}
