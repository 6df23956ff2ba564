//! What the two render-cost benches share: how long they run, the target's size, µs.

use std::time::Duration;

/// Frames per round and rounds: 60 × 15 under `--bench` (`EGUI_HUD_BENCH_ROUNDS=N` sets the
/// rounds: more for a quieter mean, or for a profiler's samples), 2 × 1 as a smoke run.
pub(crate) fn frames_and_rounds() -> (usize, usize) {
    if std::env::args().any(|a| a == "--bench") {
        let rounds = std::env::var("EGUI_HUD_BENCH_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(15);
        (60, rounds)
    } else {
        (2, 1)
    }
}

/// How long the loop sleeps after each frame: `EGUI_HUD_BENCH_IDLE_US` microseconds, default
/// 0 (each frame starts as soon as the last ended). A vsynced window waits for the display
/// between frames. The benches step egui time 1/60 s a frame, so the HUD lays its refreshes out
/// off the UI thread: without idle time the frame after a refresh may wait for that layout.
pub(crate) fn idle_between_frames() -> Duration {
    std::env::var("EGUI_HUD_BENCH_IDLE_US")
        .ok()
        .and_then(|micros| micros.parse().ok())
        .map_or(Duration::ZERO, Duration::from_micros)
}

/// The target size in pixels: `EGUI_HUD_BENCH_SIZE=WxH`, default 860x520 (the demo's window).
pub(crate) fn target_size() -> [u32; 2] {
    std::env::var("EGUI_HUD_BENCH_SIZE")
        .ok()
        .and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some([w.parse().ok()?, h.parse().ok()?])
        })
        .unwrap_or([860, 520])
}

pub(crate) fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
