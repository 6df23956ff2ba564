use std::time::Duration;

/// A source of monotonic time for the sampler.
///
/// Every timestamp in this crate is a [`Duration`] since the clock's own epoch, so a test can
/// drive the sampler with a [`ManualClock`](crate::ManualClock) and get exactly the same numbers on every run, while
/// the app uses [`MonotonicClock`](crate::MonotonicClock).
pub trait Clock: Send + Sync {
    /// The current time since this clock's epoch. Must never go backwards.
    fn now(&self) -> Duration;
}
