//! macOS `IORegistry` accelerator clients: reading the creator string and turning accumulated GPU
//! time into a busy share.
//!
//! Pure (no `IOKit` calls), so it is compiled and unit-tested on every platform; the macOS source
//! (`mac_io_registry.rs`) feeds it what it reads from the registry.

use std::collections::HashMap;

/// The pid and process name of an `IOUserClientCreator` property, e.g. `"pid 1234, myapp"` →
/// `(1234, "myapp")`. The name may be absent (`"pid 1234"` → `(1234, "")`); it is everything
/// after the first comma, trimmed. `None` for anything that does not start with `pid <digits>`.
pub(super) fn parse_user_client_creator(creator: &str) -> Option<(u32, &str)> {
    let rest = creator.trim_start().strip_prefix("pid ")?;
    let (pid, name) = rest.split_once(',').unwrap_or((rest, ""));
    let pid = pid.trim();
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((pid.parse::<u32>().ok()?, name.trim()))
}

/// GPU time as a share of wall time, in percent: `busy_nanos ÷ wall_nanos × 100`, clamped to
/// `0.0..=100.0` (several queues of one process can overlap and add up to more than the wall
/// time). `None` when no wall time passed.
pub(super) fn gpu_time_percent(busy_nanos: u64, wall_nanos: u64) -> Option<f64> {
    if wall_nanos == 0 {
        return None;
    }
    Some((busy_nanos as f64 / wall_nanos as f64 * 100.0).clamp(0.0, 100.0))
}

/// Turns successive readings of this process's accelerator clients (registry entry id, summed
/// `accumulatedGPUTime` in ns) into the busy share since the previous reading.
///
/// Per client: Δ GPU ns between the two readings (0 when the counter went backwards); the deltas
/// are summed over the clients seen in both readings and divided by the Δ wall time. A client
/// seen for the first time only sets its baseline, so GPU time it accumulated before this
/// interval is not counted; a client that went away stops counting. Default: no baseline.
#[derive(Debug, Default)]
pub(super) struct GpuTimeTracker {
    previous: Option<GpuTimeBaseline>,
}

/// One reading: when it was taken and each client's accumulated GPU time.
#[derive(Debug)]
struct GpuTimeBaseline {
    now_nanos: u64,
    gpu_nanos: HashMap<u64, u64>,
}

impl GpuTimeTracker {
    /// Takes the clients as read at `now_nanos` (a monotonic clock) and answers the busy share,
    /// in percent, since the previous update. `None`: no baseline yet, no time passed, or no
    /// client present in both readings. A client listed twice counts once (the last value).
    pub(super) fn update(&mut self, clients: &[(u64, u64)], now_nanos: u64) -> Option<f64> {
        let current: HashMap<u64, u64> = clients.iter().copied().collect();
        let share = self.previous.as_ref().and_then(|previous| {
            let wall_nanos = now_nanos.checked_sub(previous.now_nanos)?;
            let mut busy_nanos = 0_u64;
            let mut any_known = false;
            for (client, &gpu_nanos) in &current {
                if let Some(&before) = previous.gpu_nanos.get(client) {
                    any_known = true;
                    busy_nanos = busy_nanos.saturating_add(gpu_nanos.saturating_sub(before));
                }
            }
            if any_known {
                gpu_time_percent(busy_nanos, wall_nanos)
            } else {
                None
            }
        });
        self.previous = Some(GpuTimeBaseline {
            now_nanos,
            gpu_nanos: current,
        });
        share
    }
}

#[cfg(test)]
mod tests {
    use super::{GpuTimeTracker, gpu_time_percent, parse_user_client_creator};

    const MS: u64 = 1_000_000;

    #[test]
    fn creator_strings() {
        assert_eq!(
            parse_user_client_creator("pid 1234, myapp"),
            Some((1234, "myapp"))
        );
        assert_eq!(
            parse_user_client_creator("pid 7, Google Chrome Helper (GPU)"),
            Some((7, "Google Chrome Helper (GPU)"))
        );
        assert_eq!(
            parse_user_client_creator("pid 7,a,b"),
            Some((7, "a,b")),
            "only the first comma separates"
        );
        assert_eq!(parse_user_client_creator("pid 42"), Some((42, "")));
        assert_eq!(parse_user_client_creator("pid , x"), None);
        assert_eq!(parse_user_client_creator("pid -1, x"), None);
        assert_eq!(parse_user_client_creator("pid 12x, x"), None);
        assert_eq!(parse_user_client_creator("PID 12, x"), None);
        assert_eq!(parse_user_client_creator("pid 99999999999, x"), None);
        assert_eq!(parse_user_client_creator(""), None);
    }

    #[test]
    fn percent_of_wall_time() {
        assert_eq!(gpu_time_percent(5 * MS, 20 * MS), Some(25.0));
        assert_eq!(gpu_time_percent(0, 20 * MS), Some(0.0));
        assert_eq!(
            gpu_time_percent(50 * MS, 20 * MS),
            Some(100.0),
            "overlapping queues are clamped"
        );
        assert_eq!(gpu_time_percent(5 * MS, 0), None);
    }

    #[test]
    fn the_first_reading_only_primes() {
        let mut tracker = GpuTimeTracker::default();
        assert_eq!(tracker.update(&[(1, 900 * MS)], 1_000 * MS), None);
        assert_eq!(
            tracker.update(&[(1, 1_000 * MS)], 1_500 * MS),
            Some(20.0),
            "100 ms of GPU time in 500 ms"
        );
    }

    #[test]
    fn clients_are_summed_and_new_ones_only_set_a_baseline() {
        let mut tracker = GpuTimeTracker::default();
        assert_eq!(tracker.update(&[(1, 0), (2, 0)], 0), None);
        // Client 3 appears with 10 s already accumulated: not part of this interval.
        let share = tracker.update(&[(1, 100 * MS), (2, 50 * MS), (3, 10_000 * MS)], 500 * MS);
        assert_eq!(share, Some(30.0));
        let share = tracker.update(&[(3, 10_100 * MS)], 1_000 * MS);
        assert_eq!(
            share,
            Some(20.0),
            "clients 1 and 2 went away; client 3 counts now"
        );
    }

    #[test]
    fn counters_going_backwards_count_zero() {
        let mut tracker = GpuTimeTracker::default();
        assert_eq!(tracker.update(&[(1, 500 * MS)], 0), None);
        assert_eq!(tracker.update(&[(1, 400 * MS)], 500 * MS), Some(0.0));
        assert_eq!(tracker.update(&[(1, 450 * MS)], 1_000 * MS), Some(10.0));
    }

    #[test]
    fn no_client_or_no_time_is_unavailable() {
        let mut tracker = GpuTimeTracker::default();
        assert_eq!(tracker.update(&[], 0), None);
        assert_eq!(tracker.update(&[], 500 * MS), None, "no client: not 0");
        assert_eq!(tracker.update(&[(1, 0)], 1_000 * MS), None, "new client");
        assert_eq!(
            tracker.update(&[(1, 10 * MS)], 1_000 * MS),
            None,
            "no time passed"
        );
        assert_eq!(
            tracker.update(&[(1, 10 * MS)], 900 * MS),
            None,
            "the clock went backwards"
        );
    }
}
