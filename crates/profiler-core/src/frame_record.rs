use std::time::Duration;

/// Why a frame ran, as far as the sampler needs to know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FrameOrigin {
    /// The app (input, animation, a repaint it asked for) wanted this frame. Counted.
    #[default]
    App,
    /// Only the HUD's own refresh tick caused this frame. Never enters a readout: counting it
    /// would report the HUD's wake-ups as the app's frame rate.
    SelfInduced,
}

/// One frame's events, on the sampler's clock. Feed one per frame to
/// [`FrameSampler::record_frame`](crate::FrameSampler::record_frame).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameRecord {
    /// When the frame's first pass began.
    pub draw_start: Duration,
    /// When the frame's final pass ended.
    pub draw_end: Duration,
    /// When the frame was handed off to be presented; `None` when it was not presented.
    pub present: Option<Duration>,
    /// Repaint requests coalesced into this frame (the HUD's own excluded).
    pub invalidations: u32,
    /// Whether the app or only the HUD's tick caused the frame.
    pub origin: FrameOrigin,
    /// Time the HUD spent on itself inside this frame (its drawing, and its bookkeeping in the
    /// toolkit's hooks); subtracted from the draw time so the HUD does not measure itself.
    /// Default zero.
    pub overlay_cost: Duration,
    /// Time the HUD spent on the previous frame after that frame ended (recording it, asking
    /// for its next refresh): part of the HUD's cost per frame ([`crate::Snapshot::overlay_cost`]),
    /// not subtracted from this frame's draw time, which it is not inside. Default zero.
    pub overlay_cost_after_end: Duration,
    /// Time inside the frame that is neither the app's nor the HUD's (an immediate child
    /// viewport's frame, run inside its parent's pass); subtracted from the draw time, not
    /// reported as the HUD's. Default zero.
    pub excluded: Duration,
    /// Whether the app wanted this frame as soon as the previous one was done (it asked for an
    /// immediate repaint, or its loop runs every frame): then a present interval of `k`
    /// refresh periods missed `k − 1` refreshes, where after an idle spell it missed none.
    /// Default `false`.
    pub back_to_back: bool,
}
