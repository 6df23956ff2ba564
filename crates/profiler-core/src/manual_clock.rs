use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::Clock;

/// A clock that moves only when told to: deterministic tests and replays.
///
/// Clones share the same time, so a test can keep one handle and give another to the code under
/// test.
#[derive(Clone, Debug, Default)]
pub struct ManualClock {
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock at time zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward by `step`. Saturates at `u64::MAX` nanoseconds (584 years).
    pub fn advance(&self, step: Duration) {
        let step = u64::try_from(step.as_nanos()).unwrap_or(u64::MAX);
        // fetch_update cannot fail with a closure that always returns Some.
        let _ = self
            .nanos
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(step))
            });
    }

    /// Sets the clock to `now`. Tests use this to replay recorded timestamps; setting it back in
    /// time is allowed here (it is how a test feeds bad input), real clocks never do it.
    pub fn set(&self, now: Duration) {
        self.nanos.store(
            u64::try_from(now.as_nanos()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}
