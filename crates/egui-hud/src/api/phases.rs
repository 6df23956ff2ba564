//! Where the app times its own phases: the two ways to get at the current viewport's
//! [`CpuPhases`].

use crate::phases::cpu_phases::{CpuPhase, CpuPhases};
use crate::plugin::frame_plugin::FramePlugin;

/// Times the phase `name` of the current viewport's frame until the returned guard is dropped
/// (see [`CpuPhase`]). Cost: a lock of the HUD's plugin to find the viewport's
/// [`CpuPhases`] (use that handle in hot code), then as [`CpuPhases::start`].
pub fn cpu_phase(ctx: &egui::Context, name: &'static str) -> CpuPhase<'static> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| {
        plugin
            .phases_if_used(viewport)
            .map_or_else(CpuPhase::inert, |phases| phases.start_owned(name))
    })
    .unwrap_or_else(CpuPhase::inert)
}

/// The phase handle of the current viewport's HUD (see [`CpuPhases`]). Keep it where the hot
/// code is; it stays valid while the HUD is hidden and shown again. Cost: a lock of the HUD's
/// plugin and an `Arc` clone.
pub fn cpu_phases(ctx: &egui::Context) -> CpuPhases {
    let viewport = ctx.viewport_id();
    FramePlugin::with(ctx, |plugin| plugin.phases_of(viewport))
}
