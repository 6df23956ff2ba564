//! The X11 completions read off the UI thread, waiting for the next poll.

use std::collections::VecDeque;

use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::{FeedbackFor, PresentationFeedback};
use crate::presentation::presented_frame::PresentationOutcome;

/// What the X11 source's reader thread has read and the UI thread has not yet polled: the
/// reports, in the order the server sent them, and why the reader stopped. Shared by the two
/// behind one `parking_lot::Mutex`, held by each side for a push or a drain only (never across
/// a wait on the server), so the UI thread's poll waits at most for one push.
///
/// It holds at most [`Self::CAPACITY`] reports, room made once: the UI thread polls every
/// few frames (egui-hud: every fourth) and a present completes at most once a frame, so it
/// fills only while the app presents without drawing the HUD. A report past the room is dropped and counted as lost before the
/// next one, as a serial gap is.
#[derive(Debug)]
pub(super) struct CompletionInbox {
    reports: VecDeque<PresentationFeedback>,
    /// The sequence number of the request that made the current selection: events the server
    /// sent before it took that request belong to an earlier watch.
    watched_from: u64,
    /// The app's present serial of the last completion read.
    last_serial: Option<u32>,
    /// Reports dropped (no room, or a time that cannot be placed) since the last one kept.
    dropped: u32,
    /// Why the reader stopped, told at every poll from then on.
    failure: Option<String>,
}

impl CompletionInbox {
    /// Reports held between two polls, at most.
    pub(super) const CAPACITY: usize = 64;

    /// An empty inbox, its room made; events of any sequence number count until
    /// [`Self::restart`].
    pub(super) fn new() -> Self {
        Self {
            reports: VecDeque::with_capacity(Self::CAPACITY),
            watched_from: 0,
            last_serial: None,
            dropped: 0,
            failure: None,
        }
    }

    /// The completion of the app's present `serial`, in an event of sequence number
    /// `event_sequence`: `outcome`, or `None` when its time cannot be placed on the HUD's clock
    /// (it is then counted lost, so that the next report still names its own frame).
    pub(super) fn receive(
        &mut self,
        event_sequence: u64,
        serial: u32,
        outcome: Option<PresentationOutcome>,
    ) {
        if event_sequence < self.watched_from {
            return; // sent before the current selection: its frame is not waiting here
        }
        let gap = self
            .last_serial
            .replace(serial)
            .map_or(0, |last| serial.wrapping_sub(last).saturating_sub(1));
        let lost_before = gap.saturating_add(self.dropped);
        let Some(outcome) = outcome.filter(|_| self.reports.len() < Self::CAPACITY) else {
            self.dropped = lost_before.saturating_add(1);
            return;
        };
        self.dropped = 0;
        self.reports.push_back(PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before },
            outcome,
        });
    }

    /// The reader stopped because of `why` (the first reason is kept).
    pub(super) fn fail(&mut self, why: String) {
        self.failure.get_or_insert(why);
    }

    /// Hands the reports to `out`, oldest first.
    ///
    /// # Errors
    /// The reader stopped (the connection failed or the server went away), at this poll and
    /// every later one, after the reports read before it: stop polling.
    pub(super) fn drain(
        &mut self,
        mut out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        for report in self.reports.drain(..) {
            out(report);
        }
        match &self.failure {
            None => Ok(()),
            Some(why) => Err(PresentationError::X11Connection(why.clone().into())),
        }
    }

    /// A new selection, made by the request of sequence number `request_sequence`: the reports
    /// not yet polled and the last serial are forgotten (the presents made in between were not
    /// watched, so a gap across them is no loss), and events sent before it are ignored.
    pub(super) fn restart(&mut self, request_sequence: u64) {
        self.reports.clear();
        self.watched_from = request_sequence;
        self.last_serial = None;
        self.dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use crate::presentation::completion_inbox::CompletionInbox;
    use crate::presentation::presentation_error::PresentationError;
    use crate::presentation::presentation_matcher::{FeedbackFor, PresentationFeedback};
    use crate::presentation::presented_frame::PresentationOutcome;

    const SKIPPED: Option<PresentationOutcome> = Some(PresentationOutcome::Skipped);

    fn lost_before(report: PresentationFeedback) -> u32 {
        match report.frame {
            FeedbackFor::NextInOrder { lost_before } => lost_before,
            FeedbackFor::Frame(_) => panic!("X11 reports are matched in order"),
        }
    }

    fn drained(inbox: &mut CompletionInbox) -> Vec<u32> {
        let mut lost = Vec::new();
        inbox
            .drain(|report| lost.push(lost_before(report)))
            .expect("no failure");
        lost
    }

    #[test]
    fn serial_gaps_are_lost_before_the_next_report() {
        let mut inbox = CompletionInbox::new();
        for serial in [7, 8, 11, 12] {
            inbox.receive(1, serial, SKIPPED);
        }
        assert_eq!(drained(&mut inbox), [0, 0, 2, 0]);
        assert_eq!(drained(&mut inbox), Vec::<u32>::new());
    }

    #[test]
    fn a_full_inbox_counts_what_it_drops_as_lost_before_the_next_report() {
        let mut inbox = CompletionInbox::new();
        let capacity = u32::try_from(CompletionInbox::CAPACITY).expect("small");
        for serial in 0..capacity + 3 {
            inbox.receive(1, serial, SKIPPED);
        }
        assert_eq!(drained(&mut inbox).len(), CompletionInbox::CAPACITY);
        // Three dropped, then one more missing from the serials.
        inbox.receive(1, capacity + 4, SKIPPED);
        assert_eq!(drained(&mut inbox), [4]);
    }

    #[test]
    fn a_completion_whose_time_cannot_be_placed_is_lost_not_shifted_onto_the_next_frame() {
        let mut inbox = CompletionInbox::new();
        inbox.receive(1, 1, SKIPPED);
        inbox.receive(1, 3, None);
        inbox.receive(1, 4, SKIPPED);
        assert_eq!(
            drained(&mut inbox),
            [0, 2],
            "serial 2 and serial 3 were lost"
        );
    }

    #[test]
    fn events_sent_before_the_selection_are_not_this_watchs() {
        let mut inbox = CompletionInbox::new();
        inbox.receive(5, 1, SKIPPED);
        inbox.restart(10);
        // Queued before the server took the new selection, pushed after the restart.
        inbox.receive(9, 2, SKIPPED);
        inbox.receive(10, 40, SKIPPED);
        inbox.receive(12, 42, SKIPPED);
        assert_eq!(drained(&mut inbox), [0, 1]);
    }

    #[test]
    fn a_failure_comes_after_the_reports_read_before_it_and_at_every_poll() {
        let mut inbox = CompletionInbox::new();
        inbox.receive(1, 1, SKIPPED);
        inbox.fail("end of file".into());
        let mut reports = 0;
        let first = inbox.drain(|_| reports += 1);
        assert_eq!(reports, 1);
        assert!(matches!(first, Err(PresentationError::X11Connection(_))));
        let later = inbox.drain(|_| reports += 1);
        assert!(matches!(later, Err(PresentationError::X11Connection(_))));
    }
}
