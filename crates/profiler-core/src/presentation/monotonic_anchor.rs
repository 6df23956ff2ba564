//! A window system's clock readings as [`Instant`]s.

use std::time::Duration;

use crate::Instant;

/// Places timestamps of a window system's clock on [`Instant`]'s time line, through one pair of
/// readings of both clocks taken back to back. On Linux `Instant` *is* `CLOCK_MONOTONIC`, so for
/// that clock the pair differs only by the time between the two reads (tens of nanoseconds).
/// `CLOCK_MONOTONIC_RAW` (weston's software clock) runs apart from it by the NTP slew, at most
/// 500 ppm: an anchor taken at each poll keeps that under 10 µs for a timestamp 20 ms old (40 µs
/// for one 80 ms old, read every fourth frame at 60 Hz). Built
/// on free Unix only, where the window systems that report presentations are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MonotonicAnchor {
    instant: Instant,
    monotonic_nanos: u128,
}

impl MonotonicAnchor {
    /// An anchor from `instant` and `monotonic_nanos`, read at the same moment.
    pub(crate) fn new(instant: Instant, monotonic_nanos: u128) -> Self {
        Self {
            instant,
            monotonic_nanos,
        }
    }

    /// The anchor for `clock` now.
    pub(crate) fn now(clock: rustix::time::ClockId) -> Self {
        let timespec = rustix::time::clock_gettime(clock);
        let instant = Instant::now();
        let seconds = u128::try_from(timespec.tv_sec).unwrap_or(0);
        let nanos = u128::try_from(timespec.tv_nsec).unwrap_or(0);
        Self::new(instant, seconds * 1_000_000_000 + nanos)
    }

    /// The instant of `monotonic_nanos`; `None` when it cannot be placed (before the process's
    /// `Instant` range).
    pub(crate) fn instant_of(self, monotonic_nanos: u128) -> Option<Instant> {
        if monotonic_nanos >= self.monotonic_nanos {
            let after = u64::try_from(monotonic_nanos - self.monotonic_nanos).ok()?;
            self.instant.checked_add(Duration::from_nanos(after))
        } else {
            let before = u64::try_from(self.monotonic_nanos - monotonic_nanos).ok()?;
            self.instant.checked_sub(Duration::from_nanos(before))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::MonotonicAnchor;
    use crate::Instant;

    #[test]
    fn timestamps_before_and_after_the_anchor_are_placed() {
        let instant = Instant::now();
        let anchor = MonotonicAnchor::new(instant, 5_000_000_000);
        assert_eq!(
            anchor.instant_of(5_002_000_000),
            Some(instant + Duration::from_millis(2))
        );
        assert_eq!(
            anchor
                .instant_of(4_999_000_000)
                .map(|i| instant.duration_since(i)),
            Some(Duration::from_millis(1))
        );
    }

    #[test]
    fn the_anchor_of_now_places_now_within_a_millisecond() {
        let anchor = MonotonicAnchor::now(rustix::time::ClockId::Monotonic);
        let later = MonotonicAnchor::now(rustix::time::ClockId::Monotonic);
        let placed = anchor.instant_of(later.monotonic_nanos).expect("placeable");
        let error = if placed > later.instant {
            placed - later.instant
        } else {
            later.instant - placed
        };
        assert!(error < Duration::from_millis(1), "off by {error:?}");
    }
}
