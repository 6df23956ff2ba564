use std::sync::Arc;

use egui::{Color32, FontId, Galley};

use crate::view::glyph_quad::GlyphQuad;
use crate::view::placed_text::PlacedText;

/// The HUD's text, laid out once and placed again at every refresh: whole words (row names,
/// the mode's label) and single characters of monospace values (digits, units).
///
/// Shaping a short string costs 4–7 µs in egui 0.37, most of a refresh; a value placed a
/// character at a time from kept galleys costs none. Galleys are laid out with a placeholder
/// colour, so one serves every colour. Only valid for one font atlas, scale and theme: the view
/// clears it when any of them changes. Grows with the distinct words and characters shown (a
/// few dozen), never per frame.
#[derive(Default)]
pub(crate) struct TextCache {
    words: Vec<(String, FontId, Arc<Galley>)>,
    /// One table per font (the HUD uses four): a refresh places a few hundred characters, so
    /// each is found by index, not by a search through every kept character.
    chars: Vec<FontChars>,
    /// Text was asked for that is not kept, with [`Shaping::KeptOnly`] (see
    /// [`Self::take_lacked_text`]).
    lacked_text: bool,
}

/// What lays out text the cache has not kept yet.
#[derive(Clone, Copy)]
pub(crate) enum Shaping<'a> {
    /// egui's fonts, through a painter: on the UI thread.
    Fonts(&'a egui::Painter),
    /// Nothing: a layout off the UI thread, which must not wait on egui's `Context` (the UI
    /// thread may be waiting on it). What is not kept is left out and noted
    /// ([`TextCache::take_lacked_text`]): that layout is not shown, and the UI thread makes it
    /// again.
    KeptOnly,
}

/// Which characters [`TextCache::lay_out_common`] lays out for a font.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CharacterSet {
    /// The big number: digits, the decimal point and `-`.
    Number,
    /// Rows, legends and the plot's scale: printable ASCII, `µ`, `·`, `—` and `▸`.
    Text,
}

/// One font's kept characters: ASCII by code, the few others (µ, ·, —) in a list.
struct FontChars {
    font: FontId,
    /// 128 entries of ~64 bytes, made on the heap ([`FontChars::new`]): built as an array
    /// first, they gave every lookup an 18 KB stack frame to probe, a quarter of a refresh's
    /// time in [`FontChars::char`].
    ascii: Box<[Option<KeptChar>]>,
    other: Vec<(char, KeptChar)>,
}

impl FontChars {
    #[cold]
    #[inline(never)]
    fn new(font: &FontId) -> Self {
        Self {
            font: font.clone(),
            ascii: (0..128).map(|_| None).collect(),
            other: Vec::new(),
        }
    }

    /// `c` in this table's font, laid out on first use (`None`: not kept, and `shaping` lays
    /// nothing out).
    fn char(&mut self, shaping: Shaping<'_>, c: char) -> Option<&KeptChar> {
        let font = &self.font;
        let layout = || match shaping {
            Shaping::Fonts(painter) => Some(KeptChar::lay_out(painter, c, font)),
            Shaping::KeptOnly => None,
        };
        if let Some(slot) = self.ascii.get_mut(c as usize) {
            if slot.is_none() {
                *slot = layout();
            }
            return slot.as_ref();
        }
        let known = self.other.iter().position(|(known, _)| *known == c);
        let at = if let Some(at) = known {
            at
        } else {
            self.other.push((c, layout()?));
            self.other.len() - 1
        };
        self.other.get(at).map(|(_, kept)| kept)
    }
}

/// A character laid out once: its galley, its size, and its quad read out of the galley (so
/// that placing it touches neither the galley nor its reference count).
struct KeptChar {
    galley: Arc<Galley>,
    size: egui::Vec2,
    /// `None`: not one plain glyph; placed through its galley.
    quad: Option<GlyphQuad>,
}

impl KeptChar {
    fn new(galley: Arc<Galley>) -> Self {
        Self {
            size: galley.size(),
            quad: GlyphQuad::of(&galley),
            galley,
        }
    }

    /// `c` laid out in `font`: once per character and font, at the HUD's first frame.
    #[cold]
    #[inline(never)]
    fn lay_out(painter: &egui::Painter, c: char, font: &FontId) -> Self {
        Self::new(painter.layout_no_wrap(c.to_string(), font.clone(), Color32::PLACEHOLDER))
    }
}

impl TextCache {
    /// Forgets every galley (the atlas, scale or theme changed).
    pub(crate) fn clear(&mut self) {
        self.words.clear();
        self.chars.clear();
        self.lacked_text = false;
    }

    /// Whether text was asked for that was not kept, with [`Shaping::KeptOnly`], since the last
    /// call: the layout that asked for it lacks that text.
    pub(crate) fn take_lacked_text(&mut self) -> bool {
        std::mem::take(&mut self.lacked_text)
    }

    /// Lays out, up front, the characters the HUD's values are made of (digits and signs in
    /// the big number's fonts; printable ASCII and the few others in the rows' and the plot's):
    /// the view calls it when the cache starts empty (the HUD's first frame, a warm-up frame,
    /// or a new atlas, scale or theme), so that a row or value appearing later does not shape
    /// and rasterise its glyphs in a counted frame, nor leave a layout off the UI thread
    /// lacking them. A few ms, once: about 250 characters.
    pub(crate) fn lay_out_common(
        &mut self,
        painter: &egui::Painter,
        fonts: &[(FontId, CharacterSet)],
    ) {
        for (font, set) in fonts {
            let chars: &mut dyn Iterator<Item = char> = match set {
                CharacterSet::Number => &mut "0123456789.-".chars(),
                CharacterSet::Text => &mut (' '..='~').chain("µ·—▸".chars()),
            };
            let table = table_of(&mut self.chars, font);
            for c in chars {
                table.char(Shaping::Fonts(painter), c);
            }
        }
    }

    /// `text` as one galley, laid out on first use (`None`: not kept, and `shaping` lays
    /// nothing out).
    pub(crate) fn word(
        &mut self,
        shaping: Shaping<'_>,
        text: &str,
        font: &FontId,
    ) -> Option<Arc<Galley>> {
        if let Some((_, _, galley)) = self
            .words
            .iter()
            .find(|(known, known_font, _)| known == text && known_font == font)
        {
            return Some(Arc::clone(galley));
        }
        let Shaping::Fonts(painter) = shaping else {
            self.lacked_text = true;
            return None;
        };
        let galley = painter.layout_no_wrap(text.to_owned(), font.clone(), Color32::PLACEHOLDER);
        self.words
            .push((text.to_owned(), font.clone(), Arc::clone(&galley)));
        Some(galley)
    }

    /// Places `text` at `pos` in `colour` into `out`, a character at a time, and returns its
    /// size. A character whose advance differs from the others' (a fallback font in a
    /// monospace run) lays the whole text out instead, without keeping it.
    pub(crate) fn place(
        &mut self,
        shaping: Shaping<'_>,
        text: &str,
        font: &FontId,
        (pos, colour): (egui::Pos2, Color32),
        out: &mut PlacedText,
    ) -> egui::Vec2 {
        let first = out.mark();
        let mut size = egui::Vec2::ZERO;
        let mut advance = None;
        let table = table_of(&mut self.chars, font);
        for c in text.chars() {
            let Some(kept) = table.char(shaping, c) else {
                self.lacked_text = true;
                continue;
            };
            let glyph = kept.size;
            if *advance.get_or_insert(glyph.x) != glyph.x {
                // Laid out whole, and not kept: values change at every refresh.
                out.truncate(first);
                let Shaping::Fonts(painter) = shaping else {
                    self.lacked_text = true;
                    return size;
                };
                let whole =
                    painter.layout_no_wrap(text.to_owned(), font.clone(), Color32::PLACEHOLDER);
                let whole_size = whole.size();
                out.galley(pos, whole, colour);
                return whole_size;
            }
            out.glyph(
                (kept.quad.as_ref(), &kept.galley),
                pos + egui::vec2(size.x, 0.0),
                colour,
            );
            size = egui::vec2(size.x + glyph.x, size.y.max(glyph.y));
        }
        size
    }

    /// The size `text` takes when placed (see [`Self::place`]), from the kept characters.
    pub(crate) fn measure(
        &mut self,
        shaping: Shaping<'_>,
        text: &str,
        font: &FontId,
    ) -> egui::Vec2 {
        let table = table_of(&mut self.chars, font);
        let mut size = egui::Vec2::ZERO;
        for c in text.chars() {
            let Some(kept) = table.char(shaping, c) else {
                self.lacked_text = true;
                continue;
            };
            size = egui::vec2(size.x + kept.size.x, size.y.max(kept.size.y));
        }
        size
    }
}

/// `font`'s table in `tables`, made on first use. Found once per text, not per character: the
/// HUD's four fonts are compared by value.
fn table_of<'a>(tables: &'a mut Vec<FontChars>, font: &FontId) -> &'a mut FontChars {
    let found = tables.iter().position(|table| &table.font == font);
    let index = found.unwrap_or_else(|| {
        tables.push(FontChars::new(font));
        tables.len() - 1
    });
    &mut tables[index]
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use egui::epaint::{Mesh, TextShape};

    use super::*;
    use crate::view::text_quads::TextQuads;
    use crate::view::value_text::{format_bytes, format_duration, format_percent};

    impl TextCache {
        fn kept_chars(&self) -> usize {
            self.chars
                .iter()
                .map(|table| table.ascii.iter().flatten().count() + table.other.len())
                .sum()
        }
    }

    /// After the common characters are laid out, the values the rows show (durations from
    /// nanoseconds to seconds, percentages, bytes, the separators) need no character laid out
    /// in a later, counted frame.
    #[test]
    fn values_need_no_new_character_after_the_common_ones() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter();
            let font = FontId::monospace(11.0);
            let mut cache = TextCache::default();
            cache.lay_out_common(painter, &[(font.clone(), CharacterSet::Text)]);
            let kept = cache.kept_chars();
            let mut values: Vec<String> = (0..12)
                .map(|power| format_duration(Duration::from_nanos(7 * 10_u64.pow(power))))
                .collect();
            values.extend([0.4, 12.0, 100.0, 250.0].map(format_percent));
            values.extend([900, 5 << 20, 3 << 30].map(format_bytes));
            values.push("3 · worst 12.4 ms — 60 Hz".to_owned());
            for value in &values {
                cache.measure(Shaping::Fonts(painter), value, &font);
            }
            assert_eq!(
                cache.kept_chars(),
                kept,
                "a value laid out a new character: {values:?}"
            );
        });
        output.textures_delta.clear(); // nothing paints here
    }

    /// Every character the HUD lays out up front is kept as a quad (a space as a blank), so a
    /// refresh places none through its galley; a galley that is not egui's plain rectangle (an
    /// italic glyph is slanted) has none and is placed through its galley.
    #[test]
    fn the_huds_characters_are_kept_as_quads() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter();
            let mut cache = TextCache::default();
            cache.lay_out_common(
                painter,
                &[
                    (FontId::monospace(26.0), CharacterSet::Number),
                    (FontId::monospace(11.0), CharacterSet::Text),
                ],
            );
            let mut kept = 0;
            for table in &cache.chars {
                let ascii = table.ascii.iter().enumerate().filter_map(|(code, kept)| {
                    Some((char::from(u8::try_from(code).ok()?), kept.as_ref()?))
                });
                for (c, char_kept) in ascii.chain(table.other.iter().map(|(c, k)| (*c, k))) {
                    kept += 1;
                    match (c, char_kept.quad) {
                        (' ', Some(GlyphQuad::Blank)) | (_, Some(GlyphQuad::One { .. })) => {}
                        (c, quad) => panic!("{c:?} is kept as {quad:?}"),
                    }
                }
            }
            assert_eq!(
                kept,
                12 + 95 + 4,
                "digits and signs; printable ASCII and µ·—▸"
            );
            let mut job = egui::text::LayoutJob::default();
            job.append(
                "7",
                0.0,
                egui::TextFormat {
                    font_id: FontId::monospace(11.0),
                    italics: true,
                    color: Color32::PLACEHOLDER,
                    ..Default::default()
                },
            );
            let italic = painter.ctx().fonts_mut(|fonts| fonts.layout_job(job));
            assert_eq!(GlyphQuad::of(&italic), None, "slanted: not a rectangle");
        });
        output.textures_delta.clear(); // nothing paints here
    }

    /// Values placed from the kept quads (digits, units, a space, the few non-ASCII characters,
    /// at fractional positions, in the HUD's fonts) at 1×, 1.5× and 2×: the same vertices and
    /// indices as egui's tessellator paints for each character's galley at its place.
    #[test]
    fn placed_characters_are_the_tessellators_vertices() {
        for pixels_per_point in [1.0, 1.5, 2.0] {
            let ctx = egui::Context::default();
            ctx.set_pixels_per_point(pixels_per_point);
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let painter = ui.painter();
                let options = ui.ctx().tessellation_options(|o| *o);
                #[expect(
                    clippy::redundant_closure_for_method_calls,
                    reason = "the method path is not general over the view's lifetime"
                )]
                let atlas = ui.ctx().fonts(|fonts| fonts.font_image_size());
                let mut placed = PlacedText::in_buffers(
                    TextQuads::new(pixels_per_point, &options, atlas),
                    Mesh::default(),
                    (0, 0),
                );
                let mut cache = TextCache::default();
                let mut tessellator =
                    egui::epaint::Tessellator::new(pixels_per_point, options, atlas, Vec::new());
                let mut expected = Mesh::default();
                let colour = Color32::from_rgb(200, 120, 40);
                let mut y = 7.6;
                for (text, size) in [("144.2", 26.0), ("0.8 ms", 11.0), ("µ·— 9%", 10.0)] {
                    let font = FontId::monospace(size);
                    let pos = egui::pos2(3.3, y);
                    // Twice: laid out on first use, then placed from the kept quads.
                    for _ in 0..2 {
                        cache.place(
                            Shaping::Fonts(painter),
                            text,
                            &font,
                            (pos, colour),
                            &mut placed,
                        );
                        let mut x = pos.x;
                        for c in text.chars() {
                            let galley = painter.layout_no_wrap(
                                c.to_string(),
                                font.clone(),
                                Color32::PLACEHOLDER,
                            );
                            let advance = galley.size().x;
                            let shape = TextShape::new(egui::pos2(x, pos.y), galley, colour);
                            tessellator.tessellate_text(&shape, &mut expected);
                            x += advance;
                        }
                    }
                    y += 31.7;
                }
                let (mesh, others) = placed.take();
                assert!(others.is_empty(), "the HUD's characters are plain glyphs");
                assert!(!expected.vertices.is_empty());
                assert_eq!(mesh.indices, expected.indices, "at {pixels_per_point}×");
                assert_eq!(mesh.vertices, expected.vertices, "at {pixels_per_point}×");
            });
            output.textures_delta.clear(); // nothing paints here
        }
    }
}
