//! puffin's frames as CPU phases: an app instrumented with puffin scopes shows them under
//! PHASES without timing them twice (feature `puffin`).
#![cfg(feature = "puffin")]

use std::time::{Duration, Instant};

use egui_hud::FpsMonitor;

fn spin(duration: Duration) {
    let start = Instant::now();
    while start.elapsed() < duration {
        std::hint::spin_loop();
    }
}

#[test]
fn the_top_level_scopes_of_puffins_frames_are_phases() {
    puffin::set_scopes_on(true);
    let ctx = egui::Context::default();
    egui_hud::install_puffin(&ctx);
    let epoch = Instant::now();
    let mut snapshot = None;
    while epoch.elapsed() < Duration::from_millis(1500) {
        let input = egui::RawInput {
            time: Some(epoch.elapsed().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            {
                puffin::profile_scope!("physics");
                spin(Duration::from_millis(3));
            }
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
            snapshot = egui_hud::snapshot(ui.ctx());
        });
        output.textures_delta.clear();
        // What eframe does between frames with `profiling::finish_frame!()`.
        puffin::GlobalProfiler::lock().new_frame();
        std::thread::sleep(Duration::from_millis(10));
    }
    let snapshot = snapshot.expect("the HUD ticked");
    let physics = snapshot
        .cpu_phases
        .iter()
        .find(|p| p.label == "physics")
        .unwrap_or_else(|| panic!("puffin's scope is a phase: {snapshot:?}"));
    let mean_ms = physics.mean.as_secs_f64() * 1e3;
    assert!(
        (3.0..3.9).contains(&mean_ms),
        "the 3 ms scope reads {mean_ms:.2} ms"
    );
    let (frame, cpu) = (
        snapshot.frame.expect("FRAME"),
        snapshot.cpu_frame.expect("CPU time"),
    );
    assert_eq!(
        cpu, frame,
        "puffin's scopes overlap FRAME: they are not added to the CPU time"
    );
}
