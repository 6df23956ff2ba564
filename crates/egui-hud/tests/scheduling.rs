//! The HUD under the ways apps really drive egui, not only exact kittest steps: a loop that runs
//! a frame only when egui asks (eframe), a loop that runs frames on its own (game engines,
//! custom wgpu loops), timer-driven apps, clicks and bursts, real draw time, window changes, an
//! immediate child viewport, and a clock that costs time to read.
#![expect(clippy::expect_used, reason = "test helpers fail loudly")]
#![expect(
    clippy::disallowed_methods,
    reason = "the test apps animate, as games do"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use egui_hud::FpsMonitor;
use egui_hud::profiler_core::{Clock, ManualClock, Snapshot};
use parking_lot::Mutex;

const ROOT: egui::ViewportId = egui::ViewportId::ROOT;

/// When a loop runs its next frame.
#[derive(Clone, Copy, Debug)]
enum Schedule {
    /// Like eframe: only when egui asked for a frame (its request callback), at that time.
    Reactive,
    /// Like a game engine: every `period` whatever egui asked for; zero runs back to back.
    Every(Duration),
}

/// Drives a context on real time, the way an integration does.
struct RealLoop {
    ctx: egui::Context,
    schedule: Schedule,
    epoch: Instant,
    /// The soonest frame egui asked for since the last frame began (eframe's repaint time).
    wake_at: Arc<Mutex<Option<Instant>>>,
    /// When each frame was handed off (after `run_ui`): the loop's own presents.
    presents: Vec<Instant>,
    /// When each frame began.
    starts: Vec<Instant>,
    /// The HUD's readouts after the last frame, and the frame in which they last changed (the
    /// HUD's latest refresh).
    last_snapshot: Option<Snapshot>,
    last_refresh_frame: Option<usize>,
}

impl RealLoop {
    fn new(schedule: Schedule) -> Self {
        let ctx = egui::Context::default();
        let wake_at = Arc::new(Mutex::new(None::<Instant>));
        let wake = Arc::clone(&wake_at);
        ctx.set_request_repaint_callback(move |info| {
            if info.viewport_id != ROOT {
                return;
            }
            let Some(at) = Instant::now().checked_add(info.delay) else {
                return;
            };
            let mut wake = wake.lock();
            *wake = Some(wake.map_or(at, |earlier: Instant| earlier.min(at)));
        });
        Self {
            ctx,
            schedule,
            epoch: Instant::now(),
            wake_at,
            presents: Vec::new(),
            last_snapshot: None,
            last_refresh_frame: None,
            starts: Vec::new(),
        }
    }

    /// Runs frames for `duration` as the schedule says.
    fn run_for(&mut self, duration: Duration, app: &mut impl FnMut(&mut egui::Ui)) {
        let end = Instant::now() + duration;
        loop {
            let next = match self.schedule {
                Schedule::Reactive => *self.wake_at.lock(),
                Schedule::Every(period) => Some(
                    self.starts
                        .last()
                        .map_or_else(Instant::now, |&last| (last + period).max(Instant::now())),
                ),
            };
            let Some(next) = next.filter(|&next| next < end) else {
                std::thread::sleep(end.saturating_duration_since(Instant::now()));
                return;
            };
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
            self.frame(Vec::new(), app);
        }
    }

    /// Runs one frame now, with `events`.
    fn frame(&mut self, events: Vec<egui::Event>, app: &mut impl FnMut(&mut egui::Ui)) {
        // eframe forgets the window's repaint time when it starts painting it.
        *self.wake_at.lock() = None;
        self.starts.push(Instant::now());
        let input = egui::RawInput {
            time: Some(self.epoch.elapsed().as_secs_f64()),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            events,
            ..Default::default()
        };
        let mut output = self.ctx.run_ui(input, |ui| app(ui));
        output.textures_delta.clear();
        self.presents.push(Instant::now());
        let snapshot = egui_hud::snapshot(&self.ctx);
        if snapshot.is_some() && snapshot != self.last_snapshot {
            self.last_refresh_frame = Some(self.presents.len() - 1);
            self.last_snapshot = snapshot;
        }
    }

    /// FPS as `Snapshot::fps` defines it, computed from the loop's own presents as the HUD's
    /// latest refresh saw them: the presents of the second that ends at the latest one before
    /// that refresh, the intervals that end with them, plus the time since the latest beyond one
    /// typical interval. The refresh ran inside its frame, so its "now" lies between that
    /// frame's start and its present: returns the rate at both ends.
    fn real_fps_at_last_refresh(&self) -> (f64, f64) {
        let refresh = self.last_refresh_frame.expect("the HUD has refreshed");
        let presents = &self.presents[..refresh];
        let latest = *presents.last().expect("a present before the refresh");
        let window = Duration::from_secs(1);
        let in_window: Vec<Instant> = presents
            .iter()
            .copied()
            .filter(|&p| latest.duration_since(p) < window)
            .collect();
        let before = presents
            .iter()
            .copied()
            .rfind(|&p| latest.duration_since(p) >= window)
            .expect("a present more than a second before the latest (run longer)");
        let first = in_window[0];
        let closed = latest.duration_since(first) + first.duration_since(before).min(window);
        let intervals = u32::try_from(in_window.len()).expect("a second of presents");
        let typical = closed / intervals;
        let rate_at = |now: Instant| {
            let late = now.duration_since(latest).saturating_sub(typical);
            f64::from(intervals) / (closed + late).as_secs_f64()
        };
        let (early, late) = (
            rate_at(self.starts[refresh]),
            rate_at(self.presents[refresh]),
        );
        (early.min(late), early.max(late))
    }

    /// The loop's real frame rate: presents in the last second, over their span.
    fn real_fps(&self) -> f64 {
        let now = Instant::now();
        let recent: Vec<Instant> = self
            .presents
            .iter()
            .copied()
            .filter(|&p| now.duration_since(p) <= Duration::from_secs(1))
            .collect();
        let span = recent
            .last()
            .expect("frames in the last second")
            .duration_since(recent[0]);
        (recent.len() - 1) as f64 / span.as_secs_f64()
    }

    fn snapshot(&self) -> Snapshot {
        egui_hud::snapshot(&self.ctx).expect("the HUD has refreshed")
    }
}

/// Real UI work: the HUD's clock is the real one here.
fn draw_for(duration: Duration) {
    std::thread::sleep(duration);
}

/// Behaviour 1: An engine-style loop asks for nothing; its frames are the app's all the same.
#[test]
fn an_engine_loop_is_measured() {
    for period in [
        Duration::from_millis(10),
        Duration::ZERO,
        Duration::from_millis(100),
    ] {
        let mut engine = RealLoop::new(Schedule::Every(period));
        let mut app = |ui: &mut egui::Ui| {
            ui.label("engine");
            draw_for(Duration::from_millis(3));
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        };
        engine.run_for(Duration::from_secs(3), &mut app);
        let snapshot = engine.snapshot();
        let frames = engine.presents.len() as f64;
        let excluded = snapshot.self_induced_frames as f64;
        assert!(
            excluded <= 0.05 * frames,
            "every {period:?}: {excluded} of {frames} frames taken for the HUD's"
        );
        assert!(
            snapshot.frame.is_some() && snapshot.p95.is_some() && snapshot.drop.is_some(),
            "every {period:?}: FRAME, P95 and DROP read: {snapshot:?}"
        );
        // Judged against the presents the loop made, as the HUD's latest refresh saw them.
        let fps = snapshot.fps.expect("FPS reads");
        let (low, high) = engine.real_fps_at_last_refresh();
        assert!(
            (low * 0.997..=high * 1.003).contains(&fps),
            "every {period:?}: FPS {fps:.1}, the loop presented at {low:.1}–{high:.1}"
        );
    }
}

/// Behaviour 2: Apps that redraw on a timer keep their frames and their cadence.
#[test]
fn a_timer_driven_app_keeps_its_frames_and_its_cadence() {
    let runs: Vec<_> = [100_u64, 250, 400, 1000]
        .into_iter()
        .map(|period_ms| {
            std::thread::Builder::new()
                .name(format!("timer {period_ms} ms"))
                .spawn(move || timer_app(Duration::from_millis(period_ms)))
                .expect("spawn")
        })
        .collect();
    for run in runs {
        run.join().expect("the timer app's run passed");
    }
}

fn timer_app(period: Duration) {
    let mut timer = RealLoop::new(Schedule::Reactive);
    let mut app = |ui: &mut egui::Ui| {
        ui.label("clock");
        draw_for(Duration::from_millis(2));
        ui.ctx().request_repaint_after(period);
        FpsMonitor::new().sample_resources(false).show(ui.ctx());
    };
    timer.frame(Vec::new(), &mut app);
    // Warm-up (8 frames) and a few seconds of counted frames.
    let seconds = (period.as_secs_f64() * 13.0).max(4.0);
    timer.run_for(
        Duration::try_from_secs_f64(seconds).expect("seconds"),
        &mut app,
    );
    let snapshot = timer.snapshot();
    let frames = timer.presents.len() as f64;
    let excluded = snapshot.self_induced_frames as f64;
    assert!(
        excluded <= 0.05 * frames,
        "{period:?}: {excluded} of {frames} frames taken for the HUD's"
    );
    // The cadence the app asked for: a frame begins a period after the last asked, never
    // sooner. (The first frames are egui's: the HUD's new area settles its size.)
    let starts: Vec<f64> = timer.starts[8..]
        .windows(2)
        .map(|w| w[1].duration_since(w[0]).as_secs_f64())
        .collect();
    let shortest = starts.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        shortest >= period.as_secs_f64(),
        "{period:?}: a frame began {shortest:.3} s after the last: the HUD woke the app"
    );
    let mean_interval = starts.iter().sum::<f64>() / starts.len() as f64;
    let real = 1.0 / mean_interval;
    let fps = snapshot.fps.expect("FPS reads");
    assert!(
        (fps - real).abs() <= 0.1 * real,
        "{period:?}: FPS {fps:.2}, the app ran {real:.2}"
    );
}

/// Behaviour 3: FPS is the presents of the last second. A steady 60 Hz loop reads 60, a click's
/// burst reads no more than its frames, and nothing once it is a second old.
#[test]
fn fps_counts_the_presents_of_the_last_second() {
    let mut steady = RealLoop::new(Schedule::Every(Duration::from_micros(16_667)));
    let mut app = |ui: &mut egui::Ui| {
        draw_for(Duration::from_millis(2));
        // An animating app: every frame is the app's by any rule, so only FPS is tested.
        ui.ctx().request_repaint();
        FpsMonitor::new().sample_resources(false).show(ui.ctx());
    };
    steady.run_for(Duration::from_millis(2500), &mut app);
    let fps = steady.snapshot().fps.expect("FPS reads");
    // Judged against the presents the loop made (a loaded machine runs it slower than 60 Hz),
    // to within the HUD's and the loop's stamps of the same present (0.3 %).
    let (low, high) = steady.real_fps_at_last_refresh();
    assert!(
        (low * 0.997..=high * 1.003).contains(&fps),
        "a steady loop that presented at {low:.2}–{high:.2} per second reads {fps:.2}"
    );
    assert!(fps > 30.0, "the loop ran at about 60 Hz: {fps:.2}");

    let mut reactive = RealLoop::new(Schedule::Reactive);
    let animating = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut app = {
        let animating = Arc::clone(&animating);
        move |ui: &mut egui::Ui| {
            ui.label("reactive");
            draw_for(Duration::from_millis(2));
            if animating.load(Ordering::Relaxed) {
                ui.ctx().request_repaint();
            }
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        }
    };
    reactive.frame(Vec::new(), &mut app);
    reactive.run_for(Duration::from_millis(700), &mut app); // past the warm-up
    animating.store(false, Ordering::Relaxed);
    reactive.run_for(Duration::from_millis(1600), &mut app); // idle: only the HUD's ticks
    let before_click = reactive.presents.len();
    let refreshes_before = reactive.snapshot();
    let click = vec![
        egui::Event::PointerMoved(egui::pos2(10.0, 10.0)),
        egui::Event::PointerButton {
            pos: egui::pos2(10.0, 10.0),
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::NONE,
        },
        egui::Event::PointerButton {
            pos: egui::pos2(10.0, 10.0),
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::NONE,
        },
    ];
    reactive.frame(click, &mut app);
    // The click's echo frames, then the HUD's next refresh.
    reactive.run_for(Duration::from_millis(520), &mut app);
    let after = reactive.snapshot();
    assert_ne!(after, refreshes_before, "the HUD refreshed after the click");
    let burst = reactive.presents.len() - before_click;
    let fps = after.fps.expect("the burst reads");
    assert!(
        fps > 0.0 && fps <= 3.0,
        "a burst of {burst} frames (ticks included) reads FPS {fps:.2}"
    );
    reactive.run_for(Duration::from_millis(1100), &mut app);
    let fps = reactive.snapshot().fps;
    assert!(
        fps.is_none_or(|fps| fps == 0.0),
        "a burst older than a second reads {fps:?}"
    );
}

/// Behaviour 6: The CPU and MEM rows stay for an app whose frames come 1.5 s apart.
#[test]
fn resource_rows_stay_for_frames_a_second_and_a_half_apart() {
    let mut slow = RealLoop::new(Schedule::Every(Duration::from_millis(1500)));
    let mut app = |ui: &mut egui::Ui| {
        ui.label("slow");
        FpsMonitor::new().show(ui.ctx());
    };
    slow.run_for(Duration::from_millis(3200), &mut app);
    assert_eq!(slow.presents.len(), 3, "three frames");
    let snapshot = slow.snapshot();
    assert!(
        snapshot.cpu_percent.is_some() && snapshot.memory_bytes.is_some(),
        "the second refresh has readings: CPU {:?}, MEM {:?}",
        snapshot.cpu_percent,
        snapshot.memory_bytes
    );
}

/// Behaviour 9: An immediate child viewport runs inside its parent's pass; its frame is not the parent's.
#[test]
fn an_immediate_child_viewport_does_not_inflate_its_parent() {
    let child_id = egui::ViewportId::from_hash_of("child");
    // The child's latest refreshed snapshot and the index of the frame that refreshed it.
    let child_snapshot = Arc::new(Mutex::new(None::<(Snapshot, usize)>));
    let with_child = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Each frame's own UI time, measured by the test: the parent's without the child's, and
    // the child's.
    let parent_own = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let child_own = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let mut parent = RealLoop::new(Schedule::Every(Duration::from_millis(25)));
    parent.ctx.set_embed_viewports(false);
    let epoch = parent.epoch;
    egui::Context::set_immediate_viewport_renderer(move |ctx, mut viewport| {
        let input = egui::RawInput {
            viewport_id: viewport.ids.this,
            viewports: std::iter::once((viewport.ids.this, egui::ViewportInfo::default()))
                .collect(),
            time: Some(epoch.elapsed().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| (viewport.viewport_ui_cb)(ui));
        output.textures_delta.clear();
    });
    let mut app = {
        let (child_snapshot, with_child) = (Arc::clone(&child_snapshot), Arc::clone(&with_child));
        let (parent_own, child_own) = (Arc::clone(&parent_own), Arc::clone(&child_own));
        move |ui: &mut egui::Ui| {
            let start = Instant::now();
            ui.label("parent");
            draw_for(Duration::from_millis(4));
            // An animating parent: its frames are its own by any rule, so only the child's
            // share of them is tested.
            ui.ctx().request_repaint();
            let mut in_child = Duration::ZERO;
            if with_child.load(Ordering::Relaxed) {
                let child_start = Instant::now();
                ui.ctx().show_viewport_immediate(
                    child_id,
                    egui::ViewportBuilder::default(),
                    |ui, _| {
                        let start = Instant::now();
                        ui.label("child");
                        draw_for(Duration::from_millis(10));
                        let mut own = child_own.lock();
                        own.push(start.elapsed());
                        FpsMonitor::new()
                            .capacity(30)
                            .sample_resources(false)
                            .show(ui.ctx());
                        // A new snapshot is this frame's refresh: it covers the frames before.
                        let snapshot = egui_hud::snapshot(ui.ctx());
                        let mut kept = child_snapshot.lock();
                        if snapshot.is_some() && snapshot != kept.as_ref().map(|(s, _)| s.clone()) {
                            *kept = snapshot.map(|s| (s, own.len() - 1));
                        }
                    },
                );
                in_child = child_start.elapsed();
            }
            parent_own
                .lock()
                .push(start.elapsed().saturating_sub(in_child));
            FpsMonitor::new()
                .capacity(30)
                .sample_resources(false)
                .show(ui.ctx());
        }
    };
    // The mean of the 30 frames before the HUD's latest refresh (its capacity here).
    let own_mean = |own: &[Duration], refresh: usize| {
        let window = &own[refresh.saturating_sub(30)..refresh.min(own.len())];
        window.iter().sum::<Duration>() / u32::try_from(window.len().max(1)).expect("small")
    };
    parent.run_for(Duration::from_millis(1600), &mut app);
    with_child.store(true, Ordering::Relaxed);
    parent.run_for(Duration::from_millis(2100), &mut app);
    let with = parent.snapshot().frame.expect("FRAME reads");
    let refresh = parent.last_refresh_frame.expect("refreshed");
    let own = own_mean(&parent_own.lock(), refresh);
    // FRAME also holds egui's own pass work around the app's closure: a little more, never
    // the child's 10 ms.
    assert!(
        with >= own.mul_f64(0.95) && with <= own.mul_f64(1.10) + Duration::from_micros(300),
        "the parent's FRAME is its own {own:?} (the test's measure), not with the child: {with:?}"
    );
    let (child, child_refresh) = child_snapshot
        .lock()
        .clone()
        .and_then(|(s, at)| Some((s.frame?, at)))
        .expect("the child's own HUD reads FRAME");
    let child_measured = own_mean(&child_own.lock(), child_refresh);
    assert!(
        child >= child_measured.mul_f64(0.95)
            && child <= child_measured.mul_f64(1.10) + Duration::from_micros(300),
        "the child's FRAME is its own {child_measured:?} (the test's measure): {child:?}"
    );
}

/// The HUD on `clock` without the resource thread: what the simulated-time tests show.
fn hud_on<C: Clock + 'static>(clock: &Arc<C>) -> FpsMonitor {
    FpsMonitor::new()
        .sample_resources(false)
        .clock(Arc::clone(clock) as Arc<dyn Clock>)
}

/// An idle app with a HUD in its window and another in an immediate child viewport: eframe
/// repaints the parent window for either viewport's request, so each HUD's refresh runs the
/// other's frame. Neither may count the other's ticks as the app's frames.
#[test]
fn huds_in_a_parent_and_its_immediate_child_do_not_count_each_others_ticks() {
    let child_id = egui::ViewportId::from_hash_of("child");
    let clock = Arc::new(ManualClock::new());
    let child_delay = Arc::new(Mutex::new(Duration::MAX));
    let child_samples = Arc::new(Mutex::new(None::<usize>));
    let ctx = egui::Context::default();
    ctx.set_embed_viewports(false);
    let time = Arc::new(Mutex::new(0.0_f64));
    {
        let (child_delay, time) = (Arc::clone(&child_delay), Arc::clone(&time));
        egui::Context::set_immediate_viewport_renderer(move |ctx, mut viewport| {
            let input = egui::RawInput {
                viewport_id: viewport.ids.this,
                viewports: std::iter::once((viewport.ids.this, egui::ViewportInfo::default()))
                    .collect(),
                time: Some(*time.lock()),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| (viewport.viewport_ui_cb)(ui));
            output.textures_delta.clear();
            if let Some(v) = output.viewport_output.get(&viewport.ids.this) {
                *child_delay.lock() = v.repaint_delay;
            }
        });
    }
    for frame in 0..400 {
        let input = egui::RawInput {
            time: Some(*time.lock()),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        };
        *child_delay.lock() = Duration::MAX;
        let mut output = ctx.run_ui(input, |ui| {
            clock.advance(Duration::from_millis(2));
            // The child window opens a little later than the app: its HUD's refreshes fall
            // between the parent's.
            if frame >= 3 {
                let child_samples = Arc::clone(&child_samples);
                let clock = Arc::clone(&clock);
                ui.ctx().show_viewport_immediate(
                    child_id,
                    egui::ViewportBuilder::default(),
                    move |ui, _| {
                        clock.advance(Duration::from_millis(1));
                        hud_on(&clock).show(ui.ctx());
                        *child_samples.lock() = egui_hud::snapshot(ui.ctx()).map(|s| s.samples);
                    },
                );
            }
            hud_on(&clock).show(ui.ctx());
        });
        output.textures_delta.clear();
        // eframe repaints the parent window for a request of either viewport.
        let delay = output.viewport_output[&ROOT]
            .repaint_delay
            .min(*child_delay.lock());
        let step = if delay == Duration::MAX {
            1.0
        } else {
            delay.as_secs_f64().max(1.0 / 60.0)
        };
        *time.lock() += step;
    }
    let parent = egui_hud::snapshot(&ctx).expect("the parent's HUD reads");
    assert_eq!(
        parent.samples, 0,
        "the parent counted the child's ticks: {parent:?}"
    );
    assert_eq!(
        *child_samples.lock(),
        Some(0),
        "the child counted the parent's ticks"
    );
}

/// Drives a context on simulated egui time, honouring egui's `repaint_delay` exactly: a frame
/// runs when the soonest request falls due (or 1/60 s after an immediate one).
struct SimLoop {
    ctx: egui::Context,
    time_secs: f64,
    next_secs: Option<f64>,
    input: egui::RawInput,
}

impl SimLoop {
    fn new() -> Self {
        Self {
            ctx: egui::Context::default(),
            time_secs: 0.0,
            next_secs: Some(0.0),
            input: egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(800.0, 600.0),
                )),
                ..Default::default()
            },
        }
    }

    /// Runs the frame egui asked for next (or at `at_secs` when given), with `input` edited.
    fn frame(
        &mut self,
        edit: impl FnOnce(&mut egui::RawInput),
        app: &mut impl FnMut(&mut egui::Ui),
    ) {
        self.time_secs = self.next_secs.unwrap_or(self.time_secs + 1.0);
        let mut input = self.input.clone();
        edit(&mut input);
        // What stays (a theme, a size) stays; per-frame lists do not, and a hovered file has
        // left the window by the next frame (while one hovers, egui repaints every frame).
        self.input = input.clone();
        self.input.events.clear();
        self.input.dropped_files.clear();
        self.input.hovered_files.clear();
        for info in self.input.viewports.values_mut() {
            info.events.clear();
        }
        input.time = Some(self.time_secs);
        let mut output = self.ctx.run_ui(input, |ui| app(ui));
        output.textures_delta.clear();
        let delay = output.viewport_output[&ROOT].repaint_delay;
        self.next_secs = if delay == Duration::MAX {
            None
        } else {
            Some(self.time_secs + delay.as_secs_f64().max(1.0 / 60.0))
        };
    }

    fn frames(&mut self, count: usize, app: &mut impl FnMut(&mut egui::Ui)) {
        for _ in 0..count {
            self.frame(|_| {}, app);
        }
    }

    fn snapshot(&self) -> Snapshot {
        egui_hud::snapshot(&self.ctx).expect("the HUD has refreshed")
    }
}

/// Behaviour 4: a frame whose only cause is the window system (any window change in
/// `RawInput`, or any event) is the app's, even when it lands on the HUD's own deadline.
#[test]
fn a_window_change_alone_makes_a_frame_the_apps() {
    type Edit = fn(&mut egui::RawInput);
    let changes: [(&str, Edit); 9] = [
        ("system theme", |i| {
            i.system_theme = Some(egui::Theme::Light);
        }),
        ("window size", |i| {
            i.screen_rect = Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(640.0, 480.0),
            ));
        }),
        ("focus", |i| {
            i.focused = !i.focused;
        }),
        ("pixels per point", |i| {
            i.viewports.entry(ROOT).or_default().native_pixels_per_point = Some(2.0);
        }),
        ("dropped file", |i| {
            i.dropped_files.push(Arc::new(DroppedText));
        }),
        ("hovered file", |i| {
            i.hovered_files.push(egui::HoveredFile::default());
        }),
        ("occluded (viewport info)", |i| {
            i.viewports.entry(ROOT).or_default().occluded = Some(true);
        }),
        ("a key event", |i| {
            i.events.push(egui::Event::Key {
                key: egui::Key::A,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            });
        }),
        ("viewport events (close requested)", |i| {
            i.viewports
                .entry(ROOT)
                .or_default()
                .events
                .push(egui::ViewportEvent::Close);
        }),
    ];
    for (change, edit) in changes {
        let clock = Arc::new(ManualClock::new());
        let mut app = {
            let clock = Arc::clone(&clock);
            move |ui: &mut egui::Ui| {
                clock.advance(Duration::from_millis(2));
                hud_on(&clock).show(ui.ctx());
            }
        };
        let mut sim = SimLoop::new();
        // An idle app: every frame after the first is the HUD's tick (warm-up included).
        sim.frames(30, &mut app);
        assert_eq!(sim.snapshot().samples, 0, "{change}: idle, no samples");
        sim.frame(edit, &mut app);
        // Until the readouts have refreshed twice after it.
        let changed_at = sim.time_secs;
        while sim.time_secs < changed_at + 0.6 {
            sim.frame(|_| {}, &mut app);
        }
        let counted = sim.snapshot().samples;
        assert!(counted >= 1, "{change}: the frame it woke is the app's");
        while sim.time_secs < changed_at + 1.8 {
            sim.frame(|_| {}, &mut app);
        }
        assert_eq!(
            sim.snapshot().samples,
            counted,
            "{change}: the HUD's ticks after it are the HUD's again"
        );
    }
}

/// A file dropped on the window.
#[derive(Debug)]
struct DroppedText;

impl egui::DroppedFile for DroppedText {
    fn path(&self) -> &std::path::Path {
        std::path::Path::new("notes.txt")
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        Ok(Vec::new())
    }
}

/// An idle app: only the HUD's own ticks wake it, and they give no sample and no FPS.
#[test]
fn an_idle_app_reads_no_fps_from_the_huds_own_ticks() {
    let clock = Arc::new(ManualClock::new());
    let mut app = {
        let clock = Arc::clone(&clock);
        move |ui: &mut egui::Ui| {
            ui.label("idle");
            clock.advance(Duration::from_millis(4));
            hud_on(&clock).show(ui.ctx());
        }
    };
    let mut sim = SimLoop::new();
    while sim.time_secs < 10.0 {
        sim.frame(|_| {}, &mut app);
    }
    let snapshot = sim.snapshot();
    assert_eq!(
        snapshot.samples, 0,
        "the tick's frames gave no draw samples"
    );
    assert_eq!(snapshot.fps, None);
    assert!(
        snapshot.self_induced_frames >= 10,
        "{} tick frames excluded",
        snapshot.self_induced_frames
    );
}

/// An app that asks for a frame every `app_delay`: within a second of the HUD's refresh the HUD
/// waits for that frame (every frame is the app's); further away it ticks, and its tick frames
/// (which re-run the app's UI, re-arming its timer) are left out.
#[test]
fn the_tick_waits_for_an_app_frame_due_within_a_second_and_is_excluded_otherwise() {
    for (app_delay, apps_frames) in [
        (Duration::from_secs(1), true),
        (Duration::from_secs(3), false),
    ] {
        let clock = Arc::new(ManualClock::new());
        let mut app = {
            let clock = Arc::clone(&clock);
            move |ui: &mut egui::Ui| {
                clock.advance(Duration::from_millis(4));
                ui.ctx().request_repaint_after(app_delay);
                hud_on(&clock).show(ui.ctx());
            }
        };
        let mut sim = SimLoop::new();
        while sim.time_secs < 20.0 {
            sim.frame(|_| {}, &mut app);
        }
        let snapshot = sim.snapshot();
        if apps_frames {
            assert_eq!(
                snapshot.self_induced_frames, 0,
                "{app_delay:?}: {snapshot:?}"
            );
            assert!(snapshot.samples >= 10, "{app_delay:?}: {snapshot:?}");
        } else {
            assert_eq!(snapshot.samples, 0, "{app_delay:?}: {snapshot:?}");
            assert!(
                snapshot.self_induced_frames >= 20,
                "{app_delay:?}: {snapshot:?}"
            );
        }
    }
}

/// Behaviour 5: A real stall is shown, however long; only impossible input is rejected.
#[test]
fn a_six_second_stall_is_shown() {
    let clock = Arc::new(ManualClock::new());
    let frame_nr = Arc::new(AtomicU64::new(0));
    let mut app = {
        let (clock, frame_nr) = (Arc::clone(&clock), Arc::clone(&frame_nr));
        move |ui: &mut egui::Ui| {
            let stall = frame_nr.fetch_add(1, Ordering::Relaxed) == 40;
            clock.advance(if stall {
                Duration::from_secs(6)
            } else {
                Duration::from_millis(4)
            });
            ui.ctx().request_repaint();
            FpsMonitor::new()
                .capacity(10)
                .sample_resources(false)
                .clock(Arc::clone(&clock) as Arc<dyn Clock>)
                .show(ui.ctx());
        }
    };
    let mut sim = SimLoop::new();
    sim.frames(41, &mut app);
    // The frame after the stall begins 6 s later, and refreshes the readouts.
    sim.next_secs = sim.next_secs.map(|next| next + 6.0);
    sim.frames(1, &mut app);
    let snapshot = sim.snapshot();
    assert_eq!(snapshot.p95, Some(Duration::from_secs(6)), "{snapshot:?}");
    assert!(
        snapshot.frame > Some(Duration::from_millis(500)),
        "{snapshot:?}"
    );
    assert_eq!(snapshot.drop, Some(0.1), "{snapshot:?}");
    assert_eq!(snapshot.rejected.total(), 0, "{snapshot:?}");
}

/// Behaviour 7: INV counts the requests that fell due for the frame.
#[test]
fn inv_counts_the_requests_that_fell_due() {
    for (requests, later, expected) in [(1, true, 1.0), (3, false, 3.0)] {
        let clock = Arc::new(ManualClock::new());
        let mut app = {
            let clock = Arc::clone(&clock);
            move |ui: &mut egui::Ui| {
                clock.advance(Duration::from_millis(3));
                for _ in 0..requests {
                    ui.ctx().request_repaint();
                }
                if later {
                    ui.ctx().request_repaint_after(Duration::from_secs(10));
                }
                hud_on(&clock).show(ui.ctx());
            }
        };
        let mut sim = SimLoop::new();
        sim.frames(200, &mut app);
        let inv = sim.snapshot().inv.expect("INV reads");
        assert!(
            (inv - expected).abs() <= if requests == 1 { 0.05 } else { 0.5 },
            "{requests} immediate request(s) a frame{}: INV {inv}",
            if later { " and one in 10 s" } else { "" }
        );
    }
}

/// A clock that advances a fixed step on every read, as a real clock read costs time; the app
/// advances it by its own work.
struct SteppingClock {
    nanos: AtomicU64,
    step_nanos: u64,
}

impl Clock for SteppingClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.fetch_add(self.step_nanos, Ordering::Relaxed))
    }
}

/// `frames` frames of an animating app that draws for 4 ms, its HUD on a clock that steps
/// 1 µs at every read (and only then, besides the app's 4 ms): every step of a frame's period
/// is someone's.
fn four_ms_frames_on_a_stepping_clock(frames: usize) -> SimLoop {
    let clock = Arc::new(SteppingClock {
        nanos: AtomicU64::new(0),
        step_nanos: 1_000,
    });
    let mut app = {
        let clock = Arc::clone(&clock);
        move |ui: &mut egui::Ui| {
            clock.nanos.fetch_add(4_000_000, Ordering::Relaxed); // the app's own 4 ms
            ui.ctx().request_repaint();
            hud_on(&clock).show(ui.ctx());
        }
    };
    let mut sim = SimLoop::new();
    sim.frames(frames, &mut app);
    sim
}

/// Behaviour 8: The HUD's own cost, its clock reads included, is subtracted exactly.
#[test]
fn the_huds_own_cost_is_subtracted_to_the_nanosecond() {
    let sim = four_ms_frames_on_a_stepping_clock(100);
    let snapshot = sim.snapshot();
    assert_eq!(
        snapshot.frame,
        Some(Duration::from_millis(4)),
        "{snapshot:?}"
    );
    assert_eq!(snapshot.p95, Some(Duration::from_millis(4)), "{snapshot:?}");
    // Every clock step of a frame's period is the app's (FRAME) or the HUD's (its drawing, its
    // hooks before and after the frame's end), up to the one step of a read neither is charged
    // for: a part of the HUD's work left uncounted would show here.
    let (interval, hud) = (
        snapshot.interval.expect("two presents"),
        snapshot.overlay_cost.expect("the HUD's cost reads"),
    );
    let uncounted = interval.saturating_sub(Duration::from_millis(4) + hud);
    assert!(
        hud > Duration::ZERO && uncounted <= Duration::from_micros(1),
        "a frame period of {interval:?}: 4 ms the app's, {hud:?} the HUD's, {uncounted:?} \
         counted as neither's"
    );
}

/// The exports carry each frame's share of the HUD's own time (`hud_ms`), so that a trace shows
/// what the HUD cost in every frame, its refreshes apart. On a clock that steps at every read,
/// each exported frame's hand-off interval is the app's 4 ms, the HUD's time and at most the
/// one read neither is charged for: a frame whose HUD time were left out, or counted twice,
/// would show here, whatever the mean does.
#[test]
fn each_exported_frame_carries_the_huds_own_time() {
    let sim = four_ms_frames_on_a_stepping_clock(100);
    let mut csv = Vec::new();
    let rows = egui_hud::export(&sim.ctx, egui_hud::ExportFormat::Csv, &mut csv).expect("export");
    let text = String::from_utf8(csv).expect("UTF-8");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|c| *c == name)
            .unwrap_or_else(|| panic!("{name} in {header:?}"))
    };
    let (draw, hud, interval) = (
        column("draw_ms"),
        column("hud_ms"),
        column("handoff_interval_ms"),
    );
    let mut huds_ms = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let millis = |at: usize| -> f64 { cells[at].parse().expect(line) };
        assert_eq!(cells[draw], "4.0000", "FRAME is the app's: {line}");
        // One read a frame is charged to neither (the one that ends the HUD's work after the
        // frame's end); each figure is within 0.05 µs of its value at four decimals of a ms.
        let uncounted_ms = millis(interval) - 4.0 - millis(hud);
        assert!(
            (0.000_8..=0.001_2).contains(&uncounted_ms),
            "{uncounted_ms} ms of the interval counted as neither's: {line}"
        );
        huds_ms.push(millis(hud));
    }
    assert_eq!(huds_ms.len(), rows);
    assert!(rows > 60, "{rows} frames exported");
    // A refresh reads the clock more than the frames between (one step a read here): its
    // frames stand out, a few among many.
    let between_ms = huds_ms.iter().copied().fold(f64::INFINITY, f64::min);
    let refreshes = huds_ms
        .iter()
        .filter(|&&hud_ms| hud_ms > between_ms)
        .count();
    assert!(
        refreshes > 0 && refreshes < rows / 4,
        "{refreshes} of {rows} frames cost the HUD more than {between_ms} ms: {huds_ms:?}"
    );
}

/// Behaviour 8, in egui's hooks: the HUD's work in its hooks inside a frame is its own cost,
/// not the app's FRAME. Here that work is made large: the app asks for 50 000 repaints a frame,
/// and in the next frame's hooks the HUD copies and counts each (for WHY and the frame's
/// causes). Judged against what the test measured itself: its UI's own time and the whole
/// `run_ui`, medians over the frames, so that a frame preempted on a loaded machine decides
/// nothing. The HUD's repaint observer runs inside the app's calls, so it is in both.
#[test]
fn the_huds_work_in_egui_hooks_is_left_out_of_frame() {
    const REQUESTS: usize = 50_000;
    let app_times = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let mut app = {
        let app_times = Arc::clone(&app_times);
        move |ui: &mut egui::Ui| {
            let start = Instant::now();
            for _ in 0..REQUESTS {
                ui.ctx().request_repaint();
            }
            app_times.lock().push(start.elapsed());
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        }
    };
    let mut sim = SimLoop::new();
    let mut run_ui_times = Vec::new();
    // The snapshot is the last refresh's: the test's medians are taken over the frames it
    // covers (the counted frames before the frame that refreshed), or a machine whose load
    // changes between the refresh and the test's end would set the two apart.
    let mut last_samples = None;
    let snapshot = loop {
        let start = Instant::now();
        sim.frames(1, &mut app);
        run_ui_times.push(start.elapsed());
        let frames = run_ui_times.len();
        if frames >= 59 {
            let snapshot = sim.snapshot();
            let refreshed = last_samples.is_some_and(|last| snapshot.samples != last);
            last_samples = Some(snapshot.samples);
            if refreshed {
                break snapshot;
            }
        }
        assert!(frames < 200, "a refresh every 30 frames of this loop");
    };
    let refreshing = run_ui_times.len() - 1;
    let covered = refreshing - snapshot.samples..refreshing;
    let median = |times: &[Duration]| {
        let mut times = times.to_vec();
        times.sort_unstable();
        times[times.len() / 2]
    };
    let app_own = median(&app_times.lock()[covered.clone()]);
    let run_ui = median(&run_ui_times[covered]);
    let hud_and_egui = run_ui.saturating_sub(app_own);
    let hud_p50 = snapshot.overlay_cost_p50.expect("the HUD's cost reads");
    // Medians on both sides: the HUD's measure of itself holds most of what egui's hooks added.
    assert!(
        hud_p50 > hud_and_egui / 2,
        "the HUD's own measure (p50 {hud_p50:?}) holds less than half of what it and egui \
         added to the app's own {app_own:?} in a run_ui of {run_ui:?} ({hud_and_egui:?})"
    );
    // FRAME is a mean, so its bound is looser: a few preempted frames may lift it.
    let frame = snapshot.frame.expect("FRAME reads");
    assert!(
        frame.saturating_sub(app_own) < hud_and_egui * 3 / 4,
        "FRAME {frame:?} against the app's own {app_own:?} in a run_ui of {run_ui:?}: most \
         of the rest ({hud_and_egui:?}) counted as the app's; the HUD's own measure p50 \
         {hud_p50:?}"
    );
}

/// State set up once (`set_refresh_rate`, as `install` does) survives an app clearing egui's
/// memory.
#[test]
fn setup_survives_a_memory_clear() {
    let mut app = |ui: &mut egui::Ui| {
        ui.ctx().request_repaint();
        FpsMonitor::new().sample_resources(false).show(ui.ctx());
    };
    let mut sim = SimLoop::new();
    sim.frame(|_| {}, &mut app);
    egui_hud::set_refresh_rate(&sim.ctx, Some(144.0));
    sim.frames(40, &mut app);
    assert_eq!(sim.snapshot().refresh_hz, Some(144.0));
    sim.ctx.memory_mut(|memory| memory.data.clear());
    sim.frames(40, &mut app);
    assert_eq!(
        sim.snapshot().refresh_hz,
        Some(144.0),
        "the refresh rate is still known"
    );
}

/// The HUD asks for frames in one place: no other source file calls `request_repaint*`.
#[test]
fn only_tick_rs_requests_repaints() {
    fn walk(dir: &std::path::Path, src: &std::path::Path, offenders: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, src, offenders);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let name = path.strip_prefix(src).expect("under src").to_string_lossy();
            if name != "repaint/tick.rs" && text.contains(".request_repaint") {
                offenders.push(name.into_owned());
            }
        }
    }
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    walk(&src, &src, &mut offenders);
    assert!(
        offenders.is_empty(),
        "request_repaint* outside tick.rs: {offenders:?}"
    );
}

/// Behaviour 10: MISS counts refreshes a frame wanted back to back came too late for: an
/// engine loop at the display's 100 Hz whose every 12th frame draws 21 ms presents it about
/// three periods after the previous one (two misses each), and a timer app that wakes every
/// 100 ms misses nothing (its gaps are idle, not late).
#[test]
fn missed_refreshes_count_late_frames_not_idle_ones() {
    let frames = Arc::new(AtomicU64::new(0));
    let mut engine = RealLoop::new(Schedule::Every(Duration::from_millis(10)));
    egui_hud::set_refresh_rate(&engine.ctx, Some(100.0));
    let mut app = {
        let frames = Arc::clone(&frames);
        move |ui: &mut egui::Ui| {
            let n = frames.fetch_add(1, Ordering::Relaxed);
            draw_for(Duration::from_millis(if n % 12 == 11 { 21 } else { 1 }));
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        }
    };
    engine.run_for(Duration::from_millis(2600), &mut app);
    let snapshot = engine.snapshot();
    let missed = snapshot
        .missed_refreshes
        .expect("MISS reads at a known rate");
    let share = snapshot.missed_frames.expect("with its share");
    // The retained 120 frames hold 9 or 10 long ones.
    assert!(
        (18..=30).contains(&missed),
        "two misses per long frame: {missed} ({snapshot:?})"
    );
    assert!(
        (0.07..=0.13).contains(&share),
        "about one frame in twelve missed: {share:.3}"
    );

    let mut timer = RealLoop::new(Schedule::Reactive);
    egui_hud::set_refresh_rate(&timer.ctx, Some(100.0));
    let mut app = |ui: &mut egui::Ui| {
        draw_for(Duration::from_millis(1));
        ui.ctx().request_repaint_after(Duration::from_millis(100));
        FpsMonitor::new().sample_resources(false).show(ui.ctx());
    };
    timer.frame(Vec::new(), &mut app);
    timer.run_for(Duration::from_millis(2600), &mut app);
    let snapshot = timer.snapshot();
    assert_eq!(
        snapshot.missed_refreshes,
        Some(0),
        "a 100 ms timer's gaps are idle: {snapshot:?}"
    );
}

/// Behaviour 10b: in an engine loop every frame is wanted back to back, those that land on the
/// HUD's own refresh deadline and the ones after them too: a 25 Hz loop (40 ms a frame) on a
/// 60 Hz display misses one refresh a frame (40 ms is 2.4 periods: shown at the 2nd), so the
/// retained frames read one missed refresh each. On egui time and a manual clock: exact.
#[test]
fn every_frame_of_an_engine_loop_counts_for_miss() {
    let clock = Arc::new(ManualClock::new());
    let ctx = egui::Context::default();
    egui_hud::set_refresh_rate(&ctx, Some(60.0));
    let mut time_secs = 0.0;
    for _ in 0..250 {
        time_secs += 0.040;
        let input = egui::RawInput {
            time: Some(time_secs),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            clock.advance(Duration::from_millis(2));
            hud_on(&clock).show(ui.ctx());
        });
        output.textures_delta.clear();
        clock.advance(Duration::from_millis(38));
    }
    let snapshot = egui_hud::snapshot(&ctx).expect("the HUD has refreshed");
    assert_eq!(
        (snapshot.missed_refreshes, snapshot.missed_frames),
        (
            Some(u64::try_from(snapshot.samples).expect("small")),
            Some(1.0)
        ),
        "one missed refresh per retained frame ({} frames): {snapshot:?}",
        snapshot.samples
    );
}

/// Behaviour 11: WHY names the app's repaint call sites at their rates, busiest first, and
/// never the HUD's own request: an engine-style app at 60 Hz asks at one site every frame and
/// at another every 100 ms.
#[test]
fn why_names_the_sites_that_ask_at_their_rates() {
    let mut engine = RealLoop::new(Schedule::Every(Duration::from_micros(16_667)));
    let last_slow = Arc::new(Mutex::new(None::<Instant>));
    let (every_frame_line, every_100_ms_line) =
        (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut app = {
        let (every_frame_line, every_100_ms_line) = (
            Arc::clone(&every_frame_line),
            Arc::clone(&every_100_ms_line),
        );
        move |ui: &mut egui::Ui| {
            draw_for(Duration::from_millis(1));
            every_frame_line.store(u64::from(line!()) + 1, Ordering::Relaxed);
            ui.ctx().request_repaint();
            let mut last = last_slow.lock();
            if last.is_none_or(|at| at.elapsed() >= Duration::from_millis(100)) {
                *last = Some(last.map_or_else(Instant::now, |at| at + Duration::from_millis(100)));
                every_100_ms_line.store(u64::from(line!()) + 1, Ordering::Relaxed);
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            }
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        }
    };
    engine.run_for(Duration::from_millis(2600), &mut app);
    let why = egui_hud::why(&engine.ctx).expect("WHY reads after two refreshes");
    let sites: Vec<(u64, f64)> = why
        .top_sites
        .iter()
        .inspect(|site| {
            assert!(
                site.file.ends_with("scheduling.rs"),
                "only the app's sites: {why:?}"
            );
        })
        .map(|site| (u64::from(site.line), site.per_sec))
        .collect();
    assert_eq!(sites.len(), 2, "two sites: {why:?}");
    assert_eq!(
        sites[0].0,
        every_frame_line.load(Ordering::Relaxed),
        "every frame first"
    );
    assert_eq!(
        sites[1].0,
        every_100_ms_line.load(Ordering::Relaxed),
        "then every 100 ms"
    );
    let real_fps = engine.real_fps();
    assert!(
        (sites[0].1 - real_fps).abs() <= real_fps * 0.1,
        "one request per frame: {:.1}/s at {real_fps:.1} FPS",
        sites[0].1
    );
    assert!(
        (sites[1].1 - 10.0).abs() <= 1.0,
        "ten a second: {:.1}/s",
        sites[1].1
    );
    assert_eq!(why.multi_pass_frames, Some(0.0), "no frame was redone");
}

/// Behaviour 12: CPU phases. Phases timed inside the frame are parts of FRAME; a phase timed
/// between frames (an engine's simulation before egui runs) adds to the CPU time per frame;
/// hidden, a phase is not timed.
#[test]
fn cpu_phases_split_the_frame_and_add_the_work_around_it() {
    let mut engine = RealLoop::new(Schedule::Every(Duration::from_millis(20)));
    // Each phase's work as the test measured it, frame by frame.
    let measured = Arc::new(Mutex::new(Vec::<[Duration; 3]>::new()));
    let timed = |work: Duration| {
        let start = Instant::now();
        draw_for(work);
        start.elapsed()
    };
    let mut app = {
        let measured = Arc::clone(&measured);
        move |ui: &mut egui::Ui| {
            let physics = {
                let _physics = egui_hud::cpu_phase(ui.ctx(), "physics");
                timed(Duration::from_millis(3))
            };
            let layout = {
                let _layout = egui_hud::cpu_phase(ui.ctx(), "layout");
                timed(Duration::from_millis(1))
            };
            if let Some(last) = measured.lock().last_mut() {
                (last[0], last[1]) = (physics, layout);
            }
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        }
    };
    let phases = egui_hud::cpu_phases(&engine.ctx);
    let epoch = Instant::now();
    while epoch.elapsed() < Duration::from_millis(2500) {
        let simulate = {
            // The engine's own work between two egui frames.
            let _simulate = phases.start("simulate");
            timed(Duration::from_millis(4))
        };
        measured
            .lock()
            .push([Duration::ZERO, Duration::ZERO, simulate]);
        engine.frame(Vec::new(), &mut app);
        std::thread::sleep(Duration::from_millis(10));
    }
    let snapshot = engine.snapshot();
    let mean = |label: &str| {
        snapshot
            .cpu_phases
            .iter()
            .find(|p| p.label == label)
            .unwrap_or_else(|| panic!("{label} is shown: {snapshot:?}"))
            .mean
    };
    // The test's mean of each phase over the frames before the HUD's latest refresh (all of
    // them are retained: fewer than 120), the warm-up's 8 left out; the HUD's guard adds
    // microseconds around the test's own stamps, and a phase between frames belongs to the
    // frame before it, so the windows differ by a frame: 5 % and 0.1 ms.
    let refresh = engine.last_refresh_frame.expect("refreshed");
    let measured = measured.lock();
    let window = measured.get(8..refresh).expect("frames past the warm-up");
    let test_mean = |index: usize| {
        window.iter().map(|m| m[index]).sum::<Duration>()
            / u32::try_from(window.len()).expect("small")
    };
    for (index, label) in ["physics", "layout", "simulate"].into_iter().enumerate() {
        let (got, want) = (mean(label), test_mean(index));
        assert!(
            got >= want.mul_f64(0.95) && got <= want.mul_f64(1.05) + Duration::from_micros(100),
            "{label}: the HUD reads {got:?}, the test measured {want:?}"
        );
    }
    let frame = snapshot.frame.expect("FRAME");
    assert!(
        frame >= mean("physics") + mean("layout"),
        "inside phases are parts of FRAME"
    );
    let cpu = snapshot.cpu_frame.expect("CPU time per frame");
    let around = cpu.saturating_sub(frame);
    let simulate = test_mean(2);
    assert!(
        around >= simulate.mul_f64(0.95)
            && around <= simulate.mul_f64(1.05) + Duration::from_micros(100),
        "the CPU time per frame is FRAME plus the work between frames ({simulate:?}): \
         {cpu:?} vs {frame:?}"
    );

    // Hidden for over a second: phases are inert.
    let mut hidden = |ui: &mut egui::Ui| {
        let _physics = egui_hud::cpu_phase(ui.ctx(), "physics");
        ui.label("no HUD");
    };
    engine.run_for(Duration::from_millis(1300), &mut hidden);
    assert_eq!(
        format!("{:?}", phases.start("simulate")),
        "CpuPhase { name: None }",
        "nothing is timed while the HUD is hidden"
    );
}

/// egui time that runs backwards (an integration that restarts `RawInput::time`) restarts the
/// HUD's refresh at the next frame, instead of stalling it until time catches up.
#[test]
fn egui_time_that_runs_backwards_restarts_the_refresh() {
    let clock = Arc::new(ManualClock::new());
    let mut app = {
        let clock = Arc::clone(&clock);
        move |ui: &mut egui::Ui| {
            ui.label("animating");
            clock.advance(Duration::from_millis(4));
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            // A window that keeps growing: every refresh reads more samples.
            hud_on(&clock).capacity(1000).show(ui.ctx());
        }
    };
    let mut sim = SimLoop::new();
    while sim.time_secs < 3.0 {
        sim.frame(|_| {}, &mut app);
    }
    let before = sim.snapshot().samples;
    sim.next_secs = Some(0.0); // the integration restarts its time
    sim.frame(|_| {}, &mut app);
    while sim.time_secs < 0.6 {
        sim.frame(|_| {}, &mut app);
    }
    let snapshot = sim.snapshot();
    let after = snapshot.samples;
    assert!(
        after > before,
        "the HUD refreshed within 0.6 s of the restarted time ({before} -> {after} samples)"
    );
    assert_eq!(
        snapshot.rejected.input_time_back_in_time, 1,
        "counted once with the rejected inputs: {:?}",
        snapshot.rejected
    );
}

/// The HUD's rows as it gave them to the accessibility tree in `output` (its body's value).
fn rows_text(output: &egui::FullOutput) -> Option<String> {
    let update = output.platform_output.accesskit_update.as_ref()?;
    update.nodes.iter().find_map(|(_, node)| {
        node.value()
            .filter(|value| value.contains("FRAME"))
            .map(str::to_owned)
    })
}

/// The frame after a refresh's by which its new rows show, when they are laid out off the UI
/// thread: frames within 70 ms of egui time after the refresh's show them if that thread is
/// done, or the last rows once more, without waiting; here, whose frames are 41 ms apart or
/// more, the second frame is past that and waits for the thread if need be.
const LATEST_FRAME_OF_NEW_ROWS: usize = 2;

/// How [`rows_at_refreshes`] runs its frames.
#[derive(Clone, Copy, Debug)]
enum Loop {
    /// The app asks for the next frame in each, which starts 40 ms after the last began (eframe
    /// with an animation, a vsynced engine): the UI thread idle for most of each 40 ms.
    EveryFrame,
    /// Every frame as soon as the last ended, as the app asks, each drawn in 0.2 to 1.9 ms (a
    /// loop with no wait for the display, at more than 500 frames a second).
    EveryFrameAtOnce,
    /// Frames only when egui asks: the app every 150 ms (a clock).
    Timer,
}

/// A refresh's new rows, frame by frame, in a loop on egui time and a manual clock where each
/// frame's draw takes longer than the last (by 0.1 ms every frame, by 1 ms with a timer), or
/// at once a spread of 0.2 to 1.9 ms (so that every refresh shows another FRAME), run as
/// `looping` says. Returns, for each frame that refreshed the readouts after
/// the first few, whether its rows changed and whether they changed
/// [`LATEST_FRAME_OF_NEW_ROWS`] frames later.
fn rows_at_refreshes(looping: Loop) -> Vec<(bool, bool)> {
    // Each frame's rows, and the readouts (FRAME, samples) as of the HUD's latest refresh.
    type Readouts = Option<(Option<Duration>, usize)>;
    let clock = Arc::new(ManualClock::new());
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let (mut time_secs, mut frame) = (0.0, 0_u64);
    let mut frames: Vec<(Option<String>, Readouts)> = Vec::new();
    while time_secs < 6.0 {
        frame += 1;
        let draw = match looping {
            Loop::EveryFrameAtOnce => Duration::from_micros(200 + frame * 7 % 1700),
            // Slowly enough that a refresh is followed by more frames than its new rows take
            // to show (`LATEST_FRAME_OF_NEW_ROWS`).
            Loop::EveryFrame => Duration::from_micros(1000 + frame * 100),
            Loop::Timer => Duration::from_millis(frame),
        };
        let input = egui::RawInput {
            time: Some(time_secs),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            clock.advance(draw);
            hud_on(&clock).show(ui.ctx());
            match looping {
                Loop::EveryFrame | Loop::EveryFrameAtOnce => ui.ctx().request_repaint(),
                Loop::Timer => ui.ctx().request_repaint_after(Duration::from_millis(150)),
            }
        });
        output.textures_delta.clear();
        let readouts = egui_hud::snapshot(&ctx).map(|s| (s.frame, s.samples));
        frames.push((rows_text(&output), readouts));
        let asked = output
            .viewport_output
            .get(&ROOT)
            .map_or(Duration::MAX, |viewport| viewport.repaint_delay);
        let idle = match looping {
            Loop::EveryFrame => Duration::from_millis(40),
            Loop::EveryFrameAtOnce => Duration::ZERO,
            Loop::Timer => asked.min(Duration::from_secs(1)),
        };
        clock.advance(idle);
        time_secs += (draw + idle).as_secs_f64();
    }
    let refreshes: Vec<usize> = (1..frames.len() - LATEST_FRAME_OF_NEW_ROWS)
        .filter(|&k| frames[k].1.is_some() && frames[k].1 != frames[k - 1].1)
        .skip(2)
        .collect();
    assert!(refreshes.len() >= 5, "the HUD refreshed: {frames:?}");
    if let Loop::EveryFrame = looping {
        assert!(
            refreshes
                .windows(2)
                .all(|pair| pair[1] - pair[0] > LATEST_FRAME_OF_NEW_ROWS),
            "each refresh's rows show before the next refresh: {refreshes:?}"
        );
    }
    refreshes
        .into_iter()
        .map(|k| {
            (
                frames[k].0 != frames[k - 1].0,
                frames[k + LATEST_FRAME_OF_NEW_ROWS].0 != frames[k].0,
            )
        })
        .collect()
}

/// Behaviour: in an app that runs every frame, a refresh's new rows are laid out off the UI
/// thread after its frame, which shows the last refresh's rows once more; the next frame shows
/// them if that thread is done, the one after at the latest (more than 70 ms after the
/// refresh's in egui time: it waits for that thread if need be). In a loop at more than 500 frames a second, as in an app that runs a frame
/// only when asked (a timer, where no frame follows soon), the refresh's own frame lays the
/// rows out and shows them.
#[test]
fn a_refresh_is_laid_out_off_the_ui_thread_when_the_next_frame_follows() {
    for (changed, next_changed) in rows_at_refreshes(Loop::EveryFrame) {
        assert_eq!(
            (changed, next_changed),
            (false, true),
            "every frame: the refresh's frame shows the last rows, the new ones follow"
        );
    }
    for looping in [Loop::EveryFrameAtOnce, Loop::Timer] {
        for (changed, _) in rows_at_refreshes(looping) {
            assert!(
                changed,
                "{looping:?}: the refresh's frame shows the new rows"
            );
        }
    }
}
