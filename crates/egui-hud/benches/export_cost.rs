//! What an export costs the frame that asks for it: `save_exports` copies the retained window
//! and hands the writing to a thread (target ≤ 500 µs at capacity 120; reported at 10 000),
//! and, for comparison, writing each format in the calling thread (`export` into a sink).
//! Prints medians; `cargo bench -p egui-hud --bench export_cost`.
#![expect(
    clippy::print_stdout,
    clippy::expect_used,
    reason = "a bench binary prints its figures; a failed setup stops it"
)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_hud::profiler_core::{Clock, ManualClock};
use egui_hud::{ExportFormat, FpsMonitor};

/// A context whose HUD retains `capacity` frames, each with two phases and a request.
fn context(capacity: usize) -> egui::Context {
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    for _ in 0..capacity + 20 {
        let input = egui::RawInput {
            time: Some(clock.now().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            {
                let _layout = egui_hud::cpu_phase(ui.ctx(), "layout");
                clock.advance(Duration::from_millis(3));
            }
            {
                let _physics = egui_hud::cpu_phase(ui.ctx(), "physics");
                clock.advance(Duration::from_millis(1));
            }
            #[expect(clippy::disallowed_methods, reason = "the bench app animates")]
            ui.ctx().request_repaint();
            FpsMonitor::new()
                .capacity(capacity)
                .sample_resources(false)
                .clock(Arc::clone(&clock) as Arc<dyn Clock>)
                .show(ui.ctx());
        });
        output.textures_delta.clear();
        clock.advance(Duration::from_millis(12));
    }
    ctx
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let runs = if std::env::args().any(|a| a == "--bench") {
        21
    } else {
        3
    };
    let directory =
        std::env::temp_dir().join(format!("egui-hud-export-bench-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temp dir");
    println!("export_cost: median of {runs} runs");
    for capacity in [120, 10_000] {
        let ctx = context(capacity);
        let mut starts = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            egui_hud::save_exports(&ctx, &directory).expect("a HUD is shown");
            starts.push(start.elapsed());
            // Let the background write finish before the next run.
            std::thread::sleep(Duration::from_millis(if capacity > 1000 {
                300
            } else {
                20
            }));
        }
        let mut formats = Vec::new();
        for format in [ExportFormat::Csv, ExportFormat::ChromeTrace] {
            let times = (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    egui_hud::export(&ctx, format, &mut std::io::sink()).expect("export");
                    start.elapsed()
                })
                .collect();
            formats.push((format, median(times)));
        }
        println!(
            "  capacity {capacity:>6}: the frame that starts save_exports {:>9.1} µs (target <= 500 at 120); \
             written in the caller: {} {:.1} µs, {} {:.1} µs",
            median(starts).as_secs_f64() * 1e6,
            formats[0].0,
            formats[0].1.as_secs_f64() * 1e6,
            formats[1].0,
            formats[1].1.as_secs_f64() * 1e6,
        );
    }
    let _ = std::fs::remove_dir_all(&directory);
}
