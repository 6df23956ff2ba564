//! This process's GPU busy share from platform counters, for the HUD's `GPU` row when the app
//! gives no GPU timestamps.
//!
//! [`GpuUsageProbe`] is the entry point. [`DrmFdinfo`] and [`DrmUsageTracker`] are its pure
//! Linux parts, public so that any driver's `fdinfo` text can be replayed.
//!
//! | platform | source | state |
//! |---|---|---|
//! | Linux (DRM drivers) | `/proc/self/fdinfo`: `drm-engine-*` ns, `drm-cycles-*`/`drm-total-cycles-*` | parser tested on fixtures |
//! | NVIDIA, feature `nvml` | `nvmlDeviceGetProcessUtilization`, this pid's SM share | run on an H200 |
//! | Windows | PDH `\GPU Engine(pid_<PID>_*)\Utilization Percentage`, busiest engine type | implemented, type-checked for the target, never run |
//! | macOS | `IORegistry`: `IOAccelerator` user clients of this pid, Δ`accumulatedGPUTime` ÷ Δwall | implemented, type-checked for the target, never run |
//!
//! The platform-independent parts of the Windows and macOS sources (instance-name and
//! creator-string parsing, grouping, the Δ arithmetic) are compiled and unit-tested everywhere.

mod drm_fdinfo;
mod drm_usage_tracker;
mod gpu_usage_probe;
mod gpu_usage_reading;
mod gpu_usage_source;

#[cfg(target_os = "linux")]
mod drm_proc_scan;
#[cfg(target_os = "linux")]
use drm_proc_scan::DrmBackend;

// NVML is a native library: the feature does nothing on wasm32.
#[cfg(all(feature = "nvml", not(target_arch = "wasm32")))]
mod nvml_backend;
#[cfg(all(feature = "nvml", not(target_arch = "wasm32")))]
use nvml_backend::NvmlBackend;

#[cfg(any(target_os = "windows", test))]
mod pdh_engine_instances;
#[cfg(target_os = "windows")]
mod windows_pdh;
#[cfg(target_os = "windows")]
use windows_pdh::PdhBackend;

#[cfg(any(target_os = "macos", test))]
mod mac_gpu_time;
#[cfg(target_os = "macos")]
mod mac_io_registry;
#[cfg(target_os = "macos")]
use mac_io_registry::IoRegistryBackend;

// Always used: no target has every source.
mod unsupported;
#[cfg(not(target_os = "linux"))]
use unsupported::Unsupported as DrmBackend;
#[cfg(not(target_os = "macos"))]
use unsupported::Unsupported as IoRegistryBackend;
#[cfg(any(not(feature = "nvml"), target_arch = "wasm32"))]
use unsupported::Unsupported as NvmlBackend;
#[cfg(not(target_os = "windows"))]
use unsupported::Unsupported as PdhBackend;

pub use drm_fdinfo::{DrmEngineCounters, DrmFdinfo};
pub use drm_usage_tracker::DrmUsageTracker;
pub use gpu_usage_probe::GpuUsageProbe;
pub use gpu_usage_reading::GpuUsageReading;
pub use gpu_usage_source::GpuUsageSource;
