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
//! | Windows, macOS | PDH "GPU Engine", IORegistry `accumulatedGPUTime` | not implemented: `None` |

mod drm_fdinfo;
mod drm_usage_tracker;
mod gpu_usage_probe;
mod gpu_usage_reading;
mod gpu_usage_source;

#[cfg(target_os = "linux")]
mod drm_proc_scan;
#[cfg(target_os = "linux")]
use drm_proc_scan::DrmBackend;

#[cfg(feature = "nvml")]
mod nvml_backend;
#[cfg(feature = "nvml")]
use nvml_backend::NvmlBackend;

#[cfg(any(not(target_os = "linux"), not(feature = "nvml")))]
mod unsupported;
#[cfg(not(target_os = "linux"))]
use unsupported::Unsupported as DrmBackend;
#[cfg(not(feature = "nvml"))]
use unsupported::Unsupported as NvmlBackend;

pub use drm_fdinfo::{DrmEngineCounters, DrmFdinfo};
pub use drm_usage_tracker::DrmUsageTracker;
pub use gpu_usage_probe::GpuUsageProbe;
pub use gpu_usage_reading::GpuUsageReading;
pub use gpu_usage_source::GpuUsageSource;
