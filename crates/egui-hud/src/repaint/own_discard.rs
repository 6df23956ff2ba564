//! The HUD's one `request_discard`: after a click changed its size, so that the new size is not
//! drawn for a frame at the old place. The pass egui redoes for it is the HUD's doing, not the
//! app's: WHY and the frame's passes leave it out by this file.

/// The file that makes the HUD's own discard request.
pub(crate) const OWN_DISCARD_FILE: &str = file!();

/// Asks egui to redo this pass because the HUD changed size.
pub(crate) fn request_own_discard(ctx: &egui::Context) {
    ctx.request_discard("egui-hud: the HUD changed size");
}
