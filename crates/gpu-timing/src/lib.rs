//! Stall-free GPU pass timing for wgpu: per-pass durations from timestamp queries, for a
//! performance HUD. Start from [`GpuTimer`].
//!
//! ```no_run
//! # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, view: &wgpu::TextureView) -> Result<(), gpu_timing::GpuTimingError> {
//! use gpu_timing::{GpuTimer, GpuTimerSettings};
//!
//! let timer = GpuTimer::new(device, queue, GpuTimerSettings::default())?; // once
//!
//! let mut encoder = device.create_command_encoder(&Default::default());
//! if let Some(frame) = timer.begin_frame() {
//!     let stamps = timer.pass_timestamps(frame, "scene");
//!     let _pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
//!         color_attachments: &[Some(wgpu::RenderPassColorAttachment {
//!             view,
//!             depth_slice: None,
//!             resolve_target: None,
//!             ops: wgpu::Operations::default(),
//!         })],
//!         timestamp_writes: stamps.as_ref().map(|s| s.render_pass_writes()),
//!         ..Default::default()
//!     });
//!     drop(_pass);
//!     timer.resolve_frame(frame, &mut encoder);
//! }
//! queue.submit([encoder.finish()]);
//!
//! // Every frame; results arrive about two frames late and never block.
//! timer.poll_results(|result| {
//!     for pass in &result.passes {
//!         println!("{}: {:.3} ms", pass.label, pass.duration_secs * 1e3);
//!     }
//! });
//! # Ok(()) }
//! ```
//!
//! The device must be created with the timestamp features ([`with_timestamp_features`]);
//! without them the timer is a no-op and [`GpuTimer::support`] says why.
//!
//! ## Feature flags
//!
//! | feature | default | what it adds | what it costs |
//! |---|---|---|---|
//! | `wgpu-profiler` | off | `GpuFrameResult::from_wgpu_profiler`: results timed with `wgpu-profiler` in this crate's form | `wgpu-profiler` and its dependencies |

mod calibration_probe;
mod clock_calibration;
mod frame_id;
mod frame_slot;
mod gpu_frame_result;
mod gpu_pass_result;
mod gpu_scope;
mod gpu_timer;
mod gpu_timer_settings;
mod gpu_timer_stats;
mod gpu_timing_error;
mod map_signal;
mod pass_timestamps;
mod readback_group;
mod timestamp_pair;
mod timestamp_support;
#[cfg(feature = "wgpu-profiler")]
mod wgpu_profiler_results;

pub use crate::clock_calibration::ClockCalibration;
pub use crate::frame_id::FrameId;
pub use crate::gpu_frame_result::GpuFrameResult;
pub use crate::gpu_pass_result::GpuPassResult;
pub use crate::gpu_scope::GpuScope;
pub use crate::gpu_timer::GpuTimer;
pub use crate::gpu_timer_settings::GpuTimerSettings;
pub use crate::gpu_timer_stats::GpuTimerStats;
pub use crate::gpu_timing_error::GpuTimingError;
pub use crate::pass_timestamps::PassTimestamps;
pub use crate::timestamp_pair::{TimestampPair, TimestampRejection};
pub use crate::timestamp_support::{TimestampSupport, required_features, with_timestamp_features};
