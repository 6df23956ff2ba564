/// Which question the big number answers. Right-click on it switches; the default is
/// [`MainReadout::MaxFps`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MainReadout {
    /// `1 / FRAME`, clamped to the display's refresh rate when known: how fast the UI could
    /// draw. The default, because it reads the same whether the app is idle or animating.
    #[default]
    MaxFps,
    /// Frames per second over the last second, counted when egui hands each frame to the
    /// integration: how often the app produced a frame. A frame the platform then declined to
    /// show (an occluded window, a lost surface) still counts.
    Fps,
}

impl MainReadout {
    /// The label shown next to the number (and its accessibility name). Free.
    pub fn label(self) -> &'static str {
        match self {
            Self::MaxFps => "MAX FPS",
            Self::Fps => "FPS",
        }
    }

    /// The other readout (what a right-click switches to). Free.
    #[must_use]
    pub fn toggled(self) -> Self {
        match self {
            Self::MaxFps => Self::Fps,
            Self::Fps => Self::MaxFps,
        }
    }

    /// This readout's value in a snapshot (`None` when unknown). Free.
    pub fn value(self, snapshot: &profiler_core::Snapshot) -> Option<f64> {
        match self {
            Self::MaxFps => snapshot.max_fps,
            Self::Fps => snapshot.fps,
        }
    }
}
