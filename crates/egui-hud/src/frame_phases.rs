use std::sync::Arc;
use std::time::Duration;

/// Most phase names one frame keeps: more rows stop being readable long before. Further names
/// are counted, not stored.
pub(crate) const MAX_PHASES: usize = 16;

/// A phase's name: a literal from the app's guard, or a name shared with another profiler
/// (puffin's scope names). Neither is copied per frame.
#[derive(Clone, Debug)]
pub(crate) enum PhaseName {
    Static(&'static str),
    #[cfg_attr(
        not(feature = "puffin"),
        expect(dead_code, reason = "only puffin's scope names are shared")
    )]
    Shared(Arc<str>),
}

impl PhaseName {
    pub(crate) fn as_str(&self) -> &str {
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

/// One frame's CPU phases: names and their summed durations. Fixed size, no allocation; a
/// name timed twice in a frame adds up.
#[derive(Clone, Debug)]
pub(crate) struct FramePhases {
    phases: [(PhaseName, Duration); MAX_PHASES],
    len: usize,
    /// Phases whose name did not fit.
    pub(crate) overflow: u32,
}

impl Default for FramePhases {
    fn default() -> Self {
        Self {
            phases: std::array::from_fn(|_| (PhaseName::Static(""), Duration::ZERO)),
            len: 0,
            overflow: 0,
        }
    }
}

impl FramePhases {
    pub(crate) fn add(&mut self, name: PhaseName, duration: Duration) {
        let used = &mut self.phases[..self.len];
        if let Some((_, sum)) = used.iter_mut().find(|(known, _)| known.is(&name)) {
            *sum += duration;
        } else if let Some(slot) = self.phases.get_mut(self.len) {
            *slot = (name, duration);
            self.len += 1;
        } else {
            self.overflow += 1;
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, Duration)> + '_ {
        self.phases[..self.len]
            .iter()
            .map(|(name, duration)| (name.as_str(), *duration))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn total(&self) -> Duration {
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
    fn names_add_up_and_extra_names_are_counted() {
        let mut phases = FramePhases::default();
        phases.add(PhaseName::Static("physics"), Duration::from_millis(2));
        phases.add(PhaseName::Static("layout"), Duration::from_millis(1));
        phases.add(
            PhaseName::Shared("physics".into()),
            Duration::from_millis(3),
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
            phases.add(PhaseName::Static(name), Duration::from_micros(1));
        }
        assert_eq!(phases.iter().count(), MAX_PHASES);
        // Two names were there; 14 of the 20 fit.
        assert_eq!(phases.iter().count(), 2 + 14);
        assert_eq!(phases.overflow, 20 - 14);
    }
}
