use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};

use crate::view::hud_view::HudView;

/// A thread that lays the HUD out again after a refresh, between a frame and the next
/// ([`crate::view::hud_view::Relayout::OffThread`]), so that the UI thread does not: the
/// layout is the larger part of a refresh (placing a few hundred characters, the bars and the
/// plot's line into one mesh), and runs with cold caches twice a second.
///
/// The view itself is handed over, whole, and taken back before its next use: nothing is
/// shared, and the view is never in two places. Started on the first layout handed over, one
/// per viewport's HUD; asleep on its channel between refreshes; ends when its owner drops it
/// (after the layout under way, if any).
///
/// Locking: none. Two channels of room one; the view goes one way and comes back the other.
/// The receiving end is in a `Mutex` only so that the plugin that owns this is `Sync`, as egui
/// asks: it is reached through `&mut self` (`Mutex::get_mut`), never locked.
pub(crate) struct LayoutWorker {
    to_thread: SyncSender<Box<HudView>>,
    from_thread: Mutex<Receiver<Box<HudView>>>,
    /// A view was handed over and not taken back.
    holds_view: bool,
}

impl LayoutWorker {
    /// Starts the thread.
    ///
    /// # Errors
    /// The thread could not be started (a platform without threads, such as the web): the
    /// caller lays the HUD out on the UI thread.
    pub(crate) fn start() -> std::io::Result<Self> {
        let (to_thread, views) = sync_channel::<Box<HudView>>(1);
        let (laid_out, from_thread) = sync_channel(1);
        std::thread::Builder::new()
            .name("egui-hud-layout".to_owned())
            .spawn(move || {
                for mut view in views {
                    view.lay_out_due();
                    if laid_out.send(view).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Self {
            to_thread,
            from_thread: Mutex::new(from_thread),
            holds_view: false,
        })
    }

    /// Whether a view was handed over and not taken back. Free.
    pub(crate) fn holds_view(&self) -> bool {
        self.holds_view
    }

    /// Hands `view` over to be laid out ([`HudView::lay_out_due`]). Never blocks (the channel
    /// has room: the worker holds no other view). Gives the view back if the thread is gone.
    pub(crate) fn lay_out(&mut self, view: Box<HudView>) -> Result<(), Box<HudView>> {
        debug_assert!(!self.holds_view, "one view at a time");
        match self.to_thread.try_send(view) {
            Ok(()) => {
                self.holds_view = true;
                Ok(())
            }
            Err(TrySendError::Full(view) | TrySendError::Disconnected(view)) => Err(view),
        }
    }

    /// The view handed over, laid out: waits for it (the layout takes tens of µs; it was
    /// handed over a frame before). `None` if none was handed over, or the thread is gone with
    /// it.
    pub(crate) fn take_back(&mut self) -> Option<Box<HudView>> {
        if !std::mem::take(&mut self.holds_view) {
            return None;
        }
        // A poisoned lock cannot be: it is never locked.
        let from_thread = self.from_thread.get_mut().ok()?;
        from_thread.recv().ok()
    }
}
