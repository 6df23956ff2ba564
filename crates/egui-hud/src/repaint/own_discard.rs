//! The HUD's one `request_discard`: after a click changed its size, so that the new size is not
//! drawn for a frame at the old place, or when a stand-in drew a layout that no longer fits
//! (see `crate::plugin::view_home::ViewHome`). The pass egui redoes for it is the HUD's doing,
//! not the app's: WHY and the frame's passes leave it out by this file.

/// The file that makes the HUD's own discard request.
pub(crate) const OWN_DISCARD_FILE: &str = file!();

/// Why the HUD asks egui to redo a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OwnDiscard {
    /// A click changed the HUD's size.
    Resized,
    /// A stand-in drew the last layout while the view it stands for was laid out elsewhere,
    /// and the pass asked for another (a new look, other rows): the redone pass draws the view.
    StandInOutdated,
}

/// Asks egui to redo this pass, for `why`.
pub(crate) fn request_own_discard(ctx: &egui::Context, why: OwnDiscard) {
    ctx.request_discard(match why {
        OwnDiscard::Resized => "egui-hud: the HUD changed size",
        OwnDiscard::StandInOutdated => "egui-hud: the HUD's layout is made again",
    });
}
