//! The HUD in a real egui loop (`egui_kittest`): interaction, exclusion of its own frames,
//! warm-up, hiding, and snapshot images rendered on wgpu (lavapipe in CI).
#![expect(clippy::expect_used, reason = "test helpers fail loudly")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_hud::profiler_core::{self, Clock, ManualClock, Snapshot};
use egui_hud::{FpsMonitor, HudActivity, HudPreset, MainReadout};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

/// The test app: what it does per frame.
#[derive(Clone)]
struct App {
    /// Time the app's own UI takes per frame, on the HUD's clock.
    draw: Duration,
    /// Whether the app animates (asks for the next frame every frame).
    animating: bool,
    shown: bool,
    calls_per_pass: usize,
    clock: Arc<ManualClock>,
    /// Busy-wait on the real clock instead of advancing the manual clock.
    real_time: bool,
    /// With `real_time`: each frame's UI time, as the test measured it (the spin and the
    /// HUD's call).
    ui_times: Vec<Duration>,
    /// This frame (egui's frame number) draws for 200 ms instead of `draw`.
    slow_frame: Option<u64>,
    /// The preset shown; `None` shows the default (no `preset` call). The tests below read
    /// rows of the full HUD, so that is what they show unless they say otherwise.
    preset: Option<HudPreset>,
    /// A pinned frame budget (`FpsMonitor::frame_budget`); `None` pins none.
    budget: Option<Duration>,
    /// The draw samples kept (`FpsMonitor::capacity`); `None` keeps the default.
    capacity: Option<usize>,
}

impl App {
    fn new() -> Self {
        Self {
            draw: Duration::from_millis(4),
            animating: true,
            shown: true,
            calls_per_pass: 1,
            clock: Arc::new(ManualClock::new()),
            real_time: false,
            ui_times: Vec::new(),
            slow_frame: None,
            preset: Some(HudPreset::Full),
            budget: None,
            capacity: None,
        }
    }

    fn ui(ui: &mut egui::Ui, app: &mut Self) {
        let started = Instant::now();
        ui.label("app content");
        // The app's own work, as a CPU phase (on the HUD's manual clock here).
        let _work = egui_hud::cpu_phase(ui.ctx(), "work");
        if app.real_time {
            let start = Instant::now();
            while start.elapsed() < app.draw {
                std::hint::spin_loop();
            }
        } else if app.slow_frame == Some(ui.ctx().cumulative_frame_nr()) {
            app.clock.advance(Duration::from_millis(200));
        } else {
            app.clock.advance(app.draw);
        }
        if app.animating {
            #[expect(
                clippy::disallowed_methods,
                reason = "the test app animates, as a game would"
            )]
            ui.ctx().request_repaint();
        }
        if app.shown {
            for _ in 0..app.calls_per_pass {
                let mut hud = FpsMonitor::new()
                    .sample_resources(false)
                    .cycle_preset_on_key(egui::Key::F10);
                if let Some(preset) = app.preset {
                    hud = hud.preset(preset);
                }
                if let Some(budget) = app.budget {
                    hud = hud.frame_budget(budget);
                }
                if let Some(capacity) = app.capacity {
                    hud = hud.capacity(capacity);
                }
                if !app.real_time {
                    hud = hud.clock(Arc::clone(&app.clock) as Arc<dyn Clock>);
                }
                hud.show(ui.ctx());
            }
        }
        if app.real_time {
            app.ui_times.push(started.elapsed());
        }
    }
}

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(280.0, 300.0))
        .with_render_cursor(false)
        .build_ui_state(App::ui, app)
}

/// An app that does not animate but asks for its next frame `app_delay` after each one (a clock,
/// a poll), stepped `step_secs` of egui time per frame.
fn timer_app_harness(step_secs: f32, app_delay: Duration) -> Harness<'static, App> {
    let mut app = App::new();
    app.animating = false;
    Harness::builder()
        .with_size(egui::vec2(280.0, 300.0))
        .with_step_dt(step_secs)
        .build_ui_state(
            move |ui, app: &mut App| {
                ui.ctx().request_repaint_after(app_delay);
                App::ui(ui, app);
            },
            app,
        )
}

fn hud_snapshot(harness: &Harness<'_, App>) -> Snapshot {
    egui_hud::snapshot(&harness.ctx).expect("the HUD has ticked")
}

#[test]
fn right_click_switches_the_readout_and_left_click_collapses() {
    let mut harness = harness(App::new());
    harness.run_steps(12);
    harness.get_by_label("MAX FPS").click_secondary();
    harness.run_steps(2);
    assert!(harness.query_by_label("MAX FPS").is_none());
    harness.get_by_label("FPS").click_secondary();
    harness.run_steps(2);
    harness.get_by_label("MAX FPS");

    assert!(
        harness.query_by_label_contains("FRAME").is_some(),
        "expanded: rows are visible"
    );
    let expanded_right = harness.get_by_label("MAX FPS").rect().right();
    harness.get_by_label("MAX FPS").click();
    harness.step();
    assert!(
        harness.query_by_label_contains("FRAME").is_none(),
        "collapsed: only the tag"
    );
    let collapsed_right = harness.get_by_label("MAX FPS").rect().right();
    assert!(
        collapsed_right > expanded_right,
        "the narrower tag is drawn against the right edge in the frame of the click \
         ({collapsed_right} vs {expanded_right})"
    );
    harness.run_steps(2);
    assert_eq!(
        harness.get_by_label("MAX FPS").rect().right(),
        collapsed_right,
        "and does not move afterwards"
    );
    harness.get_by_label("MAX FPS").click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("FRAME").is_some(),
        "expanded again"
    );
    // Each click made egui redo its frame's pass, running the app's 4 ms UI twice: that
    // second run is the HUD's doing, so no frame reads longer than the app's 4 ms.
    harness.run_steps(4);
    assert_eq!(hud_snapshot(&harness).p95, Some(Duration::from_millis(4)));
}

/// The readout is a button for the keyboard and for screen readers as well: Enter on the
/// focused readout collapses the HUD, an accessibility click expands it again.
#[test]
fn the_keyboard_and_an_accessibility_click_collapse_and_expand_as_the_pointer_does() {
    let mut harness = harness(App::new());
    harness.run_steps(12);
    harness.get_by_label("MAX FPS").focus();
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("FRAME").is_none(),
        "Enter on the focused readout collapsed the HUD"
    );
    harness.get_by_label("MAX FPS").click_accesskit();
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("FRAME").is_some(),
        "an accessibility click expanded it"
    );
}

/// A finger resting on the readout switches it, as a right-click does: egui reports the long
/// touch in a pass without input events, once the finger has rested past its click duration.
#[test]
fn a_long_touch_on_the_readout_switches_it() {
    let mut harness = harness(App::new());
    harness.run_steps(12);
    let at = harness.get_by_label("MAX FPS").rect().center();
    harness.event(egui::Event::Touch {
        device_id: egui::TouchDeviceId(1),
        id: egui::TouchId(1),
        phase: egui::TouchPhase::Start,
        pos: at,
        force: None,
    });
    harness.event(egui::Event::PointerMoved(at));
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    // One second of frames with the finger still (egui's click lasts at most 0.8 s).
    harness.run_steps(60);
    assert!(
        harness.query_by_label("MAX FPS").is_none() && harness.query_by_label("FPS").is_some(),
        "the long touch switched the readout"
    );
}

#[test]
fn two_calls_in_one_pass_draw_one_hud() {
    let mut app = App::new();
    app.calls_per_pass = 2;
    let mut harness = harness(app);
    harness.run_steps(12);
    assert_eq!(harness.query_all_by_label("MAX FPS").count(), 1);
    assert_eq!(harness.query_all_by_label_contains("FRAME").count(), 1);
}

#[test]
fn frame_reads_the_ui_time_and_drop_is_one_over_budget() {
    let mut app = App::new();
    app.real_time = true;
    app.draw = Duration::from_millis(5);
    let mut harness = harness(app);
    harness.run_steps(40);
    let frame = hud_snapshot(&harness).frame.expect("frames were sampled");
    let millis = frame.as_secs_f64() * 1e3;
    // Judged against the UI time the test measured (a loaded machine stretches the spin):
    // FRAME holds the 5 ms spin and egui's pass around the app, the HUD's own cost left out.
    let times = &harness.state().ui_times;
    let measured_ms = times.iter().sum::<Duration>().as_secs_f64() * 1e3 / times.len() as f64;
    assert!(
        millis >= 5.0 * 0.98 && millis <= measured_ms * 1.1 + 0.5,
        "FRAME {millis:.3} ms for a 5 ms UI measured at {measured_ms:.3} ms"
    );

    harness.state_mut().draw = Duration::from_millis(25);
    harness.run_steps(130); // refill the 120-sample window
    let snapshot = hud_snapshot(&harness);
    assert_eq!(
        snapshot.drop,
        Some(1.0),
        "25 ms frames against a 16.7 ms budget all drop"
    );
}

/// The HUD compares its settings with the last frame's and does nothing more when they are
/// the same: settings changed between frames still take effect. A pinned budget shows from the
/// next refresh, a new capacity starts a fresh sampler (with its warm-up), and unpinning
/// brings the display's budget back.
#[test]
fn settings_changed_between_frames_take_effect() {
    let mut harness = harness(App::new());
    harness.run_steps(80);
    let default = hud_snapshot(&harness);
    assert!(!default.budget_pinned);
    assert!(default.samples > 60, "{} samples", default.samples);

    harness.state_mut().budget = Some(Duration::from_millis(10));
    harness.run_steps(60);
    let pinned = hud_snapshot(&harness);
    assert!(pinned.budget_pinned);
    assert_eq!(pinned.budget, Duration::from_millis(10));
    assert!(pinned.samples > default.samples, "the same sampler goes on");

    harness.state_mut().capacity = Some(30);
    harness.run_steps(60);
    let smaller = hud_snapshot(&harness);
    assert_eq!(
        smaller.samples, 30,
        "a fresh sampler of 30 samples, full again"
    );
    assert_eq!(smaller.budget, Duration::from_millis(10));

    harness.state_mut().budget = None;
    harness.run_steps(60);
    let unpinned = hud_snapshot(&harness);
    assert!(!unpinned.budget_pinned);
    assert_eq!(unpinned.budget, default.budget);
}

/// Frame 0 attaches the HUD (its plugin starts timing with frame 1); frames 1 to 8 are the
/// warm-up. A 200 ms frame inside the warm-up is left out; the same frame after it is not.
#[test]
fn a_slow_frame_in_the_warm_up_is_left_out() {
    let run = |slow_frame: u64| {
        let mut app = App::new();
        app.draw = Duration::from_millis(3);
        app.slow_frame = Some(slow_frame);
        let mut harness = harness(app);
        harness.run_steps(40);
        hud_snapshot(&harness)
    };
    let slow_in_warm_up = run(3);
    assert_eq!(slow_in_warm_up.frame, Some(Duration::from_millis(3)));
    assert_eq!(slow_in_warm_up.p95, Some(Duration::from_millis(3)));
    let slow_after_warm_up = run(12);
    assert!(
        slow_after_warm_up.frame > Some(Duration::from_millis(3)),
        "control: a slow frame after the warm-up does count ({:?})",
        slow_after_warm_up.frame
    );
}

/// One frame every two seconds, each drawing for 1.5 s: slow, and still measured (hiding is a
/// frame without the HUD, not a long gap between frames).
#[test]
fn an_app_slower_than_one_frame_per_second_is_measured() {
    let mut app = App::new();
    app.draw = Duration::from_millis(1500);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 300.0))
        .with_step_dt(2.0)
        .build_ui_state(App::ui, app);
    harness.run_steps(20);
    let before = hud_snapshot(&harness);
    assert_eq!(before.frame, Some(Duration::from_millis(1500)));
    harness.run_steps(4);
    assert_eq!(
        hud_snapshot(&harness).samples,
        before.samples + 4,
        "every slow frame is a sample; none restarts the warm-up"
    );
}

#[test]
fn a_call_outside_a_pass_changes_nothing() {
    let mut harness = harness(App::new());
    harness.run_steps(12);
    // eframe calls `App::logic` without a pass while the window is minimised.
    FpsMonitor::new().show(&harness.ctx);
    harness.step();
    assert!(
        harness.query_by_label("MAX FPS").is_some(),
        "the next real pass still draws the HUD"
    );
}

#[test]
fn a_hidden_hud_stops_its_clock_and_its_thread() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 300.0))
        .build_ui_state(
            |ui, shown: &mut bool| {
                ui.label("app");
                if *shown {
                    egui_hud::fps_monitor(ui.ctx());
                }
            },
            true,
        );
    harness.run_steps(8);
    // Wait (real time) for the resource thread's first reading.
    std::thread::sleep(Duration::from_millis(300));
    harness.run_steps(2);
    assert_eq!(
        egui_hud::activity(&harness.ctx),
        HudActivity {
            sampling: true,
            resources_running: true
        }
    );

    *harness.state_mut() = false;
    harness.run_steps(2); // 0.25 s of egui time without a call
    assert!(
        egui_hud::activity(&harness.ctx).sampling,
        "a frame or two without the HUD is not hidden yet"
    );
    harness.run_steps(4); // 1.25 s
    assert!(
        !egui_hud::activity(&harness.ctx).sampling,
        "the sampler is dropped"
    );
    assert!(egui_hud::snapshot(&harness.ctx).is_none());
    let repaint_delay = harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert_eq!(
        repaint_delay,
        Duration::MAX,
        "no repaint requested while hidden"
    );
    let start = Instant::now();
    while egui_hud::activity(&harness.ctx).resources_running
        && start.elapsed() < Duration::from_secs(3)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !egui_hud::activity(&harness.ctx).resources_running,
        "the resource thread stopped"
    );

    *harness.state_mut() = true;
    harness.run_steps(3); // the first refresh tick after re-showing asks for resources
    assert_eq!(
        egui_hud::activity(&harness.ctx),
        HudActivity {
            sampling: true,
            resources_running: true
        },
        "showing it again restarts both"
    );
}

fn snapshot_harness(theme: egui::Theme) -> Harness<'static, App> {
    preset_harness(theme, Some(HudPreset::Full))
}

/// The HUD with `preset` (`None`: the default) over a small app, 20 frames in.
fn preset_harness(theme: egui::Theme, preset: Option<HudPreset>) -> Harness<'static, App> {
    let mut app = App::new();
    app.preset = preset;
    let mut harness = Harness::builder()
        .with_size(egui::vec2(240.0, 300.0))
        .with_theme(theme)
        .with_render_cursor(false)
        .build_ui_state(App::ui, app);
    // A display as fast as the app's 4 ms frames: MISS reads, and nothing is missed.
    egui_hud::set_refresh_rate(&harness.ctx, Some(250.0));
    harness.run_steps(20);
    harness
}

#[test]
fn snapshot_images_dark() {
    let mut dark = snapshot_harness(egui::Theme::Dark);
    dark.snapshot("hud_expanded_dark");
    dark.get_by_label("MAX FPS").click_secondary();
    dark.run_steps(4);
    assert_eq!(
        egui_hud::snapshot(&dark.ctx).map(|s| MainReadout::Fps.value(&s).is_some()),
        Some(true)
    );
    dark.snapshot("hud_fps_mode_dark");
    dark.get_by_label("FPS").click();
    dark.run_steps(4);
    dark.snapshot("hud_collapsed_dark");
}

#[test]
fn snapshot_images_light() {
    let mut light = snapshot_harness(egui::Theme::Light);
    light.snapshot("hud_expanded_light");
}

/// Each preset in both themes (the full one is `hud_expanded_*` above); the default is the
/// compact one.
#[test]
fn snapshot_images_of_the_presets() {
    let mut results = egui_kittest::SnapshotResults::new();
    for (theme, name) in [(egui::Theme::Dark, "dark"), (egui::Theme::Light, "light")] {
        let default = preset_harness(theme, None);
        let mut compact = preset_harness(theme, Some(HudPreset::Compact));
        let rows = |harness: &Harness<'_, App>| {
            let node = harness.get_by_label_contains("FRAME");
            node.accesskit_node().label().or_else(|| node.value())
        };
        assert_eq!(
            rows(&default),
            rows(&compact),
            "the default is the compact preset"
        );
        results.add(compact.try_snapshot(format!("hud_preset_compact_{name}")));
        let mut number = preset_harness(theme, Some(HudPreset::NumberOnly));
        assert!(
            number.query_by_label_contains("FRAME").is_none(),
            "number only: no rows"
        );
        results.add(number.try_snapshot(format!("hud_preset_number_only_{name}")));
    }
}

/// The cycling key steps through the presets (full → number only → compact → full) and the
/// choice is kept in egui memory: a context that gets that memory opens with it.
#[test]
fn the_preset_key_cycles_and_the_choice_is_kept_in_egui_memory() {
    let mut harness = preset_harness(egui::Theme::Dark, Some(HudPreset::Full));
    let rows = |harness: &Harness<'_, App>| {
        harness
            .query_by_label_contains("FRAME")
            .and_then(|node| node.accesskit_node().label().or_else(|| node.value()))
            .unwrap_or_default()
    };
    assert!(rows(&harness).contains("WHY"), "full: {}", rows(&harness));
    harness.key_press(egui::Key::F10);
    harness.run_steps(2);
    assert_eq!(rows(&harness), "", "number only: no rows");
    harness.key_press(egui::Key::F10);
    harness.run_steps(2);
    let compact = rows(&harness);
    assert!(
        compact.contains("FRAME") && compact.contains("P95") && !compact.contains("WHY"),
        "compact: {compact}"
    );
    // The app still asks for the full HUD every frame: the key's choice wins.
    harness.run_steps(30);
    assert!(!rows(&harness).contains("WHY"), "{}", rows(&harness));

    // The next run: egui memory as eframe restores it, before the HUD's first frame.
    let memory = harness.ctx.memory(Clone::clone);
    let mut next_run = Harness::builder()
        .with_size(egui::vec2(240.0, 300.0))
        .build_ui_state(App::ui, App::new());
    next_run.ctx.memory_mut(|m| *m = memory);
    next_run.run_steps(30);
    let restored = rows(&next_run);
    assert!(
        restored.contains("P95") && !restored.contains("WHY"),
        "the kept choice (compact) is restored: {restored}"
    );
}

/// The frames the displayed readouts were read from (they change at each refresh).
fn readout_samples(harness: &Harness<'_, App>) -> Option<usize> {
    egui_hud::snapshot(&harness.ctx).map(|s| s.samples)
}

/// Steps the harness (100 ms a step) until a refresh has just happened: the readouts' frame
/// count moves.
fn step_until_a_refresh(harness: &mut Harness<'_, App>) {
    let mut before = readout_samples(harness);
    for _ in 0..10 {
        harness.run_steps(1);
        let now = readout_samples(harness);
        if now != before {
            return;
        }
        before = now;
    }
    panic!("no refresh within 10 steps of 100 ms");
}

/// A refresh formats only the rows shown, so a preset the key brings between refreshes has
/// rows that were not formatted: they show at once (from the last refresh's readouts), not
/// at the next refresh.
#[test]
fn rows_a_preset_brings_show_before_the_next_refresh() {
    let mut app = App::new();
    app.preset = Some(HudPreset::NumberOnly);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(240.0, 300.0))
        .with_step_dt(0.1)
        .build_ui_state(App::ui, app);
    harness.run_steps(12);
    // The next refresh is 500 ms away, five steps.
    step_until_a_refresh(&mut harness);
    let refreshed_samples = readout_samples(&harness);
    assert!(
        harness.query_by_label_contains("FRAME").is_none(),
        "number only: no rows"
    );
    harness.key_press(egui::Key::F10); // number only -> compact
    harness.run_steps(2);
    assert_eq!(
        readout_samples(&harness),
        refreshed_samples,
        "no refresh since"
    );
    let rows = harness
        .query_by_label_contains("FRAME")
        .and_then(|node| node.accesskit_node().label().or_else(|| node.value()))
        .unwrap_or_default();
    assert!(
        rows.contains("FRAME") && rows.contains("P95"),
        "compact's rows right after the key: {rows:?}"
    );
}

/// egui counts a pointer a few points beside the readout as over it (its interaction radius):
/// the hover text is built there too, after every refresh, so the tooltip stays.
#[test]
fn the_tooltip_stays_with_the_pointer_just_beside_the_readout() {
    let mut app = App::new();
    app.preset = Some(HudPreset::Compact);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(240.0, 300.0))
        .with_step_dt(0.1)
        .build_ui_state(App::ui, app);
    harness.run_steps(12);
    let readout = harness.get_by_label("MAX FPS").rect();
    let radius = harness.ctx.global_style().interaction.interact_radius;
    // Below the readout, inside egui's radius, outside the readout's rectangle.
    harness.hover_at(egui::pos2(
        readout.center().x,
        readout.bottom() + 0.6 * radius,
    ));
    // Refreshes every 500 ms, the harness steps 100 ms: several refreshes while it rests there.
    harness.run_steps(23);
    assert!(
        harness
            .query_by_label_contains("= 1 / mean interval")
            .is_some(),
        "the hover's AVG line, after the last refresh"
    );
}

/// The default rows (compact) show neither the lows nor LATENCY, so a refresh leaves them out of
/// its snapshot; whatever asks for them still gets them: `egui_hud::snapshot`, the hover, and
/// the full preset's rows brought by the key between refreshes.
#[test]
fn readouts_the_rows_do_not_show_are_read_when_asked_for() {
    let compact = || {
        let mut app = App::new();
        app.preset = Some(HudPreset::Compact);
        Harness::builder()
            .with_size(egui::vec2(240.0, 300.0))
            .with_step_dt(0.1)
            .build_ui_state(App::ui, app)
    };
    let rows = |harness: &Harness<'_, App>| {
        harness
            .query_by_label_contains("FRAME")
            .and_then(|node| node.accesskit_node().label().or_else(|| node.value()))
            .unwrap_or_default()
    };

    // The hover names AVG and the lows whatever the rows (nothing else read them first).
    let mut hovered = compact();
    hovered.run_steps(12);
    assert!(
        !rows(&hovered).contains("AVG"),
        "compact: {}",
        rows(&hovered)
    );
    hovered.get_by_label("MAX FPS").hover();
    // egui shows a tooltip after its delay (0.5 s of egui time).
    hovered.run_steps(8);
    assert!(
        hovered
            .query_by_label_contains("= 1 / mean interval")
            .is_some(),
        "the hover's AVG line"
    );

    // The rows the key brings between refreshes (compact -> full), right after a refresh that
    // nothing read: the harness steps 100 ms, the refreshes are 500 ms apart.
    let mut keyed = compact();
    keyed.run_steps(12);
    step_until_a_refresh(&mut keyed);
    let read_then = readout_samples(&keyed);
    keyed.run_steps(5); // the next refresh, at the fifth step
    keyed.key_press(egui::Key::F10); // compact -> full
    keyed.run_steps(2);
    let full = rows(&keyed);
    assert!(
        full.contains("AVG") && full.contains("1% LOW"),
        "full's rows right after the key: {full:?}"
    );
    assert_ne!(
        readout_samples(&keyed),
        read_then,
        "they come from a refresh after the one read through the API"
    );

    // The API reads them too.
    let mut read = compact();
    read.run_steps(12);
    let snapshot = hud_snapshot(&read);
    // The app's requests wake no frame here (kittest runs its steps), so LATENCY has no total;
    // its stages read.
    let ui_stage = snapshot
        .latency
        .iter()
        .find(|r| r.stage == profiler_core::LatencyStage::Ui);
    assert!(
        snapshot.lows.is_some() && ui_stage.is_some_and(|r| r.frames > 0),
        "the lows and the latency path: {snapshot:?}"
    );
}

/// The other side of the rule above: when the app's own request is the sooner one, the frames
/// it wakes are the app's and are counted.
#[test]
fn frames_the_app_asked_for_sooner_than_the_tick_are_counted() {
    let mut harness = timer_app_harness(0.1, Duration::from_millis(100));
    harness.run_steps(100); // 10 s at 10 frames a second
    let snapshot = hud_snapshot(&harness);
    // At most one frame in five lands when the HUD's tick is the sooner request.
    assert!(
        snapshot.samples >= 70,
        "{} of ~90 frames after the warm-up counted",
        snapshot.samples
    );
}

/// An app that clears egui's memory (a "reset" button) gets a fresh HUD state; the frame plugin
/// must time that one, not the one that was dropped.
#[test]
fn the_hud_keeps_measuring_after_egui_memory_is_cleared() {
    let mut harness = harness(App::new());
    harness.run_steps(20);
    assert!(hud_snapshot(&harness).samples > 0);
    harness.ctx.memory_mut(|memory| memory.data.clear());
    harness.run_steps(20);
    assert!(
        hud_snapshot(&harness).samples > 0,
        "the new state is sampled: {:?}",
        hud_snapshot(&harness)
    );
}

/// Integrations that call `Context::begin_pass` / `end_pass` themselves skip egui's
/// `on_begin_pass` plugin hook; the HUD still times their frames.
#[test]
fn frames_are_sampled_when_the_integration_drives_begin_and_end_pass() {
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    for frame in 0..70_u32 {
        ctx.begin_pass(egui::RawInput {
            time: Some(f64::from(frame) / 60.0),
            ..Default::default()
        });
        clock.advance(Duration::from_millis(3));
        FpsMonitor::new()
            .sample_resources(false)
            .clock(Arc::clone(&clock) as Arc<dyn Clock>)
            .show(&ctx);
        #[expect(clippy::disallowed_methods, reason = "an animating app")]
        ctx.request_repaint();
        if frame % 2 == 1 {
            // A new Grid does this; such an integration presents the pass all the same.
            ctx.request_discard("the app's layout settled");
        }
        let mut output = ctx.end_pass();
        output.textures_delta.clear();
    }
    let snapshot = egui_hud::snapshot(&ctx).expect("the HUD has ticked");
    // The last refresh (at 1 s) saw 60 frames, less the one that attached the HUD and 8 of
    // warm-up.
    assert!(snapshot.samples >= 50, "{snapshot:?}");
    assert_eq!(snapshot.frame, Some(Duration::from_millis(3)));
}

/// An app that asks for its next frame at the HUD's own cadence (every 500 ms, or every 250 ms)
/// ties with the tick: those frames are the app's and must all count.
#[test]
fn an_app_repainting_at_the_ticks_cadence_keeps_every_frame() {
    for (step_secs, app_delay) in [
        (0.5, Duration::from_millis(500)),
        (0.25, Duration::from_millis(250)),
    ] {
        let mut harness = timer_app_harness(step_secs, app_delay);
        harness.run_steps(40);
        let snapshot = hud_snapshot(&harness);
        assert_eq!(
            snapshot.self_induced_frames, 0,
            "at {app_delay:?}: no app frame taken for the HUD's"
        );
        assert!(
            snapshot.samples >= 28,
            "at {app_delay:?}: {} of ~31 frames after the warm-up counted",
            snapshot.samples
        );
    }
}

/// The details window: opened from the HUD's control, it shows the retained frames in an
/// interactive plot with the spikes marked, the histograms and the spike list.
#[test]
fn the_details_window_opens_from_the_hud_and_shows_the_spikes() {
    let mut app = App::new();
    app.slow_frame = Some(14);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(720.0, 620.0))
        .with_theme(egui::Theme::Dark)
        .with_render_cursor(false)
        .build_ui_state(App::ui, app);
    harness.run_steps(30);
    assert!(
        harness.query_by_label("egui-hud details").is_none(),
        "closed by default"
    );
    harness.get_by_label("details ▸").click();
    harness.run_steps(4);
    assert!(
        harness.query_by_label("egui-hud details").is_some(),
        "the control opens it"
    );
    assert!(
        harness
            .query_by_label_contains("200.0 ms: work 200.0 ms")
            .is_some(),
        "the spike's anatomy is listed"
    );
    harness.snapshot("details_window_dark");
    egui_hud::show_details(&harness.ctx, false);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("egui-hud details").is_none(),
        "closed by the API"
    );
}

/// A refresh rate no display has (1 GHz, a NaN, 0.5 Hz) is unknown, not a 1 ns budget: the
/// budget stays at 60 Hz and MISS has no reading; a real one (144 Hz) still applies.
#[test]
fn refresh_rates_outside_1_to_1000_hz_are_unknown() {
    let mut harness = harness(App::new());
    harness.run_steps(40);
    for nonsense in [1e9, f64::NAN, 0.5, -60.0] {
        egui_hud::set_refresh_rate(&harness.ctx, Some(nonsense));
        harness.run_steps(40);
        let snapshot = hud_snapshot(&harness);
        assert_eq!(
            (snapshot.refresh_hz, snapshot.budget),
            (None, Duration::from_nanos(16_666_667)),
            "{nonsense} Hz is unknown"
        );
        assert_eq!(snapshot.missed_refreshes, None, "{nonsense} Hz: no MISS");
    }
    egui_hud::set_refresh_rate(&harness.ctx, Some(144.0));
    harness.run_steps(40);
    assert_eq!(hud_snapshot(&harness).refresh_hz, Some(144.0));
}

/// The pass egui redoes because a click resized the HUD is the HUD's doing: it is not among
/// WHY's discard reasons, not in its multi-pass share, and not a second pass of the frame.
#[test]
fn the_huds_own_discard_is_not_the_apps() {
    let mut harness = harness(App::new());
    harness.run_steps(40);
    // Every WHY reading from the clicks to two refreshes after them.
    let mut readings = Vec::new();
    for _ in 0..4 {
        harness.get_by_label("MAX FPS").click(); // collapses, then expands: the HUD resizes
        for _ in 0..3 {
            harness.step();
            readings.push(egui_hud::why(&harness.ctx));
        }
    }
    for _ in 0..70 {
        harness.step();
        readings.push(egui_hud::why(&harness.ctx));
    }
    let readings: Vec<_> = readings.into_iter().flatten().collect();
    assert!(!readings.is_empty(), "WHY reads");
    for why in &readings {
        assert!(
            why.top_discard_reasons.is_empty(),
            "the HUD's own discard is not a reason of the app's: {:?}",
            why.top_discard_reasons
        );
        assert_eq!(
            why.multi_pass_frames,
            Some(0.0),
            "no frame took two passes of the app's"
        );
    }
}

/// Twelve phase names a frame, where a frame's record keeps 8: the four beyond are counted in
/// the snapshot and the hover says so; the eight kept have their lines.
#[test]
fn phases_beyond_the_eight_a_frame_keeps_are_counted_and_said() {
    const NAMES: [&str; 12] = [
        "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09", "p10", "p11", "p12",
    ];
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 300.0))
        .build_ui_state(
            |ui, app: &mut App| {
                for name in NAMES {
                    let _phase = egui_hud::cpu_phase(ui.ctx(), name);
                    app.clock.advance(Duration::from_micros(100));
                }
                App::ui(ui, app);
            },
            App::new(),
        );
    harness.run_steps(60);
    let snapshot = hud_snapshot(&harness);
    assert_eq!(
        snapshot.cpu_phases.len(),
        profiler_core::record::frame_phases::MAX_PHASES,
        "the first names fill the record: {:?}",
        snapshot.cpu_phases
    );
    assert!(
        snapshot.cpu_phases_untracked >= 4 * u64::try_from(snapshot.samples).expect("small"),
        "at least 5 names a counted frame are not shown: {} over {} frames",
        snapshot.cpu_phases_untracked,
        snapshot.samples
    );
    harness.get_by_label("MAX FPS").hover();
    // egui shows a tooltip after its delay (0.5 s of egui time).
    harness.run_steps(60);
    assert!(
        harness
            .query_by_label_contains("phase timings not shown (more than 8 names)")
            .is_some(),
        "the hover says so"
    );
}

/// `reset` starts the readouts over: the spikes and their worst, the lows and the hitch ratio
/// are gone, and come back from the frames after it (a warm-up first).
#[test]
fn reset_clears_the_lows_the_hitch_ratio_and_the_spikes() {
    let mut app = App::new();
    app.slow_frame = Some(14);
    let mut harness = harness(app);
    harness.run_steps(60);
    let before = hud_snapshot(&harness);
    let lows = before.lows.expect("AVG and the lows read");
    assert!(before.hitch_ms_per_s.is_some(), "HITCH reads: {before:?}");
    assert_eq!(egui_hud::spikes(&harness.ctx).len(), 1, "the 200 ms frame");
    egui_hud::reset(&harness.ctx);
    harness.run_steps(1);
    assert!(
        egui_hud::spikes(&harness.ctx).is_empty(),
        "the spikes are gone"
    );
    harness.run_steps(40);
    let after = hud_snapshot(&harness);
    let lows_after = after
        .lows
        .expect("read again from the frames after the reset");
    assert!(
        lows_after.intervals < lows.intervals,
        "counted from the reset: {} then {}",
        lows.intervals,
        lows_after.intervals
    );
    assert!(
        egui_hud::spikes(&harness.ctx).is_empty(),
        "the old spike does not come back"
    );
}

/// A benchmark run: after its countdown it resets, records for its length on the HUD's clock,
/// and leaves a summary (shown as a card under the rows) whose figures are the run's frames:
/// 4 ms frames back to back read 250 FPS and a 4 ms median.
#[test]
fn a_benchmark_records_its_length_and_shows_its_summary() {
    let mut harness = preset_harness(egui::Theme::Dark, None);
    egui_hud::benchmark_after(
        &harness.ctx,
        Duration::from_millis(100),
        Duration::from_secs(1),
    );
    harness.run_steps(100);
    assert!(
        egui_hud::benchmark_summary(&harness.ctx).is_none(),
        "still recording after 0.4 s of 4 ms frames"
    );
    harness.run_steps(300);
    let summary = egui_hud::benchmark_summary(&harness.ctx).expect("the run finished");
    assert!(
        (1.0..1.01).contains(&summary.seconds),
        "it recorded its length: {} s",
        summary.seconds
    );
    // 250 frames in the second, less the warm-up after the reset.
    assert!(
        (240..=251).contains(&summary.frames),
        "{} frames",
        summary.frames
    );
    let frame = summary.frame.expect("frame times");
    assert!((frame.p50 - 4.0).abs() < 1e-6, "{frame:?}");
    let avg = summary.avg_fps.expect("AVG");
    assert!((avg - 250.0).abs() < 0.01, "AVG {avg}");
    harness.run_steps(40);
    assert!(
        harness.query_by_label_contains("frames").is_some(),
        "the summary card is shown"
    );
    harness.snapshot("hud_benchmark_summary_dark");
}

/// Two benchmark runs in one session are compared in the details window: the second, whose
/// frames take twice as long, reads slower.
#[test]
fn the_details_window_compares_the_last_two_benchmarks() {
    let mut harness = preset_harness(egui::Theme::Dark, None);
    for draw_ms in [4, 8] {
        harness.state_mut().draw = Duration::from_millis(draw_ms);
        egui_hud::benchmark_after(&harness.ctx, Duration::ZERO, Duration::from_millis(500));
        harness.run_steps(200);
        assert!(
            egui_hud::benchmark_summary(&harness.ctx).is_some(),
            "the {draw_ms} ms run finished"
        );
    }
    egui_hud::show_details(&harness.ctx, true);
    harness.run_steps(3);
    let table = harness
        .query_by_label_contains("frame p50 ms")
        .and_then(|node| node.accesskit_node().label().or_else(|| node.value()))
        .expect("the comparison is listed");
    let frame_line = table
        .lines()
        .find(|l| l.starts_with("frame p50 ms"))
        .expect("the frame line");
    assert!(frame_line.ends_with("slower"), "{table}");
}
