/// The egui ids of one viewport's HUD: its layer, its main readout (clicks, hover), its body
/// (the rows, for screen readers) and its details control. Worked out once per viewport and
/// kept: hashed every frame, they were a few hundred instructions of the frame's path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HudIds {
    /// The foreground layer the HUD paints on.
    pub(crate) layer: egui::LayerId,
    /// The main readout: clicks on it are read before the HUD is laid out, so the HUD is
    /// drawn at its new size in the pass that saw the click.
    pub(crate) readout: egui::Id,
    /// The whole HUD: its rows' text, for screen readers.
    pub(crate) body: egui::Id,
    /// The control that opens the details window.
    pub(crate) details: egui::Id,
}

impl HudIds {
    /// The ids of `viewport`'s HUD. The same for the same viewport, whoever asks.
    pub(crate) fn of(viewport: egui::ViewportId) -> Self {
        let readout = egui::Id::unique(("egui_hud_main_readout", viewport));
        Self {
            layer: egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique(("egui_hud_area", viewport)),
            ),
            readout,
            body: readout.with("body"),
            details: readout.with("details"),
        }
    }
}
