use std::time::Duration;

/// How a readout compares with the frame budget; the HUD colours FRAME, P95 and DROP by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grade {
    /// At most the budget.
    Within,
    /// Above the budget, at most twice it.
    Over,
    /// More than twice the budget.
    FarOver,
}

impl Grade {
    /// The grade of a frame-like duration: within `budget`, up to twice it, or beyond.
    pub fn of_duration(duration: Duration, budget: Duration) -> Self {
        if duration <= budget {
            Self::Within
        } else if duration <= budget.saturating_mul(2) {
            Self::Over
        } else {
            Self::FarOver
        }
    }

    /// The grade of a DROP fraction. The rule: no drops is within; up to 5 % drops (so P95 is
    /// still within budget) is over; more is far over.
    pub fn of_drop_fraction(drop: f64) -> Self {
        if drop <= 0.0 {
            Self::Within
        } else if drop <= 0.05 {
            Self::Over
        } else {
            Self::FarOver
        }
    }
}
