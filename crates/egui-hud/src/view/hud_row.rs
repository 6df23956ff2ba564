/// One part of the HUD below the big number. [`crate::FpsMonitor::rows`] takes a list of them
/// in display order; [`crate::HudPreset`] names three lists. A row whose readout is unknown
/// (no GPU timer, no refresh rate) is absent whatever the list says, and the hover says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HudRow {
    /// `INTERVAL`: the mean time between presents of the last second.
    Interval,
    /// `FRAME`: the mean draw time of the retained frames, graded by the budget.
    Frame,
    /// `P95`: the 95th percentile of the draw time.
    P95,
    /// `DROP`: the share of draws over the budget.
    Drop,
    /// `AVG`, `1% LOW` and `0.1% LOW`: the frame rate since the start or a reset, over the
    /// frames wanted back to back.
    Lows,
    /// `INV`: the app's repaint requests per frame.
    Inv,
    /// `WHY`: the app's busiest repaint call site and its rate.
    Why,
    /// `MISS`: display refreshes missed (with a known refresh rate).
    Miss,
    /// `HITCH`: milliseconds shown late per second of animation (Apple's hitch time ratio).
    Hitch,
    /// `DISPLAYED`: how long each shown frame stayed on screen, and shown frames per second,
    /// from the window system's presentation times (Wayland presentation-time, X11 Present).
    Displayed,
    /// `PHASES` and a line per CPU phase.
    Phases,
    /// `GPU` (time per frame and busy share), a line per GPU pass, and `BOUND`.
    Gpu,
    /// `CPU`: the process's CPU use.
    Cpu,
    /// `MEM`: the process's memory.
    Mem,
    /// `LATENCY` and the bar of its stages.
    Latency,
    /// `SPIKES`: spikes since the start and the worst one (and their marks on the plot).
    Spikes,
    /// The frame-time plot and the control that opens the details window.
    Plot,
}

impl HudRow {
    /// Every row, in the order the full HUD shows them.
    pub const ALL: [Self; 17] = [
        Self::Interval,
        Self::Frame,
        Self::P95,
        Self::Drop,
        Self::Lows,
        Self::Inv,
        Self::Why,
        Self::Miss,
        Self::Hitch,
        Self::Displayed,
        Self::Phases,
        Self::Gpu,
        Self::Cpu,
        Self::Mem,
        Self::Latency,
        Self::Spikes,
        Self::Plot,
    ];
}
