//! Where a per-process GPU busy share was read.

/// The platform counter behind a [`GpuUsageReading`](super::GpuUsageReading).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GpuUsageSource {
    /// Linux DRM client statistics of this process (`/proc/self/fdinfo`, `drm-engine-*` /
    /// `drm-cycles-*`): amdgpu, i915, xe, msm, panfrost/panthor, v3d and others.
    DrmFdinfo,
    /// NVIDIA's NVML per-process samples (`nvmlDeviceGetProcessUtilization`, SM share).
    Nvml,
    /// Windows PDH "GPU Engine" counters of this pid (`Utilization Percentage`, busiest engine
    /// type). Type-checked for Windows, never run.
    WindowsPdh,
    /// macOS `IORegistry`: the accumulated GPU time of this pid's `IOAccelerator` user clients.
    /// Type-checked for macOS, never run.
    MacIoRegistry,
}

impl GpuUsageSource {
    /// A short name for display, e.g. `"DRM fdinfo"`. Cost: none.
    pub fn name(self) -> &'static str {
        match self {
            Self::DrmFdinfo => "DRM fdinfo",
            Self::Nvml => "NVML",
            Self::WindowsPdh => "PDH",
            Self::MacIoRegistry => "IORegistry",
        }
    }
}
