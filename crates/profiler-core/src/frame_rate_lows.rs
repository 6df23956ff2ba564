/// The frame rate of a whole session (since the HUD started or was reset), over the present
/// intervals of frames wanted back to back: idle gaps are not intervals, so a reactive app's
/// pauses neither lower nor raise it. Read from a log-bucketed histogram (percentiles within
/// 1 %); the mean is exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRateLows {
    /// Intervals behind the figures.
    pub intervals: u64,
    /// `AVG`: 1 / the mean interval (never the mean of per-frame rates: frames of 1 and 4 ms
    /// are 400 FPS, not 625).
    pub avg_fps: f64,
    /// `1% LOW`: the rate of the interval at the 99th percentile (nearest rank; MangoHud's and
    /// PresentMon's definition).
    pub low_1_percent_fps: f64,
    /// `0.1% LOW`: the rate of the interval at the 99.9th percentile; `None` below 1000
    /// intervals, where it would be one frame's.
    pub low_0_1_percent_fps: Option<f64>,
    /// 1 / the mean of the slowest 1 % of intervals: the "1 % low average" of other tools.
    pub slowest_1_percent_avg_fps: f64,
}
