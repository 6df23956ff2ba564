use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

#[cfg(target_arch = "wasm32")]
use web_time::Instant;

use crate::map_signal::{MapSignal, MapState};
use crate::readback_group::resolve_and_readback_buffers;
use crate::timestamp_pair::ticks_to_gpu_nanos;
use crate::{ClockCalibration, GpuTimingError, TimestampSupport};

/// How long one calibration round trip may take before it is abandoned as failed.
const ROUND_TRIP_TIMEOUT: Duration = Duration::from_secs(2);

/// The tiny query set and buffers used to read one GPU timestamp at a time for calibration.
///
/// Created on the first calibration, so timers that never calibrate pay nothing.
pub(crate) struct CalibrationProbe {
    query_set: wgpu::QuerySet,
    resolve_buffer: wgpu::Buffer,
    readback_buffer: wgpu::Buffer,
    signal: MapSignal,
}

impl CalibrationProbe {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let query_set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("gpu-timing calibration"),
            ty: wgpu::QueryType::Timestamp,
            count: 1,
        });
        let (resolve_buffer, readback_buffer) = resolve_and_readback_buffers(
            device,
            wgpu::QUERY_SIZE.into(),
            [
                "gpu-timing calibration resolve",
                "gpu-timing calibration readback",
            ],
        );
        Self {
            query_set,
            resolve_buffer,
            readback_buffer,
            signal: MapSignal::default(),
        }
    }

    /// Measures the tightest of `tries` brackets. Blocks for every try.
    pub(crate) fn calibrate(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        support: TimestampSupport,
        tries: u32,
    ) -> Result<ClockCalibration, GpuTimingError> {
        // Work already queued would sit inside the bracket and widen it.
        wait(device)?;
        let mut best: Option<ClockCalibration> = None;
        for _ in 0..tries {
            let Some(sample) = self.sample(device, queue, support)? else {
                continue;
            };
            if best.is_none_or(|b| sample.uncertainty() < b.uncertainty()) {
                best = Some(sample);
            }
        }
        best.ok_or(GpuTimingError::NoUsableSample)
    }

    /// One bracketed timestamp; `None` if the GPU returned 0.
    fn sample(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        support: TimestampSupport,
    ) -> Result<Option<ClockCalibration>, GpuTimingError> {
        let mut stamp = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("gpu-timing calibration stamp"),
        });
        if support.can_write_on_encoders() {
            stamp.write_timestamp(&self.query_set, 0);
        } else {
            let _pass = stamp.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("gpu-timing calibration stamp"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &self.query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            });
        }
        stamp.resolve_query_set(&self.query_set, 0..1, &self.resolve_buffer, 0);
        // The copy goes into a second command buffer: copying in the encoder that wrote and
        // resolved the query read back 0 on some Vulkan drivers (gfx-rs/wgpu#6406).
        let mut copy = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("gpu-timing calibration copy"),
        });
        copy.copy_buffer_to_buffer(
            &self.resolve_buffer,
            0,
            &self.readback_buffer,
            0,
            u64::from(wgpu::QUERY_SIZE),
        );
        copy.map_buffer_on_submit(
            &self.readback_buffer,
            wgpu::MapMode::Read,
            ..,
            self.signal.arm(),
        );
        let buffers = [stamp.finish(), copy.finish()];

        let cpu_before = Instant::now();
        queue.submit(buffers);
        wait(device)?;
        let cpu_after = Instant::now();

        match self.signal.state() {
            MapState::Mapped => {}
            MapState::Pending => {
                return Err(GpuTimingError::PollFailed(
                    "readback not mapped after the wait".into(),
                ));
            }
            MapState::Failed | MapState::Abandoned => {
                return Err(GpuTimingError::MapFailed(
                    "map callback reported an error".into(),
                ));
            }
        }
        let ticks = {
            let view = self
                .readback_buffer
                .get_mapped_range(..)
                .map_err(|e| GpuTimingError::MapFailed(e.to_string()));
            let ticks = view.map(|v| {
                v.get(..8)
                    .and_then(|b| b.try_into().ok())
                    .map_or(0, u64::from_le_bytes)
            });
            self.readback_buffer.unmap();
            ticks?
        };
        if ticks == 0 {
            return Ok(None);
        }
        let gpu_nanos = ticks_to_gpu_nanos(ticks, queue.get_timestamp_period());
        Ok(Some(ClockCalibration::from_bracket(
            gpu_nanos, cpu_before, cpu_after,
        )))
    }
}

fn wait(device: &wgpu::Device) -> Result<(), GpuTimingError> {
    device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(ROUND_TRIP_TIMEOUT),
        })
        .map(drop)
        .map_err(|e| GpuTimingError::PollFailed(e.to_string()))
}
