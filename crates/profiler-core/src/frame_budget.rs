use std::time::Duration;

use crate::{ConfigError, Grade};

/// The time one frame may take: the yardstick for FRAME, P95 and DROP.
///
/// Precedence: a budget the app pinned, else one refresh period of the display when the platform
/// told us its rate, else 1/60 s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameBudget {
    pinned: Option<Duration>,
    refresh_hz: Option<f64>,
    /// One refresh period, `1 / refresh_hz` where that is a `Duration`: worked out when the
    /// rate is set, not for every frame that asks.
    refresh_period: Option<Duration>,
}

impl FrameBudget {
    /// The budget used when nothing better is known: one 60 Hz refresh.
    pub const FALLBACK: Duration = Duration::from_nanos(16_666_667);

    /// A budget that follows the display, with an optional pinned override.
    ///
    /// # Errors
    /// [`ConfigError::ZeroBudget`] when `pinned` is zero.
    pub fn new(pinned: Option<Duration>) -> Result<Self, ConfigError> {
        if pinned.is_some_and(|b| b.is_zero()) {
            return Err(ConfigError::ZeroBudget);
        }
        Ok(Self {
            pinned,
            refresh_hz: None,
            refresh_period: None,
        })
    }

    /// Records the display's refresh rate; `None`, zero, negative or non-finite rates mean
    /// "unknown". Cost: a division and a conversion, for the period.
    pub fn set_refresh_hz(&mut self, refresh_hz: Option<f64>) {
        self.refresh_hz = refresh_hz.filter(|hz| hz.is_finite() && *hz > 0.0);
        self.refresh_period = self
            .refresh_hz
            .and_then(|hz| Duration::try_from_secs_f64(1.0 / hz).ok());
    }

    /// The display's refresh rate, if known.
    pub fn refresh_hz(&self) -> Option<f64> {
        self.refresh_hz
    }

    /// One refresh period of the known rate (`None` when unknown, or too long for a
    /// `Duration`). Free.
    pub(crate) fn refresh_period(&self) -> Option<Duration> {
        self.refresh_period
    }

    /// Whether the app pinned this budget.
    pub fn is_pinned(&self) -> bool {
        self.pinned.is_some()
    }

    /// The budget in effect.
    pub fn duration(&self) -> Duration {
        if let Some(pinned) = self.pinned {
            return pinned;
        }
        self.refresh_period
            .filter(|d| !d.is_zero())
            .unwrap_or(Self::FALLBACK)
    }

    /// Grades a frame-like duration against the budget in effect.
    pub fn grade(&self, duration: Duration) -> Grade {
        Grade::of_duration(duration, self.duration())
    }
}
