use crate::FrameId;

/// An open timing scope whose begin stamp was written on an encoder; close it with
/// [`crate::GpuTimer::end_scope_in_render_pass`] or [`crate::GpuTimer::end_encoder_scope`].
///
/// `Clone + Send + Sync` so it can wait in egui-wgpu's `CallbackResources` between a paint
/// callback's `prepare` and `paint`. Holds a clone of its readback group's `QuerySet` (no
/// allocation). A scope never closed before its frame ends is rejected and counted as invalid.
#[derive(Clone, Debug)]
pub struct GpuScope {
    pub(crate) frame: FrameId,
    pub(crate) query_set: wgpu::QuerySet,
    /// The pair's index among its frame's pairs.
    pub(crate) pair: u32,
    /// The pair's begin query in `query_set` (its end is the next one).
    pub(crate) begin_index: u32,
}

impl GpuScope {
    /// The frame this scope belongs to.
    pub fn frame(&self) -> FrameId {
        self.frame
    }
}
