use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use puffin::{FrameData, FrameSinkId, GlobalProfiler, ScopeCollection, ScopeId};

use crate::phases::cpu_phases::CpuPhases;
use profiler_core::record::frame_phases::PhaseName;

/// The frame sink in puffin's global profiler, removed on drop.
pub(crate) struct PuffinBridge {
    sink: FrameSinkId,
}

impl PuffinBridge {
    /// Adds a sink that reads puffin's frames into `phases`.
    pub(crate) fn install(phases: CpuPhases) -> Self {
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
