use egui::Color32;
use profiler_core::Grade;

/// The HUD's colours for one theme. The backdrop is nearly opaque so the text contrast does not
/// depend on what the app draws underneath; every text colour keeps at least 4.5:1 (WCAG AA)
/// against it, checked by this file's tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HudPalette {
    pub(crate) backdrop: Color32,
    pub(crate) border: Color32,
    pub(crate) text: Color32,
    pub(crate) dim: Color32,
    pub(crate) within: Color32,
    pub(crate) over: Color32,
    pub(crate) far_over: Color32,
    pub(crate) plot_line: Color32,
    /// The latency bar's stages, path order: wake, ui, tess, encode, queue, gpu.
    pub(crate) stages: [Color32; 6],
}

impl HudPalette {
    pub(crate) const DARK: Self = Self {
        backdrop: Color32::from_rgba_premultiplied(19, 19, 21, 240),
        border: Color32::from_rgb(70, 70, 76),
        text: Color32::from_rgb(232, 232, 232),
        dim: Color32::from_rgb(165, 165, 172),
        within: Color32::from_rgb(110, 220, 120),
        over: Color32::from_rgb(250, 190, 60),
        far_over: Color32::from_rgb(255, 115, 105),
        plot_line: Color32::from_rgb(140, 200, 255),
        stages: [
            Color32::from_rgb(165, 165, 172),
            Color32::from_rgb(140, 200, 255),
            Color32::from_rgb(200, 160, 255),
            Color32::from_rgb(100, 220, 220),
            Color32::from_rgb(250, 190, 60),
            Color32::from_rgb(255, 130, 180),
        ],
    };

    pub(crate) const LIGHT: Self = Self {
        backdrop: Color32::from_rgba_premultiplied(233, 233, 231, 240),
        border: Color32::from_rgb(180, 180, 186),
        text: Color32::from_rgb(25, 25, 25),
        dim: Color32::from_rgb(80, 80, 86),
        within: Color32::from_rgb(20, 115, 40),
        over: Color32::from_rgb(140, 84, 0),
        far_over: Color32::from_rgb(185, 28, 28),
        plot_line: Color32::from_rgb(20, 90, 170),
        stages: [
            Color32::from_rgb(80, 80, 86),
            Color32::from_rgb(20, 90, 170),
            Color32::from_rgb(110, 50, 170),
            Color32::from_rgb(0, 110, 110),
            Color32::from_rgb(140, 84, 0),
            Color32::from_rgb(170, 30, 100),
        ],
    };

    pub(crate) fn for_theme(dark_mode: bool) -> Self {
        if dark_mode { Self::DARK } else { Self::LIGHT }
    }

    pub(crate) fn grade(&self, grade: Option<Grade>) -> Color32 {
        match grade {
            Some(Grade::Within) => self.within,
            Some(Grade::Over) => self.over,
            Some(Grade::FarOver) => self.far_over,
            None => self.text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear(channel: u8) -> f64 {
        let c = f64::from(channel) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    fn luminance(c: [u8; 3]) -> f64 {
        0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])
    }

    fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// The premultiplied backdrop over an opaque app colour underneath.
    fn composite(backdrop: Color32, under: [u8; 3]) -> [u8; 3] {
        let keep = 1.0 - f64::from(backdrop.a()) / 255.0;
        let mix = |top: u8, bottom: u8| {
            let v = f64::from(top) + f64::from(bottom) * keep;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "clamped to 0..=255"
            )]
            let v = v.round().clamp(0.0, 255.0) as u8;
            v
        };
        [
            mix(backdrop.r(), under[0]),
            mix(backdrop.g(), under[1]),
            mix(backdrop.b(), under[2]),
        ]
    }

    #[test]
    fn every_text_colour_keeps_4_5_to_1_over_the_backdrop_in_both_themes() {
        for (theme, palette) in [("dark", HudPalette::DARK), ("light", HudPalette::LIGHT)] {
            for under in [[0, 0, 0], [255, 255, 255], [128, 128, 128]] {
                let backdrop = composite(palette.backdrop, under);
                let named = [
                    ("text", palette.text),
                    ("dim", palette.dim),
                    ("within", palette.within),
                    ("over", palette.over),
                    ("far_over", palette.far_over),
                ];
                let stages = palette.stages.iter().map(|&colour| ("stage", colour));
                for (name, colour) in named.into_iter().chain(stages) {
                    let ratio = contrast([colour.r(), colour.g(), colour.b()], backdrop);
                    assert!(
                        ratio >= 4.5,
                        "{theme} {name} over {under:?}: {ratio:.2}:1 < 4.5:1"
                    );
                }
            }
        }
    }
}
