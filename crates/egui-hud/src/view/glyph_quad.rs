use egui::epaint::{Color32, Galley, Vertex};
use egui::{Pos2, Rect};

/// What a kept one-character galley paints, read out of it once: nothing (a space), or one
/// glyph quad as the galley holds it: its row's offset, its rectangle and its rectangle in the
/// atlas (texels), the four corners `Mesh::add_rect_with_uv` makes of them.
///
/// A refresh places a few hundred characters from kept galleys (see `TextCache`). Read from the
/// galley each time, every character cost an `Arc` clone, a `TextShape` and a walk through the
/// galley's rows and meshes, scattered in memory; from here it is two rectangles out of the
/// cache's own table ([`crate::view::text_quads::TextQuads::append_glyph`] moves, colours and
/// normalises them as the tessellator would). Two rectangles, not the galley's four vertices
/// and six indices: 40 bytes, not 112, so a refresh's few dozen distinct characters touch a
/// third of the cache lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GlyphQuad {
    /// The character paints nothing (whitespace).
    Blank,
    /// One plain glyph.
    One {
        /// The row's position in the galley.
        row_offset: egui::Vec2,
        /// The glyph's rectangle in its row.
        rect: Rect,
        /// The glyph's rectangle in the font atlas, in texels.
        uv: Rect,
    },
}

/// The indices `Mesh::add_rect_with_uv` gives a rectangle's four corners.
const RECT_INDICES: [u32; 6] = [0, 1, 2, 2, 1, 3];

impl GlyphQuad {
    /// The quad of `galley`, a laid-out character, or `None` when it is not one plain glyph on
    /// one row (a colour glyph, a fallback font's several quads) or not the rectangle egui
    /// makes of a glyph: such a character is placed through its galley instead.
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
        let vertices: &[Vertex; 4] = mesh.vertices.as_slice().try_into().ok()?;
        if mesh.indices != RECT_INDICES {
            return None;
        }
        // A coloured glyph in a galley laid out with the placeholder colour would keep its own
        // colour: left to the galley path, which handles it.
        if vertices.iter().any(|v| v.color != Color32::PLACEHOLDER) {
            return None;
        }
        let rect = Rect::from_min_max(vertices[0].pos, vertices[3].pos);
        let uv = Rect::from_min_max(vertices[0].uv, vertices[3].uv);
        let corners = |r: Rect| {
            [
                r.left_top(),
                r.right_top(),
                r.left_bottom(),
                r.right_bottom(),
            ]
        };
        let is_rect = |of: fn(&Vertex) -> Pos2, r: Rect| vertices.iter().map(of).eq(corners(r));
        if !is_rect(|v| v.pos, rect) || !is_rect(|v| v.uv, uv) {
            return None;
        }
        Some(Self::One {
            row_offset: row.pos.to_vec2(),
            rect,
            uv,
        })
    }
}
