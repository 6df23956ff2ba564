//! The demo in a real window: under Xvfb for a few seconds on wgpu (lavapipe) and on glow, then
//! its `--seconds` JSON is checked for real readings.
//!
//! Needs `xvfb-run` (Debian `xvfb xauth`) and, for wgpu, a Vulkan driver (`mesa-vulkan-drivers`).
//! Without them the test prints why and passes, unless `EGUI_HUD_REQUIRE_XVFB=1` (CI) makes a
//! missing display a failure.
#![expect(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "test helpers fail loudly and say why they skip"
)]

use std::process::Command;
use std::sync::Mutex;

use serde_json::Value;

fn xvfb_available() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("EGUI_HUD_REQUIRE_XVFB").as_deref() != Ok("1"),
            "xvfb-run is missing and EGUI_HUD_REQUIRE_XVFB=1: install xvfb and xauth"
        );
        println!("skipped: xvfb-run not found (apt-get install xvfb xauth)");
    }
    found
}

/// One demo at a time: two software renderers on a 2-core runner starve each other.
static ONE_DEMO_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The demo under a fresh Xvfb, its runtime directory `runtime_dir`; arguments to add.
fn demo_under_xvfb(runtime_dir: &std::path::Path) -> Command {
    let mut command = Command::new("xvfb-run");
    command
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_fps_monitor"))
        .env("XDG_RUNTIME_DIR", runtime_dir)
        // winit prefers Wayland when it can reach a compositor: this test is about Xvfb.
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        // winit derives the scale from the screen's reported size (up to 20×); the software
        // rasterizer's cost grows with the pixels, so pin it.
        .env("WINIT_X11_SCALE_FACTOR", "1");
    command
}

/// Runs the demo for `seconds` under a fresh Xvfb with `--csv` and `--trace`, and parses its
/// JSON line; returns it, the demo's stderr (for failure messages) and both files.
fn run_demo_exporting(backend: &str, seconds: &str) -> (Value, String, String, Value) {
    let _one_at_a_time = ONE_DEMO_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let runtime_dir = std::env::temp_dir().join(format!("egui-hud-xdg-{backend}"));
    std::fs::create_dir_all(&runtime_dir).expect("temp dir");
    let csv_path = runtime_dir.join("frames.csv");
    let trace_path = runtime_dir.join("frames.json");
    let output = demo_under_xvfb(&runtime_dir)
        .args([
            "--seconds",
            seconds,
            "--backend",
            backend,
            "--load",
            "4",
            "--size",
            "640x400",
        ])
        .arg("--csv")
        .arg(&csv_path)
        .arg("--trace")
        .arg(&trace_path)
        .output()
        .expect("xvfb-run starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The status says how it ended (a signal has no code), and stdout whether it got as far
    // as its JSON.
    assert!(
        output.status.success(),
        "demo on {backend} failed ({}):\n--- stderr\n{stderr}\n--- stdout\n{stdout}",
        output.status
    );
    let line = stdout.lines().last().unwrap_or_default();
    let json =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    let csv = std::fs::read_to_string(&csv_path).expect("--csv wrote its file");
    let trace = serde_json::from_str(&std::fs::read_to_string(&trace_path).expect("--trace wrote"))
        .expect("the trace is JSON");
    (json, stderr.into_owned(), csv, trace)
}

/// The exported files: a CSV row per retained frame with the draw, and a trace whose complete
/// events carry every field the Trace Event Format requires, frames on the CPU track.
/// The demo's HUD retains the default 120 frames.
const RETAINED_FRAMES: u64 = 120;

fn assert_exports(json: &Value, csv: &str, trace: &Value) {
    let lines: Vec<&str> = csv.lines().collect();
    let header: Vec<&str> = lines.first().expect("a header").split(',').collect();
    assert!(
        header.contains(&"draw_ms") && header.contains(&"stage_ui_ms"),
        "{header:?}"
    );
    // The snapshot is the last refresh's, the export is written at exit, up to 500 ms of
    // frames later: the rows are bounded by the retained window (the default capacity), not by
    // the snapshot's sample count (a loaded runner may not have filled the window yet).
    let samples = json["samples"].as_u64().expect("samples");
    let rows = u64::try_from(lines.len() - 1).expect("rows");
    assert!(
        rows > 0 && rows <= RETAINED_FRAMES,
        "a row per retained frame ({rows} rows, {samples} samples at the last refresh)"
    );
    let hud = header.iter().position(|c| *c == "hud_ms");
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        // Every counted frame ran the HUD's hooks and drawing: some of its own time, on the
        // real clock (a microsecond or more, four decimals of a millisecond).
        let hud_ms = hud.and_then(|at| cells.get(at)?.parse::<f64>().ok());
        assert!(hud_ms.is_some_and(|ms| ms > 0.0), "hud_ms in {line}");
    }
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let complete: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert!(
        complete
            .iter()
            .any(|e| e["name"].as_str().is_some_and(|n| n.starts_with("frame "))),
        "frames in the trace"
    );
    for event in complete {
        for field in ["name", "ts", "dur", "pid", "tid"] {
            assert!(!event[field].is_null(), "{field} in {event}");
        }
        assert!(event["dur"].as_f64().is_some_and(|d| d >= 0.0), "{event}");
    }
}

/// The most the HUD may cost per frame, by its own measure, in the demo's real window...
const HUD_COST_CEILING_US: f64 = 1000.0;
/// ... or this many times the app's own FRAME in the same run, when that is more (a loaded
/// machine). Unloaded, the HUD costs about one FRAME of the demo here.
const HUD_COST_PER_FRAME: f64 = 5.0;

fn positive(json: &Value, key: &str) -> f64 {
    let value = json[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing in {json}"));
    assert!(value > 0.0, "{key} = {value} in {json}");
    value
}

fn assert_common_readings(json: &Value, stderr: &str) {
    assert!(
        json["samples"].as_u64().is_some_and(|n| n > 0),
        "frames were sampled: {json}\ndemo stderr:\n{stderr}"
    );
    positive(json, "frame_ms");
    positive(json, "fps");
    // The demo animates: its frames are wanted back to back, so the session's lows read, the
    // 1 % low no faster than the average.
    let lows = &json["lows"];
    let (avg, low) = (
        lows["avg_fps"].as_f64().unwrap_or(0.0),
        lows["low_1_percent_fps"].as_f64().unwrap_or(0.0),
    );
    assert!(
        0.0 < low && low <= avg * 1.01,
        "AVG and 1% LOW read: {json}"
    );
    assert!(json["hitch_ms_per_s"].is_f64(), "HITCH reads: {json}");
    positive(json, "max_fps");
    positive(json, "cpu_percent");
    positive(json, "memory_bytes");
    assert!(
        json["refresh_hz"].is_null(),
        "Xvfb has no refresh rate: {json}"
    );
    assert!(
        json["missed_refreshes"].is_null(),
        "no refresh rate, no MISS: {json}"
    );
    // eframe's frame gives `ui` and `render`; the demo times `curves` itself.
    let phase = |label: &str| {
        json["cpu_phases"]
            .as_array()
            .and_then(|phases| phases.iter().find(|p| p["label"] == label))
            .and_then(|p| p["mean_ms"].as_f64())
    };
    for label in ["ui", "render", "curves"] {
        assert!(
            phase(label).is_some_and(|ms| ms > 0.0),
            "the {label} phase is read: {json}"
        );
    }
    let (cpu, frame) = (positive(json, "cpu_frame_ms"), positive(json, "frame_ms"));
    assert!(
        cpu > frame,
        "the CPU time per frame adds eframe's render to FRAME: {cpu} vs {frame}"
    );
    // The HUD's own measure of its cost per frame, its median: a generous ceiling, so that
    // this cannot flake on a loaded runner, but a tenfold return of a per-frame cost fails. The
    // median, because a frame preempted inside the HUD's hooks moves the mean by milliseconds
    // (2.2 ms read with two busy loops and a build on two cores) and the median not. A loaded
    // machine slows the HUD as much as the app, so the ceiling grows with the app's own FRAME
    // measured in the same run. `benches/hud_render_cost.rs` and `benches/hud_cost.rs` hold
    // the real targets.
    let hud_cost_us = positive(json, "hud_cost_p50_us");
    let frame_us = positive(json, "frame_ms") * 1e3;
    let ceiling_us = HUD_COST_CEILING_US.max(HUD_COST_PER_FRAME * frame_us);
    assert!(
        hud_cost_us < ceiling_us,
        "the HUD costs {hud_cost_us:.0} µs per frame, median (ceiling {ceiling_us:.0} µs, FRAME \
         {frame_us:.0} µs): {json}"
    );
    // Xvfb's software renderers (llvmpipe GL, lavapipe's Vulkan WSI) draw with PutImage, so
    // the X server reports no Present completions: DISPLAYED is absent, and the HUD says why.
    assert!(
        json["presentation"].is_null(),
        "no presentation times under Xvfb: {json}"
    );
    assert!(
        json["presentation_unavailable"]
            .as_str()
            .is_some_and(|why| why.contains("without the Present extension")),
        "the reason there are none: {json}"
    );
    let top_site = &json["why"]["top_sites"][0];
    assert!(
        top_site["file"]
            .as_str()
            .is_some_and(|f| f.contains("fps_monitor"))
            && top_site["per_sec"].as_f64().is_some_and(|r| r > 0.0),
        "WHY names the demo's repaint site: {json}"
    );
}

#[test]
fn wgpu_on_lavapipe_reads_frames_resources_and_gpu_passes() {
    if !xvfb_available() {
        return;
    }
    let (json, stderr, csv, trace) = run_demo_exporting("wgpu", "6");
    assert_common_readings(&json, &stderr);
    assert_exports(&json, &csv, &trace);
    let gpu_events = trace["traceEvents"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["ph"] == "X" && e["name"] == "egui")
        .count();
    assert!(gpu_events > 0, "egui's GPU pass is on the GPU track");
    let passes = json["gpu_passes"].as_array().expect("gpu_passes is a list");
    let labels: Vec<&str> = passes.iter().filter_map(|p| p["label"].as_str()).collect();
    assert!(labels.contains(&"egui"), "egui's own pass is timed: {json}");
    assert!(
        labels.contains(&"scene"),
        "the demo's labelled pass is timed: {json}"
    );
    for pass in passes {
        positive(pass, "last_ms");
    }
    let gpu_frame_ms = positive(&json, "gpu_frame_ms");
    // The CPU side: FRAME plus eframe's render.
    let frame_ms = positive(&json, "cpu_frame_ms");
    // MAX FPS follows the slower side: lavapipe's GPU frame is far longer than the CPU's.
    let max_fps = positive(&json, "max_fps");
    assert!(
        max_fps <= 1e3 / gpu_frame_ms.max(frame_ms) * 1.0001,
        "MAX FPS {max_fps} with {gpu_frame_ms} ms of GPU a frame: {json}"
    );
    assert_eq!(
        json["gpu_busy_source"].as_str(),
        Some("timestamps"),
        "{json}"
    );
    assert!(json["gpu_dropped_frames"].is_u64(), "{json}");
    let expected_side = if gpu_frame_ms > frame_ms {
        "GPU"
    } else {
        "CPU"
    };
    assert_eq!(
        json["max_fps_set_by"].as_str(),
        Some(expected_side),
        "{json}"
    );
    // Every stage of the frame's path has frames with both marks: the paint callbacks and
    // egui's pass timestamps (through the calibration) place them.
    for stage in ["ui", "tess", "encode", "queue", "gpu", "after"] {
        let reading = latency_stage(&json, stage);
        assert!(
            reading["frames"].as_u64().is_some_and(|n| n > 0) && reading["p50_ms"].is_f64(),
            "the {stage} stage is read on wgpu: {json}"
        );
    }
    assert_latency_total(&json, "GPU end");
}

/// LATENCY is a distribution of frames' own request → `end`, ordered, over some of the frames
/// seen (the demo animates: a request wakes its frames). Its accuracy is checked against the
/// test's own clock in `egui-hud/tests/gpu_row.rs`.
fn assert_latency_total(json: &Value, end: &str) {
    let total = &json["latency_total"];
    assert_eq!(total["end"].as_str(), Some(end), "{json}");
    let number = |key: &str| {
        total[key]
            .as_f64()
            .unwrap_or_else(|| panic!("latency_total.{key}: {json}"))
    };
    let (p50, p95, max) = (number("p50_ms"), number("p95_ms"), number("max_ms"));
    assert!(0.0 < p50 && p50 <= p95 && p95 <= max, "{json}");
    let frames = number("frames");
    assert!(frames > 0.0 && frames <= number("frames_seen"), "{json}");
}

/// The demo's reading of one latency stage.
fn latency_stage<'a>(json: &'a Value, stage: &str) -> &'a Value {
    json["latency"]
        .as_array()
        .and_then(|stages| stages.iter().find(|s| s["stage"] == stage))
        .unwrap_or_else(|| panic!("the {stage} stage is listed: {json}"))
}

#[test]
fn glow_reads_frames_and_resources_without_gpu_passes() {
    if !xvfb_available() {
        return;
    }
    let (json, stderr, csv, trace) = run_demo_exporting("glow", "4");
    assert_common_readings(&json, &stderr);
    assert_exports(&json, &csv, &trace);
    assert_eq!(
        json["gpu_passes"].as_array().map(Vec::len),
        Some(0),
        "no GPU passes on glow: {json}"
    );
    assert!(
        json["gpu_frame_ms"].is_null(),
        "no GPU time on glow: {json}"
    );
    let ui = latency_stage(&json, "ui");
    assert!(
        ui["frames"].as_u64().is_some_and(|n| n > 0),
        "the UI stage is read on glow: {json}"
    );
    // No paint callbacks or GPU timestamps on glow: those stages are absent, not zero.
    for stage in ["tess", "encode", "queue", "gpu", "after"] {
        let reading = latency_stage(&json, stage);
        assert!(
            reading["frames"] == 0 && reading["p50_ms"].is_null(),
            "the {stage} stage is absent on glow: {json}"
        );
    }
    assert_latency_total(&json, "UI end");
}

/// Runs `fps_monitor --benchmark SECONDS --json PATH --load LOAD` on glow under a fresh Xvfb,
/// from 4 s and twice as long again (up to 32 s) until the run has counted enough frames for
/// `--compare` to judge it: a loaded machine draws the heavy load at a few frames a second.
fn run_benchmark(load: &str, path: &std::path::Path) {
    /// Twice `--compare`'s minimum, below which it says "too few samples".
    const ENOUGH_FRAMES: u64 = 2 * egui_hud::BenchmarkComparison::MIN_SAMPLES as u64;
    let _one_at_a_time = ONE_DEMO_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let runtime_dir = std::env::temp_dir().join("egui-hud-xdg-benchmark");
    std::fs::create_dir_all(&runtime_dir).expect("temp dir");
    for seconds in ["4", "8", "16", "32"] {
        let output = demo_under_xvfb(&runtime_dir)
            .args(["--benchmark", seconds, "--backend", "glow", "--load", load])
            .args(["--size", "640x400", "--json"])
            .arg(path)
            .output()
            .expect("xvfb-run starts");
        assert!(
            output.status.success() && path.exists(),
            "the benchmark ran: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("--json wrote"))
                .expect("the summary is JSON");
        if summary["frames"].as_u64().expect("frames") >= ENOUGH_FRAMES {
            return;
        }
    }
}

/// The README's before/after recipe: two `--benchmark` runs with the load changed, and
/// `--compare` calls the loaded one slower (its frames take longer), by the table it prints.
#[test]
fn a_benchmark_with_more_load_compares_as_slower() {
    if !xvfb_available() {
        return;
    }
    let dir = std::env::temp_dir().join("egui-hud-benchmarks");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (light, heavy) = (dir.join("light.json"), dir.join("heavy.json"));
    run_benchmark("2", &light);
    run_benchmark("150", &heavy);
    assert!(
        light.with_extension("csv").exists(),
        "the run's frames beside it"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_fps_monitor"))
        .arg("--compare")
        .arg(&light)
        .arg(&heavy)
        .output()
        .expect("the demo starts");
    let table = String::from_utf8_lossy(&output.stdout);
    println!("{table}");
    assert!(output.status.success(), "{table}");
    let line = |metric: &str| {
        table
            .lines()
            .find(|l| l.starts_with(metric))
            .unwrap_or_else(|| panic!("{metric} in the table: {table}"))
            .to_owned()
    };
    assert!(
        line("frame p50 ms").ends_with("slower"),
        "the heavier run's frames are slower: {table}"
    );
}
