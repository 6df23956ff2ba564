//! Named durations of one frame (CPU phases, GPU passes), in fixed slots.

use std::sync::Arc;
use std::time::Duration;

use crate::Instant;

/// Most phase names one frame keeps (and GPU passes): more rows stop being readable long
/// before, and each frame's record copies them. Further names are counted, not stored. The
/// same limit as the sampler's per-label table, so a frame's record and the readouts agree.
pub const MAX_PHASES: usize = crate::label_table::LabelTable::MAX_LABELS;

/// A phase's name: a literal from the app's guard, or a name shared with another profiler
/// (puffin's scope names). Neither is copied per frame.
#[derive(Clone, Debug)]
pub enum PhaseName {
    /// A literal, compared by pointer first.
    Static(&'static str),
    /// A name another profiler owns (puffin's scope names, the GPU timer's labels).
    Shared(Arc<str>),
}

impl PhaseName {
    /// The name as text.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Static(name) => name,
            Self::Shared(name) => name,
        }
    }

    fn is(&self, other: &Self) -> bool {
        match (self, other) {
            // Names are usually the same literal: compare the pointer before the text.
            (Self::Static(a), Self::Static(b)) if std::ptr::eq(*a, *b) => true,
            (Self::Shared(a), Self::Shared(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.as_str() == other.as_str(),
        }
    }
}

/// When a phase (or GPU pass) started: an `Instant`, or a time on the HUD's own clock when it
/// was given one.
#[derive(Clone, Copy, Debug)]
pub enum PhaseStart {
    /// A process instant, placed on a clock with [`crate::Clock::time_of`].
    Instant(Instant),
    /// A time on the recording clock.
    Clock(Duration),
}

/// One named part of a frame: its summed duration, how often it was timed, and when it first
/// started (for the trace export).
#[derive(Clone, Debug)]
pub struct Phase {
    /// What it is called.
    pub name: PhaseName,
    /// Its durations in the frame, summed.
    pub duration: Duration,
    /// How many times it was timed in the frame.
    pub occurrences: u32,
    /// When it first started, if known.
    pub first_start: Option<PhaseStart>,
}

/// One frame's CPU phases (or GPU passes): names and their summed durations. Fixed size, no
/// allocation; a name timed twice in a frame adds up. Copying one into another
/// ([`Clone::clone_from`]) writes only the phases in use.
#[derive(Debug)]
pub struct FramePhases {
    phases: [Phase; MAX_PHASES],
    len: usize,
    /// Phases whose name did not fit.
    pub overflow: u32,
}

impl Default for FramePhases {
    fn default() -> Self {
        Self {
            phases: std::array::from_fn(|_| Phase {
                name: PhaseName::Static(""),
                duration: Duration::ZERO,
                occurrences: 0,
                first_start: None,
            }),
            len: 0,
            overflow: 0,
        }
    }
}

impl Clone for FramePhases {
    fn clone(&self) -> Self {
        let mut copy = Self::default();
        copy.clone_from(self);
        copy
    }

    /// Writes the phases in use (the set holds eight in some 600 bytes, a frame usually one
    /// to three: copied every frame an app times phases), and lets go of the names beyond.
    fn clone_from(&mut self, source: &Self) {
        let used = &source.phases[..source.len];
        for (mine, theirs) in self.phases.iter_mut().zip(used) {
            mine.clone_from(theirs);
        }
        // Past `len` a set holds no name (see `clear`): no shared name is kept alive.
        for stale in self.phases.iter_mut().take(self.len).skip(source.len) {
            stale.name = PhaseName::Static("");
        }
        self.len = source.len;
        self.overflow = source.overflow;
    }
}

impl FramePhases {
    /// Adds `duration` to `name` (started at `start`, if known).
    pub fn add(&mut self, name: PhaseName, duration: Duration, start: Option<PhaseStart>) {
        let used = &mut self.phases[..self.len];
        if let Some(phase) = used.iter_mut().find(|phase| phase.name.is(&name)) {
            phase.duration += duration;
            phase.occurrences += 1;
            phase.first_start = phase.first_start.or(start);
        } else if let Some(slot) = self.phases.get_mut(self.len) {
            *slot = Phase {
                name,
                duration,
                occurrences: 1,
                first_start: start,
            };
            self.len += 1;
        } else {
            self.overflow += 1;
        }
    }

    /// Adds a phase of another set (no name is copied).
    pub fn add_phase(&mut self, phase: &Phase) {
        self.add(phase.name.clone(), phase.duration, phase.first_start);
    }

    /// Names and summed durations, in the order first seen.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Duration)> + '_ {
        self.phases[..self.len]
            .iter()
            .map(|phase| (phase.name.as_str(), phase.duration))
    }

    /// The phases with their names, occurrences and starts.
    pub fn entries(&self) -> impl Iterator<Item = &Phase> + '_ {
        self.phases[..self.len].iter()
    }

    /// Empties the set for reuse, letting go of the names it held; costs a write per phase it
    /// held (none for an empty set).
    pub fn clear(&mut self) {
        for phase in self.phases.iter_mut().take(self.len) {
            phase.name = PhaseName::Static("");
        }
        self.len = 0;
        self.overflow = 0;
    }

    /// Whether no phase was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sum of every phase's duration.
    pub fn total(&self) -> Duration {
        self.iter().map(|(_, duration)| duration).sum()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{FramePhases, MAX_PHASES, PhaseName};

    const NAMES: [&str; 20] = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
        "s", "t",
    ];

    #[test]
    fn a_copy_over_a_larger_set_has_the_source_phases_and_lets_go_of_the_rest() {
        let shared: std::sync::Arc<str> = "gpu pass".into();
        let mut kept = FramePhases::default();
        kept.add(PhaseName::Static("a"), Duration::from_millis(1), None);
        kept.add(
            PhaseName::Shared(std::sync::Arc::clone(&shared)),
            Duration::from_millis(2),
            None,
        );
        kept.add(PhaseName::Static("c"), Duration::from_millis(3), None);
        let mut source = FramePhases::default();
        source.add(PhaseName::Static("ui"), Duration::from_millis(4), None);
        source.overflow = 2;
        kept.clone_from(&source);
        assert_eq!(
            kept.iter().collect::<Vec<_>>(),
            [("ui", Duration::from_millis(4))]
        );
        assert_eq!(kept.overflow, 2);
        assert_eq!(
            std::sync::Arc::strong_count(&shared),
            1,
            "the copy holds no name beyond its phases"
        );
        kept.add(PhaseName::Static("render"), Duration::from_millis(5), None);
        assert_eq!(
            kept.clone().iter().count(),
            2,
            "added after the copy, as to any set"
        );
    }

    #[test]
    fn names_add_up_and_extra_names_are_counted() {
        let mut phases = FramePhases::default();
        phases.add(PhaseName::Static("physics"), Duration::from_millis(2), None);
        phases.add(PhaseName::Static("layout"), Duration::from_millis(1), None);
        phases.add(
            PhaseName::Shared("physics".into()),
            Duration::from_millis(3),
            None,
        );
        let named: Vec<_> = phases.iter().collect();
        assert_eq!(
            named,
            [
                ("physics", Duration::from_millis(5)),
                ("layout", Duration::from_millis(1))
            ]
        );
        assert_eq!(phases.total(), Duration::from_millis(6));
        for name in NAMES {
            phases.add(PhaseName::Static(name), Duration::from_micros(1), None);
        }
        assert_eq!(phases.iter().count(), MAX_PHASES);
        // Two names were there; 6 of the 20 fit.
        assert_eq!(phases.iter().count(), 2 + 6);
        assert_eq!(phases.overflow, 20 - 6);
    }
}
