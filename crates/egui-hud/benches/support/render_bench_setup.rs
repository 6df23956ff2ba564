//! What the two render-cost benches share: how long they run, the target's size, µs.

use std::time::Duration;

/// Frames per round and rounds: 60 × 15 under `--bench`, 2 × 1 as a smoke run.
pub(crate) fn frames_and_rounds() -> (usize, usize) {
    if std::env::args().any(|a| a == "--bench") {
        (60, 15)
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
