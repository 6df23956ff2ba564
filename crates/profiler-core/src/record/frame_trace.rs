//! Everything known about one counted frame, and what woke it.

use std::borrow::Cow;
use std::time::Duration;

use crate::SystemTime;
use crate::latency_marks::LatencyMarks;

use crate::record::frame_phases::FramePhases;

/// Repaint causes kept per frame, and discard reasons.
const MAX_CAUSES: usize = 4;

/// Everything known about one counted frame, gathered over the frames that follow it (its CPU
/// time at the next frame, its GPU results a few frames later): what the retained window
/// ([`crate::record::frame_log::FrameLog`]), the spikes and the exports hold. Fixed size; names
/// are shared, not copied.
#[derive(Clone, Debug)]
pub struct FrameTrace {
    /// The HUD's number for the frame.
    pub sequence: u64,
    /// When it ended, by the wall clock.
    pub wall_clock: SystemTime,
    /// Its marks on the latency path (request, frame start, UI end, render, GPU).
    pub marks: LatencyMarks,
    /// Its draw as FRAME counts it.
    pub draw: Duration,
    /// From the previous frame's hand-off to this one's, for a frame wanted back to back.
    pub handoff_interval: Option<Duration>,
    /// Window-state changes it reacted to.
    pub invalidations: u32,
    /// Passes it took (more than one: a discard).
    pub passes: u32,
    /// What woke it and why its passes were redone.
    pub causes: FrameCauses,
    /// CPU time per frame and its phases, once reported.
    pub cpu: Option<(Duration, FramePhases)>,
    /// GPU time and passes, once the results arrived.
    pub gpu: Option<(Duration, FramePhases)>,
}

impl FrameTrace {
    /// Frame `sequence`, ended at `wall_clock`, with nothing else known yet.
    pub fn new(sequence: u64, wall_clock: SystemTime) -> Self {
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

/// A call site that asked for a frame (egui's `request_repaint*`) or to redo a pass
/// (`request_discard`): the integration converts its own cause type into this one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CauseSite {
    /// Source file of the call, as `file!()` gives it.
    pub file: &'static str,
    /// Line of the call.
    pub line: u32,
    /// The reason given with it; empty when none was.
    pub reason: Cow<'static, str>,
}

impl CauseSite {
    /// `file_name:line` and the reason in quotes, without the directories: how a spike shows
    /// the site.
    pub fn short_label(&self) -> String {
        let file = short_file(self.file);
        if self.reason.is_empty() {
            format!("{file}:{}", self.line)
        } else {
            format!("{file}:{} \u{201c}{}\u{201d}", self.line, self.reason)
        }
    }
}

/// What woke a frame (the app's requests egui recorded since the previous pass, the HUD's own
/// left out) and why its passes were redone; the first few of each, in fixed slots.
#[derive(Clone, Debug, Default)]
pub struct FrameCauses {
    woke_by: [Option<CauseSite>; MAX_CAUSES],
    discards: [Option<CauseSite>; MAX_CAUSES],
}

impl FrameCauses {
    /// Forgets every site (a new frame).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// A request that woke the frame, made at `file:line` with `reason`. A site already kept,
    /// or one past the first four, is not stored; the reason is copied only when stored.
    #[expect(
        clippy::ptr_arg,
        reason = "cloning the Cow keeps a borrowed reason borrowed: a &str would be copied"
    )]
    pub fn add_woke_by(&mut self, file: &'static str, line: u32, reason: &Cow<'static, str>) {
        push_site(&mut self.woke_by, file, line, reason);
    }

    /// A reason the frame's pass was redone (`request_discard`), as [`Self::add_woke_by`].
    #[expect(
        clippy::ptr_arg,
        reason = "cloning the Cow keeps a borrowed reason borrowed: a &str would be copied"
    )]
    pub fn add_discard(&mut self, file: &'static str, line: u32, reason: &Cow<'static, str>) {
        push_site(&mut self.discards, file, line, reason);
    }

    /// The requests that woke the frame, the first four.
    pub fn woke_by(&self) -> impl Iterator<Item = &CauseSite> + '_ {
        self.woke_by.iter().flatten()
    }

    /// The reasons its passes were redone, the first four.
    pub fn discards(&self) -> impl Iterator<Item = &CauseSite> + '_ {
        self.discards.iter().flatten()
    }
}

#[expect(
    clippy::ptr_arg,
    reason = "cloning the Cow keeps a borrowed reason borrowed: a &str would be copied"
)]
fn push_site(
    sites: &mut [Option<CauseSite>; MAX_CAUSES],
    file: &'static str,
    line: u32,
    reason: &Cow<'static, str>,
) {
    let known = sites
        .iter()
        .flatten()
        .any(|site| site.line == line && site.file == file && site.reason == *reason);
    if let Some(free) = sites
        .iter_mut()
        .find(|slot| slot.is_none())
        .filter(|_| !known)
    {
        *free = Some(CauseSite {
            file,
            line,
            reason: reason.clone(),
        });
    }
}

/// A source path without its directories, as the HUD shows call sites.
pub fn short_file(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}
