use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use profiler_core::Instant;

/// Delayed requests remembered per frame; beyond this they are counted as untracked (INV then
/// reads low). An app asks for a few per frame; egui's widgets for one or two.
const MAX_DELAYED: usize = 32;

/// A request counts for a frame when it fell due this close after the frame's time: an
/// integration may run the frame a little before the time asked for.
const DUE_TOLERANCE_SECS: f64 = 0.002;

/// Every repaint request made on a context, as egui's repaint observer reports it
/// (`Context::set_repaint_observer`), sorted by viewport and by the frame it wakes: what the
/// app asked for, so the HUD knows its requests instead of guessing them from repaint causes.
///
/// Requests made before a frame began wake that frame; requests made while it runs (egui's own
/// in its input handling included) wake the next one. Due times are on egui's clock: the time of
/// the frame a request was made in, plus its delay (a request from another thread between
/// frames: the latest frame's time, so it is never taken for later than it is). The HUD's own requests go through
/// [`crate::repaint::tick`], which announces them, so they never count as the app's.
///
/// Only one observer can be set per context, and egui offers no way to read or chain the one
/// in place: an observer set before the HUD is first shown is replaced. If an integration or
/// the app replaces the HUD's afterwards,
/// the HUD notices at its next own request (the observer did not see it): it logs once and
/// classifies frames without the app's requests, as if none were due (see
/// [`crate::frame::frame_facts::FrameFacts`]).
///
/// ## Locking
/// One mutex, held for a few comparisons and never while calling egui. The observer takes it on
/// the thread that asks for a repaint while egui holds the context's lock, so the order is
/// always context, then ledger; the plugin's hooks take it while egui holds the plugin's lock
/// (plugin, then ledger). Nothing takes the plugin or the context under it.
#[derive(Clone, Default)]
pub(crate) struct RepaintLedger {
    shared: Arc<Mutex<Ledger>>,
}

#[derive(Default)]
struct Ledger {
    /// A handful of viewports: a linear scan beats hashing, and allocates only on a new one.
    viewports: Vec<(egui::ViewportId, ViewportRequests)>,
    /// Whether the HUD's observer is the context's (it saw the HUD's own last request).
    observed: bool,
    lost_logged: bool,
}

#[derive(Default)]
struct ViewportRequests {
    /// A frame of this viewport is running: new requests wake the next one.
    in_frame: bool,
    /// egui time of the viewport's latest frame: the base of due times.
    frame_time_secs: f64,
    /// Requests that wake the frame about to run (or running, until it takes them).
    waking: RequestSet,
    /// Requests made while the frame runs.
    next: RequestSet,
    /// The HUD's own request being made now, and whether the observer saw it.
    own: Option<Duration>,
    own_seen: bool,
}

/// Requests for one frame: how many were immediate, and when the delayed ones fall due.
#[derive(Clone, Copy)]
struct RequestSet {
    immediate: u32,
    due_secs: [f64; MAX_DELAYED],
    delayed: usize,
    untracked: u32,
    /// The request that falls due first, in real time: the latency path's request mark.
    first: Option<RequestMark>,
}

/// When a request was made and when it falls due, in real time (the observer runs when the
/// app calls `request_repaint*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RequestMark {
    pub(crate) requested_at: Instant,
    pub(crate) due_at: Instant,
}

/// What the ledger knows of the requests that woke a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Waking {
    /// How many had fallen due; `None` when the ledger does not see the app's requests.
    pub(crate) due: Option<u32>,
    /// The one that fell due first.
    pub(crate) first: Option<RequestMark>,
}

impl Default for RequestSet {
    fn default() -> Self {
        Self {
            immediate: 0,
            due_secs: [0.0; MAX_DELAYED],
            delayed: 0,
            untracked: 0,
            first: None,
        }
    }
}

impl RequestSet {
    fn add(&mut self, delay: Duration, base_secs: f64, requested_at: Instant) {
        self.note_first(RequestMark {
            requested_at,
            due_at: requested_at + delay,
        });
        if delay.is_zero() {
            self.immediate = self.immediate.saturating_add(1);
        } else if self.delayed < MAX_DELAYED {
            self.due_secs[self.delayed] = base_secs + delay.as_secs_f64();
            self.delayed += 1;
        } else {
            self.untracked = self.untracked.saturating_add(1);
        }
    }

    fn note_first(&mut self, mark: RequestMark) {
        if self.first.is_none_or(|first| mark.due_at < first.due_at) {
            self.first = Some(mark);
        }
    }

    /// Adds `other`'s requests, their due times moved by `base_secs`.
    fn merge(&mut self, other: &Self, base_secs: f64) {
        if let Some(mark) = other.first {
            self.note_first(mark);
        }
        self.immediate = self.immediate.saturating_add(other.immediate);
        self.untracked = self.untracked.saturating_add(other.untracked);
        for &due in &other.due_secs[..other.delayed] {
            if self.delayed < MAX_DELAYED {
                self.due_secs[self.delayed] = base_secs + due;
                self.delayed += 1;
            } else {
                self.untracked = self.untracked.saturating_add(1);
            }
        }
    }

    /// How many had fallen due at `time_secs`.
    fn due_at(&self, time_secs: f64) -> u32 {
        let delayed = self.due_secs[..self.delayed]
            .iter()
            .filter(|&&due| due <= time_secs + DUE_TOLERANCE_SECS)
            .count();
        self.immediate
            .saturating_add(u32::try_from(delayed).unwrap_or(u32::MAX))
    }

    /// When the soonest falls due: `base_secs` for an immediate one.
    fn soonest_due_secs(&self, base_secs: f64) -> Option<f64> {
        if self.immediate > 0 {
            return Some(base_secs);
        }
        self.due_secs[..self.delayed]
            .iter()
            .copied()
            .reduce(f64::min)
    }
}

impl RepaintLedger {
    /// Sets this ledger as `ctx`'s repaint observer. Called once, when the HUD's plugin is added.
    pub(crate) fn observe(&self, ctx: &egui::Context) {
        self.shared.lock().observed = true;
        let ledger = self.clone();
        ctx.set_repaint_observer(move |info| ledger.record(info));
    }

    fn record(&self, info: egui::RequestRepaintInfo) {
        let mut ledger = self.shared.lock();
        let requests = ledger.viewport(info.viewport_id);
        if requests.own == Some(info.delay) {
            requests.own = None;
            requests.own_seen = true;
            return;
        }
        let now = Instant::now();
        if requests.in_frame {
            // Dated when the frame closes: its time is not known before its first pass.
            requests.next.add(info.delay, 0.0, now);
        } else {
            // Between frames (another thread): the latest frame's time, early rather than late.
            let base_secs = requests.frame_time_secs;
            requests.waking.add(info.delay, base_secs, now);
        }
    }

    /// A frame of `viewport` begins (its first pass's input): requests from now on wake the
    /// next one.
    pub(crate) fn open_frame(&self, viewport: egui::ViewportId) {
        self.shared.lock().viewport(viewport).in_frame = true;
    }

    /// Takes the requests that woke the frame running at egui time `time_secs`: how many had
    /// fallen due (`None` when the ledger does not see the app's requests: its observer was
    /// replaced) and the one that fell due first.
    pub(crate) fn take_waking(&self, viewport: egui::ViewportId, time_secs: f64) -> Waking {
        let mut ledger = self.shared.lock();
        let observed = ledger.observed;
        let requests = ledger.viewport(viewport);
        requests.frame_time_secs = time_secs;
        let waking = std::mem::take(&mut requests.waking);
        Waking {
            due: observed.then(|| waking.due_at(time_secs)),
            first: waking.first.filter(|_| observed),
        }
    }

    /// The frame's final pass ended: its requests now wake the next frame. Returns when the
    /// soonest of them falls due (egui time), `None` when the app asked for no frame.
    pub(crate) fn close_frame(&self, viewport: egui::ViewportId) -> Option<f64> {
        let mut ledger = self.shared.lock();
        let requests = ledger.viewport(viewport);
        requests.in_frame = false;
        let next = std::mem::take(&mut requests.next);
        requests.waking.merge(&next, requests.frame_time_secs);
        requests.waking.soonest_due_secs(requests.frame_time_secs)
    }

    /// Forgets `viewport`'s requests: a HUD that starts sampling judges only what follows.
    /// `frame_open`: whether a frame of it is timed from now on (and will be closed).
    pub(crate) fn restart(&self, viewport: egui::ViewportId, frame_open: bool) {
        let mut ledger = self.shared.lock();
        let requests = ledger.viewport(viewport);
        requests.waking = RequestSet::default();
        requests.next = RequestSet::default();
        requests.in_frame = frame_open;
    }

    /// Whether the observer sees the app's requests.
    pub(crate) fn is_observed(&self) -> bool {
        self.shared.lock().observed
    }

    /// Announces the HUD's own request, about to be made: the observer will not count it.
    pub(crate) fn expect_own(&self, viewport: egui::ViewportId, delay: Duration) {
        let mut ledger = self.shared.lock();
        let requests = ledger.viewport(viewport);
        requests.own = Some(delay);
        requests.own_seen = false;
    }

    /// After the HUD's own request: whether the observer saw it. If not, another observer
    /// replaced this one; from now on the ledger says it does not know the app's requests.
    pub(crate) fn confirm_own(&self, viewport: egui::ViewportId) {
        let mut ledger = self.shared.lock();
        let requests = ledger.viewport(viewport);
        let seen = std::mem::take(&mut requests.own_seen);
        requests.own = None;
        if !seen && ledger.observed {
            ledger.observed = false;
            if !std::mem::replace(&mut ledger.lost_logged, true) {
                log::warn!(
                    "egui-hud: another repaint observer replaced the HUD's \
                     (Context::set_repaint_observer); frames at the HUD's refresh time are \
                     now taken for the HUD's, and the refresh no longer waits for app frames"
                );
            }
        }
    }
}

impl Ledger {
    fn viewport(&mut self, viewport: egui::ViewportId) -> &mut ViewportRequests {
        let index = if let Some(index) = self.viewports.iter().position(|(id, _)| *id == viewport) {
            index
        } else {
            self.viewports.push((viewport, ViewportRequests::default()));
            self.viewports.len() - 1
        };
        &mut self.viewports[index].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: egui::ViewportId = egui::ViewportId::ROOT;

    fn request(ledger: &RepaintLedger, delay: Duration) {
        ledger.record(egui::RequestRepaintInfo {
            viewport_id: ROOT,
            delay,
            current_cumulative_pass_nr: 0,
        });
    }

    #[test]
    fn requests_made_in_a_frame_wake_the_next_and_count_when_due() {
        let ledger = RepaintLedger::default();
        ledger.open_frame(ROOT);
        assert_eq!(ledger.take_waking(ROOT, 1.0).due, None, "no observer set");
        ledger.shared.lock().observed = true;
        request(&ledger, Duration::ZERO);
        request(&ledger, Duration::from_secs(10));
        assert_eq!(ledger.close_frame(ROOT), Some(1.0), "the immediate one");
        ledger.open_frame(ROOT);
        let waking = ledger.take_waking(ROOT, 1.016);
        assert_eq!(waking.due, Some(1), "the 10 s request was not due");
        let first = waking.first.expect("the first request's marks");
        assert_eq!(
            first.due_at, first.requested_at,
            "the immediate one falls due first, when it was made"
        );
        request(&ledger, Duration::from_millis(250));
        assert_eq!(ledger.close_frame(ROOT), Some(1.266));
    }

    #[test]
    fn the_huds_own_request_is_not_the_apps() {
        let ledger = RepaintLedger::default();
        ledger.shared.lock().observed = true;
        ledger.expect_own(ROOT, Duration::from_millis(510));
        request(&ledger, Duration::from_millis(510));
        ledger.confirm_own(ROOT);
        assert_eq!(ledger.close_frame(ROOT), None);
        assert!(ledger.is_observed());
        ledger.expect_own(ROOT, Duration::from_millis(510));
        ledger.confirm_own(ROOT); // the observer was replaced: it saw nothing
        assert!(!ledger.is_observed());
    }
}
