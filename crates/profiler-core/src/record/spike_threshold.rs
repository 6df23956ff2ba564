//! When a frame counts as a spike.

use std::time::Duration;

/// Frames before a frame that the stutter rule compares it with (see
/// [`SpikeThreshold::Stutter`]).
pub const RECENT_FRAMES: usize = 21;

/// When a frame is kept as a spike (see [`crate::record::spike::Spike`]): its draw, its CPU
/// time, its GPU time or, for a frame wanted right after the previous one, its hand-off interval
/// is longer than this. Default: [`Self::Stutter`] with 2× the budget and 2.5× the recent median.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpikeThreshold {
    /// Over `budget_times` × the frame budget *and* over `median_times` × the median of the
    /// app's own recent frames (the [`RECENT_FRAMES`] before it, each by its slowest figure):
    /// `CapFrameX`'s stutter rule on top of the budget, so a steadily slow app does not read every
    /// frame as a spike. The default, `{ budget_times: 2.0, median_times: 2.5 }`.
    Stutter {
        /// Multiple of the frame budget in effect.
        budget_times: f64,
        /// Multiple of the recent frames' median.
        median_times: f64,
    },
    /// A multiple of the frame budget in effect (pinned, or one refresh period, or 1/60 s)
    /// alone: every frame over it is a spike, however slow the app is anyway.
    BudgetTimes(f64),
    /// A fixed duration.
    After(Duration),
    /// Record no spikes.
    Off,
}

impl Default for SpikeThreshold {
    fn default() -> Self {
        Self::Stutter {
            budget_times: 2.0,
            median_times: 2.5,
        }
    }
}

impl SpikeThreshold {
    /// The threshold's fixed part for `budget`; `None` when off or invalid.
    pub fn duration(self, budget: Duration) -> Option<Duration> {
        let budget_times = |times: f64| {
            Duration::try_from_secs_f64(budget.as_secs_f64() * times)
                .ok()
                .filter(|d| !d.is_zero())
        };
        match self {
            Self::Stutter {
                budget_times: t, ..
            }
            | Self::BudgetTimes(t) => budget_times(t),
            Self::After(duration) => Some(duration).filter(|d| !d.is_zero()),
            Self::Off => None,
        }
    }

    /// The multiple of the recent frames' median a spike must also pass, if the rule has one.
    pub fn median_times(self) -> Option<f64> {
        match self {
            Self::Stutter { median_times, .. } => Some(median_times),
            Self::BudgetTimes(_) | Self::After(_) | Self::Off => None,
        }
    }

    /// The rule in words, for `budget`: "over 33.3 ms (2 × budget) and 2.5 × the median of the
    /// 21 frames before it".
    pub fn describe(self, budget: Duration) -> String {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let fixed = self.duration(budget).map(ms).unwrap_or_default();
        match self {
            Self::Stutter {
                budget_times,
                median_times,
            } => format!(
                "over {fixed} ({budget_times} × budget) and {median_times} × the median of the \
                 {RECENT_FRAMES} frames before it"
            ),
            Self::BudgetTimes(times) => format!("over {fixed} ({times} × budget)"),
            Self::After(_) => format!("over {fixed}"),
            Self::Off => "off".to_owned(),
        }
    }

    /// Whether the threshold means what it says.
    pub fn is_valid(self) -> bool {
        let positive = |times: f64| times.is_finite() && times > 0.0;
        match self {
            Self::Stutter {
                budget_times,
                median_times,
            } => positive(budget_times) && positive(median_times),
            Self::BudgetTimes(times) => positive(times),
            Self::After(duration) => !duration.is_zero(),
            Self::Off => true,
        }
    }
}
