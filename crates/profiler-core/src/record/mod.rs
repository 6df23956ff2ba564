//! The frame record: what is known about each counted frame after it ends (its phases, GPU
//! passes, latency marks and causes), the retained window and spikes, and the CSV and Chrome
//! trace writers. Start from [`frame_recorder::FrameRecorder`]. No egui: an integration
//! converts its own types (call sites, viewport names) at the boundary.
//!
//! Imports run one way: `frame_recorder` → `frame_log` / `frame_assembly` / `frame_end` →
//! `spike` → `frame_trace` → `frame_phases`; `retained_frames` writes what they hold.

pub mod export_format;
pub mod frame_assembly;
pub mod frame_end;
pub mod frame_log;
pub mod frame_phases;
pub mod frame_recorder;
pub mod frame_trace;
pub mod retained_frames;
pub mod spike;
pub mod spike_threshold;
pub mod wall_clock_anchor;
