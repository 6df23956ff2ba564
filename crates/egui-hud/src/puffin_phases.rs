use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use puffin::{FrameData, FrameSinkId, GlobalProfiler, ScopeCollection, ScopeId};

use crate::cpu_phases::CpuPhases;
use crate::frame_phases::PhaseName;
use crate::frame_plugin::FramePlugin;

/// Shows the top-level scopes of puffin's frames as CPU phases of the root viewport's HUD, so
/// an app instrumented with puffin (and egui's own `profiling` scopes, with its puffin backend
/// on) needs no second instrumentation. Behind the feature `puffin`.
///
/// Each finished puffin frame (`puffin::GlobalProfiler::new_frame`, which eframe calls through
/// `profiling::finish_frame!`) is read by a frame sink: the top-level scopes of every thread,
/// summed per scope name, go under `PHASES` with the next counted frame. They overlap what the
/// HUD measures (FRAME, the app's own phases), so they are shown but not added to the CPU time
/// per frame. Scopes are only recorded while puffin's scopes are on (`puffin::set_scopes_on`).
///
/// Cost: the sink runs on the thread that ends puffin's frame, reads the frame's streams (no
/// copy; puffin's own packing is off by default) and takes one lock per top-level scope;
/// measured in `benches/cpu_phase.rs`. While the HUD is hidden it reads nothing. Call it once;
/// a second call replaces the first sink. The sink is removed when the context is dropped.
pub fn install_puffin(ctx: &egui::Context) {
    let phases = FramePlugin::with(ctx, |plugin| {
        plugin.hud_mut(egui::ViewportId::ROOT).phases.clone()
    });
    let bridge = PuffinBridge::install(phases);
    FramePlugin::with(ctx, |plugin| plugin.puffin = Some(bridge));
}

/// The frame sink in puffin's global profiler, removed on drop.
pub(crate) struct PuffinBridge {
    sink: FrameSinkId,
}

impl PuffinBridge {
    fn install(phases: CpuPhases) -> Self {
        let reader = PuffinFrameReader::new(phases);
        let mut profiler = GlobalProfiler::lock();
        let sink = profiler.add_sink(Box::new(move |frame| reader.read(&frame)));
        // Scopes registered before the sink was added: their names come in the next frame.
        profiler.emit_scope_snapshot();
        Self { sink }
    }
}

impl Drop for PuffinBridge {
    fn drop(&mut self) {
        GlobalProfiler::lock().remove_sink(self.sink);
    }
}

/// Reads puffin's finished frames into the HUD's phases.
pub(crate) struct PuffinFrameReader {
    phases: CpuPhases,
    names: Mutex<ScopeNames>,
}

/// Scope details from the frames' scope deltas, and the names of the scopes seen so far as
/// shared strings (made once per scope).
#[derive(Default)]
struct ScopeNames {
    scopes: ScopeCollection,
    shared: Vec<(ScopeId, Arc<str>)>,
}

impl ScopeNames {
    fn name(&mut self, id: ScopeId) -> Option<Arc<str>> {
        if let Some((_, name)) = self.shared.iter().find(|(known, _)| *known == id) {
            return Some(Arc::clone(name));
        }
        let name: Arc<str> = Arc::from(self.scopes.fetch_by_id(&id)?.name().as_ref());
        self.shared.push((id, Arc::clone(&name)));
        Some(name)
    }
}

impl PuffinFrameReader {
    pub(crate) fn new(phases: CpuPhases) -> Self {
        Self {
            phases,
            names: Mutex::new(ScopeNames::default()),
        }
    }

    /// One finished frame: learns new scope names, then reports each top-level scope.
    pub(crate) fn read(&self, frame: &FrameData) {
        let mut names = self.names.lock();
        if frame.full_delta {
            *names = ScopeNames::default();
        }
        for details in &frame.scope_delta {
            names.scopes.insert(Arc::clone(details));
        }
        if !self.phases.is_shown() {
            return;
        }
        let Ok(unpacked) = frame.unpacked();
        for stream in unpacked.thread_streams.values() {
            for scope in puffin::Reader::from_start(&stream.stream) {
                let Ok(scope) = scope else {
                    break; // a damaged stream: what was read stays
                };
                // A scope whose details never came has no name to show.
                if let Some(name) = names.name(scope.id) {
                    let nanos = u64::try_from(scope.record.duration_ns).unwrap_or(0);
                    self.phases
                        .report(PhaseName::Shared(name), Duration::from_nanos(nanos));
                }
            }
        }
    }
}
