//! This process's GPU use, from whichever platform counter has it.

use super::{
    DrmBackend, GpuUsageReading, GpuUsageSource, IoRegistryBackend, NvmlBackend, PdhBackend,
};

/// Samples this process's GPU busy share from the platform's per-process counters.
///
/// Sources, each asked at every sample where built in:
/// - Linux: the process's own DRM clients (`/proc/self/fdinfo`), for amdgpu, i915, xe, msm,
///   panfrost/panthor, v3d… (NVIDIA's proprietary driver has none);
/// - with the `nvml` feature: NVML's per-process samples on NVIDIA GPUs (Linux, Windows);
/// - Windows: PDH's `\GPU Engine(pid_<PID>_*)\Utilization Percentage`, summed per engine type,
///   the busiest type (to public knowledge what Task Manager shows; not confirmed);
/// - macOS: the `IORegistry` user clients of `IOAccelerator` services created by this pid,
///   Δ`accumulatedGPUTime` ÷ Δwall.
///
/// The Windows and macOS sources are type-checked for their targets but have never run.
///
/// When several answer (a laptop whose app runs on the NVIDIA GPU but whose Vulkan loader also
/// opened the integrated one), the busiest reading wins: the HUD shows the GPU the app loads.
///
/// Meant for a background thread at 2–4 Hz, not per frame: a sample costs one `readlink` per open
/// fd plus one small `/proc` read per DRM fd, and with NVML a few driver calls per NVIDIA GPU
/// (the first NVML sample also loads the library: milliseconds). On Windows one PDH collection;
/// on macOS a walk of the accelerators' children (a public note reports about 2 ms for 142
/// children on an M3 Max). `Send`, not `Sync`.
#[derive(Debug)]
pub struct GpuUsageProbe {
    drm: DrmBackend,
    nvml: NvmlBackend,
    pdh: PdhBackend,
    io_registry: IoRegistryBackend,
}

impl Default for GpuUsageProbe {
    fn default() -> Self {
        Self::new()
    }
}

impl GpuUsageProbe {
    /// A probe with no baseline. Cost: none (nothing is opened or loaded until the first sample).
    pub fn new() -> Self {
        Self {
            drm: DrmBackend::new(),
            nvml: NvmlBackend::new(),
            pdh: PdhBackend::new(),
            io_registry: IoRegistryBackend::new(),
        }
    }

    /// The busy share of this process's busiest GPU engine since the previous call;
    /// `now_nanos` is the caller's monotonic clock, used as the wall time of DRM counters.
    ///
    /// `None` means unavailable (no counter for this process, or no baseline yet: the first call
    /// usually answers `None`); show nothing rather than 0.
    pub fn sample(&mut self, now_nanos: u64) -> Option<GpuUsageReading> {
        let readings = [
            (self.drm.sample(now_nanos), GpuUsageSource::DrmFdinfo),
            (self.nvml.sample(now_nanos), GpuUsageSource::Nvml),
            (self.pdh.sample(now_nanos), GpuUsageSource::WindowsPdh),
            (
                self.io_registry.sample(now_nanos),
                GpuUsageSource::MacIoRegistry,
            ),
        ];
        // The busiest wins; on a tie, the earlier source.
        readings
            .into_iter()
            .filter_map(|(busy_percent, source)| {
                busy_percent.map(|busy_percent| GpuUsageReading {
                    busy_percent,
                    source,
                })
            })
            .reduce(|best, reading| {
                if reading.busy_percent > best.busy_percent {
                    reading
                } else {
                    best
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::GpuUsageProbe;

    #[test]
    fn the_probe_can_move_to_a_background_thread() {
        fn assert_send<T: Send>() {}
        assert_send::<GpuUsageProbe>();
    }

    #[test]
    fn sampling_without_a_gpu_is_unavailable_not_zero() {
        let mut probe = GpuUsageProbe::new();
        // Whatever the machine, a first DRM sample has no baseline, and no clock moved.
        let first = probe.sample(1_000_000_000);
        if let Some(reading) = first {
            assert!(
                (0.0..=100.0).contains(&reading.busy_percent),
                "a share: {reading:?}"
            );
        }
    }
}
