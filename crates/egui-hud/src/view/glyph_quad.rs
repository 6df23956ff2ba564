use egui::epaint::{Color32, Galley, Vertex};

/// What a kept one-character galley paints, read out of it once: nothing (a space), or one
/// glyph quad as the galley holds it (its row's offset, four vertices with the atlas's texel
/// coordinates and the placeholder colour, six indices).
///
/// A refresh places a few hundred characters from kept galleys (see `TextCache`). Read from the
/// galley each time, every character cost an `Arc` clone, a `TextShape` and a walk through the
/// galley's rows and meshes, scattered in memory; from here it is one copy of 4 vertices out of
/// the cache's own table ([`crate::view::text_quads::TextQuads::append_glyph`] moves, colours
/// and normalises them as the tessellator would).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GlyphQuad {
    /// The character paints nothing (whitespace).
    Blank,
    /// One plain glyph.
    One {
        /// The row's position in the galley.
        row_offset: egui::Vec2,
        vertices: [Vertex; 4],
        indices: [u32; 6],
    },
}

impl GlyphQuad {
    /// The quad of `galley`, a laid-out character, or `None` when it is not one plain glyph on
    /// one row (a colour glyph, a fallback font's several quads): such a character is placed
    /// through its galley instead.
    pub(crate) fn of(galley: &Galley) -> Option<Self> {
        let [row] = galley.rows.as_slice() else {
            return None;
        };
        if row.glyphs.iter().any(|glyph| glyph.is_color) {
            return None;
        }
        let mesh = &row.visuals.mesh;
        if mesh.is_empty() {
            return Some(Self::Blank);
        }
        let vertices: [Vertex; 4] = mesh.vertices.as_slice().try_into().ok()?;
        let indices: [u32; 6] = mesh.indices.as_slice().try_into().ok()?;
        // A coloured glyph in a galley laid out with the placeholder colour would keep its own
        // colour: left to the galley path, which handles it.
        if vertices.iter().any(|v| v.color != Color32::PLACEHOLDER) {
            return None;
        }
        Some(Self::One {
            row_offset: row.pos.to_vec2(),
            vertices,
            indices,
        })
    }
}
