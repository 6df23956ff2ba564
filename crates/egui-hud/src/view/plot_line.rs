use egui::epaint::{Color32, Mesh, Vertex, WHITE_UV};
use egui::{Pos2, Vec2};

/// The frame-time plot's line, kept from one layout to the next (its points' room is reused),
/// and painted as egui's tessellator paints a line thinner than its feathering: a ridge of
/// three vertices a point (transparent, the colour at the line's share of the feathering,
/// transparent), four triangles a segment, through a loop of its own instead of egui's general
/// path code. The plot is the layout's largest shape: egui's path code took about a sixth of a
/// refresh's instructions for its 120 points (`benches/hud_cost.rs` under callgrind).
///
/// Where egui miters a corner the vertices are egui's, bit for bit. A corner sharper than a
/// right angle (a spike's tip), whose miter would reach far past the line, is bevelled: the
/// point is kept twice, with the incoming segment's normal and then the outgoing one's, so
/// that both sides keep the ridge's width up to the tip and the two wedges between them cover
/// the tip (egui cuts such a corner with two points of its own).
#[derive(Default)]
pub(crate) struct PlotLine {
    points: Vec<Pos2>,
    /// The line's width, in points.
    width_points: f32,
    colour: Color32,
}

/// How a point is painted: with one normal (an end, or a mitered corner), or bevelled.
#[derive(Clone, Copy)]
enum Join {
    One(Vec2),
    Bevel(Vec2, Vec2),
}

impl PlotLine {
    /// Starts a new line `width_points` wide in `colour`, keeping the points' room.
    pub(crate) fn restart(&mut self, width_points: f32, colour: Color32) {
        self.points.clear();
        self.width_points = width_points;
        self.colour = colour;
    }

    /// Adds the next point, apart from the last one (the plot's x grows point by point: no
    /// segment without a direction).
    pub(crate) fn push(&mut self, point: Pos2) {
        debug_assert!(
            self.points.last() != Some(&point),
            "successive points differ"
        );
        self.points.push(point);
    }

    /// The points so far.
    pub(crate) fn points(&self) -> &[Pos2] {
        &self.points
    }

    /// Appends the line to `mesh` as a ridge, `feathering_points` wide on each side (egui's
    /// feathering in points; 0 when off). Returns `false`, appending nothing, for a line that is
    /// not thinner than 0.9 of the feathering, which egui paints otherwise (see
    /// [`Self::shape`]), or whose vertices would not fit the mesh's 32-bit indices.
    pub(crate) fn ridge_into(&self, feathering_points: f32, mesh: &mut Mesh) -> bool {
        let count = self.points.len();
        if count < 2 {
            return true; // egui paints no line of fewer than two points either
        }
        let thin = feathering_points > 0.0 && self.width_points <= 0.9 * feathering_points;
        // At most two triples a point (every corner bevelled).
        let room = u32::try_from(mesh.vertices.len())
            .ok()
            .zip(u32::try_from(count * 6).ok())
            .and_then(|(first, most)| first.checked_add(most).map(|_| first));
        let (Some(first), true) = (room, thin) else {
            return false;
        };
        let core = self
            .colour
            .gamma_multiply(self.width_points / feathering_points);
        let vertex = |pos, color| Vertex {
            pos,
            uv: WHITE_UV,
            color,
        };
        // Room for a line without bevels; each bevel adds a triple and a segment's indices.
        mesh.vertices.reserve(3 * count);
        mesh.indices.reserve(12 * (count - 1));
        let (mut next, mut previous) = (first, None);
        let mut triple = |point: Pos2, normal: Vec2, mesh: &mut Mesh| {
            mesh.vertices.extend_from_slice(&[
                vertex(point + normal * feathering_points, Color32::TRANSPARENT),
                vertex(point, core),
                vertex(point - normal * feathering_points, Color32::TRANSPARENT),
            ]);
            if let Some(before) = previous {
                // Outer edge to core, core to inner edge: two triangles each.
                let at: u32 = next;
                mesh.indices.extend_from_slice(&[
                    before,
                    before + 1,
                    at,
                    before + 1,
                    at,
                    at + 1,
                    before + 1,
                    before + 2,
                    at + 1,
                    before + 2,
                    at + 1,
                    at + 2,
                ]);
            }
            previous = Some(next);
            next += 3; // within the room checked above
        };
        // Each segment's normal once, carried to the next point as its incoming one.
        let mut incoming = None;
        for (i, &point) in self.points.iter().enumerate() {
            let outgoing = self
                .points
                .get(i + 1)
                .map(|next| (*next - point).normalized().rot90());
            match (incoming, outgoing) {
                (Some(incoming), Some(outgoing)) => match join(incoming, outgoing) {
                    Join::One(normal) => triple(point, normal, mesh),
                    Join::Bevel(incoming, outgoing) => {
                        triple(point, incoming, mesh);
                        triple(point, outgoing, mesh);
                    }
                },
                (Some(end), None) | (None, Some(end)) => triple(point, end, mesh),
                (None, None) => debug_assert!(false, "a line of two points or more"),
            }
            incoming = outgoing;
        }
        true
    }

    /// The line as a shape, for egui's tessellator (a line it does not paint as a ridge).
    pub(crate) fn shape(&self) -> egui::Shape {
        egui::Shape::line(
            self.points.clone(),
            egui::Stroke::new(self.width_points, self.colour),
        )
    }
}

/// The join between a segment whose normal is `incoming` and the next, whose normal is
/// `outgoing`: their miter (the mean normal, scaled to reach the ridge's edges), or a bevel
/// where the corner is sharper than a right angle.
fn join(incoming: Vec2, outgoing: Vec2) -> Join {
    let mean = (incoming + outgoing) * 0.5;
    // |mean|² is ½ at a right angle, and below for sharper corners.
    let length_sq = mean.length_sq();
    if length_sq < 0.5 {
        Join::Bevel(incoming, outgoing)
    } else {
        Join::One(mean / length_sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plot's points: x grows by `step`, y wanders by at most `swing` a step.
    fn wandering(count: usize, step: f32, swing: f32) -> PlotLine {
        let mut line = PlotLine::default();
        line.restart(0.9, Color32::from_rgb(90, 200, 120));
        let mut state = 0x2545_f491_u32;
        let mut y = 20.0;
        for i in 0..count {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            #[expect(clippy::cast_precision_loss, reason = "test coordinates")]
            let (x, wander) = (i as f32 * step, (state % 1000) as f32 / 1000.0 - 0.5);
            y += wander * swing;
            line.push(Pos2::new(10.0 + x, y));
        }
        line
    }

    /// `mesh` with egui's tessellation of the line appended.
    fn egui_mesh(line: &PlotLine, pixels_per_point: f32, mut mesh: Mesh) -> Mesh {
        let options = egui::epaint::TessellationOptions::default();
        let mut tessellator =
            egui::epaint::Tessellator::new(pixels_per_point, options, [1024, 1024], Vec::new());
        tessellator.tessellate_shape(line.shape(), &mut mesh);
        mesh
    }

    /// A mesh that already holds something (the HUD's backdrop and ticks come first).
    fn started_mesh() -> Mesh {
        let mut mesh = Mesh::default();
        mesh.add_colored_rect(
            egui::Rect::from_min_size(Pos2::new(1.0, 2.0), Vec2::new(30.0, 8.0)),
            Color32::DARK_GRAY,
        );
        mesh
    }

    /// Where egui miters every corner (no turn sharper than a right angle), the ridge is egui's
    /// mesh, vertex for vertex and index for index, at 1×, 1.5× and 2×.
    #[test]
    fn a_gentle_line_is_egui_s_mesh() {
        for pixels_per_point in [1.0, 1.5, 2.0] {
            let options = egui::epaint::TessellationOptions::default();
            let feathering = options.feathering_size_in_pixels * (1.0 / pixels_per_point);
            let mut line = wandering(120, 1.6, 1.5);
            line.width_points = 0.9 * feathering; // the HUD's hairline
            for start in [Mesh::default(), started_mesh()] {
                let mut ours = start.clone();
                assert!(line.ridge_into(feathering, &mut ours));
                assert_eq!(
                    ours,
                    egui_mesh(&line, pixels_per_point, start),
                    "at {pixels_per_point}x"
                );
            }
        }
    }

    /// Spikes (turns far sharper than a right angle) are bevelled, as many points as egui cuts,
    /// every vertex finite and within a right angle's miter (√2 featherings) of its point.
    #[test]
    fn a_spiky_line_is_bevelled_where_egui_cuts_its_corners() {
        let line = wandering(120, 1.6, 200.0);
        let feathering = 1.0;
        let mut ours = started_mesh();
        assert!(line.ridge_into(feathering, &mut ours));
        let theirs = egui_mesh(&line, 1.0, started_mesh());
        assert!(ours.is_valid());
        assert!(ours.vertices.len() > 3 * 120, "some corners are bevelled");
        // A point more where egui cuts a corner, joined to its neighbours as egui joins them.
        assert_eq!(ours.vertices.len(), theirs.vertices.len());
        assert_eq!(ours.indices, theirs.indices);
        for vertex in &ours.vertices[started_mesh().vertices.len()..] {
            assert!(vertex.pos.is_finite());
            let nearest = line
                .points()
                .iter()
                .map(|point| vertex.pos.distance(*point))
                .fold(f32::INFINITY, f32::min);
            assert!(
                nearest <= feathering * std::f32::consts::SQRT_2 * 1.0001,
                "{nearest}"
            );
        }
    }

    /// A line as wide as the feathering is left to egui (its thick line has a core of its own).
    #[test]
    fn a_wide_line_is_left_to_egui() {
        let mut line = wandering(10, 1.6, 1.5);
        line.width_points = 1.0;
        let mut ours = Mesh::default();
        assert!(!line.ridge_into(1.0, &mut ours));
        assert!(ours.is_empty());
    }

    /// A single point paints nothing, as in egui.
    #[test]
    fn a_point_alone_paints_nothing() {
        let mut line = wandering(1, 1.6, 1.5);
        line.width_points = 0.9;
        let mut ours = Mesh::default();
        assert!(line.ridge_into(1.0, &mut ours));
        assert_eq!(ours, egui_mesh(&line, 1.0, Mesh::default()));
        assert!(ours.is_empty());
    }
}
