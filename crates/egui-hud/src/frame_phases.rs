use std::time::Duration;

/// Most phase names one frame keeps: more rows stop being readable long before. Further names
/// are counted, not stored.
pub(crate) const MAX_PHASES: usize = 16;

/// One frame's CPU phases: names (`&'static str`, so never copied) and their summed durations.
/// Fixed size, no allocation; a name timed twice in a frame adds up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FramePhases {
    phases: [(&'static str, Duration); MAX_PHASES],
    len: usize,
    /// Phases whose name did not fit.
    pub(crate) overflow: u32,
}

impl Default for FramePhases {
    fn default() -> Self {
        Self {
            phases: [("", Duration::ZERO); MAX_PHASES],
            len: 0,
            overflow: 0,
        }
    }
}

impl FramePhases {
    pub(crate) fn add(&mut self, name: &'static str, duration: Duration) {
        let used = &mut self.phases[..self.len];
        // Names are usually the same literal: compare the pointer before the text.
        if let Some((_, sum)) = used
            .iter_mut()
            .find(|(known, _)| std::ptr::eq(*known, name) || *known == name)
        {
            *sum += duration;
        } else if let Some(slot) = self.phases.get_mut(self.len) {
            *slot = (name, duration);
            self.len += 1;
        } else {
            self.overflow += 1;
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'static str, Duration)> + '_ {
        self.phases[..self.len].iter().copied()
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

    use super::{FramePhases, MAX_PHASES};

    const NAMES: [&str; 20] = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
        "s", "t",
    ];

    #[test]
    fn names_add_up_and_extra_names_are_counted() {
        let mut phases = FramePhases::default();
        phases.add("physics", Duration::from_millis(2));
        phases.add("layout", Duration::from_millis(1));
        phases.add("physics", Duration::from_millis(3));
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
            phases.add(name, Duration::from_micros(1));
        }
        assert_eq!(phases.iter().count(), MAX_PHASES);
        // Two names were there; 14 of the 20 fit.
        assert_eq!(phases.iter().count(), 2 + 14);
        assert_eq!(phases.overflow, 20 - 14);
    }
}
