//! The recipe in `docs/readouts.md` ("Keep a UI fast in CI"): assert performance in your own
//! kittest suite through `egui_hud::snapshot`. The HUD samples the frames the harness runs, and
//! the snapshot gives FRAME, P95 and DROP against the budget.

use egui_hud::FpsMonitor;
use egui_kittest::Harness;

/// The UI under test: a settings panel with 200 rows in a scroll area.
fn settings_panel(ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        for row in 0..200 {
            ui.horizontal(|ui| {
                ui.label(format!("setting {row}"));
                let _ = ui.button("reset");
            });
        }
    });
}

#[test]
fn the_settings_panel_stays_within_budget() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .build_ui(|ui| {
            settings_panel(ui);
            // The HUD samples every frame the harness runs; it need not be visible to anyone.
            FpsMonitor::new().sample_resources(false).show(ui.ctx());
        });
    // 200 frames: the warm-up (8 frames) is discarded, the rest are sampled.
    harness.run_steps(200);
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD has refreshed");
    let p95 = snapshot.p95.expect("P95 is read");
    assert!(
        p95 < snapshot.budget,
        "P95 {p95:?} is over the {:?} budget: the panel got slow",
        snapshot.budget
    );
    assert_eq!(
        snapshot.drop,
        Some(0.0),
        "no frame over budget: {snapshot:?}"
    );
}
