/// The HUD's widgets on its own layer, made without a `Ui` in a steady pass.
///
/// egui makes widgets only through a `Ui`, and `Ui::new` allocates its `UiStack` (an `Arc`)
/// and registers a widget of its own: the last allocation of a frame the HUD drew between
/// refreshes. A widget that existed in the last pass is made again from egui's
/// response of that pass ([`egui::Context::read_response`], then [`egui::Response::interact`],
/// which egui documents for exactly this), at this pass's rectangle: nothing allocated. Only a
/// widget new to the layer (the first pass shown, the details control after an expand) needs a
/// `Ui`, made once for the pass when first needed.
pub(crate) struct LayerWidgets<'a> {
    ctx: &'a egui::Context,
    layer: egui::LayerId,
    /// What the widgets may be hit in: the viewport's content.
    clip: egui::Rect,
    /// The pass's `Ui`, made for the first widget egui did not know in the last pass.
    fallback: Option<egui::Ui>,
}

impl<'a> LayerWidgets<'a> {
    /// Widgets on `layer`, hit only within `clip`. Free until a widget is made.
    pub(crate) fn new(ctx: &'a egui::Context, layer: egui::LayerId, clip: egui::Rect) -> Self {
        Self {
            ctx,
            layer,
            clip,
            fallback: None,
        }
    }

    /// The widget `id` over `rect`, sensing `sense`, with this pass's interaction (as
    /// [`egui::Ui::interact`] gives it).
    pub(crate) fn widget(
        &mut self,
        rect: egui::Rect,
        id: egui::Id,
        sense: egui::Sense,
    ) -> egui::Response {
        if let Some(mut known) = self
            .ctx
            .read_response(id)
            .filter(|known| known.layer_id == self.layer)
        {
            known.rect = rect;
            known.interact_rect = self.clip.intersect(rect);
            // `interact` adds the sense to the one the widget had: the same every pass here.
            known.sense = sense;
            return known.interact(sense);
        }
        let (ctx, layer, clip) = (self.ctx, self.layer, self.clip);
        let ui = self.fallback.get_or_insert_with(|| {
            let mut ui = egui::Ui::new(
                ctx.clone(),
                layer.id,
                egui::UiBuilder::new().layer_id(layer).max_rect(clip),
            );
            ui.set_clip_rect(clip);
            ui
        });
        ui.interact(rect, id, sense)
    }
}
