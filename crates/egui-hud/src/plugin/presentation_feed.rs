//! A viewport's presentation source, fed with its frames and read every few frames.

use std::sync::Arc;

use profiler_core::presentation::{
    CommittedFrame, MatchedPresentation, PresentationError, PresentationOutcome, PresentationSource,
};
use profiler_core::record::frame_recorder::FrameRecorder;
use profiler_core::{Clock, FrameSampler};

/// Frames between two reads of the source in turn ([`PresentationRead::InTurn`]). A read of
/// several reports costs far less than a read of each: on Wayland, dispatching the source's
/// queue took 6.8–9.7 µs for one frame's reports and 11.1–13.6 for four, on the mean
/// (`benches/presentation_cost.rs`, weston, three runs), so request and read went from
/// 11.7–16.3 to 9.1–11.5 µs a frame. The reports wait at most three
/// frames more, within what the frame recorder waits for a frame's marks (16 frames) and the
/// matcher keeps (16 committed frames); a refresh reads them all first.
pub(crate) const READ_EVERY_FRAMES: u32 = 4;

/// When [`PresentationFeed::read`] reads the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PresentationRead {
    /// Once a frame: every [`READ_EVERY_FRAMES`] frames.
    InTurn,
    /// Now (a refresh, a benchmark's start and end: their readouts miss no report that came),
    /// unless the source was read since the last frame's turn: one read, not two.
    Now,
}

/// What a viewport knows of its window's presentations: the source (`install_window` builds
/// it), or why there is none. While the HUD samples and shows DISPLAYED, each frame's commit
/// goes to the source and, every [`READ_EVERY_FRAMES`] frames and at each refresh, what the
/// window system reported goes to the sampler (DISPLAYED, MISS) and to the frame recorder
/// (each counted frame's `on screen` mark).
/// Otherwise (hidden, or a preset without the row) it does nothing: on X11 the events are
/// deselected, on Wayland no feedback is asked for.
#[derive(Debug, Default)]
pub(crate) struct PresentationFeed {
    source: Option<PresentationSource>,
    /// Why there are no presentation times, for the hover; logged once when set.
    note: Option<Arc<str>>,
    /// The refresh rate the latest presentation reported (Wayland), in Hz.
    refresh_hz: Option<f64>,
    /// Whether the source reports now: while the HUD samples and shows DISPLAYED.
    watching: bool,
    /// Frames since the source was last read.
    frames_unread: u32,
}

impl PresentationFeed {
    /// The source `install_window` built for the window, or why it could not.
    pub(crate) fn set_source(&mut self, source: Result<PresentationSource, PresentationError>) {
        match source {
            // Quiet until a frame wants it (the HUD shown with DISPLAYED).
            Ok(mut source) => match source.set_watching(false) {
                Ok(()) => {
                    self.source = Some(source);
                    self.watching = false;
                    self.note = None;
                }
                Err(error) => self.stop(&error.to_string()),
            },
            Err(error) => self.stop(&error.to_string()),
        }
    }

    /// Whether the window has a presentation source (built, not stopped).
    pub(crate) fn has_source(&self) -> bool {
        self.source.is_some()
    }

    /// Why there are no presentation times, once known.
    pub(crate) fn note(&self) -> Option<&Arc<str>> {
        self.note.as_ref()
    }

    /// The output's refresh rate as the latest presentation reported it.
    pub(crate) fn refresh_hz(&self) -> Option<f64> {
        self.refresh_hz
    }

    /// The HUD stopped sampling (its sampler was dropped): nothing is watched until a frame
    /// wants it again.
    pub(crate) fn stop_watching(&mut self) {
        self.set_watching(false, None);
    }

    /// Starts or stops the window system's reports; the sampler and recorder, when given, learn
    /// whether reports come, and before the reports stop they get those that came since the
    /// last read (up to [`READ_EVERY_FRAMES`] frames' worth, which deselecting drops).
    fn set_watching(
        &mut self,
        watching: bool,
        mut sampling: Option<(&mut FrameSampler, &mut FrameRecorder, &Arc<dyn Clock>)>,
    ) {
        if self.source.is_none() || self.watching == watching {
            return;
        }
        if !watching && let Some((sampler, recorder, clock)) = sampling.as_mut() {
            self.poll(sampler, recorder, clock);
        }
        let Some(source) = &mut self.source else {
            return; // the read found the source failed, and stopped it
        };
        self.watching = watching;
        if let Err(error) = source.set_watching(watching) {
            if let Some((sampler, recorder, _)) = sampling {
                recorder.set_expects_presentations(false, sampler);
            }
            self.stop(&error.to_string());
            return;
        }
        if let Some((sampler, recorder, _)) = sampling {
            sampler.set_presentation_source(source.name());
            recorder.set_expects_presentations(watching, sampler);
        }
    }

    /// `frame` is about to be committed. `wanted`: whether the rows shown need presentation
    /// times (DISPLAYED is among them); while they do not, nothing is asked for or read, so
    /// the per-frame cost is only paid where the row is shown.
    pub(crate) fn frame_committing(
        &mut self,
        frame: CommittedFrame,
        wanted: bool,
        sampler: &mut FrameSampler,
        recorder: &mut FrameRecorder,
        clock: &Arc<dyn Clock>,
    ) {
        self.set_watching(wanted, Some((&mut *sampler, &mut *recorder, clock)));
        if !self.watching {
            return;
        }
        let Some(source) = &mut self.source else {
            return;
        };
        let refresh_hz = &mut self.refresh_hz;
        source.frame_committing(frame, |matched| {
            hand_on(matched, sampler, recorder, clock, refresh_hz);
        });
    }

    /// Reads the source when `when` says (see [`Self::poll`]). Costs a count when it does not;
    /// a read when it does (Wayland 13–16 µs for four frames' reports, X11 a lock).
    pub(crate) fn read(
        &mut self,
        when: PresentationRead,
        sampler: &mut FrameSampler,
        recorder: &mut FrameRecorder,
        clock: &Arc<dyn Clock>,
    ) {
        let due = match when {
            PresentationRead::InTurn => {
                self.frames_unread += 1;
                self.frames_unread >= READ_EVERY_FRAMES
            }
            PresentationRead::Now => self.frames_unread > 0,
        };
        if due {
            self.poll(sampler, recorder, clock);
        }
    }

    /// Reads what the window system reported since the last read (never blocks); a source
    /// that failed, or stayed silent for many frames, stops, and the hover says why.
    fn poll(
        &mut self,
        sampler: &mut FrameSampler,
        recorder: &mut FrameRecorder,
        clock: &Arc<dyn Clock>,
    ) {
        self.frames_unread = 0;
        let Some(source) = self.source.as_mut().filter(|_| self.watching) else {
            return;
        };
        let refresh_hz = &mut self.refresh_hz;
        let polled = source.poll(|matched| {
            hand_on(matched, sampler, recorder, clock, refresh_hz);
        });
        let silence = source.silence_reason();
        if let Err(error) = polled {
            recorder.set_expects_presentations(false, sampler);
            self.stop(&error.to_string());
        } else if let Some(silence) = silence {
            recorder.set_expects_presentations(false, sampler);
            self.stop(silence);
        }
    }

    /// No presentation times from now on, because of `why` (logged once).
    fn stop(&mut self, why: &str) {
        log::info!("egui-hud: no presentation times ({why}); DISPLAYED is absent");
        self.source = None;
        self.note = Some(Arc::from(why));
    }
}

/// One matched frame into the sampler and, if the HUD counted it, into its record.
fn hand_on(
    matched: MatchedPresentation,
    sampler: &mut FrameSampler,
    recorder: &mut FrameRecorder,
    clock: &Arc<dyn Clock>,
    refresh_hz: &mut Option<f64>,
) {
    sampler.record_presentation(&matched);
    let shown = match matched.outcome {
        Some(PresentationOutcome::Shown(shown)) => Some(shown),
        _ => None,
    };
    if let Some(period) = shown.and_then(|shown| shown.refresh_period) {
        *refresh_hz = Some(1.0 / period.as_secs_f64());
    }
    if matched.frame.counted {
        let on_screen = shown.and_then(|shown| clock.time_of(shown.on_screen));
        recorder.presented(matched.frame.sequence, on_screen, sampler);
    }
}
