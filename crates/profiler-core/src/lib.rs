//! Frame sampling, frame-time statistics and process probes for an in-window performance HUD.
//!
//! Start with [`FrameSampler`]: feed it one [`FrameRecord`] per frame and read a [`Snapshot`]
//! of the readouts (FRAME, P95, DROP, INV, FPS, INTERVAL, MAX FPS) whenever the display
//! refreshes. [`ResourceMonitor`] samples this process's CPU and memory on a background thread.
//! No egui, no wgpu: this crate is the numbers, `egui-hud` draws them. [`record`] keeps what is
//! known about each counted frame after it ends (phases, GPU passes, latency marks, causes,
//! spikes) and writes it as CSV or a Chrome trace.
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use profiler_core::{FrameRecord, FrameSampler, ManualClock, SamplerConfig};
//!
//! let clock = ManualClock::new();
//! let config = SamplerConfig { warmup_frames: 0, ..SamplerConfig::default() };
//! let mut sampler = FrameSampler::new(config, Arc::new(clock.clone()))?;
//! for _ in 0..10 {
//!     let draw_start = profiler_core::Clock::now(&clock);
//!     clock.advance(Duration::from_millis(4));
//!     let draw_end = profiler_core::Clock::now(&clock);
//!     sampler.record_frame(FrameRecord {
//!         draw_start,
//!         draw_end,
//!         present: Some(draw_end),
//!         ..FrameRecord::default()
//!     });
//!     clock.advance(Duration::from_millis(12)); // idle until the next frame
//! }
//! let snapshot = sampler.snapshot();
//! assert_eq!(snapshot.frame, Some(Duration::from_millis(4)));
//! assert_eq!(snapshot.p95, Some(Duration::from_millis(4)));
//! assert_eq!(snapshot.drop, Some(0.0));
//! # Ok::<(), profiler_core::ConfigError>(())
//! ```
//!
//! ## Feature flags
//!
//! | feature | default | what it adds | what it costs |
//! |---|---|---|---|
//! | `nvml` | off | NVIDIA per-process GPU use (`GpuUsageProbe` through NVML) | `nvml-wrapper`; the NVML library is loaded at run time, so a machine without an NVIDIA driver only loses that source |

mod benchmark_comparison;
mod benchmark_summary;
mod bound;
mod clock;
mod config_error;
mod display_refresh;
mod duration_reading;
mod frame_budget;
mod frame_rate_lows;
mod frame_record;
mod frame_sampler;
mod frame_verdict;
mod gpu_usage;
mod grade;
mod interval_histogram;
mod label_table;
mod latency_marks;
mod latency_path;
mod latency_reading;
mod latency_stage;
mod latency_total;
mod manual_clock;
mod memory_counter;
mod monotonic_clock;
mod nearest_rank;
mod pending_draw;
pub mod presentation;
mod presentation_reading;
mod presentation_stats;
mod process_probe;
pub mod record;
mod rejected_events;
mod resource_monitor;
mod resource_monitor_config;
mod resource_reading;
mod sample_ring;
mod sampler_config;
mod session_stats;
mod snapshot;
mod snapshot_parts;

pub use crate::benchmark_comparison::{BenchmarkComparison, MetricChange, Verdict};
pub use crate::benchmark_summary::{BenchmarkSummary, MillisPercentiles};
pub use crate::bound::Bound;
pub use crate::clock::Clock;
pub use crate::config_error::ConfigError;
pub use crate::display_refresh::{
    DisplayRefreshError, DisplayRefreshQuery, RandrModeTiming, ScreenArea,
};
pub use crate::duration_reading::DurationReading;
pub use crate::frame_budget::FrameBudget;
pub use crate::frame_rate_lows::FrameRateLows;
pub use crate::frame_record::{FrameOrigin, FrameRecord};
pub use crate::frame_sampler::FrameSampler;
pub use crate::frame_verdict::FrameVerdict;
pub use crate::gpu_usage::{
    DrmEngineCounters, DrmFdinfo, DrmUsageTracker, GpuUsageProbe, GpuUsageReading, GpuUsageSource,
};
pub use crate::grade::Grade;
pub use crate::latency_marks::LatencyMarks;
pub use crate::latency_reading::LatencyReading;
pub use crate::latency_stage::LatencyStage;
pub use crate::latency_total::{LatencyEnd, LatencyTotal};
pub use crate::manual_clock::ManualClock;
pub use crate::memory_counter::MemoryCounter;
pub use crate::monotonic_clock::MonotonicClock;
pub use crate::pending_draw::PendingDraw;
pub use crate::presentation_reading::PresentationReading;
pub use crate::process_probe::ProcessProbe;
pub use crate::rejected_events::RejectedEvents;
pub use crate::resource_monitor::ResourceMonitor;
pub use crate::resource_monitor_config::ResourceMonitorConfig;
pub use crate::resource_reading::ResourceReading;
pub use crate::sampler_config::SamplerConfig;
pub use crate::snapshot::{GpuBusySource, Snapshot};
pub use crate::snapshot_parts::SnapshotParts;
/// The `Instant` [`Clock::time_of`] takes: `std::time::Instant`, or `web_time::Instant` on
/// wasm32 (where std's panics).
#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
/// The wall clock: `std::time::SystemTime`, or `web_time::SystemTime` on wasm32.
#[cfg(not(target_arch = "wasm32"))]
pub use std::time::SystemTime;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::SystemTime;
