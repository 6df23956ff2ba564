use std::sync::Arc;

use egui::epaint::{Color32, Galley, Mesh, TextShape};

use crate::view::glyph_quad::GlyphQuad;
use crate::view::text_quads::TextQuads;

/// The HUD's text as a refresh places it: appended to one mesh as it is placed, in the HUD's
/// own space, with the tessellator's vertices ([`TextQuads`]); text outside the plain case is
/// kept as shapes for the tessellator. The layout paints it over the backdrop, bars and plot
/// (nothing of those is drawn over text).
pub(crate) struct PlacedText {
    quads: TextQuads,
    mesh: Mesh,
    /// Text [`TextQuads`] leaves to the tessellator.
    others: Vec<egui::Shape>,
}

/// How much had been placed, to go back to (see [`PlacedText::truncate`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlacedMark {
    vertices: usize,
    indices: usize,
    others: usize,
}

impl PlacedText {
    /// Placing in `mesh`'s buffers (empty; the last layout's, whose room is kept), with room
    /// for at least `vertices` and `indices` (the view passes the last layout's whole mesh,
    /// which bounds its text: the text mesh grows once, not by doubling).
    pub(crate) fn in_buffers(
        quads: TextQuads,
        mut mesh: Mesh,
        (vertices, indices): (usize, usize),
    ) -> Self {
        debug_assert!(mesh.is_empty(), "text is placed in emptied buffers");
        mesh.vertices.reserve(vertices);
        mesh.indices.reserve(indices);
        Self {
            quads,
            mesh,
            others: Vec::new(),
        }
    }

    /// A whole galley at `pos` in `colour`.
    pub(crate) fn galley(&mut self, pos: egui::Pos2, galley: Arc<Galley>, colour: Color32) {
        let text = TextShape::new(pos, galley, colour);
        if !self.quads.append(&text, &mut self.mesh) {
            self.others.push(egui::Shape::Text(text));
        }
    }

    /// A kept character at `pos` in `colour`: its quad when it has one, else its galley.
    pub(crate) fn glyph(
        &mut self,
        (quad, galley): (Option<&GlyphQuad>, &Arc<Galley>),
        pos: egui::Pos2,
        colour: Color32,
    ) {
        let appended =
            quad.is_some_and(|quad| self.quads.append_glyph(quad, (pos, colour), &mut self.mesh));
        if !appended {
            self.galley(pos, Arc::clone(galley), colour);
        }
    }

    /// What has been placed so far.
    pub(crate) fn mark(&self) -> PlacedMark {
        PlacedMark {
            vertices: self.mesh.vertices.len(),
            indices: self.mesh.indices.len(),
            others: self.others.len(),
        }
    }

    /// Forgets what was placed after `mark`.
    pub(crate) fn truncate(&mut self, mark: PlacedMark) {
        self.mesh.vertices.truncate(mark.vertices);
        self.mesh.indices.truncate(mark.indices);
        self.others.truncate(mark.others);
    }

    /// The placed text's mesh and the shapes left to the tessellator; empty after.
    pub(crate) fn take(&mut self) -> (Mesh, Vec<egui::Shape>) {
        (
            std::mem::take(&mut self.mesh),
            std::mem::take(&mut self.others),
        )
    }
}
