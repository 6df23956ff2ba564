use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use crate::map_signal::MapSignal;

/// The query set, resolve and readback buffers that `frames_per_readback` consecutive frame
/// slots share (see [`crate::GpuTimerSettings::frames_per_readback`]): each slot stamps its
/// frame in its own range of the query set, whose results land in its own region of the
/// resolve buffer, and one resolve, one copy and one map read the whole group back.
///
/// One resolve for the group, not one per frame: a frame's stamps end inside egui's render
/// pass, so its queries are resolved on a later encoder, which wgpu 30 does at submit with a
/// command buffer of its own per resolve (and tracks the query set and the buffer in each
/// encoder that resolves): with one resolve per group of 4, egui-hud's timed frames on
/// lavapipe allocate 6 fewer a frame (+25 → +19 over the app's).
///
/// A map is a round trip through wgpu's mapping machinery on both ends (the request at submit,
/// the mapped view and the unmap when read), the largest part of a timed frame's CPU cost in
/// the timer; a group pays it once for all its frames. Created once, reused round the ring:
/// filling (its slots take frames) → mapping (copy and map recorded: its slots take no new
/// frame) → read → filling.
pub(crate) struct ReadbackGroup {
    /// Every slot's queries: slot `i` of the group from query `i × queries_per_region`.
    pub(crate) query_set: wgpu::QuerySet,
    pub(crate) resolve_buffer: wgpu::Buffer,
    pub(crate) readback_buffer: wgpu::Buffer,
    /// Where the group's map request stands, while `mapping`.
    pub(crate) signal: MapSignal,
    /// Whether the copy and map were recorded and the group is not read back yet.
    pub(crate) mapping: bool,
}

impl ReadbackGroup {
    /// Queries and buffers for `slots` regions of `region_bytes` each; its map requests bump
    /// `settled` as they settle (see [`MapSignal::counting`]).
    pub(crate) fn new(
        device: &wgpu::Device,
        (slots, region_bytes): (usize, u64),
        settled: &Arc<AtomicUsize>,
    ) -> Self {
        let queries = u32::try_from(slots as u64 * Self::queries_per_region(region_bytes))
            .unwrap_or(wgpu::QUERY_SET_MAX_QUERIES);
        debug_assert!(
            queries <= wgpu::QUERY_SET_MAX_QUERIES,
            "GpuTimerSettings::validate keeps a group in one query set"
        );
        let (resolve_buffer, readback_buffer) = resolve_and_readback_buffers(
            device,
            region_bytes * slots as u64,
            ["gpu-timing resolve", "gpu-timing readback"],
        );
        Self {
            query_set: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("gpu-timing readback group"),
                ty: wgpu::QueryType::Timestamp,
                count: queries.min(wgpu::QUERY_SET_MAX_QUERIES),
            }),
            resolve_buffer,
            readback_buffer,
            signal: MapSignal::counting(Arc::clone(settled)),
            mapping: false,
        }
    }

    /// Bytes of one slot's region: its timestamps, rounded up to the offset alignment a query
    /// resolve needs (`wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT`, 256).
    pub(crate) fn region_bytes(max_pairs: u32) -> u64 {
        let bytes = u64::from(max_pairs) * 2 * u64::from(wgpu::QUERY_SIZE);
        bytes.next_multiple_of(wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT)
    }

    /// Queries of one slot's range in the group's query set: as many as its region holds, so
    /// that resolving the group's queries at once fills each region from its start.
    pub(crate) fn queries_per_region(region_bytes: u64) -> u64 {
        region_bytes / u64::from(wgpu::QUERY_SIZE)
    }
}

/// A buffer of `bytes` that query results resolve into, and the mappable one they are copied to
/// for reading (WebGPU does not let a resolve target be mapped), labelled `labels`.
pub(crate) fn resolve_and_readback_buffers(
    device: &wgpu::Device,
    bytes: u64,
    labels: [&str; 2],
) -> (wgpu::Buffer, wgpu::Buffer) {
    let [resolve_label, readback_label] = labels;
    let buffer = |label, usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes,
            usage,
            mapped_at_creation: false,
        })
    };
    (
        buffer(
            resolve_label,
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        ),
        buffer(
            readback_label,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        ),
    )
}
