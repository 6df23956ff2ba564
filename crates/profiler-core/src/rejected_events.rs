/// Counts of events the sampler dropped because they could not be real: time running backwards.
/// A long draw is real (a stall) and is never rejected. Each counter only grows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RejectedEvents {
    /// A frame whose draw ended before it started.
    pub draw_end_before_start: u64,
    /// A frame that began before the previous frame began (a clock that went back).
    pub draws_back_in_time: u64,
    /// A present not later than the previous one.
    pub presents_back_in_time: u64,
    /// A present before its own draw started, or more than `max_draw_duration` after it ended.
    pub presents_outside_frame: u64,
    /// A GPU pass duration longer than `max_draw_duration` (a wrapped or bogus timestamp).
    pub implausible_gpu_passes: u64,
    /// The integration's input time (egui's `RawInput::time`) ran backwards: an integration
    /// that restarted it. The HUD restarts its refresh from the new time.
    pub input_time_back_in_time: u64,
}

impl RejectedEvents {
    /// All rejections together.
    pub fn total(&self) -> u64 {
        self.draw_end_before_start
            + self.draws_back_in_time
            + self.presents_back_in_time
            + self.presents_outside_frame
            + self.implausible_gpu_passes
            + self.input_time_back_in_time
    }
}
