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
