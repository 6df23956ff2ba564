/// Counts of events the sampler dropped because they could not be real. Each counter only grows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RejectedEvents {
    /// A frame whose draw ended before it started.
    pub draw_end_before_start: u64,
    /// A frame whose draw took no time at all (a clock that did not move, or a replay bug).
    pub zero_length_draws: u64,
    /// A draw longer than [`SamplerConfig::max_draw_duration`](crate::SamplerConfig::max_draw_duration).
    pub implausibly_long_draws: u64,
    /// A present not later than the previous one.
    pub presents_back_in_time: u64,
    /// A present before its own draw started, or more than `max_draw_duration` after it ended.
    pub presents_outside_frame: u64,
    /// A GPU pass duration longer than `max_draw_duration` (a wrapped or bogus timestamp).
    pub implausible_gpu_passes: u64,
}

impl RejectedEvents {
    /// All rejections together.
    pub fn total(&self) -> u64 {
        self.draw_end_before_start
            + self.zero_length_draws
            + self.implausibly_long_draws
            + self.presents_back_in_time
            + self.presents_outside_frame
            + self.implausible_gpu_passes
    }
}
