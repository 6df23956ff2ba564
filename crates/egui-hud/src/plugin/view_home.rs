use crate::view::hud_view::{HudView, Relayout};
use crate::view::layout_worker::{LayoutWorker, TakenBack, Wait};

/// Where a viewport's view is: here between passes, out with `fps_monitor` while it draws, or
/// with its [`LayoutWorker`] from the end of a refresh's pass until the layout is done (see
/// [`Relayout::OffThread`]). While the worker has it, a stand-in draws the last layout in its
/// stead, so that the UI thread does not wait for the worker, for [`STAND_IN_MAX_PASSES`] and
/// [`STAND_IN_MAX_SECS`] of egui time at most; a pass after them, or anything that needs the
/// view itself (new readouts, the hover text, a click that changes the layout), takes it back,
/// waiting for the layout if need be. The owner never sees it away.
pub(crate) struct ViewHome {
    /// `None` while `fps_monitor` or the worker has it. Boxed: the view (about 1 KB) goes out
    /// and back every pass, and a moved box copies a pointer, not the view through cold cache
    /// lines.
    view: Option<Box<HudView>>,
    /// The view that draws the last layout while the worker has the real one (see
    /// [`HudView::stand_in_for`]); made at the first layout handed over and kept (empty between
    /// refreshes). `None` while `fps_monitor` has it.
    stand_in: Option<Box<HudView>>,
    /// How many more passes the stand-in may draw in the view's stead: [`STAND_IN_MAX_PASSES`]
    /// when the view is handed over, none once it is back.
    stand_in_passes_left: u8,
    /// The egui time of the latest pass the view went out for ([`Self::take`]), and until
    /// when a stand-in may draw ([`STAND_IN_MAX_SECS`] after the pass that handed the view
    /// over).
    pass_secs: f64,
    stand_in_until_secs: f64,
    worker: Worker,
    /// Whether the view was expanded when it came back from drawing: read every frame (which
    /// frames the GPU timer times) while the view may be away.
    expanded: bool,
}

/// The most passes a stand-in draws in a row: the pass after them waits for the layout, so
/// that new readouts show at the latest that many passes after their refresh's, however
/// busy the machine (in a window the next frame comes milliseconds later, and the layout,
/// some 50-150 µs, is done by then; in a loop whose frames follow each other at once, the
/// worker's wake-up and cold caches took about 130 µs on two cores, a few of its frames).
const STAND_IN_MAX_PASSES: u8 = 4;

/// The most egui time after the refresh's pass that a stand-in draws: 70 ms, four frames at
/// 60 Hz. In egui time, so that where the new readouts first show is decided by the frames'
/// times alone whenever they are this far apart (a test's frames, which follow each other at
/// once in real time; kittest's step is 250 ms): then the next pass takes the view back,
/// waiting if need be, whatever the worker's progress. At 40 ms (two frames at 60 Hz) a loop
/// whose frames follow each other at once in real time while egui time steps 1/60 s waited
/// for the worker at the third (`benches/hud_cost.rs`: the full HUD's own measure 2.6-5.3 µs
/// against 2.7-2.8 with four frames).
const STAND_IN_MAX_SECS: f64 = 0.07;

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
            stand_in: None,
            stand_in_passes_left: 0,
            pass_secs: 0.0,
            stand_in_until_secs: 0.0,
            worker: Worker::NotStarted,
            expanded: true,
        }
    }
}

impl ViewHome {
    /// The view, taken back from the worker if it has it (waiting for its layout). `None`
    /// while `fps_monitor` has it.
    pub(crate) fn get_mut(&mut self) -> Option<&mut HudView> {
        self.take_back(Wait::UntilDone);
        self.view.as_deref_mut()
    }

    /// The view as last drawn, for a pass's checks (the rows set, where the readout is,
    /// whether its hover is built): the stand-in while the worker lays the view out. Never
    /// waits. `None` while `fps_monitor` has it.
    pub(crate) fn drawn_mut(&mut self) -> Option<&mut HudView> {
        self.take_back(Wait::No);
        if self.worker_has_view() {
            self.stand_in.as_deref_mut()
        } else {
            self.view.as_deref_mut()
        }
    }

    /// The view, out for drawing in a pass at egui time `now_secs` (a default one the first
    /// time, or after a worker lost it): the stand-in while the worker lays the view out (see
    /// [`STAND_IN_MAX_PASSES`], [`STAND_IN_MAX_SECS`]).
    pub(crate) fn take(&mut self, now_secs: f64) -> Box<HudView> {
        self.pass_secs = now_secs;
        self.take_back(Wait::No);
        if self.stand_in_passes_left > 0
            && now_secs < self.stand_in_until_secs
            && self.worker_has_view()
            && let Some(stand_in) = self.stand_in.take()
        {
            self.stand_in_passes_left -= 1;
            return stand_in;
        }
        self.take_back(Wait::UntilDone);
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
    /// The stand-in is kept; if its pass needed the view itself, the view is taken back now.
    pub(crate) fn put_back(&mut self, view: Box<HudView>) {
        self.expanded = !view.collapsed;
        // Told apart by its role: the view may have come back while the stand-in was out.
        if view.is_standing_in() {
            debug_assert!(self.stand_in.is_none(), "one stand-in per viewport");
            let outdated = view.is_stand_in_outdated();
            self.stand_in = Some(view);
            if outdated {
                self.take_back(Wait::UntilDone);
            }
            // The view may have come back while the stand-in was out.
            self.end_stand_in();
            return;
        }
        debug_assert!(self.view.is_none(), "one view per viewport");
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

    /// Whether the worker has the view. Free.
    fn worker_has_view(&self) -> bool {
        matches!(&self.worker, Worker::Running(worker) if worker.holds_view())
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
            self.stand_in
                .get_or_insert_with(new_view_out_of_line)
                .stand_in_for(&mut view);
            match worker.lay_out(view) {
                Ok(()) => {
                    self.stand_in_passes_left = STAND_IN_MAX_PASSES;
                    self.stand_in_until_secs = self.pass_secs + STAND_IN_MAX_SECS;
                    return;
                }
                Err(back) => {
                    self.worker_ended();
                    view = back;
                }
            }
        }
        self.view = Some(view);
        self.end_stand_in();
        if let Some(view) = &mut self.view {
            view.lay_out_due();
        }
    }

    /// Takes the view back from the worker if it has it and, as `wait` says, its layout is
    /// done (or waits for it); the stand-in's pass is handed on to it.
    fn take_back(&mut self, wait: Wait) {
        let Worker::Running(worker) = &mut self.worker else {
            return;
        };
        if !worker.holds_view() {
            return;
        }
        let view = match worker.take_back(wait) {
            TakenBack::View(view) => view,
            TakenBack::NotDone => return,
            TakenBack::Lost => {
                // A panic in the layout: the view is lost, a default one takes its place (its
                // rows are formatted again at the next refresh).
                self.worker_ended();
                new_view_out_of_line()
            }
        };
        self.stand_in_passes_left = 0;
        self.view = Some(view);
        // A stand-in out with `fps_monitor` is taken over when it comes back.
        self.end_stand_in();
    }

    /// The view, here, takes over from the stand-in what its pass changed (once per layout
    /// handed over; nothing when no stand-in stands in).
    fn end_stand_in(&mut self) {
        if let (Some(view), Some(stand_in)) = (&mut self.view, &mut self.stand_in)
            && stand_in.is_standing_in()
        {
            view.take_over_from(stand_in);
        }
    }

    /// The layout thread ended: the HUD is laid out on the UI thread from now on.
    fn worker_ended(&mut self) {
        log::warn!("egui-hud: the HUD's layout thread ended; the HUD is laid out on the UI thread");
        self.worker = Worker::Unavailable;
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, mpsc};
    use std::time::Duration;

    use profiler_core::Snapshot;

    use super::{STAND_IN_MAX_PASSES, STAND_IN_MAX_SECS, ViewHome, Worker};
    use crate::view::hud_ids::HudIds;
    use crate::view::hud_preset::HudPreset;
    use crate::view::hud_view::{HudView, Relayout};
    use crate::view::layer_widgets::LayerWidgets;
    use crate::view::layout_worker::LayoutWorker;
    use crate::view::row_list::RowList;

    /// A snapshot whose FRAME reads `frame_ms`.
    fn snapshot_with_frame(frame_ms: u64) -> Snapshot {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_millis(frame_ms));
        snapshot
    }

    /// One pass at egui time `now_secs` drawing the view `home` hands out, laid out as
    /// `relayout` says; returns the rows it drew, as told to screen readers.
    fn drawn_rows(
        ctx: &egui::Context,
        home: &mut ViewHome,
        (relayout, now_secs): (Relayout, f64),
    ) -> String {
        let ids = HudIds::of(egui::ViewportId::ROOT);
        let mut view = home.take(now_secs);
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            view.prepare(ui.painter(), relayout);
            let mut widgets = LayerWidgets::new(ui.ctx(), ui.layer_id(), ui.clip_rect());
            view.draw(ui.painter(), &mut widgets, ui.min_rect().min, &ids);
        });
        output.textures_delta.clear(); // nothing paints here
        home.put_back(view);
        let update = output
            .platform_output
            .accesskit_update
            .expect("accessibility is on");
        update
            .nodes
            .iter()
            .find_map(|(_, node)| {
                node.value()
                    .filter(|v| v.contains("FRAME"))
                    .map(str::to_owned)
            })
            .expect("the rows are drawn")
    }

    /// Lets the held worker's layout go after `delay`, from a thread named `name`.
    fn release_after(
        release: &mpsc::Sender<()>,
        name: &str,
        delay: Duration,
    ) -> std::thread::JoinHandle<()> {
        let release = release.clone();
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                std::thread::sleep(delay);
                let _ = release.send(());
            })
            .expect("a thread")
    }

    /// A home for the full HUD's view, with FRAME at 4 ms, whose layout worker lays each view
    /// out only once let go through the returned sender, and a context with accessibility on.
    fn held_home() -> (egui::Context, ViewHome, mpsc::Sender<()>) {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let (release, held) = mpsc::channel::<()>();
        let worker = LayoutWorker::start_with(move |view: &mut HudView| {
            let _ = held.recv();
            view.lay_out_due();
        })
        .expect("a thread");
        let mut home = ViewHome {
            worker: Worker::Running(worker),
            ..ViewHome::default()
        };
        if let Some(view) = home.get_mut() {
            view.set_rows(RowList::new(HudPreset::Full.rows()));
            view.set_readouts(Arc::new(snapshot_with_frame(4)), None);
        }
        (ctx, home, release)
    }

    /// Behaviour: while the layout thread lays a refresh out, the next passes do not wait for
    /// it: a stand-in draws the last refresh's rows, for up to `STAND_IN_MAX_PASSES` within
    /// `STAND_IN_MAX_SECS` of egui time. A pass after them waits, and draws the new rows.
    /// Fails where the next pass waits for the layout (stop 49: it took the view back from the
    /// worker, held back here until the watchdog let it go), and without the time bound.
    #[test]
    fn the_pass_after_a_refresh_does_not_wait_for_its_layout() {
        let (ctx, mut home, release) = held_home();
        let first = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
        assert!(first.contains("4.00 ms"), "{first}");

        if let Some(view) = home.get_mut() {
            view.set_readouts(Arc::new(snapshot_with_frame(9)), None);
        }
        let refresh = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
        assert_eq!(refresh, first, "the refresh's pass draws the last layout");
        assert!(home.worker_has_view(), "its layout went to the worker");

        // A pass that waits for the worker would wait forever: the watchdog lets the layout go
        // after a while, and the rows drawn then tell that the pass waited.
        // Long enough for the passes below on a loaded machine; a pass that waits for the
        // worker fails the test only this much later.
        let watchdog = release_after(&release, "watchdog", Duration::from_mins(1));
        for pass in 1..=STAND_IN_MAX_PASSES {
            let next = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
            assert_eq!(
                next, first,
                "pass {pass} draws the stand-in, without waiting"
            );
            assert!(home.worker_has_view(), "the layout is still held back");
        }

        let _ = release.send(());
        let after = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
        assert!(after.contains("9.00 ms"), "the pass after waits: {after}");
        assert!(!home.worker_has_view());

        // A pass `STAND_IN_MAX_SECS` or more after the refresh's (egui time) takes the view
        // back, waiting for the layout, let go a little later here.
        if let Some(view) = home.get_mut() {
            view.set_readouts(Arc::new(snapshot_with_frame(12)), None);
        }
        let refresh = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 1.0));
        assert_eq!(refresh, after, "the refresh's pass draws the last layout");
        assert!(home.worker_has_view());
        let releaser = release_after(&release, "releaser", Duration::from_millis(50));
        let late = drawn_rows(
            &ctx,
            &mut home,
            (Relayout::OffThread, 1.0 + STAND_IN_MAX_SECS),
        );
        assert!(late.contains("12.0 ms"), "no stand-in that late: {late}");
        drop((watchdog, releaser));
    }

    /// Behaviour: the stand-in keeps the hover text built in the refresh's pass (a pointer
    /// resting on the readout does not have it built again, waiting for the worker), and a
    /// pass that finds its layout outdated (here a new theme) says so, so that the pass is
    /// redone with the view, which is taken back when the stand-in comes back. Both fail
    /// before the review fixes (the hover was dropped; the stand-in's state was not asked).
    #[test]
    fn a_stand_in_keeps_the_hover_and_gives_way_to_a_new_look() {
        let (ctx, mut home, release) = held_home();
        let _ = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
        if let Some(view) = home.get_mut() {
            view.set_readouts(Arc::new(snapshot_with_frame(9)), None);
            view.set_hover("the hover".to_owned());
        }
        let _ = drawn_rows(&ctx, &mut home, (Relayout::OffThread, 0.0));
        assert!(home.worker_has_view(), "its layout went to the worker");
        assert!(
            home.drawn_mut()
                .is_some_and(|stand_in| !stand_in.lacks_hover()),
            "the stand-in has the hover text"
        );

        ctx.set_visuals(egui::Visuals::light());
        let mut stand_in = home.take(0.0);
        assert!(stand_in.is_standing_in());
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            stand_in.prepare(ui.painter(), Relayout::OffThread);
        });
        output.textures_delta.clear(); // nothing paints here
        assert!(
            stand_in.is_stand_in_outdated(),
            "a new look: the pass is to be redone"
        );
        let _ = release.send(());
        home.put_back(stand_in);
        assert!(!home.worker_has_view(), "the view is taken back at once");
        let view = home.take(0.0);
        assert!(!view.is_standing_in() && !view.lacks_hover());
        home.put_back(view);
    }
}
