use std::sync::Arc;

use egui::{Color32, FontId, Galley};

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
}

/// One font's kept characters: ASCII by code, the few others (µ, ·, —) in a list.
struct FontChars {
    font: FontId,
    ascii: Box<[Option<Arc<Galley>>; 128]>,
    other: Vec<(char, Arc<Galley>)>,
}

impl TextCache {
    /// Forgets every galley (the atlas, scale or theme changed).
    pub(crate) fn clear(&mut self) {
        self.words.clear();
        self.chars.clear();
    }

    /// `text` as one galley, laid out on first use.
    pub(crate) fn word(
        &mut self,
        painter: &egui::Painter,
        text: &str,
        font: &FontId,
    ) -> Arc<Galley> {
        if let Some((_, _, galley)) = self
            .words
            .iter()
            .find(|(known, known_font, _)| known == text && known_font == font)
        {
            return Arc::clone(galley);
        }
        let galley = painter.layout_no_wrap(text.to_owned(), font.clone(), Color32::PLACEHOLDER);
        self.words
            .push((text.to_owned(), font.clone(), Arc::clone(&galley)));
        galley
    }

    /// Adds `text` at `pos` in `colour` to `shapes`, a character at a time, and returns its
    /// size. A character whose advance differs from the others' (a fallback font in a
    /// monospace run) lays the whole text out instead, without keeping it.
    pub(crate) fn place(
        &mut self,
        painter: &egui::Painter,
        text: &str,
        font: &FontId,
        (pos, colour): (egui::Pos2, Color32),
        shapes: &mut Vec<egui::Shape>,
    ) -> egui::Vec2 {
        let first = shapes.len();
        let mut size = egui::Vec2::ZERO;
        let mut advance = None;
        for c in text.chars() {
            let galley = self.char(painter, c, font);
            let glyph = galley.size();
            if *advance.get_or_insert(glyph.x) != glyph.x {
                // Laid out whole, and not kept: values change at every refresh.
                shapes.truncate(first);
                let whole =
                    painter.layout_no_wrap(text.to_owned(), font.clone(), Color32::PLACEHOLDER);
                let whole_size = whole.size();
                shapes.push(egui::Shape::galley(pos, whole, colour));
                return whole_size;
            }
            shapes.push(egui::Shape::galley(
                pos + egui::vec2(size.x, 0.0),
                galley,
                colour,
            ));
            size = egui::vec2(size.x + glyph.x, size.y.max(glyph.y));
        }
        size
    }

    /// The size `text` takes when placed (see [`Self::place`]), from the kept characters.
    pub(crate) fn measure(
        &mut self,
        painter: &egui::Painter,
        text: &str,
        font: &FontId,
    ) -> egui::Vec2 {
        text.chars().fold(egui::Vec2::ZERO, |size, c| {
            let glyph = self.char(painter, c, font).size();
            egui::vec2(size.x + glyph.x, size.y.max(glyph.y))
        })
    }

    fn char(&mut self, painter: &egui::Painter, c: char, font: &FontId) -> Arc<Galley> {
        let found = self.chars.iter().position(|table| &table.font == font);
        let index = found.unwrap_or_else(|| {
            self.chars.push(FontChars {
                font: font.clone(),
                ascii: Box::new(std::array::from_fn(|_| None)),
                other: Vec::new(),
            });
            self.chars.len() - 1
        });
        let layout = || painter.layout_no_wrap(c.to_string(), font.clone(), Color32::PLACEHOLDER);
        let Some(table) = self.chars.get_mut(index) else {
            debug_assert!(false, "the table was found or pushed");
            return layout();
        };
        if let Some(slot) = table.ascii.get_mut(c as usize) {
            return Arc::clone(slot.get_or_insert_with(layout));
        }
        if let Some((_, galley)) = table.other.iter().find(|(known, _)| *known == c) {
            return Arc::clone(galley);
        }
        let galley = layout();
        table.other.push((c, Arc::clone(&galley)));
        galley
    }
}
