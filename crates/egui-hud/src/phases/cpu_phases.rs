use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use profiler_core::{Clock, Instant};

use profiler_core::record::frame_phases::{FramePhases, PhaseName, PhaseStart};

/// Times named phases of the app's frames for the HUD of one viewport: a handle to keep where
/// the hot code is, for [`CpuPhases::start`]. Get it with [`crate::cpu_phases`]; for an
/// occasional phase, [`crate::cpu_phase`] does the lookup for you.
///
/// A phase timed while the viewport's frame runs (between the HUD's input hook and its final
/// output hook) is a part of FRAME; one timed between two frames (an engine's simulation
/// before egui runs) is added to the CPU time of the frame before it. The HUD shows each
/// phase under `PHASES` (last, mean/max, a bar scaled to the budget), and the CPU total per
/// frame decides BOUND and MAX FPS against the GPU.
///
/// Phases are timed with `Instant`, or with the clock given to [`crate::FpsMonitor::clock`]
/// (tests and replays) when there is one.
///
/// Cost: while the HUD is hidden, one atomic load (the phase is not timed); while it is shown,
/// two `Instant` reads and one uncontended lock when the phase ends, measured in
/// `benches/cpu_phase.rs`. No allocation: names are `&'static str`, 8 per frame (further
/// names are counted, not shown: `Snapshot::cpu_phases_untracked` and the hover). Cloning the handle is an `Arc` clone.
///
/// ## Locking
/// One mutex, held for a few instructions when a phase ends and by the HUD's hooks; phases
/// may be timed on any thread.
#[derive(Clone, Default)]
pub struct CpuPhases {
    recorder: Arc<PhaseRecorder>,
}

#[derive(Default)]
pub(crate) struct PhaseRecorder {
    /// Whether the HUD samples this viewport: phases are timed only then.
    shown: AtomicBool,
    /// Whether the viewport's frame is running: phases started now are inside it. Written
    /// under `phases`' lock, read without it when a phase starts.
    in_frame: AtomicBool,
    /// Whether the HUD was given a clock of its own (`clock`); else phases read `Instant`,
    /// with no lock.
    custom_clock: AtomicBool,
    clock: RwLock<Option<Arc<dyn Clock>>>,
    phases: Mutex<RecordedPhases>,
}

#[derive(Default)]
struct RecordedPhases {
    inside: FramePhases,
    between: FramePhases,
    /// Phases another profiler measured (puffin's top-level scopes): shown, not added to the
    /// CPU time, since they overlap what the HUD measures.
    reported: FramePhases,
}

impl CpuPhases {
    /// Starts timing the phase `name`; it ends when the returned guard is dropped:
    /// `let _physics = phases.start("physics");`. Does nothing while the HUD is hidden.
    pub fn start(&self, name: &'static str) -> CpuPhase<'_> {
        self.recorder
            .start(PhaseSource::Borrowed(&self.recorder), name)
    }

    /// The HUD began sampling (with `custom_clock`, if it was given one), or stopped: either
    /// way no phase so far counts.
    pub(crate) fn set_shown(&self, shown: bool, custom_clock: Option<&Arc<dyn Clock>>) {
        *self.recorder.phases.lock() = RecordedPhases::default();
        *self.recorder.clock.write() = custom_clock.cloned();
        self.recorder
            .custom_clock
            .store(custom_clock.is_some(), Ordering::Relaxed);
        self.recorder.shown.store(shown, Ordering::Relaxed);
    }

    /// The viewport's frame begins: phases from now on are inside it.
    pub(crate) fn begin_frame(&self) {
        let _phases = self.recorder.phases.lock();
        self.recorder.in_frame.store(true, Ordering::Relaxed);
    }

    /// The viewport's frame ended: its phases, and phases from now on are between frames.
    /// Swapped into `inside`, not returned: a set is ~600 bytes, and most frames have none.
    pub(crate) fn end_frame(&self, inside: &mut FramePhases) {
        let mut phases = self.recorder.phases.lock();
        self.recorder.in_frame.store(false, Ordering::Relaxed);
        inside.clear();
        if !phases.inside.is_empty() {
            std::mem::swap(&mut phases.inside, inside);
        }
    }

    /// Adds the phases timed between the last frame's end and now, and those reported by
    /// another profiler since the last call, to `into`, and starts both sets over. Returns
    /// the phases' time between the frames and the names neither set had room for.
    pub(crate) fn drain_between_and_reported(&self, into: &mut FramePhases) -> (Duration, u32) {
        let mut phases = self.recorder.phases.lock();
        let RecordedPhases {
            between, reported, ..
        } = &mut *phases;
        let between_total = between.total();
        let overflow = between.overflow.saturating_add(reported.overflow);
        for set in [between, reported] {
            for phase in set.entries() {
                into.add_phase(phase);
            }
            set.clear();
        }
        (between_total, overflow)
    }

    /// Whether the HUD samples this viewport (phases are timed).
    #[cfg(feature = "puffin")]
    pub(crate) fn is_shown(&self) -> bool {
        self.recorder.shown.load(Ordering::Relaxed)
    }

    /// A phase another profiler measured (see [`crate::install_puffin`]); ignored while the
    /// HUD is hidden.
    #[cfg(feature = "puffin")]
    pub(crate) fn report(&self, name: PhaseName, duration: Duration) {
        if self.recorder.shown.load(Ordering::Relaxed) {
            self.recorder
                .phases
                .lock()
                .reported
                .add(name, duration, None);
        }
    }

    /// For `egui_hud::cpu_phase`, whose guard cannot borrow the handle.
    pub(crate) fn start_owned(&self, name: &'static str) -> CpuPhase<'static> {
        self.recorder
            .start(PhaseSource::Owned(Arc::clone(&self.recorder)), name)
    }
}

impl PhaseRecorder {
    fn start<'a>(&self, source: PhaseSource<'a>, name: &'static str) -> CpuPhase<'a> {
        if !self.shown.load(Ordering::Relaxed) {
            return CpuPhase::inert();
        }
        let inside = self.in_frame.load(Ordering::Relaxed);
        CpuPhase::running(source, name, self.now(), inside)
    }

    fn now(&self) -> PhaseStart {
        if self.custom_clock.load(Ordering::Relaxed)
            && let Some(clock) = &*self.clock.read()
        {
            return PhaseStart::Clock(clock.now());
        }
        PhaseStart::Instant(Instant::now())
    }

    /// A phase started at `started` ends now.
    pub(crate) fn finish(&self, name: &'static str, started: PhaseStart, inside: bool) {
        let duration = match (started, self.now()) {
            (PhaseStart::Clock(start), PhaseStart::Clock(end)) => end.saturating_sub(start),
            (PhaseStart::Instant(start), PhaseStart::Instant(end)) => {
                end.saturating_duration_since(start)
            }
            // The HUD changed clocks while the phase ran: it belongs to neither.
            _ => return,
        };
        let mut phases = self.phases.lock();
        // A phase that began inside a frame that has ended since belongs to no frame's draw;
        // it still cost the CPU, between frames.
        if inside && self.in_frame.load(Ordering::Relaxed) {
            phases
                .inside
                .add(PhaseName::Static(name), duration, Some(started));
        } else {
            phases
                .between
                .add(PhaseName::Static(name), duration, Some(started));
        }
    }
}

/// Where a running phase reports to: the app's handle, or a recorder found through the
/// context.
pub(crate) enum PhaseSource<'a> {
    Borrowed(&'a PhaseRecorder),
    Owned(Arc<PhaseRecorder>),
}

impl std::ops::Deref for PhaseSource<'_> {
    type Target = PhaseRecorder;

    fn deref(&self) -> &PhaseRecorder {
        match self {
            Self::Borrowed(recorder) => recorder,
            Self::Owned(recorder) => recorder,
        }
    }
}

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
    /// A guard that times nothing (the HUD is hidden).
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
