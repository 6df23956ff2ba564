//! The platform-independent face of the presentation source.

use raw_window_handle::{HasDisplayHandle, HasWindowHandle, RawDisplayHandle, RawWindowHandle};

use crate::Instant;
use crate::presentation::platform::PlatformSource;
use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::{
    CommittedFrame, MatchedPresentation, PresentationMatcher,
};

/// A source is taken as silent when this many frames were committed, over at least
/// [`SILENT_AFTER`], without a single report: compositors and X servers answer within a few
/// refreshes.
const SILENT_AFTER_FRAMES: u64 = 30;

/// See [`SILENT_AFTER_FRAMES`].
const SILENT_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

/// When each frame of one window reached the screen, as its window system reports it: Wayland's
/// `wp_presentation` feedback (on the app's own connection) or X11's Present `CompleteNotify`
/// (over a connection of its own), matched to the frames by order of commit
/// ([`PresentationMatcher`]).
///
/// Build it once per window on the UI thread with [`Self::from_window`]; then call
/// [`Self::frame_committing`] at the end of each frame's final pass, before the renderer
/// presents, and [`Self::poll`] once a frame or every few frames (reports wait; a read of
/// several costs less than several reads). Nothing blocks after the build. Cost: on Wayland one
/// request a frame (a small allocation for its proxy) and, per read, a non-blocking dispatch of
/// what the app's loop read; on X11 one lock a read, with the server's events read by a thread
/// the source starts (blocked on the server between completions, ended when the source is
/// dropped). Not built: nothing.
#[derive(Debug)]
pub struct PresentationSource {
    platform: PlatformSource,
    matcher: PresentationMatcher,
    committed: u64,
    reports: u64,
    /// When the first frame was committed since the start or the last `set_watching`.
    first_commit: Option<Instant>,
}

impl PresentationSource {
    /// The source for `window`.
    ///
    /// # Errors
    /// [`PresentationError::Unsupported`] off Wayland and X11 (Windows, macOS, the web); on
    /// Wayland when the compositor lacks `wp_presentation` or its clock is not a monotonic one;
    /// on X11 when the server cannot be reached or lacks Present.
    pub fn from_window(
        window: &(impl HasWindowHandle + HasDisplayHandle + ?Sized),
    ) -> Result<Self, PresentationError> {
        let window_handle = window.window_handle()?.as_raw();
        let display_handle = window.display_handle()?.as_raw();
        Self::from_raw_handles(window_handle, display_handle)
    }

    /// Same as [`Self::from_window`], from raw handles the caller has taken out. The handles
    /// must name a live window (the Wayland source wraps its `wl_display` and `wl_surface`).
    ///
    /// # Errors
    /// As [`Self::from_window`].
    pub fn from_raw_handles(
        window_handle: RawWindowHandle,
        display_handle: RawDisplayHandle,
    ) -> Result<Self, PresentationError> {
        PlatformSource::from_raw(window_handle, display_handle).map(Self::of)
    }

    /// The source for the X11 window `window` on the server `display_name` (`None`: `DISPLAY`),
    /// for integrations that know the window's id but have no handle for it.
    ///
    /// # Errors
    /// As [`Self::from_window`] on X11; [`PresentationError::Unsupported`] where X11 is not
    /// built in (Windows, macOS, the web).
    pub fn for_x11_window(
        display_name: Option<&str>,
        window: u32,
    ) -> Result<Self, PresentationError> {
        PlatformSource::x11(display_name, window).map(Self::of)
    }

    fn of(platform: PlatformSource) -> Self {
        Self {
            platform,
            matcher: PresentationMatcher::default(),
            committed: 0,
            reports: 0,
            first_commit: None,
        }
    }

    /// What reports the times: `"Wayland presentation-time"` or `"X11 Present"`.
    pub fn name(&self) -> &'static str {
        self.platform.name()
    }

    /// `frame` ended its final pass and the renderer commits it next: on Wayland its feedback is
    /// asked for now. A frame pushed out of the matcher's queue goes to `out` as unknown.
    pub fn frame_committing(
        &mut self,
        frame: CommittedFrame,
        out: impl FnMut(MatchedPresentation),
    ) {
        self.committed += 1;
        self.first_commit.get_or_insert(frame.committed_at);
        self.platform.frame_committing(frame.sequence);
        self.matcher.committed(frame, out);
    }

    /// Reads the reports that arrived (never blocks) and hands each matched frame to `out`.
    ///
    /// # Errors
    /// The connection failed (the compositor or X server went away): stop polling.
    pub fn poll(
        &mut self,
        mut out: impl FnMut(MatchedPresentation),
    ) -> Result<(), PresentationError> {
        let (platform, matcher, reports) =
            (&mut self.platform, &mut self.matcher, &mut self.reports);
        platform.poll(|feedback| {
            *reports += 1;
            matcher.feedback(feedback, &mut out);
        })
    }

    /// Why no report came, once 30 frames over 2 s were committed without one; `None` while
    /// reports come (or it is too early to tell). Cost: a clock read while no report came.
    pub fn silence_reason(&self) -> Option<&'static str> {
        let silent = self.reports == 0
            && self.committed >= SILENT_AFTER_FRAMES
            && self
                .first_commit
                .is_some_and(|first| first.elapsed() >= SILENT_AFTER);
        silent.then(|| self.platform.silence_reason())
    }

    /// Reports that named no waiting frame (from before the HUD watched), since the start.
    pub fn unmatched(&self) -> u64 {
        self.matcher.unmatched()
    }

    /// Stops (`false`) or restarts (`true`) the window system's reports, as the HUD is hidden
    /// and shown: on X11 the completion events are deselected, so a hidden HUD is sent
    /// nothing; on Wayland nothing is asked for while no frame is committed here. Frames
    /// waiting for a report are forgotten either way. Cost: one round trip on X11.
    ///
    /// # Errors
    /// The X server refused the request (the window is gone).
    pub fn set_watching(&mut self, watching: bool) -> Result<(), PresentationError> {
        self.matcher.clear();
        self.committed = 0;
        self.reports = 0;
        self.first_commit = None;
        self.platform.set_watching(watching)
    }
}
