//! The app UI both HUD benchmarks draw around the HUD.

/// A typical settings panel: a heading, 40 labels, two buttons, a slider.
pub(crate) fn typical_ui(ui: &mut egui::Ui, slider: &mut f32) {
    egui::CentralPanel::default().show(ui, |ui| {
        ui.heading("Settings");
        for i in 0..40 {
            ui.label(format!("Row {i}: some value {}", i * 7));
        }
        ui.horizontal(|ui| {
            let _ = ui.button("Apply");
            let _ = ui.button("Cancel");
        });
        ui.add(egui::Slider::new(slider, 0.0..=1.0));
    });
}
