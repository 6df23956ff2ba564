use std::time::Duration;

use crate::presentation::PresentationFlags;

/// What the window system said about the frames it showed: `DISPLAYED` and the presentation
/// counts. In [`crate::Snapshot::presentation`] once a presentation source reported a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentationReading {
    /// What reported the times (`"Wayland presentation-time"`, `"X11 Present"`).
    pub source: &'static str,
    /// Frames shown, since the start or a reset.
    pub frames_shown: u64,
    /// Frames the compositor replaced before they were shown (Wayland `discarded`).
    pub frames_discarded: u64,
    /// Frames skipped for a newer one at the same refresh (X11 `CompleteModeSkip`).
    pub frames_skipped: u64,
    /// Frames whose report never came: not known to have been shown.
    pub frames_unknown: u64,
    /// DISPLAYED: the time each shown frame of the retained window stayed on screen (from its
    /// time shown to the next shown frame's; PresentMon's `MsBetweenDisplayChange`), over the
    /// frames the app wanted back to back; p50, nearest rank.
    pub displayed_p50: Option<Duration>,
    /// The same, p95.
    pub displayed_p95: Option<Duration>,
    /// Shown frames per second: 1 / the mean of those times.
    pub displayed_fps: Option<f64>,
    /// How many times are behind the displayed figures.
    pub displayed_frames: usize,
    /// Refreshes the retained shown frames missed, from the refresh counter itself: a frame
    /// shown `k` refreshes after the previous shown one missed `k − 1` (back to back only).
    pub missed_refreshes: u64,
    /// Fraction (0..=1) of those frames that missed at least one refresh.
    pub missed_frames: Option<f64>,
    /// The refresh period of the output that showed the latest frame (Wayland
    /// `presented.refresh`; `None` on X11 and for variable refresh).
    pub refresh_period: Option<Duration>,
    /// How the latest time was obtained.
    pub flags: PresentationFlags,
}
