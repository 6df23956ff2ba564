//! The resource thread starts on demand, reads real numbers, and stops when nobody asks.

use std::time::{Duration, Instant};

use profiler_core::{ResourceMonitor, ResourceMonitorConfig};

fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

#[test]
fn thread_stops_within_a_second_of_the_last_request_and_restarts() {
    let monitor = ResourceMonitor::new(ResourceMonitorConfig::default());
    assert!(
        !monitor.is_running(),
        "nothing runs before the first request"
    );
    let _ = monitor.request();
    assert!(monitor.is_running());

    // Keep asking (as a shown HUD does every 500 ms) while burning CPU, so CPU reads non-zero.
    let start = Instant::now();
    let mut reading = monitor.request();
    while start.elapsed() < Duration::from_millis(1_200) {
        let mut x = 0_u64;
        for i in 0..200_000_u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        reading = monitor.request();
    }
    let cpu = reading.cpu_percent.expect("two samples after 1.2 s");
    assert!(
        cpu > 20.0 && cpu < 250.0,
        "a busy loop reads as busy: {cpu} %"
    );
    #[cfg(target_os = "linux")]
    assert_eq!(
        reading.memory_counter,
        Some(profiler_core::MemoryCounter::ResidentAnonymous)
    );
    assert!(reading.memory_bytes.is_some_and(|b| b > 0));

    // Stop asking: the thread must stop after ~1 s (idle timeout + at most one sample interval).
    let stopped_after = wait_until(Duration::from_secs(3), || !monitor.is_running())
        .expect("the resource thread stops by itself");
    assert!(
        stopped_after >= Duration::from_millis(700)
            && stopped_after <= Duration::from_millis(1_600),
        "stopped {stopped_after:?} after the last request"
    );
    assert!(
        monitor.request().cpu_percent.is_some(),
        "a restart within the 3 s averaging window answers the last reading (an app whose \
         frames come 1.5 s apart keeps its CPU row)"
    );
    assert!(monitor.is_running(), "a request restarts it");
}

#[test]
fn configs_that_would_spin_or_hoard_samples_are_refused() {
    let base = ResourceMonitorConfig::default();
    assert_eq!(base.validate(), Ok(()));
    let spin = ResourceMonitorConfig {
        sample_interval: Duration::from_nanos(1),
        ..base
    };
    assert!(spin.validate().is_err(), "1 ns would spin the thread");
    let hoard = ResourceMonitorConfig {
        sample_interval: Duration::from_millis(10),
        average_window: Duration::from_mins(1),
        ..base
    };
    assert!(hoard.validate().is_err(), "6000 samples per window");
    let most = ResourceMonitorConfig {
        sample_interval: Duration::from_millis(10),
        average_window: Duration::from_millis(10_240),
        ..base
    };
    assert_eq!(most.validate(), Ok(()), "1024 samples is the limit");
}
