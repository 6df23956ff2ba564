//! The spike recorder and the exports: a slow frame among fast ones is kept with its anatomy,
//! the CSV has a row per retained frame, the Chrome trace follows the Trace Event Format, and
//! a failed export is a typed error that leaves the HUD working.
#![expect(clippy::indexing_slicing, reason = "test assertions on parsed output")]

use std::sync::Arc;
use std::time::Duration;

use egui_hud::profiler_core::{Clock, ManualClock};
use egui_hud::{ExportError, ExportFormat, FpsMonitor};
use serde_json::Value;

/// The frame (egui frame number) that draws for 50 ms instead of 4 ms.
const SLOW_FRAME: u64 = 40;

/// Runs `frames` frames of an animating app on a manual clock: each frame is a 4 ms `physics`
/// phase (50 ms on `SLOW_FRAME`) and asks for the next frame.
fn run(ctx: &egui::Context, clock: &Arc<ManualClock>, frames: u64, request_line: &mut u32) {
    for _ in 0..frames {
        let input = egui::RawInput {
            time: Some(clock.now().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            {
                let _physics = egui_hud::cpu_phase(ui.ctx(), "physics");
                let slow = ui.ctx().cumulative_frame_nr() == SLOW_FRAME;
                clock.advance(Duration::from_millis(if slow { 50 } else { 4 }));
            }
            *request_line = line!() + 2;
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            FpsMonitor::new()
                .sample_resources(false)
                .clock(Arc::clone(clock) as Arc<dyn Clock>)
                .show(ui.ctx());
        });
        output.textures_delta.clear();
        clock.advance(Duration::from_millis(12));
    }
}

fn hud_with_frames(frames: u64) -> (egui::Context, Arc<ManualClock>, u32) {
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    let mut request_line = 0;
    run(&ctx, &clock, frames, &mut request_line);
    (ctx, clock, request_line)
}

#[test]
fn one_slow_frame_among_fast_ones_is_a_spike_with_its_anatomy() {
    let (ctx, _clock, request_line) = hud_with_frames(200);
    let spikes = egui_hud::spikes(&ctx);
    assert_eq!(spikes.len(), 1, "only the 50 ms frame: {spikes:#?}");
    let spike = &spikes[0];
    assert_eq!(spike.draw, Duration::from_millis(50));
    assert_eq!(
        spike.cpu_phases.first(),
        Some(&("physics".to_owned(), Duration::from_millis(50))),
        "its phase"
    );
    let site = format!("spikes_export.rs:{request_line}");
    assert!(
        spike.woke_by.iter().any(|cause| cause.contains(&site)),
        "woke by the app's request at {site}: {:?}",
        spike.woke_by
    );
    // Its hand-off interval is the slowest figure: 50 ms of drawing after 12 ms of waiting.
    assert_eq!(spike.worst, Duration::from_millis(62));
    assert!(
        spike.summary().starts_with("62.0 ms: physics 50.0 ms"),
        "{}",
        spike.summary()
    );
}

#[test]
fn the_csv_has_a_row_per_retained_frame() {
    let (ctx, _clock, _) = hud_with_frames(200);
    let mut csv = Vec::new();
    let rows = egui_hud::export(&ctx, ExportFormat::Csv, &mut csv).expect("export");
    let text = String::from_utf8(csv).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(rows, 120, "the retained window (capacity 120)");
    assert_eq!(lines.len(), rows + 1, "a header and a row per frame");
    let header: Vec<&str> = lines[0].split(',').collect();
    for column in [
        "draw_ms",
        "hud_ms",
        "handoff_interval_ms",
        "stage_ui_ms",
        "phase:physics_ms",
        "spike",
    ] {
        assert!(header.contains(&column), "{column} in {header:?}");
    }
    for line in &lines[1..] {
        assert_eq!(line.split(',').count(), header.len(), "{line}");
    }
    let draw = header
        .iter()
        .position(|c| *c == "draw_ms")
        .expect("draw_ms");
    assert_eq!(lines[1].split(',').nth(draw), Some("4.0000"));
    // `docs/export.md`: the root viewport is `FFFF`, a plain cell (not egui's quoted debug form).
    assert_eq!(lines[1].split(',').next(), Some("FFFF"), "{}", lines[1]);
}

#[test]
fn the_chrome_trace_follows_the_trace_event_format() {
    let (ctx, _clock, _) = hud_with_frames(200);
    let mut json = Vec::new();
    egui_hud::export(&ctx, ExportFormat::ChromeTrace, &mut json).expect("export");
    let trace: Value = serde_json::from_slice(&json).expect("valid JSON");
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let mut tracks = std::collections::BTreeMap::<(u64, u64), Vec<(f64, f64)>>::new();
    let mut frames = 0;
    for event in events {
        // `docs/export.md`: every event has a `ts`, the metadata ones included.
        assert!(
            event["ts"].as_f64().is_some(),
            "an event without ts: {event}"
        );
        if event["ph"] != "X" {
            continue;
        }
        let name = event["name"].as_str().expect("a name");
        let (ts, dur) = (
            event["ts"].as_f64().expect("ts"),
            event["dur"].as_f64().expect("dur"),
        );
        assert!(dur >= 0.0, "{event}");
        let (pid, tid) = (
            event["pid"].as_u64().expect("pid"),
            event["tid"].as_u64().expect("tid"),
        );
        if name.starts_with("frame ") {
            frames += 1;
            assert!(
                (dur - 4000.0).abs() < 1.0 || (dur - 50_000.0).abs() < 1.0,
                "µs: {event}"
            );
            // The manual clock stands still while the HUD works: none of its time is counted.
            assert_eq!(event["args"]["hud_ms"].as_f64(), Some(0.0), "{event}");
        }
        tracks.entry((pid, tid)).or_default().push((ts, ts + dur));
    }
    assert_eq!(frames, 120);
    let thread_names: Vec<&str> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .filter_map(|e| e["args"]["name"].as_str())
        .collect();
    assert_eq!(
        thread_names,
        ["CPU FFFF", "GPU FFFF"],
        "as `docs/export.md` names them"
    );
    for spans in tracks.values_mut() {
        spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let mut open: Vec<f64> = Vec::new();
        for &(start, end) in spans.iter() {
            while open.last().is_some_and(|&e| e <= start) {
                open.pop();
            }
            assert!(
                open.last().is_none_or(|&e| end <= e),
                "a span starting inside another ends inside it"
            );
            open.push(end);
        }
    }
    assert!(
        events
            .iter()
            .any(|e| e["ph"] == "i" && e["name"] == "spike"),
        "the spike is an instant event"
    );
}

#[test]
fn a_failed_export_is_a_typed_error_and_the_hud_keeps_working() {
    let (ctx, clock, mut line) = hud_with_frames(200);
    let missing = std::env::temp_dir().join("egui-hud-no-such-directory/deeper");
    let error = egui_hud::save_exports_now(&ctx, &missing).expect_err("no such directory");
    assert!(
        matches!(&error, ExportError::Write { path: Some(path), .. } if path.starts_with(&missing)),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("check that the directory exists"),
        "{error}"
    );
    run(&ctx, &clock, 20, &mut line);
    let mut csv = Vec::new();
    assert_eq!(
        egui_hud::export(&ctx, ExportFormat::Csv, &mut csv).expect("still retained"),
        120
    );
    let written = egui_hud::save_exports_now(&ctx, std::env::temp_dir()).expect("a writable dir");
    for path in &written {
        assert!(path.is_file(), "{}", path.display());
        std::fs::remove_file(path).expect("cleanup");
    }
    let nothing = egui_hud::export(
        &egui::Context::default(),
        ExportFormat::Csv,
        &mut Vec::new(),
    );
    assert!(matches!(nothing, Err(ExportError::NothingRetained)));
}

/// With `export_on_key`, a benchmark run that finishes is saved beside the exports, once, on a
/// background thread (the summary is handed over by the HUD's second lock of the frame).
#[test]
fn a_finished_benchmark_is_saved_beside_the_exports_once() {
    let directory =
        std::env::temp_dir().join(format!("egui-hud-benchmark-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("a directory");
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    let frame = |ctx: &egui::Context| {
        let input = egui::RawInput {
            time: Some(clock.now().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            clock.advance(Duration::from_millis(4));
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            FpsMonitor::new()
                .sample_resources(false)
                .clock(Arc::clone(&clock) as Arc<dyn Clock>)
                .export_on_key(egui::Key::F11, Some(directory.clone()))
                .show(ui.ctx());
        });
        output.textures_delta.clear();
    };
    for _ in 0..20 {
        frame(&ctx);
    }
    egui_hud::benchmark_after(&ctx, Duration::ZERO, Duration::from_millis(200));
    for _ in 0..200 {
        frame(&ctx);
    }
    assert!(
        egui_hud::benchmark_summary(&ctx).is_some(),
        "the run finished"
    );
    let saved = |extension: &str| {
        std::fs::read_dir(&directory)
            .expect("the directory")
            .filter_map(Result::ok)
            .filter(|entry| entry.path().extension().is_some_and(|e| e == extension))
            .count()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while saved("json") == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    // More frames hand nothing more over: the summary is saved once.
    for _ in 0..50 {
        frame(&ctx);
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(saved("json"), 1, "one summary saved");
    assert_eq!(saved("csv"), 1, "with its frames");
    let _ = std::fs::remove_dir_all(&directory);
}

/// The HUD hands its frames to the frame log a few at a time (`FrameRecorder::flush`); what
/// reads the log gets every frame completed until then: a frame completes at the next frame's
/// draw, so each frame adds one row to an export, and the slow frame is a spike from the frame
/// after it. Two apps, one read each, so that neither read flushes for the other.
#[test]
fn reads_see_every_frame_completed_until_then() {
    let (exported, exported_clock, mut exported_line) = hud_with_frames(30);
    let (slowed, slowed_clock, mut slowed_line) = hud_with_frames(30);
    let rows_now =
        || egui_hud::export(&exported, ExportFormat::Csv, &mut Vec::new()).expect("export");
    let mut rows = rows_now();
    assert!(rows > 0, "frames past the warm-up are retained");
    // 70 frames: fewer than the retained window's 120, so each frame adds a row.
    for frames in 31..=70_u64 {
        run(&exported, &exported_clock, 1, &mut exported_line);
        let now = rows_now();
        assert_eq!(now, rows + 1, "after {frames} frames: one row more");
        rows = now;
        run(&slowed, &slowed_clock, 1, &mut slowed_line);
        // The slow frame is egui's frame 40, the 41st run; it completes in the 42nd.
        let spikes = egui_hud::spikes(&slowed).len();
        assert_eq!(spikes, usize::from(frames >= 42), "after {frames} frames");
    }
}
