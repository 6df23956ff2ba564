use egui::epaint::{Color32, Mesh, TextShape, Vertex};

use crate::view::glyph_quad::GlyphQuad;

/// Appends the HUD's text to its mesh: each placed galley's glyph quads moved to their place,
/// coloured and with their texture coordinates normalised, the vertices egui's
/// `Tessellator::tessellate_text` makes for the same shape.
///
/// A refresh places a few hundred one-character galleys (see `TextCache`). Through the
/// tessellator each paid a rotation, two reserves, a culling test and a per-vertex closure
/// for four vertices: half of a full HUD's layout in a profile of `benches/hud_cost.rs`, and
/// 40 % less through here. What is left is reading each galley's rows, scattered in memory.
/// Only the plain case is handled here (no rotation, underline, override colour, fading or
/// colour glyph, none of which the HUD uses); any other shape goes to the tessellator, so the
/// mesh is the same either way (tested against it).
pub(crate) struct TextQuads {
    pixels_per_point: f32,
    /// Texel → normalised texture coordinates, as the tessellator's.
    uv_normalizer: egui::Vec2,
    round_to_pixels: bool,
}

impl TextQuads {
    /// For a tessellator made with the same `pixels_per_point`, `options` and
    /// `font_image_size`.
    pub(crate) fn new(
        pixels_per_point: f32,
        options: &egui::epaint::TessellationOptions,
        font_image_size: [usize; 2],
    ) -> Self {
        #[expect(
            clippy::cast_precision_loss,
            reason = "atlas sides are a few thousand texels, as the tessellator casts them"
        )]
        let uv_normalizer = egui::vec2(
            1.0 / font_image_size[0] as f32,
            1.0 / font_image_size[1] as f32,
        );
        Self {
            pixels_per_point,
            uv_normalizer,
            round_to_pixels: options.round_text_to_pixels,
        }
    }

    /// Appends `text` to `out` and returns `true`, or returns `false` (appending nothing) for a
    /// shape outside the plain case, which the caller tessellates instead.
    ///
    /// Unlike the tessellator this does not cull rows outside the clip rectangle: the HUD's
    /// mesh is laid out in its own space and placed whole.
    pub(crate) fn append(&self, text: &TextShape, out: &mut Mesh) -> bool {
        let galley = &text.galley;
        let plain = text.angle == 0.0
            && text.underline == egui::Stroke::NONE
            && text.override_text_color.is_none()
            && text.opacity_factor >= 1.0
            && galley.pixels_per_point == self.pixels_per_point
            && galley
                .rows
                .iter()
                .all(|row| !row.glyphs.iter().any(|glyph| glyph.is_color));
        // The tessellator would overflow the same way; checked before anything is appended.
        let fits = u32::try_from(out.vertices.len().saturating_add(galley.num_vertices)).is_ok();
        if !plain || !fits {
            return false;
        }
        let origin = self.origin(text.pos);
        for row in &galley.rows {
            let mesh = &row.visuals.mesh;
            if !mesh.is_empty() {
                self.append_row(
                    origin + row.pos.to_vec2(),
                    (&mesh.vertices, &mesh.indices),
                    text.fallback_color,
                    out,
                );
            }
        }
        true
    }

    /// Appends `glyph` (a kept character's quad, see [`GlyphQuad`]) placed at `pos` in
    /// `colour`: the vertices [`Self::append`] makes for that character's galley at `pos`,
    /// without reading the galley. The glyph must come from a galley laid out at this
    /// `pixels_per_point` (the text cache is cleared when it changes). Returns `false`,
    /// appending nothing, when the mesh's `u32` indices would overflow.
    pub(crate) fn append_glyph(
        &self,
        glyph: &GlyphQuad,
        (pos, colour): (egui::Pos2, Color32),
        out: &mut Mesh,
    ) -> bool {
        let GlyphQuad::One {
            row_offset,
            rect,
            uv,
        } = glyph
        else {
            return true; // a blank paints nothing
        };
        if u32::try_from(out.vertices.len().saturating_add(4)).is_err() {
            return false;
        }
        // The same sums as `append_row`'s for each corner: the row's origin plus the corner
        // (not `Rect::translate`, which adds the size to the moved corner: a different float).
        let row_origin = (self.origin(pos) + *row_offset).to_vec2();
        let normalised = |texel: egui::Pos2| (texel.to_vec2() * self.uv_normalizer).to_pos2();
        out.add_rect_with_uv(
            egui::Rect::from_min_max(rect.min + row_origin, rect.max + row_origin),
            egui::Rect::from_min_max(normalised(uv.min), normalised(uv.max)),
            colour,
        );
        true
    }

    /// Where text placed at `pos` starts: on a pixel when the tessellator rounds text.
    fn origin(&self, pos: egui::Pos2) -> egui::Pos2 {
        if self.round_to_pixels {
            let ppp = self.pixels_per_point;
            egui::pos2(round_to_pixels(pos.x, ppp), round_to_pixels(pos.y, ppp))
        } else {
            pos
        }
    }

    /// Appends one galley row's mesh (texel coordinates, placeholder colour) at `row_origin`,
    /// as the tessellator does: moved, normalised, the placeholder coloured `colour`. The
    /// caller checked that the vertex count fits the mesh's `u32` indices.
    fn append_row(
        &self,
        row_origin: egui::Pos2,
        (vertices, indices): (&[Vertex], &[u32]),
        colour: Color32,
        out: &mut Mesh,
    ) {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the caller checked that the vertices fit in u32"
        )]
        let index_offset = out.vertices.len() as u32;
        out.indices
            .extend(indices.iter().map(|index| index + index_offset));
        out.vertices.extend(vertices.iter().map(|vertex| Vertex {
            pos: row_origin + vertex.pos.to_vec2(),
            uv: (vertex.uv.to_vec2() * self.uv_normalizer).to_pos2(),
            color: if vertex.color == Color32::PLACEHOLDER {
                colour
            } else {
                vertex.color
            },
        }));
    }
}

/// `value` on whole pixels at `pixels_per_point`, exactly as egui's tessellator rounds a
/// text's position (`GuiRounding::round_to_pixels`: `(value * ppp).round() / ppp`), without a
/// call to the C library's `roundf`: x86-64's baseline has no instruction for it, and a refresh
/// rounds two coordinates for each of its few hundred characters (a sixth of their cost).
fn round_to_pixels(value: f32, pixels_per_point: f32) -> f32 {
    round_half_away_from_zero(value * pixels_per_point) / pixels_per_point
}

/// [`f32::round`], by truncation: an `f32` from one half to 2^23 in magnitude, plus one half,
/// is an `f64` without rounding, and truncating that rounds the `f32` half away from zero;
/// below one half the sum may round, but stays under 1, and truncates to 0 as it should. From
/// 2^23 every `f32` is whole already.
fn round_half_away_from_zero(x: f32) -> f32 {
    const WHOLE_FROM: f32 = 8_388_608.0; // 2^23
    if x.is_nan() || x.abs() >= WHOLE_FROM {
        return x;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_precision_loss,
        reason = "the magnitude is below 2^23 + 1: truncated on purpose, whole in an i32 and exact in an f32"
    )]
    let magnitude = (f64::from(x.abs()) + 0.5) as i32 as f32;
    magnitude.copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The HUD's kinds of text (one-character galleys of each font, a word, a value whose
    /// characters are placed apart, a fractional position) at 1×, 1.5× and 2×: the same
    /// vertices and indices as egui's tessellator.
    #[test]
    fn the_quads_are_the_tessellators_vertices() {
        for pixels_per_point in [1.0, 1.5, 2.0] {
            let ctx = egui::Context::default();
            ctx.set_pixels_per_point(pixels_per_point);
            let mut shapes = Vec::new();
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let painter = ui.painter();
                let colour = Color32::from_rgb(200, 120, 40);
                let mut pos = egui::pos2(3.3, 7.6);
                for (text, size) in [
                    ("144.2", 26.0),
                    ("FRAME", 10.0),
                    ("0.8 ms", 11.0),
                    ("µ·—", 11.0),
                ] {
                    for c in text.chars() {
                        let galley = painter.layout_no_wrap(
                            c.to_string(),
                            egui::FontId::monospace(size),
                            Color32::PLACEHOLDER,
                        );
                        pos.x += galley.size().x;
                        shapes.push(TextShape::new(pos, galley, colour));
                    }
                    let word = painter.layout_no_wrap(
                        text.to_owned(),
                        egui::FontId::proportional(size),
                        Color32::PLACEHOLDER,
                    );
                    shapes.push(TextShape::new(pos + egui::vec2(0.0, 30.0), word, colour));
                }
            });
            output.textures_delta.clear(); // nothing paints here
            let options = ctx.tessellation_options(|o| *o);
            #[expect(
                clippy::redundant_closure_for_method_calls,
                reason = "the method path is not general over the view's lifetime"
            )]
            let atlas = ctx.fonts(|fonts| fonts.font_image_size());
            let mut tessellator =
                egui::epaint::Tessellator::new(pixels_per_point, options, atlas, Vec::new());
            let quads = TextQuads::new(pixels_per_point, &options, atlas);
            let (mut expected, mut appended) = (Mesh::default(), Mesh::default());
            for shape in &shapes {
                tessellator.tessellate_text(shape, &mut expected);
                assert!(
                    quads.append(shape, &mut appended),
                    "the HUD's text is plain"
                );
            }
            assert!(!expected.vertices.is_empty());
            assert_eq!(appended.indices, expected.indices, "at {pixels_per_point}×");
            assert_eq!(
                appended.vertices, expected.vertices,
                "at {pixels_per_point}×"
            );
        }
    }

    #[test]
    fn a_rotated_or_faded_text_is_left_to_the_tessellator() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let galley = ui.painter().layout_no_wrap(
                "7".to_owned(),
                egui::FontId::monospace(11.0),
                Color32::RED,
            );
            let quads = TextQuads::new(
                ui.ctx().pixels_per_point(),
                &egui::epaint::TessellationOptions::default(),
                [2048, 64],
            );
            let mut out = Mesh::default();
            let plain = TextShape::new(egui::Pos2::ZERO, galley, Color32::RED);
            assert!(!quads.append(&plain.clone().with_angle(0.5), &mut out));
            assert!(!quads.append(&plain.with_opacity_factor(0.5), &mut out));
            assert!(out.vertices.is_empty() && out.indices.is_empty());
        });
        output.textures_delta.clear(); // nothing paints here
    }

    /// Rounding is `f32::round`'s, bit for bit (the sign of zero included), on the values a
    /// position can take and on the edges of the method.
    #[test]
    fn rounding_is_the_standard_librarys() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.499_999_97,
            -0.499_999_97,
            0.500_000_06,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            16_777_217.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        // Every representable value between -4096 and 4096 at steps of 1/1024 (positions in
        // points and pixels), and a sweep of bit patterns across the whole range.
        #[expect(
            clippy::cast_precision_loss,
            reason = "steps below 2^23 are exact in an f32"
        )]
        let grid = (-4_194_304..=4_194_304).map(|step: i32| step as f32 / 1024.0);
        let patterns = (0..=u32::MAX).step_by(4_099).map(f32::from_bits);
        for x in edges.into_iter().chain(grid).chain(patterns) {
            let ours = round_half_away_from_zero(x);
            if x.is_nan() {
                assert!(ours.is_nan());
            } else {
                assert_eq!(ours.to_bits(), x.round().to_bits(), "{x:e}");
            }
        }
    }
}
