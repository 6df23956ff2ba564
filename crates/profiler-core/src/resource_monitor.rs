use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use crate::process_probe::ProcessProbe;
use crate::{Clock, MemoryCounter, MonotonicClock, ResourceMonitorConfig, ResourceReading};

/// This process's CPU, memory and GPU use, sampled on a named background thread
/// (`egui-hud-resources`) so the UI thread never pays for a probe.
///
/// The thread starts on the first [`ResourceMonitor::request`] and stops by itself once nobody
/// has asked for [`ResourceMonitorConfig::idle_timeout`] (1 s): a hidden HUD costs nothing. The
/// next request starts it again with a fresh average and, until that has a reading, answers the
/// last reading if it is younger than [`ResourceMonitorConfig::average_window`] (3 s): an app
/// whose frames come more than a second apart keeps its CPU and MEM rows. Clones share one
/// thread.
///
/// On wasm32 there is no thread and no process counter: every reading is empty.
#[derive(Clone)]
pub struct ResourceMonitor {
    shared: Arc<Shared>,
}

struct Shared {
    config: ResourceMonitorConfig,
    clock: MonotonicClock,
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    running: bool,
    last_request: Duration,
    reading: ResourceReading,
    /// When `reading` was taken; `None` before the first one.
    reading_at: Option<Duration>,
    spawn_failure_logged: bool,
}

#[derive(Clone, Copy)]
struct Sample {
    at: Duration,
    cpu_time: Option<Duration>,
    memory: Option<(u64, MemoryCounter)>,
    gpu_busy: Option<(f64, crate::GpuUsageSource)>,
}

impl ResourceMonitor {
    /// A monitor; no thread runs until the first request. An invalid config is replaced by the
    /// default (and logged), since a HUD must keep working.
    pub fn new(config: ResourceMonitorConfig) -> Self {
        let config = match config.validate() {
            Ok(()) => config,
            Err(reason) => {
                log::warn!(
                    "profiler-core: invalid ResourceMonitorConfig ({reason}); using the defaults"
                );
                ResourceMonitorConfig::default()
            }
        };
        Self {
            shared: Arc::new(Shared {
                config,
                clock: MonotonicClock::new(),
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
            }),
        }
    }

    /// The latest averaged reading; starts the sampling thread if it is not running.
    /// Cost on the caller's thread: one uncontended lock (well under a microsecond); the first
    /// call, and the first after the thread stopped, also spawns the thread under that lock.
    pub fn request(&self) -> ResourceReading {
        let now = self.shared.clock.now();
        let mut state = self.shared.state.lock();
        state.last_request = now;
        if !state.running && cfg!(not(target_arch = "wasm32")) {
            let shared = Arc::clone(&self.shared);
            let spawned = std::thread::Builder::new()
                .name("egui-hud-resources".to_owned())
                .spawn(move || sample_until_idle(&shared));
            match spawned {
                Ok(_) => state.running = true,
                Err(error) if !state.spawn_failure_logged => {
                    state.spawn_failure_logged = true;
                    log::warn!(
                        "profiler-core: cannot start the resource thread ({error}); CPU and memory readings stay empty"
                    );
                }
                Err(_) => {}
            }
        }
        let fresh = state
            .reading_at
            .is_some_and(|at| now.saturating_sub(at) <= self.shared.config.average_window);
        if fresh {
            state.reading
        } else {
            ResourceReading::default()
        }
    }

    /// Whether the sampling thread is running now.
    pub fn is_running(&self) -> bool {
        self.shared.state.lock().running
    }
}

impl Default for ResourceMonitor {
    fn default() -> Self {
        Self::new(ResourceMonitorConfig::default())
    }
}

impl std::fmt::Debug for ResourceMonitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceMonitor")
            .field("config", &self.shared.config)
            .field("running", &self.is_running())
            .finish()
    }
}

fn sample_until_idle(shared: &Shared) {
    let config = shared.config;
    let mut probe = ProcessProbe::new();
    let mut gpu = crate::GpuUsageProbe::new();
    // `validate` bounds this; the `min` keeps a bad config from reserving gigabytes anyway.
    let window_len = usize::try_from(
        (config.average_window.as_nanos() / config.sample_interval.as_nanos().max(1))
            .min(crate::resource_monitor_config::MAX_WINDOW_SAMPLES),
    )
    .unwrap_or(16)
        + 2;
    let mut window: VecDeque<Sample> = VecDeque::with_capacity(window_len);
    loop {
        let at = shared.clock.now();
        let gpu_reading = gpu.sample(u64::try_from(at.as_nanos()).unwrap_or(u64::MAX));
        window.push_back(Sample {
            at,
            cpu_time: probe.cpu_time(),
            memory: probe.memory(),
            gpu_busy: gpu_reading.map(|r| (r.busy_percent, r.source)),
        });
        while window
            .front()
            .is_some_and(|s| at.saturating_sub(s.at) > config.average_window)
        {
            window.pop_front();
        }
        let reading = average(&window);

        let mut state = shared.state.lock();
        // A fresh thread's first sample has no CPU interval yet: the last run's reading stays
        // until this one has something to say.
        if window.len() >= 2 || state.reading_at.is_none() {
            state.reading = reading;
            state.reading_at = Some(at);
        }
        if at.saturating_sub(state.last_request) > config.idle_timeout {
            state.running = false;
            return;
        }
        shared.wake.wait_for(&mut state, config.sample_interval);
    }
}

/// CPU % from the oldest and newest CPU times in the window; memory and GPU as plain means of
/// the samples from the newest sample's counter and source, so that a reading never averages
/// two different measures (RSS with RssAnon, DRM with NVML) or names one and shows another.
fn average(window: &VecDeque<Sample>) -> ResourceReading {
    let mut reading = ResourceReading::default();
    let cpu_samples = || window.iter().filter_map(|s| s.cpu_time.map(|t| (s.at, t)));
    if let (Some((t0, c0)), Some((t1, c1))) = (cpu_samples().next(), cpu_samples().next_back())
        && t1 > t0
    {
        reading.cpu_percent =
            Some(100.0 * c1.saturating_sub(c0).as_secs_f64() / t1.saturating_sub(t0).as_secs_f64());
    }
    if let Some(counter) = window.iter().rev().find_map(|s| s.memory.map(|(_, c)| c)) {
        let (sum, count) = window
            .iter()
            .filter_map(|s| s.memory)
            .filter(|&(_, c)| c == counter)
            .fold((0_u128, 0_u128), |(sum, n), (bytes, _)| {
                (sum + u128::from(bytes), n + 1)
            });
        reading.memory_bytes = sum.checked_div(count).and_then(|m| u64::try_from(m).ok());
        reading.memory_counter = Some(counter);
    }
    if let Some(source) = window.iter().rev().find_map(|s| s.gpu_busy.map(|(_, s)| s)) {
        let (sum, count) = window
            .iter()
            .filter_map(|s| s.gpu_busy)
            .filter(|&(_, s)| s == source)
            .fold((0.0, 0_u32), |(sum, n), (busy, _)| (sum + busy, n + 1));
        reading.gpu_busy_percent = Some(sum / f64::from(count.max(1)));
        reading.gpu_source = Some(source.name());
    }
    reading
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GpuUsageSource;

    fn sample(
        secs: u64,
        memory: (u64, MemoryCounter),
        gpu_busy: Option<(f64, GpuUsageSource)>,
    ) -> Sample {
        Sample {
            at: Duration::from_secs(secs),
            cpu_time: Some(Duration::from_millis(500 * secs)),
            memory: Some(memory),
            gpu_busy,
        }
    }

    #[test]
    fn a_reading_averages_only_the_newest_counter_and_source() {
        let window: VecDeque<Sample> = [
            sample(
                0,
                (900, MemoryCounter::ResidentSet),
                Some((90.0, GpuUsageSource::Nvml)),
            ),
            sample(
                1,
                (100, MemoryCounter::ResidentAnonymous),
                Some((10.0, GpuUsageSource::DrmFdinfo)),
            ),
            sample(
                2,
                (300, MemoryCounter::ResidentAnonymous),
                Some((30.0, GpuUsageSource::DrmFdinfo)),
            ),
            sample(3, (200, MemoryCounter::ResidentAnonymous), None),
        ]
        .into_iter()
        .collect();
        let reading = average(&window);
        assert_eq!(reading.cpu_percent, Some(50.0), "1.5 s of CPU over 3 s");
        assert_eq!(
            reading.memory_counter,
            Some(MemoryCounter::ResidentAnonymous)
        );
        assert_eq!(
            reading.memory_bytes,
            Some(200),
            "RSS left out of the RssAnon mean"
        );
        assert_eq!(reading.gpu_source, Some("DRM fdinfo"));
        assert_eq!(
            reading.gpu_busy_percent,
            Some(20.0),
            "NVML left out of the DRM mean"
        );
    }
}
