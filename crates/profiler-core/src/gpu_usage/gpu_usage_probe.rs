//! This process's GPU use, from whichever platform counter has it.

use super::{DrmBackend, GpuUsageReading, GpuUsageSource, NvmlBackend};

/// Samples this process's GPU busy share from the platform's per-process counters.
///
/// Sources, each asked at every sample where built in:
/// - Linux: the process's own DRM clients (`/proc/self/fdinfo`), for amdgpu, i915, xe, msm,
///   panfrost/panthor, v3d… (NVIDIA's proprietary driver has none);
/// - with the `nvml` feature: NVML's per-process samples on NVIDIA GPUs (Linux, Windows);
/// - Windows PDH and macOS `IORegistry`: not implemented, those platforms answer `None` unless
///   NVML does.
///
/// When several answer (a laptop whose app runs on the NVIDIA GPU but whose Vulkan loader also
/// opened the integrated one), the busiest reading wins: the HUD shows the GPU the app loads.
///
/// Meant for a background thread at 2–4 Hz, not per frame: a sample costs one `readlink` per open
/// fd plus one small `/proc` read per DRM fd, and with NVML a few driver calls per NVIDIA GPU
/// (the first NVML sample also loads the library: milliseconds). `Send`, not `Sync`.
#[derive(Debug)]
pub struct GpuUsageProbe {
    drm: DrmBackend,
    nvml: NvmlBackend,
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
        }
    }

    /// The busy share of this process's busiest GPU engine since the previous call;
    /// `now_nanos` is the caller's monotonic clock, used as the wall time of DRM counters.
    ///
    /// `None` means unavailable (no counter for this process, or no baseline yet: the first call
    /// usually answers `None`); show nothing rather than 0.
    pub fn sample(&mut self, now_nanos: u64) -> Option<GpuUsageReading> {
        let drm = self
            .drm
            .sample(now_nanos)
            .map(|busy_percent| GpuUsageReading {
                busy_percent,
                source: GpuUsageSource::DrmFdinfo,
            });
        let nvml = self
            .nvml
            .sample(now_nanos)
            .map(|busy_percent| GpuUsageReading {
                busy_percent,
                source: GpuUsageSource::Nvml,
            });
        match (drm, nvml) {
            (Some(drm), Some(nvml)) if nvml.busy_percent > drm.busy_percent => Some(nvml),
            (Some(drm), _) => Some(drm),
            (None, nvml) => nvml,
        }
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
