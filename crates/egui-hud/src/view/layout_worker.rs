use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, TryLockError};

use crate::view::hud_view::HudView;

/// A thread that lays the HUD out again after a refresh, between a frame and the next
/// ([`crate::view::hud_view::Relayout::OffThread`]), so that the UI thread does not: the
/// layout is the larger part of a refresh (placing a few hundred characters, the bars and the
/// plot's line into one mesh), and runs with cold caches twice a second.
///
/// The view itself is handed over, whole, and taken back when it is done (a stand-in draws its
/// last layout meanwhile, see `crate::plugin::view_home::ViewHome`): the view is never in two
/// places, and shares only what it reads (the snapshot its rows are formatted from, behind an
/// `Arc`). Started on the first layout handed over, one
/// per viewport's HUD; asleep between refreshes; ends when its owner drops it (after the
/// layout under way, if any).
///
/// Locking: one `Mutex` around the view's slot, taken by either thread only to put the view in,
/// take it out or look whether it is done (never during the layout), and a `Condvar` each side
/// waits on. Not a channel: a receiver that waits for the first time allocates (std's waiter
/// lists), and the UI thread may wait in a frame between refreshes, which allocates nothing.
pub(crate) struct LayoutWorker {
    shared: Arc<Shared>,
    /// A view was handed over and not taken back.
    holds_view: bool,
}

#[derive(Default)]
struct Shared {
    slot: Mutex<Slot>,
    changed: Condvar,
}

#[derive(Default)]
struct Slot {
    /// Handed over, not yet taken by the thread.
    to_lay_out: Option<Box<HudView>>,
    /// Laid out, not yet taken back.
    laid_out: Option<Box<HudView>>,
    /// The owner is gone: the thread ends.
    stop: bool,
    /// The thread ended (its owner gone, or a panic in a layout, which loses that view).
    thread_gone: bool,
}

/// Tells the owner the thread ended, however it ends (a panic unwinds through this).
struct GoneOnDrop(Arc<Shared>);

impl Drop for GoneOnDrop {
    fn drop(&mut self) {
        lock(&self.0.slot).thread_gone = true;
        self.0.changed.notify_all();
    }
}

/// Whether [`LayoutWorker::take_back`] waits for a layout under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Until the layout is done.
    UntilDone,
    /// Not at all: a layout under way stays with the worker.
    No,
}

/// What [`LayoutWorker::take_back`] found.
pub(crate) enum TakenBack {
    /// The view, laid out.
    View(Box<HudView>),
    /// The layout is under way, or the worker was putting the view back (only with
    /// [`Wait::No`]); or no view was handed over.
    NotDone,
    /// The thread ended with the view (a panic in its layout).
    Lost,
}

/// The slot, also after a panic elsewhere poisoned the lock: the slot holds no invariant a
/// panic could break between its fields.
fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LayoutWorker {
    /// Starts the thread, which lays each view handed over out with [`HudView::lay_out_due`].
    ///
    /// # Errors
    /// The thread could not be started (a platform without threads, such as the web): the
    /// caller lays the HUD out on the UI thread.
    pub(crate) fn start() -> std::io::Result<Self> {
        Self::start_with(HudView::lay_out_due)
    }

    /// [`Self::start`], with `lay_out` as the layout (a test holds it back).
    ///
    /// # Errors
    /// As [`Self::start`].
    pub(crate) fn start_with(
        mut lay_out: impl FnMut(&mut HudView) + Send + 'static,
    ) -> std::io::Result<Self> {
        let shared = Arc::new(Shared::default());
        let gone = GoneOnDrop(Arc::clone(&shared));
        std::thread::Builder::new()
            .name("egui-hud-layout".to_owned())
            .spawn(move || {
                let shared = Arc::clone(&gone.0);
                loop {
                    let mut slot = lock(&shared.slot);
                    let mut view = loop {
                        if slot.stop {
                            return;
                        }
                        if let Some(view) = slot.to_lay_out.take() {
                            break view;
                        }
                        slot = shared
                            .changed
                            .wait(slot)
                            .unwrap_or_else(PoisonError::into_inner);
                    };
                    drop(slot);
                    lay_out(&mut view);
                    lock(&shared.slot).laid_out = Some(view);
                    shared.changed.notify_all();
                }
            })?;
        Ok(Self {
            shared,
            holds_view: false,
        })
    }

    /// Whether a view was handed over and not taken back. Free.
    pub(crate) fn holds_view(&self) -> bool {
        self.holds_view
    }

    /// Hands `view` over to be laid out ([`HudView::lay_out_due`]). Never waits for the layout.
    /// Gives the view back if the thread is gone.
    pub(crate) fn lay_out(&mut self, view: Box<HudView>) -> Result<(), Box<HudView>> {
        debug_assert!(!self.holds_view, "one view at a time");
        let mut slot = lock(&self.shared.slot);
        if slot.thread_gone {
            return Err(view);
        }
        debug_assert!(
            slot.to_lay_out.is_none() && slot.laid_out.is_none(),
            "the slot is empty while the view is here"
        );
        slot.to_lay_out = Some(view);
        drop(slot);
        self.shared.changed.notify_all();
        self.holds_view = true;
        Ok(())
    }

    /// The view handed over, laid out, waiting for it as `wait` says (the layout takes tens of
    /// µs; it was handed over a few passes before). With [`Wait::No`] the slot is only looked
    /// at if its lock is free: the worker holds it for a moment to put the view in, and a
    /// worker preempted then must not hold the UI thread up.
    pub(crate) fn take_back(&mut self, wait: Wait) -> TakenBack {
        if !self.holds_view {
            return TakenBack::NotDone;
        }
        let mut slot = match wait {
            Wait::UntilDone => lock(&self.shared.slot),
            Wait::No => match self.shared.slot.try_lock() {
                Ok(slot) => slot,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => return TakenBack::NotDone,
            },
        };
        loop {
            if let Some(view) = slot.laid_out.take() {
                self.holds_view = false;
                return TakenBack::View(view);
            }
            if slot.thread_gone {
                self.holds_view = false;
                return TakenBack::Lost;
            }
            if wait == Wait::No {
                return TakenBack::NotDone;
            }
            slot = self
                .shared
                .changed
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for LayoutWorker {
    fn drop(&mut self) {
        lock(&self.shared.slot).stop = true;
        self.shared.changed.notify_all();
    }
}
