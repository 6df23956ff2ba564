//! NVIDIA: this process's samples from NVML (`libnvidia-ml`, loaded at run time).

use nvml_wrapper::Nvml;
use nvml_wrapper::error::NvmlError;

/// Per-device NVML sampling of this process's SM share.
#[derive(Default)]
pub(super) struct NvmlBackend {
    state: NvmlState,
    /// Per device index: the newest sample timestamp (µs) seen, to ask only for newer ones.
    last_seen_micros: Vec<Option<u64>>,
}

#[derive(Default)]
enum NvmlState {
    /// Not loaded yet: loading costs milliseconds, so it waits for the first sample.
    #[default]
    NotTried,
    Ready(Box<Nvml>),
    /// No NVIDIA driver (or it failed): never retried.
    Unavailable,
}

impl std::fmt::Debug for NvmlBackend {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.state {
            NvmlState::NotTried => "not tried",
            NvmlState::Ready(_) => "ready",
            NvmlState::Unavailable => "unavailable",
        };
        formatter
            .debug_struct("NvmlBackend")
            .field("state", &state)
            .finish_non_exhaustive()
    }
}

impl NvmlBackend {
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// The busiest NVIDIA GPU's SM share used by this process since the previous call, in
    /// percent; `None` when NVML is missing or this process uses no NVIDIA GPU.
    pub(super) fn sample(&mut self, _now_nanos: u64) -> Option<f64> {
        if matches!(self.state, NvmlState::NotTried) {
            self.state = match Nvml::init() {
                Ok(nvml) => NvmlState::Ready(Box::new(nvml)),
                Err(error) => {
                    log::info!("NVML is unavailable, so no NVIDIA per-process GPU use: {error}");
                    NvmlState::Unavailable
                }
            };
        }
        let NvmlState::Ready(nvml) = &self.state else {
            return None;
        };
        let pid = std::process::id();
        let device_count = nvml.device_count().ok()?;
        let device_count_usize = usize::try_from(device_count).ok()?;
        self.last_seen_micros.resize(device_count_usize, None);

        let mut busiest: Option<f64> = None;
        for (index, last_seen) in (0..device_count).zip(self.last_seen_micros.iter_mut()) {
            let Ok(device) = nvml.device_by_index(index) else {
                continue;
            };
            let samples = match device.process_utilization_stats(*last_seen) {
                Ok(samples) => samples,
                // No sample since `last_seen`: nothing ran, on this device, for anyone.
                Err(NvmlError::NotFound) => Vec::new(),
                Err(error) => {
                    log::debug!("NVML device {index}: no process utilization: {error}");
                    continue;
                }
            };
            // NVML sometimes returns samples older than asked for (nvtop #110): filter them.
            let newer = |timestamp: u64| last_seen.is_none_or(|seen| timestamp > seen);
            let own_util: Vec<u32> = samples
                .iter()
                .filter(|s| s.pid == pid && s.sm_util <= 100 && newer(s.timestamp))
                .map(|s| s.sm_util)
                .collect();
            if let Some(newest) = samples.iter().map(|s| s.timestamp).max() {
                *last_seen = Some(last_seen.map_or(newest, |seen| seen.max(newest)));
            }
            let share = if own_util.is_empty() {
                // No sample of ours: idle on this device if we hold a context there, else the
                // device is not ours and says nothing.
                let listed = |processes: Result<
                    Vec<nvml_wrapper::struct_wrappers::device::ProcessInfo>,
                    NvmlError,
                >| {
                    processes.is_ok_and(|list| list.iter().any(|p| p.pid == pid))
                };
                if listed(device.running_graphics_processes())
                    || listed(device.running_compute_processes())
                {
                    0.0
                } else {
                    continue;
                }
            } else {
                own_util.iter().map(|&u| f64::from(u)).sum::<f64>() / own_util.len() as f64
            };
            busiest = Some(busiest.map_or(share, |b: f64| b.max(share)));
        }
        busiest
    }
}
