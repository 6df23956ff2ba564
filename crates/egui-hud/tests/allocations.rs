//! What the shown HUD allocates on the UI thread in the frames between its refreshes (the
//! frame path must not allocate: an allocation a frame is the HUD measuring itself), and what
//! its refreshes allocate with the pointer over it.
#![expect(
    unsafe_code,
    reason = "a counting global allocator is the only way to observe allocations"
)]
#![expect(clippy::disallowed_methods, reason = "the test app animates")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use egui_hud::profiler_core::{Clock, ManualClock, Snapshot};
use egui_hud::{FpsMonitor, HudPreset};

/// Counts the allocations (and reallocations) of the thread that makes them: the tests in this
/// file run on their own threads, so each sees only its own.
struct ThreadCountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: the thread's counter is gone while the thread itself is torn down.
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for ThreadCountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: ThreadCountingAllocator = ThreadCountingAllocator;

/// What one frame allocated: inside its `fps_monitor` call, and in its whole pass
/// (`Context::run_ui`: egui's hooks, where the HUD times and records the frame, the app's UI
/// and `fps_monitor`, egui's end of the pass).
#[derive(Clone, Copy, Debug)]
struct FrameAllocations {
    frame: usize,
    in_monitor: u64,
    in_pass: u64,
}

/// What each frame that did not refresh the readouts allocated, after `warm_up` frames: an
/// animating app (a repaint request every frame) drawing 4 ms frames at 60 Hz on a manual
/// clock, showing `preset` (`None`: without the HUD, every frame counted).
fn allocations_between_refreshes(
    preset: Option<HudPreset>,
    warm_up: usize,
    frames: usize,
) -> Vec<FrameAllocations> {
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    let as_clock: Arc<dyn Clock> = Arc::clone(&clock) as Arc<dyn Clock>;
    let mut last: Option<Snapshot> = None;
    let mut counts = Vec::new();
    for frame in 0..warm_up + frames {
        let mut in_monitor = 0;
        let input = egui::RawInput {
            time: Some(clock.now().as_secs_f64()),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        };
        let pass_start = allocations();
        let mut output = ctx.run_ui(input, |ui| {
            ui.label("an app");
            clock.advance(Duration::from_millis(4));
            ui.ctx().request_repaint();
            if let Some(preset) = preset {
                let before = allocations();
                FpsMonitor::new()
                    .clock(Arc::clone(&as_clock))
                    .sample_resources(false)
                    .preset(preset)
                    .show(ui.ctx());
                in_monitor = allocations() - before;
            }
        });
        let in_pass = allocations() - pass_start;
        output.textures_delta.clear(); // nothing paints here
        clock.advance(Duration::from_millis(12));
        let snapshot = egui_hud::snapshot(&ctx);
        let refreshed = snapshot != last;
        last = snapshot;
        if frame >= warm_up && !refreshed {
            counts.push(FrameAllocations {
                frame,
                in_monitor,
                in_pass,
            });
        }
    }
    assert_eq!(
        last.is_some(),
        preset.is_some(),
        "the HUD sampled and refreshed during the run, if shown"
    );
    counts
}

#[test]
fn the_shown_hud_allocates_nothing_between_refreshes() {
    for preset in [HudPreset::NumberOnly, HudPreset::Compact, HudPreset::Full] {
        let counts = allocations_between_refreshes(Some(preset), 120, 120);
        assert!(
            counts.len() > 100,
            "{preset:?}: most frames do not refresh ({} did not)",
            counts.len()
        );
        assert!(
            counts.iter().all(|count| count.in_monitor == 0),
            "{preset:?}: fps_monitor allocated in frames between refreshes: {counts:?}"
        );
    }
}

/// The HUD's hooks allocate nothing either: a whole pass between refreshes allocates one more
/// with the HUD than without, and that one is egui's. `Context::repaint_causes`, the only way
/// egui 0.37 gives the previous pass's repaint requests (WHY and each frame's record need
/// them), returns a copy: one allocation when the app asked for a frame, as an animating app
/// does every frame. (In an app with more layers than this one, egui's gathering of every
/// layer's shapes into a new list at the pass's end may grow that list once more for the HUD's
/// layer, as for any `Area` or window; here the app's one layer leaves room for it.)
#[test]
fn the_hooks_allocate_nothing_of_their_own_between_refreshes() {
    let without: std::collections::HashMap<usize, u64> =
        allocations_between_refreshes(None, 120, 120)
            .into_iter()
            .map(|count| (count.frame, count.in_pass))
            .collect();
    for preset in [HudPreset::NumberOnly, HudPreset::Full] {
        let shown = allocations_between_refreshes(Some(preset), 120, 120);
        assert!(
            shown.len() > 100,
            "{preset:?}: most frames do not refresh ({} did not)",
            shown.len()
        );
        let added: Vec<i128> = shown
            .iter()
            .map(|count| i128::from(count.in_pass) - i128::from(without[&count.frame]))
            .collect();
        assert!(
            added.iter().all(|&more| more <= 1),
            "{preset:?}: allocations a pass with the HUD, less without, frame by frame: {added:?}"
        );
    }
}

/// Allocations inside each `fps_monitor` call over 2.4 s of 100 ms steps (five refreshes) of
/// the compact HUD on a manual clock, after a warm-up, with the pointer resting over the HUD's
/// rows (away from the main readout) or outside the HUD; and the rows' text after each frame.
/// Each frame takes a millisecond longer than the last, so that each refresh shows another
/// FRAME.
fn allocations_with_the_pointer(over_the_rows: bool) -> (Vec<u64>, Vec<String>) {
    use egui_kittest::kittest::Queryable as _;

    let clock = Arc::new(ManualClock::new());
    let as_clock: Arc<dyn Clock> = Arc::clone(&clock) as Arc<dyn Clock>;
    let counts = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let counted = std::rc::Rc::clone(&counts);
    let mut frame = 0_u64;
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(400.0, 400.0))
        .with_step_dt(0.1)
        .build_ui(move |ui| {
            ui.label("an app");
            frame += 1;
            clock.advance(Duration::from_millis(frame));
            let before = allocations();
            FpsMonitor::new()
                .clock(Arc::clone(&as_clock))
                .sample_resources(false)
                .preset(HudPreset::Compact)
                .show(ui.ctx());
            let inside = allocations() - before;
            counted.borrow_mut().push(inside);
            clock.advance(Duration::from_millis(96));
        });
    harness.run_steps(12);
    if over_the_rows {
        // The HUD's body, labelled with its rows; its middle is a row, below the readout.
        harness.get_by_label_contains("FRAME").hover();
    } else {
        harness.hover_at(egui::pos2(10.0, 390.0));
    }
    harness.run_steps(3);
    counts.borrow_mut().clear();
    let mut rows = Vec::new();
    for _ in 0..24 {
        harness.step();
        let body = harness.get_by_label_contains("FRAME");
        rows.push(body.value().unwrap_or_default());
    }
    (counts.take(), rows)
}

/// The hover text shows only over the main readout, so it is built only there: a pointer
/// resting over the rows (the HUD covers a corner of the app) reads nothing more at a refresh
/// than a pointer elsewhere, neither the text nor the parts of the snapshot the rows left out.
/// egui's own work for the widget under the pointer (in debug builds it clones its list of
/// plugins to tell them) falls inside the HUD's call while the pointer is over the HUD, the
/// same in every frame; so each frame's count over the rows is the one away from the HUD plus
/// a constant.
#[test]
fn a_pointer_resting_on_the_rows_builds_no_hover_text() {
    let (away, rows_away) = allocations_with_the_pointer(false);
    let (over_the_rows, rows_over) = allocations_with_the_pointer(true);
    assert_eq!(away.len(), over_the_rows.len(), "the same frames");
    for rows in [&rows_away, &rows_over] {
        let refreshes = rows.windows(2).filter(|pair| pair[0] != pair[1]).count();
        assert!(
            refreshes >= 3,
            "the rows changed at the refreshes in these frames: {rows:#?}"
        );
    }
    let differences: Vec<i128> = over_the_rows
        .iter()
        .zip(&away)
        .map(|(&over, &away)| i128::from(over) - i128::from(away))
        .collect();
    assert!(
        differences.iter().all(|&d| d == differences[0]),
        "allocations over the rows less those away, frame by frame: {differences:?} \
         (over the rows {over_the_rows:?}, away {away:?})"
    );
}
