/// A reserved begin/end timestamp pair for one render or compute pass the caller begins.
///
/// Hand [`Self::render_pass_writes`] or [`Self::compute_pass_writes`] to the pass descriptor;
/// needs only `TIMESTAMP_QUERY`. Holds a clone of its readback group's `QuerySet` (a
/// reference-count bump, no allocation). Use it for exactly one pass: a second pass would overwrite the pair.
#[derive(Clone, Debug)]
pub struct PassTimestamps {
    pub(crate) query_set: wgpu::QuerySet,
    pub(crate) begin_index: u32,
}

impl PassTimestamps {
    /// Value for `RenderPassDescriptor::timestamp_writes`.
    pub fn render_pass_writes(&self) -> wgpu::RenderPassTimestampWrites<'_> {
        wgpu::RenderPassTimestampWrites {
            query_set: &self.query_set,
            beginning_of_pass_write_index: Some(self.begin_index),
            end_of_pass_write_index: Some(self.begin_index + 1),
        }
    }

    /// Value for `ComputePassDescriptor::timestamp_writes`. Beware: lavapipe's compute-pass
    /// timestamps do not bracket the work.
    pub fn compute_pass_writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.query_set,
            beginning_of_pass_write_index: Some(self.begin_index),
            end_of_pass_write_index: Some(self.begin_index + 1),
        }
    }
}
