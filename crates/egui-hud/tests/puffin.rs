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
    // What the test measured of each scope: the spin inside it (at most puffin's time) and the
    // scope from before it opened to after it closed (at least puffin's time).
    let (mut inside_ms, mut around_ms) = (Vec::new(), Vec::new());
    while epoch.elapsed() < Duration::from_millis(1500) {
        let input = egui::RawInput {
            time: Some(epoch.elapsed().as_secs_f64()),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            let around = Instant::now();
            {
                puffin::profile_scope!("physics");
                let inside = Instant::now();
                spin(Duration::from_millis(3));
                inside_ms.push(inside.elapsed().as_secs_f64() * 1e3);
            }
            around_ms.push(around.elapsed().as_secs_f64() * 1e3);
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
    // The phase's mean is over some of these frames (the retained ones at the last refresh):
    // within what the test measured, whatever a loaded machine did to the spins. Timed twice,
    // it would read about twice the longest.
    let mean_ms = physics.mean.as_secs_f64() * 1e3;
    let fewest_ms = inside_ms.iter().copied().fold(f64::INFINITY, f64::min);
    let most_ms = around_ms.iter().copied().fold(0.0, f64::max);
    assert!(
        (fewest_ms..=most_ms).contains(&mean_ms),
        "the scope reads {mean_ms:.3} ms; the test measured {fewest_ms:.3} to {most_ms:.3} ms"
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
