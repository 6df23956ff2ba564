use std::borrow::Cow;
use std::time::Duration;

use profiler_core::{LatencyMarks, SystemTime};

use crate::frame_phases::FramePhases;

/// Repaint causes kept per frame, and discard reasons.
const MAX_CAUSES: usize = 4;

/// Everything the HUD learns about one counted frame, gathered over the frames that follow it
/// (its CPU time at the next frame, its GPU results a few frames later): what the retained
/// window, the spike recorder and the exports hold. Fixed size; names are shared, not copied.
#[derive(Clone, Debug)]
pub(crate) struct FrameTrace {
    /// The HUD's number for the frame.
    pub(crate) sequence: u64,
    /// When it ended, by the wall clock.
    pub(crate) wall_clock: SystemTime,
    pub(crate) marks: LatencyMarks,
    /// Its draw as FRAME counts it.
    pub(crate) draw: Duration,
    /// From the previous frame's hand-off to this one's, for a frame wanted back to back.
    pub(crate) handoff_interval: Option<Duration>,
    pub(crate) invalidations: u32,
    pub(crate) passes: u32,
    pub(crate) causes: FrameCauses,
    /// CPU time per frame and its phases, once reported.
    pub(crate) cpu: Option<(Duration, FramePhases)>,
    /// GPU time and passes, once the results arrived.
    pub(crate) gpu: Option<(Duration, FramePhases)>,
}

impl FrameTrace {
    pub(crate) fn new(sequence: u64, wall_clock: SystemTime) -> Self {
        Self {
            sequence,
            wall_clock,
            marks: LatencyMarks::default(),
            draw: Duration::ZERO,
            handoff_interval: None,
            invalidations: 0,
            passes: 0,
            causes: FrameCauses::default(),
            cpu: None,
            gpu: None,
        }
    }
}

/// A `request_repaint*` call site or a `request_discard` reason, as egui records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CauseSite {
    pub(crate) file: &'static str,
    pub(crate) line: u32,
    pub(crate) reason: Cow<'static, str>,
}

/// What woke a frame (the app's requests egui recorded since the previous pass, the HUD's own
/// left out) and why its passes were redone; the first few of each, in fixed slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct FrameCauses {
    woke_by: [Option<CauseSite>; MAX_CAUSES],
    discards: [Option<CauseSite>; MAX_CAUSES],
}

impl FrameCauses {
    pub(crate) fn clear(&mut self) {
        *self = Self::default();
    }

    pub(crate) fn add_woke_by(&mut self, cause: &egui::RepaintCause) {
        push_site(&mut self.woke_by, cause);
    }

    pub(crate) fn add_discard(&mut self, cause: &egui::RepaintCause) {
        push_site(&mut self.discards, cause);
    }

    pub(crate) fn woke_by(&self) -> impl Iterator<Item = &CauseSite> + '_ {
        self.woke_by.iter().flatten()
    }

    pub(crate) fn discards(&self) -> impl Iterator<Item = &CauseSite> + '_ {
        self.discards.iter().flatten()
    }
}

fn push_site(sites: &mut [Option<CauseSite>; MAX_CAUSES], cause: &egui::RepaintCause) {
    let known = sites.iter().flatten().any(|site| {
        site.line == cause.line && site.file == cause.file && site.reason == cause.reason
    });
    if let Some(free) = sites
        .iter_mut()
        .find(|slot| slot.is_none())
        .filter(|_| !known)
    {
        *free = Some(CauseSite {
            file: cause.file,
            line: cause.line,
            reason: cause.reason.clone(),
        });
    }
}
