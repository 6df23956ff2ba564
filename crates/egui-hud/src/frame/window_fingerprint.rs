/// The window as a frame's `RawInput` describes it: what a frame without any event can still
/// have changed. Two frames with equal fingerprints saw the same window.
///
/// The viewport's title and per-frame lists (events, dropped files) are left out: a title is
/// the app's own doing, and the lists are events, checked on their own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WindowFingerprint {
    screen_rect: Option<egui::Rect>,
    focused: bool,
    system_theme: Option<egui::Theme>,
    hovered_files: usize,
    max_texture_side: Option<usize>,
    native_pixels_per_point: Option<f32>,
    monitor_size: Option<egui::Vec2>,
    inner_rect: Option<egui::Rect>,
    outer_rect: Option<egui::Rect>,
    minimized: Option<bool>,
    maximized: Option<bool>,
    fullscreen: Option<bool>,
    viewport_focused: Option<bool>,
    occluded: Option<bool>,
}

impl WindowFingerprint {
    /// The fingerprint of `input`'s own viewport.
    pub(crate) fn of(input: &egui::RawInput) -> Self {
        let info = input.viewports.get(&input.viewport_id);
        Self {
            screen_rect: input.screen_rect,
            focused: input.focused,
            system_theme: input.system_theme,
            hovered_files: input.hovered_files.len(),
            max_texture_side: input.max_texture_side,
            native_pixels_per_point: info.and_then(|i| i.native_pixels_per_point),
            monitor_size: info.and_then(|i| i.monitor_size),
            inner_rect: info.and_then(|i| i.inner_rect),
            outer_rect: info.and_then(|i| i.outer_rect),
            minimized: info.and_then(|i| i.minimized),
            maximized: info.and_then(|i| i.maximized),
            fullscreen: info.and_then(|i| i.fullscreen),
            viewport_focused: info.and_then(|i| i.focused),
            occluded: info.and_then(|i| i.occluded),
        }
    }

    /// Whether `input` carries events of any kind: input events, dropped files, or the
    /// window's own events (close requested).
    pub(crate) fn has_events(input: &egui::RawInput) -> bool {
        !input.events.is_empty()
            || !input.dropped_files.is_empty()
            || input
                .viewports
                .get(&input.viewport_id)
                .is_some_and(|info| !info.events.is_empty())
    }
}
