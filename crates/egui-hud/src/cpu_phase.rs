use crate::cpu_phases::PhaseSource;
use crate::frame_phases::PhaseStart;
use crate::frame_plugin::FramePlugin;

/// Times one named phase of the app's frame until it is dropped:
///
/// ```
/// # let ctx = egui::Context::default();
/// let _physics = egui_hud::cpu_phase(&ctx, "physics");
/// // … the work, shown under PHASES while the HUD is shown …
/// ```
///
/// See [`crate::CpuPhases`] for what a phase counts towards and its cost. Inert (nothing is
/// timed) while the HUD is hidden.
#[must_use = "the phase ends when this guard is dropped: bind it with `let _name = …`"]
pub struct CpuPhase<'a> {
    running: Option<Running<'a>>,
}

struct Running<'a> {
    recorder: PhaseSource<'a>,
    name: &'static str,
    started: PhaseStart,
    inside: bool,
}

impl<'a> CpuPhase<'a> {
    pub(crate) fn inert() -> Self {
        Self { running: None }
    }

    pub(crate) fn running(
        recorder: PhaseSource<'a>,
        name: &'static str,
        started: PhaseStart,
        inside: bool,
    ) -> Self {
        Self {
            running: Some(Running {
                recorder,
                name,
                started,
                inside,
            }),
        }
    }
}

impl Drop for CpuPhase<'_> {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            running
                .recorder
                .finish(running.name, running.started, running.inside);
        }
    }
}

impl std::fmt::Debug for CpuPhase<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuPhase")
            .field("name", &self.running.as_ref().map(|r| r.name))
            .finish()
    }
}

/// Times the phase `name` of the current viewport's frame until the returned guard is dropped
/// (see [`CpuPhase`]). Cost: a lock of the HUD's plugin to find the viewport's
/// [`crate::CpuPhases`] (use that handle in hot code), then as [`crate::CpuPhases::start`].
pub fn cpu_phase(ctx: &egui::Context, name: &'static str) -> CpuPhase<'static> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| {
        plugin
            .hud(viewport)
            .map_or_else(CpuPhase::inert, |hud| hud.phases.start_owned(name))
    })
    .unwrap_or_else(CpuPhase::inert)
}
