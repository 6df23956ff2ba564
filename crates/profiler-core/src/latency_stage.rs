/// One stage of a frame's latency path: the time between two of its marks
/// ([`crate::LatencyMarks`]), measured per frame from its own pair of marks.
///
/// The path stages, in order, sum to the time from the frame's start to the next frame's start
/// (`Ui` … `AfterGpu`); `Wake` runs before the start, and `TimerLateness` overlaps `Wake`, kept
/// apart because it is not on the path (it says how late the integration ran a timed request).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LatencyStage {
    /// The request that woke the frame → the frame's start.
    Wake,
    /// When that request fell due → the frame's start: how late the integration woke.
    TimerLateness,
    /// Frame start → UI end (egui's passes: the app's UI and the HUD's).
    Ui,
    /// UI end → render start: eframe's platform output, tessellation, texture upload.
    Tessellation,
    /// Render start → encode end: buffer upload, callbacks' `prepare`, egui's render pass.
    Encode,
    /// Encode end → GPU begin: submit and the queue until egui's pass starts on the GPU.
    Queue,
    /// GPU begin → GPU end: egui's pass on the GPU.
    Gpu,
    /// GPU end → the next frame's start: present, vsync wait, idle.
    AfterGpu,
    /// GPU end (the UI's hand-off where no GPU end is known) → on screen, as the window system
    /// reports it: the present, the compositor and the wait for the refresh (seed 002's
    /// "Present → `ScreenTime`"). Off the latency path.
    ToScreen,
    /// The request that woke the frame → on screen (seed 002's "signal → `ScreenTime`"). Off the
    /// latency path: it adds the window system's part to LATENCY's.
    RequestToScreen,
}

impl LatencyStage {
    /// Every stage, path order, `TimerLateness` beside `Wake`, the presentation spans last.
    pub const ALL: [Self; 10] = [
        Self::Wake,
        Self::TimerLateness,
        Self::Ui,
        Self::Tessellation,
        Self::Encode,
        Self::Queue,
        Self::Gpu,
        Self::AfterGpu,
        Self::ToScreen,
        Self::RequestToScreen,
    ];

    /// The stages that add up to the frame's start → next frame's start.
    pub const FRAME_PATH: [Self; 6] = [
        Self::Ui,
        Self::Tessellation,
        Self::Encode,
        Self::Queue,
        Self::Gpu,
        Self::AfterGpu,
    ];

    /// A short name for the HUD's legend and the exports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wake => "wake",
            Self::TimerLateness => "late",
            Self::Ui => "ui",
            Self::Tessellation => "tess",
            Self::Encode => "encode",
            Self::Queue => "queue",
            Self::Gpu => "gpu",
            Self::AfterGpu => "after",
            Self::ToScreen => "screen",
            Self::RequestToScreen => "req-screen",
        }
    }

    /// Whether the stage lies between a frame's request and its GPU end, the span LATENCY
    /// covers: every stage but [`Self::TimerLateness`] (inside `Wake`), [`Self::AfterGpu`]
    /// (present, vsync wait and idle, after the end) and the presentation spans.
    pub fn is_on_latency_path(self) -> bool {
        !matches!(
            self,
            Self::TimerLateness | Self::AfterGpu | Self::ToScreen | Self::RequestToScreen
        )
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}
