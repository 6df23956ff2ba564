/// The HUD's widgets on its own layer, made without a `Ui` in a steady pass.
///
/// egui makes widgets only through a `Ui`, and `Ui::new` allocates its `UiStack` (an `Arc`)
/// and registers a widget of its own: the last allocation of a frame the HUD drew between
/// refreshes. A widget that existed in the last pass is made again with
/// [`egui::Response::interact`] (which egui documents for a response of the last pass), on a
/// response written here at this pass's rectangle: nothing allocated. The response is not
/// read back with [`egui::Context::read_response`], which works out the last pass's hover,
/// clicks and drags for it (about 450 instructions a widget, every frame) only for `interact`
/// to work them out again; a look-up of the widget's rectangle says whether it existed. Only a
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
        let layer = self.layer;
        let known = self.ctx.viewport(|viewport| {
            viewport
                .this_pass
                .widgets
                .get(id)
                .or_else(|| viewport.prev_pass.widgets.get(id))
                .is_some_and(|widget| widget.layer_id == layer)
        });
        if known {
            // What `interact` reads of it: the widget, where it is, what it senses, and that
            // it is enabled and visible (the HUD's widgets always are).
            let last_pass = egui::Response {
                ctx: self.ctx.clone(),
                layer_id: layer,
                id,
                rect,
                interact_rect: self.clip.intersect(rect),
                sense,
                interact_pointer_pos_or_nan: egui::Pos2::NAN,
                intrinsic_size_or_nan: egui::Vec2::NAN,
                flags: egui::response::Flags::ENABLED | egui::response::Flags::VISIBLE,
            };
            return last_pass.interact(sense);
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
