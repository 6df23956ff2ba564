//! When a frame counts as a spike.

use std::time::Duration;

/// When a frame is kept as a spike (see [`crate::record::spike::Spike`]): its draw, its CPU time, its GPU
/// time or, for a frame wanted right after the previous one, its hand-off interval is longer
/// than this. Default: twice the frame budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpikeThreshold {
    /// A multiple of the frame budget in effect (pinned, or one refresh period, or 1/60 s).
    BudgetTimes(f64),
    /// A fixed duration.
    After(Duration),
    /// Record no spikes.
    Off,
}

impl Default for SpikeThreshold {
    fn default() -> Self {
        Self::BudgetTimes(2.0)
    }
}

impl SpikeThreshold {
    /// The threshold for `budget`; `None` when off or invalid.
    pub fn duration(self, budget: Duration) -> Option<Duration> {
        match self {
            Self::BudgetTimes(times) => Duration::try_from_secs_f64(budget.as_secs_f64() * times)
                .ok()
                .filter(|d| !d.is_zero()),
            Self::After(duration) => Some(duration).filter(|d| !d.is_zero()),
            Self::Off => None,
        }
    }

    /// Whether the threshold means what it says.
    pub fn is_valid(self) -> bool {
        match self {
            Self::BudgetTimes(times) => times.is_finite() && times > 0.0,
            Self::After(duration) => !duration.is_zero(),
            Self::Off => true,
        }
    }
}
