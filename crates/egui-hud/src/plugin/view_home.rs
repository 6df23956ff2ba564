use crate::view::hud_view::{HudView, Relayout};
use crate::view::layout_worker::LayoutWorker;

/// Where a viewport's view is: here between passes, out with `fps_monitor` while it draws, or
/// with its [`LayoutWorker`] from the end of a refresh's pass to the view's next use (see
/// [`Relayout::OffThread`]). Every use takes it back first, waiting for the layout if need be,
/// so the owner never sees it away.
pub(crate) struct ViewHome {
    /// `None` while `fps_monitor` or the worker has it. Boxed: the view (about 1 KB) goes out
    /// and back every pass, and a moved box copies a pointer, not the view through cold cache
    /// lines.
    view: Option<Box<HudView>>,
    worker: Worker,
    /// Whether the view was expanded when it came back from drawing: read every frame (which
    /// frames the GPU timer times) while the view may be away.
    expanded: bool,
}

/// The layout worker, started on the first layout handed over.
enum Worker {
    NotStarted,
    Running(LayoutWorker),
    /// It could not start (a platform without threads, such as the web), or its thread ended:
    /// the HUD is laid out on the UI thread.
    Unavailable,
}

impl Default for ViewHome {
    fn default() -> Self {
        Self {
            view: Some(Box::default()),
            worker: Worker::NotStarted,
            expanded: true,
        }
    }
}

impl ViewHome {
    /// The view, taken back from the worker if it has it. `None` while `fps_monitor` has it.
    pub(crate) fn get_mut(&mut self) -> Option<&mut HudView> {
        self.take_back();
        self.view.as_deref_mut()
    }

    /// The view, out for drawing (a default one the first time, or after a worker lost it).
    pub(crate) fn take(&mut self) -> Box<HudView> {
        self.take_back();
        self.view.take().unwrap_or_else(new_view_out_of_line)
    }

    /// Where a refresh's layout may be made in this pass: off the UI thread when `next_soon`
    /// (the frame was asked for at once after the last, so the next frame follows it) and a
    /// worker can run. Free.
    pub(crate) fn relayout(&self, next_soon: bool) -> Relayout {
        if next_soon && !matches!(self.worker, Worker::Unavailable) {
            Relayout::OffThread
        } else {
            Relayout::InThisPass
        }
    }

    /// The view is back from drawing: handed to the worker when it has a layout due, or kept.
    pub(crate) fn put_back(&mut self, view: Box<HudView>) {
        debug_assert!(self.view.is_none(), "one view per viewport");
        self.expanded = !view.collapsed;
        if view.has_layout_due() {
            self.hand_over(view);
        } else {
            self.view = Some(view);
        }
    }

    /// Whether the view was expanded when last drawn. Free.
    #[cfg_attr(
        not(feature = "wgpu"),
        expect(dead_code, reason = "only wgpu times GPU passes")
    )]
    pub(crate) fn is_expanded(&self) -> bool {
        self.expanded
    }

    /// Kept out of line: twice a second at most.
    #[cold]
    #[inline(never)]
    fn hand_over(&mut self, mut view: Box<HudView>) {
        if matches!(self.worker, Worker::NotStarted) {
            self.worker = match LayoutWorker::start() {
                Ok(worker) => Worker::Running(worker),
                Err(error) => {
                    log::info!(
                        "egui-hud: no thread for the HUD's layout ({error}); it is laid out on \
                         the UI thread"
                    );
                    Worker::Unavailable
                }
            };
        }
        if let Worker::Running(worker) = &mut self.worker {
            match worker.lay_out(view) {
                Ok(()) => return,
                Err(back) => {
                    log::warn!(
                        "egui-hud: the HUD's layout thread ended; the HUD is laid out on the \
                         UI thread"
                    );
                    self.worker = Worker::Unavailable;
                    view = back;
                }
            }
        }
        view.lay_out_due();
        self.view = Some(view);
    }

    fn take_back(&mut self) {
        let Worker::Running(worker) = &mut self.worker else {
            return;
        };
        if !worker.holds_view() {
            return;
        }
        if let Some(view) = worker.take_back() {
            self.view = Some(view);
        } else {
            // A panic in the layout: the view is lost, a default one takes its place (its
            // rows are formatted again at the next refresh).
            log::warn!(
                "egui-hud: the HUD's layout thread ended; the HUD is laid out on the UI thread"
            );
            self.worker = Worker::Unavailable;
            self.view = Some(new_view_out_of_line());
        }
    }
}

/// A default view, out of line: the plugin's hooks look their state up several times a frame,
/// and a view built in place would put its code between them (the HUD's frames run with cold
/// caches in a real window: every instruction line counts).
#[cold]
#[inline(never)]
fn new_view_out_of_line() -> Box<HudView> {
    Box::default()
}
