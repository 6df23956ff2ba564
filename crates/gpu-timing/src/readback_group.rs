use crate::map_signal::MapSignal;

/// The resolve and readback buffers that `frames_per_readback` consecutive frame slots share
/// (see [`crate::GpuTimerSettings::frames_per_readback`]): each slot resolves its frame into
/// its own region of the resolve buffer, and one copy and one map read the whole group back.
///
/// A map is a round trip through wgpu's mapping machinery on both ends (the request at submit,
/// the mapped view and the unmap when read), the largest part of a timed frame's CPU cost in
/// the timer; a group pays it once for all its frames. Created once, reused round the ring:
/// filling (its slots take frames) → mapping (copy and map recorded: its slots take no new
/// frame) → read → filling.
pub(crate) struct ReadbackGroup {
    pub(crate) resolve_buffer: wgpu::Buffer,
    pub(crate) readback_buffer: wgpu::Buffer,
    /// Where the group's map request stands, while `mapping`.
    pub(crate) signal: MapSignal,
    /// Whether the copy and map were recorded and the group is not read back yet.
    pub(crate) mapping: bool,
}

impl ReadbackGroup {
    /// Buffers for `slots` regions of `region_bytes` each.
    pub(crate) fn new(device: &wgpu::Device, slots: usize, region_bytes: u64) -> Self {
        let (resolve_buffer, readback_buffer) = resolve_and_readback_buffers(
            device,
            region_bytes * slots as u64,
            ["gpu-timing resolve", "gpu-timing readback"],
        );
        Self {
            resolve_buffer,
            readback_buffer,
            signal: MapSignal::default(),
            mapping: false,
        }
    }

    /// Bytes of one slot's region: its timestamps, rounded up to the offset alignment a query
    /// resolve needs (`wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT`, 256).
    pub(crate) fn region_bytes(max_pairs: u32) -> u64 {
        let bytes = u64::from(max_pairs) * 2 * u64::from(wgpu::QUERY_SIZE);
        bytes.next_multiple_of(wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT)
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
