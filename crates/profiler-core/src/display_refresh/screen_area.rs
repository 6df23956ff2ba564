/// A rectangle of the desktop in physical pixels, in the window system's global coordinates
/// (X11: the root window; Windows: the virtual screen). Used to ask for the refresh rate of the
/// display under a window the query has no handle for, such as an egui child viewport: its
/// `ViewportInfo::outer_rect` times `native_pixels_per_point`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenArea {
    /// Left edge, in physical pixels.
    pub x: i32,
    /// Top edge, in physical pixels.
    pub y: i32,
    /// Width in physical pixels; an empty area is on no display.
    pub width: u32,
    /// Height in physical pixels; an empty area is on no display.
    pub height: u32,
}

impl ScreenArea {
    /// The area of an egui-style rectangle given in points, scaled by `pixels_per_point`
    /// (rounded outwards to whole pixels; clamped to the `i32` range). Cost: none.
    #[must_use]
    pub fn from_points(min: [f32; 2], max: [f32; 2], pixels_per_point: f32) -> Self {
        let to_pixels = |points: f32, round: fn(f32) -> f32| {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "`as` saturates, and desktops are far smaller than i32::MAX pixels"
            )]
            let pixels = round(points * pixels_per_point) as i32;
            pixels
        };
        let (left, top) = (to_pixels(min[0], f32::floor), to_pixels(min[1], f32::floor));
        let (right, bottom) = (to_pixels(max[0], f32::ceil), to_pixels(max[1], f32::ceil));
        Self {
            x: left,
            y: top,
            // A reversed rectangle covers nothing.
            width: u32::try_from(right.saturating_sub(left)).unwrap_or(0),
            height: u32::try_from(bottom.saturating_sub(top)).unwrap_or(0),
        }
    }

    /// Whether the area covers no pixel.
    pub fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }
}

#[cfg(test)]
mod tests {
    use super::ScreenArea;

    #[test]
    fn points_scale_to_the_pixels_they_cover() {
        let area = ScreenArea::from_points([1000.5, 10.0], [1200.2, 110.0], 2.0);
        assert_eq!(
            area,
            ScreenArea {
                x: 2001,
                y: 20,
                width: 400,
                height: 200
            }
        );
        assert!(!area.is_empty());
        assert!(ScreenArea::from_points([5.0, 5.0], [5.0, 50.0], 1.0).is_empty());
        assert!(ScreenArea::from_points([5.0, 5.0], [1.0, 50.0], 1.0).is_empty());
    }
}
