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
    /// The overlay's own CPU time charged to the frame (egui-hud's drawing and its work in
    /// egui's hooks): its time inside the frame, which `draw` leaves out, and its time in the
    /// hooks after the previous frame's end, inside no frame's draw. What the snapshot's
    /// [`crate::Snapshot::overlay_cost`] averages. Zero until the frame's end is written.
    pub overlay_cost: Duration,
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
            overlay_cost: Duration::ZERO,
            handoff_interval: None,
            invalidations: 0,
            passes: 0,
            causes: FrameCauses::default(),
            cpu: None,
            gpu: None,
        }
    }

    /// Makes this record what [`Self::new`] makes, in place: the fields are written one by
    /// one, so that a slot reused for the next frame does not take a whole new record (about
    /// 1.8 KB, most of it the room for phases the frame may not have) copied into it.
    pub(crate) fn reset(&mut self, sequence: u64, wall_clock: SystemTime) {
        // Every field named: a field added to the record must be reset here too.
        let Self {
            sequence: kept_sequence,
            wall_clock: kept_wall_clock,
            marks,
            draw,
            overlay_cost,
            handoff_interval,
            invalidations,
            passes,
            causes,
            cpu,
            gpu,
        } = self;
        *kept_sequence = sequence;
        *kept_wall_clock = wall_clock;
        *marks = LatencyMarks::default();
        *draw = Duration::ZERO;
        *overlay_cost = Duration::ZERO;
        *handoff_interval = None;
        *invalidations = 0;
        *passes = 0;
        causes.clear();
        *cpu = None;
        *gpu = None;
    }

    /// Swaps two records, as [`std::mem::swap`] does, without moving what both lack: phases
    /// neither frame has and cause slots empty in both (most of a record's 1.8 KB). The
    /// retained window swaps a frame in every frame, with the oldest slot out of the CPU's
    /// caches.
    pub(crate) fn swap_with(&mut self, other: &mut Self) {
        // Every field named: a field added to the record must be swapped here too.
        let Self {
            sequence,
            wall_clock,
            marks,
            draw,
            overlay_cost,
            handoff_interval,
            invalidations,
            passes,
            causes,
            cpu,
            gpu,
        } = self;
        std::mem::swap(sequence, &mut other.sequence);
        std::mem::swap(wall_clock, &mut other.wall_clock);
        std::mem::swap(marks, &mut other.marks);
        std::mem::swap(draw, &mut other.draw);
        std::mem::swap(overlay_cost, &mut other.overlay_cost);
        std::mem::swap(handoff_interval, &mut other.handoff_interval);
        std::mem::swap(invalidations, &mut other.invalidations);
        std::mem::swap(passes, &mut other.passes);
        causes.swap_with(&mut other.causes);
        swap_unless_both_none(cpu, &mut other.cpu);
        swap_unless_both_none(gpu, &mut other.gpu);
    }
}

/// Swaps `a` and `b` unless both are `None` (then there is nothing to swap).
fn swap_unless_both_none<T>(a: &mut Option<T>, b: &mut Option<T>) {
    if a.is_some() || b.is_some() {
        std::mem::swap(a, b);
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
        for slot in self.woke_by.iter_mut().chain(&mut self.discards) {
            *slot = None;
        }
    }

    /// Swaps two frames' sites, slot by slot, leaving slots empty in both untouched.
    fn swap_with(&mut self, other: &mut Self) {
        let mine = self.woke_by.iter_mut().chain(&mut self.discards);
        let theirs = other.woke_by.iter_mut().chain(&mut other.discards);
        for (a, b) in mine.zip(theirs) {
            swap_unless_both_none(a, b);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::frame_phases::PhaseName;

    /// Frames with and without CPU phases, GPU passes, wake-ups and discards, each field
    /// different from the others'.
    fn frames() -> Vec<FrameTrace> {
        let mut frames = Vec::new();
        for n in 0..16_u32 {
            let mut trace = FrameTrace::new(
                u64::from(n),
                SystemTime::UNIX_EPOCH + Duration::from_secs(u64::from(n)),
            );
            trace.marks.frame_start = Some(Duration::from_millis(u64::from(n)));
            trace.draw = Duration::from_micros(u64::from(100 + n));
            trace.overlay_cost = Duration::from_micros(u64::from(7 + n));
            trace.handoff_interval = (n % 3 == 0).then(|| Duration::from_millis(16));
            trace.invalidations = n;
            trace.passes = 1 + n % 2;
            let phases = |count: u32| {
                let mut phases = FramePhases::default();
                for i in 0..count {
                    let name = PhaseName::Shared(format!("phase {n}.{i}").into());
                    phases.add(name, Duration::from_micros(u64::from(i + n)), None);
                }
                (Duration::from_micros(u64::from(n)), phases)
            };
            trace.cpu = (n & 1 != 0).then(|| phases(1 + n % 3));
            trace.gpu = (n & 2 != 0).then(|| phases(n % 2));
            for site in 0..(n % 6) {
                let reason = Cow::Owned(format!("reason {n}.{site}"));
                trace.causes.add_woke_by("src/app.rs", site, &reason);
            }
            for site in 0..(n / 4) {
                trace
                    .causes
                    .add_discard("src/ui.rs", site, &Cow::Borrowed(""));
            }
            frames.push(trace);
        }
        frames
    }

    /// Swapped field by field, skipping what both lack, two records end as `mem::swap` leaves
    /// them, for every pair of frames (phases and causes on either side, both or neither).
    #[test]
    fn swapping_skips_only_what_neither_has() {
        let frames = frames();
        for a in &frames {
            for b in &frames {
                let (mut a_swapped, mut b_swapped) = (a.clone(), b.clone());
                a_swapped.swap_with(&mut b_swapped);
                let (mut a_moved, mut b_moved) = (a.clone(), b.clone());
                std::mem::swap(&mut a_moved, &mut b_moved);
                assert_eq!(
                    format!("{a_swapped:?} {b_swapped:?}"),
                    format!("{a_moved:?} {b_moved:?}"),
                    "frames {} and {}",
                    a.sequence,
                    b.sequence
                );
            }
        }
    }

    /// A record reset in place is the record `new` makes, whatever it held.
    #[test]
    fn a_reset_record_is_a_new_one() {
        for mut trace in frames() {
            let wall_clock = SystemTime::UNIX_EPOCH + Duration::from_secs(99);
            trace.reset(42, wall_clock);
            assert_eq!(
                format!("{trace:?}"),
                format!("{:?}", FrameTrace::new(42, wall_clock))
            );
        }
    }
}
