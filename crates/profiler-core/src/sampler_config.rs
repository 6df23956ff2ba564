use std::time::Duration;

use crate::ConfigError;

/// What a [`FrameSampler`](crate::FrameSampler) keeps and how it judges frames. Plain data:
/// build it with struct-update syntax from [`SamplerConfig::default`] and check it with
/// [`SamplerConfig::validate`] (the sampler's constructor does that for you).
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerConfig {
    /// How many draw samples FRAME, P95, DROP, INV and the plot are computed over.
    /// Default 120 (two seconds of a 60 Hz animation). Memory, allocated once: 48 bytes per
    /// sample (draw, GPU frame, percentile scratch) plus 8 per sample for each labelled GPU pass
    /// seen (at most 8), so 48 to 112 bytes; and 24 KiB whatever the capacity (the last second's
    /// presents and GPU frames).
    pub capacity: usize,
    /// Frames discarded after the sampler is created: the first frames of a window pay for cold
    /// caches (shaders, glyph atlas) and say nothing about the app's running cost. Default 8.
    pub warmup_frames: u32,
    /// How far back presents count for FPS and INTERVAL: the window that ends at the latest
    /// present (see [`Snapshot::fps`](crate::Snapshot::fps)). Default 1 s.
    pub present_window: Duration,
    /// A budget pinned by the app; when `None` the budget is one refresh period of the display
    /// when known, else 1/60 s. Default `None`.
    pub frame_budget: Option<Duration>,
    /// The longest GPU pass accepted (a longer one is a wrapped or bogus timestamp), and the
    /// farthest a present may lie after its draw. Draws are never rejected for their length: a
    /// stall is the worst jank there is and is shown. Default 5 s.
    pub max_draw_duration: Duration,
}

impl SamplerConfig {
    /// The default capacity, 120 draw samples.
    pub const DEFAULT_CAPACITY: usize = 120;
    /// The default warm-up, 8 frames.
    pub const DEFAULT_WARMUP_FRAMES: u32 = 8;
    /// The longest `max_draw_duration` accepted: an hour. Bounding every GPU sample keeps its
    /// running sum far from overflow (a million samples of an hour each fit in 64 bits).
    pub const MAX_DRAW_DURATION_LIMIT: Duration = Duration::from_hours(1);
    /// Capacities above this are refused: a million samples is already 48 to 112 MB and a
    /// snapshot of about 2 ms, far beyond what a HUD needs.
    pub const MAX_CAPACITY: usize = 1_000_000;

    /// Checks every field.
    ///
    /// # Errors
    /// A [`ConfigError`] naming the field and the accepted range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.capacity == 0 || self.capacity > Self::MAX_CAPACITY {
            return Err(ConfigError::Capacity {
                capacity: self.capacity,
            });
        }
        if self.frame_budget.is_some_and(|b| b.is_zero()) {
            return Err(ConfigError::ZeroBudget);
        }
        if self.present_window.is_zero() {
            return Err(ConfigError::ZeroPresentWindow);
        }
        if self.max_draw_duration.is_zero()
            || self.max_draw_duration > Self::MAX_DRAW_DURATION_LIMIT
        {
            return Err(ConfigError::MaxDrawDuration);
        }
        Ok(())
    }
}

impl Default for SamplerConfig {
    fn default() -> Self {
        Self {
            capacity: Self::DEFAULT_CAPACITY,
            warmup_frames: Self::DEFAULT_WARMUP_FRAMES,
            present_window: Duration::from_secs(1),
            frame_budget: None,
            max_draw_duration: Duration::from_secs(5),
        }
    }
}
