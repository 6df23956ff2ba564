//! What timing a CPU phase costs: a `start` and its guard's drop, through the kept handle
//! (`CpuPhases::start`) and through the context (`cpu_phase(ctx, …)`), while the HUD is shown
//! and while it is hidden. Targets: ≤ 100 ns shown, ≤ 5 ns hidden (the handle). With the
//! feature `puffin`, also the cost the HUD's frame sink adds to puffin's frame end.
#![expect(
    missing_docs,
    reason = "criterion's macros generate undocumented functions"
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

/// A context whose root viewport has run `frames` frames with the HUD (so it samples) and then
/// `hidden_frames` without it (over a second of them hides it).
fn context(frames: u32, hidden_frames: u32) -> egui::Context {
    let ctx = egui::Context::default();
    let mut time_secs = 0.0;
    for frame in 0..frames + hidden_frames {
        time_secs += 0.016;
        let input = egui::RawInput {
            time: Some(time_secs),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            ui.label("app");
            if frame < frames {
                egui_hud::FpsMonitor::new()
                    .sample_resources(false)
                    .show(ui.ctx());
            }
        });
        output.textures_delta.clear();
    }
    ctx
}

fn phases(c: &mut Criterion) {
    for (name, ctx) in [("shown", context(30, 0)), ("hidden", context(30, 120))] {
        let handle = egui_hud::cpu_phases(&ctx);
        c.bench_function(&format!("cpu_phase_handle_{name}"), |b| {
            b.iter(|| drop(black_box(handle.start(black_box("physics")))));
        });
        c.bench_function(&format!("cpu_phase_ctx_{name}"), |b| {
            b.iter(|| drop(black_box(egui_hud::cpu_phase(&ctx, black_box("physics")))));
        });
    }
}

/// puffin's frame end (`GlobalProfiler::new_frame`) for a frame of five top-level scopes,
/// without the HUD's sink and with it (HUD shown): the difference is the sink's cost.
#[cfg(feature = "puffin")]
fn puffin_frame(c: &mut Criterion) {
    puffin::set_scopes_on(true);
    let frame = || {
        for _ in 0..5 {
            puffin::profile_scope!("work");
        }
        puffin::GlobalProfiler::lock().new_frame();
    };
    c.bench_function("puffin_new_frame_without_hud", |b| b.iter(frame));
    let ctx = context(30, 0);
    egui_hud::install_puffin(&ctx);
    c.bench_function("puffin_new_frame_with_hud_sink", |b| b.iter(frame));
}

#[cfg(not(feature = "puffin"))]
fn puffin_frame(_c: &mut Criterion) {}

criterion_group!(benches, phases, puffin_frame);
criterion_main!(benches);
