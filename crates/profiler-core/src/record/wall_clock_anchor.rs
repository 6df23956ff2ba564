//! Frames' wall-clock times from their times on the recording clock.

use std::time::Duration;

use crate::SystemTime;

/// A time on the recording clock and the wall clock read with it: a frame's wall-clock end is
/// placed from its end on the recording clock by one addition, not read per frame (a
/// `SystemTime::now()` a frame was about 2 % of the HUD's own time in the demo, its code
/// and data cold after the app's drawing). Take it again now and then (the HUD does at each
/// refresh, twice a second): a step of the wall clock (NTP, the user) then shows within that,
/// and the two clocks' drift (a few hundred ppm at most) stays under a millisecond. Plain
/// data; free to copy.
#[derive(Clone, Copy, Debug)]
pub struct WallClockAnchor {
    clock_time: Duration,
    wall_clock: SystemTime,
}

impl WallClockAnchor {
    /// Reads the wall clock now, for `clock_time`, the recording clock's time now. One
    /// `SystemTime::now()`.
    pub fn take(clock_time: Duration) -> Self {
        Self::at(clock_time, SystemTime::now())
    }

    /// The anchor of `clock_time` at `wall_clock` (read together).
    pub fn at(clock_time: Duration, wall_clock: SystemTime) -> Self {
        Self {
            clock_time,
            wall_clock,
        }
    }

    /// The wall-clock time of `clock_time`, before or after the anchor's; the anchor's own
    /// where the wall clock cannot hold it. Free.
    pub fn wall_clock_of(&self, clock_time: Duration) -> SystemTime {
        let placed = match clock_time.checked_sub(self.clock_time) {
            Some(after) => self.wall_clock.checked_add(after),
            None => self
                .wall_clock
                .checked_sub(self.clock_time.saturating_sub(clock_time)),
        };
        placed.unwrap_or(self.wall_clock)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::WallClockAnchor;
    use crate::SystemTime;

    #[test]
    fn times_before_and_after_the_anchor_are_placed_by_their_distance() {
        let wall = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let anchor = WallClockAnchor::at(Duration::from_secs(10), wall);
        assert_eq!(
            anchor.wall_clock_of(Duration::from_millis(10_250)),
            wall + Duration::from_millis(250)
        );
        assert_eq!(
            anchor.wall_clock_of(Duration::from_millis(9_990)),
            wall - Duration::from_millis(10)
        );
        let early = WallClockAnchor::at(Duration::from_secs(10), SystemTime::UNIX_EPOCH);
        assert!(
            early.wall_clock_of(Duration::ZERO) <= SystemTime::UNIX_EPOCH,
            "no panic where the wall clock would go before its epoch"
        );
    }
}
