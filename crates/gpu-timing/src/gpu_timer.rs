use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

#[cfg(target_arch = "wasm32")]
use web_time::Instant;

use parking_lot::Mutex;

use crate::calibration_probe::CalibrationProbe;
use crate::frame_slot::{FrameSlot, PairRecord, SlotPhase};
use crate::map_signal::MapState;
use crate::readback_group::ReadbackGroup;
use crate::timestamp_pair::ticks_to_gpu_nanos;
use crate::{
    ClockCalibration, FrameId, GpuFrameResult, GpuPassResult, GpuScope, GpuTimerSettings,
    GpuTimerStats, GpuTimingError, PassTimestamps, TimestampPair, TimestampRejection,
    TimestampSupport,
};

/// Labels kept for reuse; past this many distinct labels each new one allocates per use instead
/// of growing the table without bound (a caller formatting frame numbers into labels).
const MAX_INTERNED_LABELS: usize = 256;

/// Times wgpu passes with timestamp queries, without ever stalling the CPU on the GPU.
///
/// Cheap to clone (an `Arc`), `Send + Sync`, and every method takes `&self`, so it can live in
/// egui-wgpu's `CallbackResources` and be used from paint callbacks. All GPU memory is allocated
/// in [`Self::new`] (see [`GpuTimerSettings`]); per frame the timer allocates nothing after the
/// first sight of each label, apart from what wgpu itself allocates for the map request (and the
/// message of a rejected pass when `debug` logging is on).
///
/// A frame goes: [`Self::begin_frame`] → passes ([`Self::pass_timestamps`]) and scopes
/// ([`Self::begin_encoder_scope`] … [`Self::end_encoder_scope`] /
/// [`Self::end_scope_in_render_pass`]) on any encoders → [`Self::resolve_frame`] on an encoder
/// submitted after all of them → results from [`Self::poll_results`], about two frames later.
/// With [`GpuTimerSettings::frames_per_readback`] above 1, frames are read back once their
/// group is complete, or at [`Self::flush`].
///
/// On a device without timestamp features every method is a cheap no-op and [`Self::support`]
/// says why.
#[derive(Clone)]
pub struct GpuTimer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for GpuTimer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuTimer")
            .field("support", &self.shared.support)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

struct Shared {
    device: wgpu::Device,
    queue: wgpu::Queue,
    support: TimestampSupport,
    settings: GpuTimerSettings,
    /// `Queue::get_timestamp_period`, read once: every wgpu 30 backend fixes it when the queue
    /// is made (Vulkan's `timestampPeriod` limit, Metal's value from adapter creation, DX12's
    /// `GetTimestampFrequency`, which D3D12 keeps constant for a queue; 1 on GL and WebGPU).
    /// Asking per result went through wgpu-core's registry every timed frame.
    timestamp_period_nanos: f32,
    /// Bytes of a slot's region in its group's buffers.
    region_bytes: u64,
    state: Mutex<TimerState>,
    /// Reused result buffers handed to `poll_results` callbacks. A separate lock so that the
    /// callbacks run without `state` held and may call back into the timer.
    delivery: Mutex<Vec<GpuFrameResult>>,
    /// How many readback requests have settled (mapped, failed or abandoned), bumped by their
    /// callbacks; and how many had when results were last collected. Equal, nothing has arrived
    /// since: `poll_results` returns without its locks (most frames, between readbacks).
    settled: Arc<AtomicUsize>,
    settled_collected: AtomicUsize,
    calibration: Mutex<CalibrationState>,
}

struct TimerState {
    slots: Vec<FrameSlot>,
    /// Slot `i` resolves into group `i / frames_per_readback`.
    groups: Vec<ReadbackGroup>,
    labels: Vec<Arc<str>>,
    next_frame_index: u64,
    last_begin: Option<Instant>,
    stats: GpuTimerStats,
    disposed: bool,
}

#[derive(Default)]
struct CalibrationState {
    probe: Option<CalibrationProbe>,
    latest: Option<ClockCalibration>,
}

impl GpuTimer {
    /// Creates the timer and, if the device supports timestamps, its ring of
    /// `settings.frame_slots` slots and, per readback group, a query set and two buffers.
    ///
    /// A device without `TIMESTAMP_QUERY` is not an error: the timer is a no-op, [`Self::support`]
    /// is [`TimestampSupport::None`], and the reason is logged once here.
    ///
    /// # Errors
    /// [`GpuTimingError::InvalidSettings`] if `settings.validate()` fails.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        settings: GpuTimerSettings,
    ) -> Result<Self, GpuTimingError> {
        settings.validate()?;
        let support = TimestampSupport::from_features(device.features());
        if support == TimestampSupport::Full {
            log::debug!("gpu-timing: all timestamp features available");
        } else {
            log::info!("gpu-timing: {}", support.reason());
        }
        let region_bytes = ReadbackGroup::region_bytes(settings.max_passes_per_frame);
        let settled = Arc::new(AtomicUsize::new(0));
        let (slots, groups) = if support.can_time_passes() {
            (
                (0..settings.frame_slots)
                    .map(|slot| {
                        let region = (slot % settings.frames_per_readback) as u64;
                        let first_query = region * ReadbackGroup::queries_per_region(region_bytes);
                        let first_query = u32::try_from(first_query).unwrap_or(u32::MAX);
                        FrameSlot::new(first_query, settings.max_passes_per_frame)
                    })
                    .collect(),
                (0..settings.frame_slots / settings.frames_per_readback)
                    .map(|_| {
                        let group = (settings.frames_per_readback, region_bytes);
                        ReadbackGroup::new(device, group, &settled)
                    })
                    .collect(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let delivery = (0..settings.frame_slots)
            .map(|_| GpuFrameResult {
                passes: Vec::with_capacity(settings.max_passes_per_frame as usize),
                ..GpuFrameResult::default()
            })
            .collect();
        Ok(Self {
            shared: Arc::new(Shared {
                device: device.clone(),
                queue: queue.clone(),
                support,
                settings,
                timestamp_period_nanos: queue.get_timestamp_period(),
                region_bytes,
                state: Mutex::new(TimerState {
                    slots,
                    groups,
                    labels: Vec::new(),
                    next_frame_index: 0,
                    last_begin: None,
                    stats: GpuTimerStats::default(),
                    disposed: false,
                }),
                delivery: Mutex::new(delivery),
                settled,
                settled_collected: AtomicUsize::new(0),
                calibration: Mutex::new(CalibrationState::default()),
            }),
        })
    }

    /// What the device can time; fixed at creation. Free.
    pub fn support(&self) -> TimestampSupport {
        self.shared.support
    }

    /// The settings the timer was created with.
    pub fn settings(&self) -> &GpuTimerSettings {
        &self.shared.settings
    }

    /// Counters since creation. One lock.
    pub fn stats(&self) -> GpuTimerStats {
        self.shared.state.lock().stats
    }

    /// Claims a ring slot for a new frame.
    ///
    /// Returns `None` when timing is unsupported or the timer disposed, and `None` plus one
    /// [`GpuTimerStats::dropped_frames`] when every slot is still in flight (results not yet
    /// read: call [`Self::poll_results`] every frame). A slot begun but never ended for a
    /// whole ring's worth of frames is reclaimed and counted as dropped. One lock, no allocation.
    pub fn begin_frame(&self) -> Option<FrameId> {
        if !self.shared.support.can_time_passes() {
            return None;
        }
        let mut state = self.shared.state.lock();
        if state.disposed {
            return None;
        }
        let now = Instant::now();
        let cpu_interval = state
            .last_begin
            .map(|last| now.saturating_duration_since(last));
        state.last_begin = Some(now);

        let next_index = state.next_frame_index;
        let ring = state.slots.len() as u64;
        let mut reclaimed = 0;
        for slot in &mut state.slots {
            if slot.phase == SlotPhase::Recording && slot.frame.index() + ring <= next_index {
                slot.phase = SlotPhase::Free;
                reclaimed += 1;
            }
        }
        state.stats.dropped_frames += reclaimed;

        let Some(slot_index) = free_slot(&state, self.shared.settings.frames_per_readback) else {
            state.stats.dropped_frames += 1;
            return None;
        };
        let frame = FrameId::new(next_index, u32::try_from(slot_index).ok()?);
        state.next_frame_index += 1;
        let slot = state.slots.get_mut(slot_index)?;
        slot.phase = SlotPhase::Recording;
        slot.frame = frame;
        slot.pairs.clear();
        slot.cpu_interval = cpu_interval;
        Some(frame)
    }

    /// Reserves a timestamp pair for one pass the caller is about to begin; put
    /// [`PassTimestamps::render_pass_writes`] into its descriptor. Needs `TIMESTAMP_QUERY`.
    ///
    /// `None` if unsupported, if `frame` is stale or already ended, or if the frame already
    /// has `max_passes_per_frame` passes (then [`GpuTimerStats::skipped_passes`] counts it).
    /// One lock; allocates only the first time a label is seen.
    pub fn pass_timestamps(&self, frame: FrameId, label: &str) -> Option<PassTimestamps> {
        let (query_set, _, begin_index) = self.reserve_pair(frame, label, true)?;
        Some(PassTimestamps {
            query_set,
            begin_index,
        })
    }

    /// Opens a scope by writing its begin stamp on `encoder` now.
    ///
    /// Uses `CommandEncoder::write_timestamp` (`TIMESTAMP_QUERY_INSIDE_ENCODERS`); with only
    /// `TIMESTAMP_QUERY` it records an empty compute pass that stamps its beginning instead.
    /// For egui's own pass, call this from a paint callback's `prepare` on egui's encoder.
    /// `None` in the same cases as [`Self::pass_timestamps`]. One lock plus one command.
    pub fn begin_encoder_scope(
        &self,
        frame: FrameId,
        label: &str,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Option<GpuScope> {
        let (query_set, pair, begin_index) = self.reserve_pair(frame, label, false)?;
        if self.shared.support.can_write_on_encoders() {
            encoder.write_timestamp(&query_set, begin_index);
        } else {
            stamp_with_empty_pass(encoder, &query_set, Some(begin_index), None);
        }
        Some(GpuScope {
            frame,
            query_set,
            pair,
            begin_index,
        })
    }

    /// Opens a scope with a stamp written inside a render pass (from a paint callback's
    /// `paint`), to time part of a pass: one layer of egui's, for instance. Close it with
    /// [`Self::end_scope_in_render_pass`] in the same pass. Needs
    /// `TIMESTAMP_QUERY_INSIDE_PASSES`; `None` without it and in the cases of
    /// [`Self::pass_timestamps`]. One lock.
    pub fn begin_scope_in_render_pass(
        &self,
        frame: FrameId,
        label: &str,
        render_pass: &mut wgpu::RenderPass<'_>,
    ) -> Option<GpuScope> {
        if !self.shared.support.can_write_inside_passes() {
            return None;
        }
        let (query_set, pair, begin_index) = self.reserve_pair(frame, label, false)?;
        render_pass.write_timestamp(&query_set, begin_index);
        Some(GpuScope {
            frame,
            query_set,
            pair,
            begin_index,
        })
    }

    /// Closes `scope` with a stamp written inside a render pass (egui's: from a paint callback's
    /// `paint` on the top layer). Needs `TIMESTAMP_QUERY_INSIDE_PASSES`.
    ///
    /// Returns whether the stamp was written: `false` without the feature or when the scope's
    /// frame is no longer recording (the scope is then rejected as unfinished). One lock.
    pub fn end_scope_in_render_pass(
        &self,
        scope: &GpuScope,
        render_pass: &mut wgpu::RenderPass<'_>,
    ) -> bool {
        if !self.shared.support.can_write_inside_passes() || !self.close_pair(scope) {
            return false;
        }
        render_pass.write_timestamp(&scope.query_set, scope.begin_index + 1);
        true
    }

    /// Closes `scope` with a stamp written on `encoder` (or, with only `TIMESTAMP_QUERY`, an
    /// empty compute pass stamping its end). Returns whether the stamp was written. One lock.
    pub fn end_encoder_scope(&self, scope: &GpuScope, encoder: &mut wgpu::CommandEncoder) -> bool {
        if !self.close_pair(scope) {
            return false;
        }
        let index = scope.begin_index + 1;
        if self.shared.support.can_write_on_encoders() {
            encoder.write_timestamp(&scope.query_set, index);
        } else {
            stamp_with_empty_pass(encoder, &scope.query_set, None, Some(index));
        }
        true
    }

    /// Ends the frame: it takes no more passes. `encoder` must be submitted after every
    /// command buffer holding the stamps of this frame and of the ended frames of its group
    /// (the same one is fine, or a later frame's, e.g. the next egui `prepare`), and after the
    /// encoders of earlier `resolve_frame` calls: the group's resolve may be recorded on it.
    ///
    /// When this completes the frame's readback group (every slot of it ended; see
    /// [`GpuTimerSettings::frames_per_readback`], default 1: every frame), records the group's
    /// readback on `encoder`: one resolve of the group's queries, one copy and a
    /// map-on-submit. Otherwise it records nothing, and the frame waits for the rest of its
    /// group or for [`Self::flush`]. (One resolve a group, not one a frame: wgpu 30 gives a
    /// resolve of stamps written on an earlier encoder a command buffer of its own at submit;
    /// in groups of 4, egui-hud's timed frames on lavapipe allocate 6 fewer a frame.)
    ///
    /// Idempotent: returns `true` only the first time for a frame with passes; a second call, a
    /// stale id or a frame without passes (its slot is freed at once) records nothing. If the
    /// encoder carrying a group's readback is dropped unsubmitted, the group's frames are
    /// counted as dropped. One lock, and three commands for a readback.
    pub fn resolve_frame(&self, frame: FrameId, encoder: &mut wgpu::CommandEncoder) -> bool {
        let mut state = self.shared.state.lock();
        if state.disposed {
            return false;
        }
        let per_group = self.shared.settings.frames_per_readback;
        let group = frame.slot() / per_group;
        let Some(slot) = state.slots.get_mut(frame.slot()) else {
            return false;
        };
        if !slot.holds(frame) || slot.phase != SlotPhase::Recording {
            return false;
        }
        if slot.pairs.is_empty() {
            slot.phase = SlotPhase::Free;
            return false;
        }
        slot.phase = SlotPhase::Ended;
        let full = group_slots(&state.slots, group, per_group)
            .iter()
            .all(|s| s.phase == SlotPhase::Ended);
        if full {
            self.record_readback(&mut state, group, encoder);
        }
        true
    }

    /// Records, on `encoder`, the resolve, copy and map of every readback group that holds
    /// ended frames but is not complete (see [`GpuTimerSettings::frames_per_readback`]), so that
    /// their results come without waiting for more frames: call it when the app stops drawing
    /// timed frames (an idle frame, the last frame), on an encoder submitted after those of
    /// the frames' stamps. A group with a frame still recording is left to fill.
    ///
    /// Returns whether anything was recorded; with one frame per readback there is never
    /// anything to flush. One lock; no allocation.
    pub fn flush(&self, encoder: &mut wgpu::CommandEncoder) -> bool {
        let per_group = self.shared.settings.frames_per_readback;
        let mut state = self.shared.state.lock();
        if state.disposed {
            return false;
        }
        let mut flushed = false;
        for group in 0..state.groups.len() {
            let slots = group_slots(&state.slots, group, per_group);
            let waiting = state
                .groups
                .get(group)
                .is_some_and(|g| holds_ended_frames(g, slots))
                && slots.iter().all(|s| s.phase != SlotPhase::Recording);
            if waiting {
                self.record_readback(&mut state, group, encoder);
                flushed = true;
            }
        }
        flushed
    }

    /// Whether a readback group holds ended frames that are not read back yet: they wait for
    /// the rest of their group or for [`Self::flush`]. After a [`Self::resolve_frame`] that
    /// completed its group, `false` (the group's readback is recorded). One lock; no
    /// allocation.
    pub fn has_waiting_frames(&self) -> bool {
        let per_group = self.shared.settings.frames_per_readback;
        let state = self.shared.state.lock();
        state
            .groups
            .iter()
            .zip(state.slots.chunks_exact(per_group))
            .any(|(group, slots)| holds_ended_frames(group, slots))
    }

    /// Records `group`'s readback on `encoder`: one resolve of the group's queries up to its
    /// last ended frame's last stamp (each slot's results land in its region), one copy of
    /// the group and its map, and marks the group as mapping. The commands
    /// are recorded with the timer's lock held: wgpu runs no callback of the timer's while
    /// recording (the map's runs at a later poll and takes no lock of the timer's). An
    /// uncaptured-error handler that wgpu calls while recording (an encoder already finished)
    /// must not call back into the timer.
    fn record_readback(
        &self,
        state: &mut TimerState,
        group: usize,
        encoder: &mut wgpu::CommandEncoder,
    ) {
        let per_group = self.shared.settings.frames_per_readback;
        let region_bytes = self.shared.region_bytes;
        let TimerState {
            slots,
            groups,
            stats,
            ..
        } = state;
        let Some(readback) = groups.get_mut(group) else {
            debug_assert!(false, "group {group} is one of the timer's");
            return;
        };
        debug_assert!(!readback.mapping, "a group is mapped once per fill");
        let group_slots = group_slots(slots, group, per_group);
        // One resolve up to the last ended frame's last stamp: the queries between frames
        // (a frame's unused pairs, a free slot's) are resolved too and never read.
        let resolved_queries = group_slots
            .iter()
            .filter(|slot| slot.phase == SlotPhase::Ended)
            .map(|slot| slot.first_query + u32::try_from(slot.pairs.len() * 2).unwrap_or(0))
            .max();
        let Some(resolved_queries) = resolved_queries else {
            debug_assert!(false, "a group is read back with at least one ended frame");
            return;
        };
        encoder.resolve_query_set(
            &readback.query_set,
            0..resolved_queries,
            &readback.resolve_buffer,
            0,
        );
        let bytes = region_bytes * per_group as u64;
        encoder.copy_buffer_to_buffer(
            &readback.resolve_buffer,
            0,
            &readback.readback_buffer,
            0,
            bytes,
        );
        encoder.map_buffer_on_submit(
            &readback.readback_buffer,
            wgpu::MapMode::Read,
            0..bytes,
            readback.signal.arm(),
        );
        readback.mapping = true;
        stats.readbacks += 1;
    }

    /// Delivers every frame whose readback has arrived, oldest first, to `on_frame`; returns how
    /// many. Never blocks.
    ///
    /// Polls the device without waiting first (unless `settings.poll_device` is off), so results
    /// also arrive in an idle app. Each pass is validated ([`TimestampPair::validate`] with the
    /// queue's timestamp period, read once in [`Self::new`]); rejected ones are counted, not
    /// delivered. `on_frame` runs with no lock held and may use the timer (a nested
    /// `poll_results` returns 0). Allocates nothing; when no readback has settled since results
    /// were last collected (most frames), two atomic loads (after the device poll, when
    /// `poll_device` is on); else two locks plus a copy of 16 bytes per pass.
    pub fn poll_results(&self, mut on_frame: impl FnMut(&GpuFrameResult)) -> usize {
        if !self.shared.support.can_time_passes() {
            return 0;
        }
        if self.shared.settings.poll_device
            && let Err(error) = self.shared.device.poll(wgpu::PollType::Poll)
        {
            log::debug!("gpu-timing: device poll failed: {error}");
        }
        // Read before collecting: a request that settles after this read is counted above it,
        // so the next call collects it.
        let settled = self.shared.settled.load(Ordering::Acquire);
        if settled == self.shared.settled_collected.load(Ordering::Relaxed) {
            return 0;
        }
        let Some(mut delivery) = self.shared.delivery.try_lock() else {
            return 0;
        };
        let ready = {
            let mut state = self.shared.state.lock();
            if state.disposed {
                return 0;
            }
            let ready = self.collect_ready(&mut state, &mut delivery);
            self.shared
                .settled_collected
                .store(settled, Ordering::Relaxed);
            ready
        };
        let Some(ready_frames) = delivery.get_mut(..ready) else {
            return 0;
        };
        ready_frames.sort_unstable_by_key(|r| r.frame_id.index());
        for frame in ready_frames.iter() {
            on_frame(frame);
        }
        ready
    }

    /// Like [`Self::poll_results`] but returns owned results (allocates them).
    pub fn take_results(&self) -> Vec<GpuFrameResult> {
        let mut results = Vec::new();
        self.poll_results(|r| results.push(r.clone()));
        results
    }

    /// Whether an ended frame's results are still on their way; while this is true an idle app
    /// should repaint (or call [`Self::poll_results`]) soon. Frames still recording are not
    /// counted: they wait for the caller's [`Self::resolve_frame`]. One lock.
    pub fn has_pending(&self) -> bool {
        self.shared
            .state
            .lock()
            .slots
            .iter()
            .any(|s| s.phase == SlotPhase::Ended)
    }

    /// Slots not free (recording or ended); at `settings.frame_slots` the next frame is
    /// dropped. One lock.
    pub fn frames_in_flight(&self) -> usize {
        self.shared
            .state
            .lock()
            .slots
            .iter()
            .filter(|s| s.phase != SlotPhase::Free)
            .count()
    }

    /// Measures how the GPU clock maps to [`Instant`]: waits for the queue to drain, then brackets
    /// `settings.calibration_tries` tiny timestamp-only submissions with CPU clock reads and keeps
    /// the tightest.
    ///
    /// **Blocks** for several GPU round trips (≈0.1–2 ms each): call it at startup or every few
    /// seconds ([`Self::recalibrate_if_stale`]), never every frame.
    ///
    /// # Errors
    /// [`GpuTimingError::CalibrationUnsupported`] without `TIMESTAMP_QUERY`,
    /// [`GpuTimingError::Disposed`], or a poll/map failure, or
    /// [`GpuTimingError::NoUsableSample`] when the GPU only returned zeros.
    pub fn calibrate(&self) -> Result<ClockCalibration, GpuTimingError> {
        if !self.shared.support.can_time_passes() {
            return Err(GpuTimingError::CalibrationUnsupported);
        }
        if self.shared.state.lock().disposed {
            return Err(GpuTimingError::Disposed);
        }
        // The probe is taken out so the blocking round trips run without the lock: readers of
        // `calibration()` and `dispose()` never wait on the GPU.
        let taken = self.shared.calibration.lock().probe.take();
        let probe = taken.unwrap_or_else(|| CalibrationProbe::new(&self.shared.device));
        let result = probe.calibrate(
            &self.shared.device,
            &self.shared.queue,
            self.shared.support,
            self.shared.settings.calibration_tries,
        );
        let mut calibration = self.shared.calibration.lock();
        // `dispose` marks the state before it clears the calibration: checked under this lock,
        // a dispose during the round trips is never undone.
        if self.shared.state.lock().disposed {
            return Err(GpuTimingError::Disposed);
        }
        // On an error the probe is dropped, not kept: its readback buffer may still have a map
        // pending, and such a buffer is never reused.
        let fresh = result?;
        calibration.probe = Some(probe);
        calibration.latest = Some(fresh);
        Ok(fresh)
    }

    /// The latest calibration, if any; no GPU work.
    pub fn calibration(&self) -> Option<ClockCalibration> {
        self.shared.calibration.lock().latest
    }

    /// Returns the latest calibration, calibrating again first (blocking, see [`Self::calibrate`])
    /// if there is none or it is older than `settings.recalibration_interval`.
    ///
    /// # Errors
    /// As [`Self::calibrate`].
    pub fn recalibrate_if_stale(&self) -> Result<ClockCalibration, GpuTimingError> {
        match self.calibration() {
            Some(latest) if latest.age() < self.shared.settings.recalibration_interval => {
                Ok(latest)
            }
            _ => self.calibrate(),
        }
    }

    /// Releases the timer's GPU resources and turns every method into a no-op. Idempotent and
    /// safe with maps pending: buffers with a pending map are only dropped (wgpu then cancels the
    /// map), never unmapped. Stamps already recorded in unsubmitted encoders stay valid, because
    /// the query sets are dropped, not destroyed. `Drop` of the last clone does the same.
    pub fn dispose(&self) {
        self.shared.dispose();
        *self.shared.calibration.lock() = CalibrationState::default();
    }

    fn reserve_pair(
        &self,
        frame: FrameId,
        label: &str,
        closed: bool,
    ) -> Option<(wgpu::QuerySet, u32, u32)> {
        let mut state = self.shared.state.lock();
        if state.disposed {
            return None;
        }
        let max_pairs = self.shared.settings.max_passes_per_frame as usize;
        let recording = state
            .slots
            .get(frame.slot())
            .is_some_and(|s| s.holds(frame) && s.phase == SlotPhase::Recording);
        if !recording {
            return None;
        }
        let full = state
            .slots
            .get(frame.slot())
            .is_none_or(|s| s.pairs.len() >= max_pairs);
        if full {
            state.stats.skipped_passes += 1;
            return None;
        }
        let label = intern(&mut state.labels, label);
        let group = frame.slot() / self.shared.settings.frames_per_readback;
        let query_set = state.groups.get(group)?.query_set.clone();
        let slot = state.slots.get_mut(frame.slot())?;
        let pair = u32::try_from(slot.pairs.len()).ok()?;
        slot.pairs.push(PairRecord { label, closed });
        let begin_index = slot.first_query.checked_add(pair * 2)?;
        Some((query_set, pair, begin_index))
    }

    fn close_pair(&self, scope: &GpuScope) -> bool {
        let mut state = self.shared.state.lock();
        if state.disposed {
            return false;
        }
        let Some(slot) = state.slots.get_mut(scope.frame.slot()) else {
            return false;
        };
        if !slot.holds(scope.frame) || slot.phase != SlotPhase::Recording {
            return false;
        }
        slot.pairs.get_mut(scope.pair as usize).is_some_and(|p| {
            p.closed = true;
            true
        })
    }

    /// Moves every read-back group's validated results into `delivery` and frees their slots;
    /// returns how many entries of `delivery` were filled.
    fn collect_ready(&self, state: &mut TimerState, delivery: &mut Vec<GpuFrameResult>) -> usize {
        let per_group = self.shared.settings.frames_per_readback;
        let mut ready = 0;
        let TimerState {
            slots,
            groups,
            stats,
            ..
        } = state;
        let groups_and_slots = groups.iter_mut().zip(slots.chunks_exact_mut(per_group));
        for (group, group_slots) in groups_and_slots.filter(|(group, _)| group.mapping) {
            match group.signal.state() {
                MapState::Pending => continue,
                MapState::Failed | MapState::Abandoned => {
                    group.mapping = false;
                    for (_, slot) in ended(group_slots) {
                        slot.phase = SlotPhase::Free;
                        stats.dropped_frames += 1;
                    }
                    continue;
                }
                MapState::Mapped => {}
            }
            group.mapping = false;
            let bytes = self.shared.region_bytes * per_group as u64;
            match group.readback_buffer.get_mapped_range(0..bytes) {
                Ok(view) => {
                    for (region, slot) in ended(group_slots) {
                        slot.phase = SlotPhase::Free;
                        read_ticks(slot, &view, region as u64 * self.shared.region_bytes);
                        if delivery.len() <= ready {
                            delivery.push(GpuFrameResult::default());
                        }
                        let Some(result) = delivery.get_mut(ready) else {
                            continue;
                        };
                        ready += 1;
                        self.validate_slot(slot, result, stats);
                    }
                }
                Err(error) => {
                    log::warn!("gpu-timing: could not read a mapped readback buffer: {error}");
                    for (_, slot) in ended(group_slots) {
                        slot.phase = SlotPhase::Free;
                        stats.dropped_frames += 1;
                    }
                }
            }
            group.readback_buffer.unmap();
        }
        ready
    }

    /// Fills `result` with `slot`'s passes that pass validation; counts the others.
    fn validate_slot(
        &self,
        slot: &mut FrameSlot,
        result: &mut GpuFrameResult,
        stats: &mut GpuTimerStats,
    ) {
        let settings = &self.shared.settings;
        let period_nanos = self.shared.timestamp_period_nanos;
        result.frame_id = slot.frame;
        result.passes.clear();
        result.rejected_passes = 0;
        let limit_secs = match (settings.max_frame_interval_factor, slot.cpu_interval) {
            (Some(factor), Some(interval)) => settings
                .max_plausible_duration_secs
                .min(factor * interval.as_secs_f64()),
            _ => settings.max_plausible_duration_secs,
        };
        let pairs = slot.pairs.iter().zip(slot.raw_ticks.chunks_exact(2));
        for ((pair, ticks), previous) in pairs.zip(slot.previous_ticks.chunks_exact(2)) {
            let &[begin_ticks, end_ticks] = ticks else {
                continue;
            };
            let repeated = begin_ticks != 0 && ticks == previous;
            // `None` = the scope was never closed; no allocation on either rejection path.
            let verdict = if !pair.closed {
                Err(None)
            } else if repeated {
                Err(Some(TimestampRejection::Repeated))
            } else {
                TimestampPair {
                    begin_ticks,
                    end_ticks,
                }
                .validate(period_nanos, limit_secs)
                .map_err(Some)
            };
            match verdict {
                Ok(duration_secs) => result.passes.push(GpuPassResult {
                    label: Arc::clone(&pair.label),
                    duration_secs,
                    begin_gpu_nanos: ticks_to_gpu_nanos(begin_ticks, period_nanos),
                    end_gpu_nanos: ticks_to_gpu_nanos(end_ticks, period_nanos),
                }),
                Err(reason) => {
                    log::debug!(
                        "gpu-timing: rejected pass {:?} of frame {}: {}",
                        pair.label,
                        slot.frame.index(),
                        reason.map_or_else(
                            || "scope never closed".to_owned(),
                            |rejection| rejection.to_string()
                        ),
                    );
                    result.rejected_passes += 1;
                }
            }
        }
        if let Some(previous) = slot.previous_ticks.get_mut(..slot.raw_ticks.len()) {
            previous.copy_from_slice(&slot.raw_ticks);
        }
        stats.invalid_results += u64::from(result.rejected_passes);
        stats.timed_frames += 1;
    }
}

/// A group's ended slots, with their region's index.
fn ended(slots: &mut [FrameSlot]) -> impl Iterator<Item = (usize, &mut FrameSlot)> {
    slots
        .iter_mut()
        .enumerate()
        .filter(|(_, slot)| slot.phase == SlotPhase::Ended)
}

/// Whether `group` (whose frames are `slots`) holds ended frames whose readback is not
/// recorded yet.
fn holds_ended_frames(group: &ReadbackGroup, slots: &[FrameSlot]) -> bool {
    !group.mapping && slots.iter().any(|s| s.phase == SlotPhase::Ended)
}

/// The slots of readback group `group`.
fn group_slots(slots: &[FrameSlot], group: usize, per_group: usize) -> &[FrameSlot] {
    slots
        .get(group * per_group..(group + 1) * per_group)
        .unwrap_or_default()
}

/// A free slot for a new frame: first in a group that has begun filling, so that groups fill
/// up and are read back whole, else in any group not being read back.
fn free_slot(state: &TimerState, per_group: usize) -> Option<usize> {
    let takes_frames = |group: usize| state.groups.get(group).is_some_and(|g| !g.mapping);
    let groups = state.slots.chunks_exact(per_group).enumerate();
    let mut candidates = groups.filter(|&(group, _)| takes_frames(group));
    let filling = candidates.clone().find_map(|(group, slots)| {
        let begun = slots.iter().any(|s| s.phase != SlotPhase::Free);
        let free = slots.iter().position(|s| s.phase == SlotPhase::Free);
        free.filter(|_| begun)
            .map(|index| group * per_group + index)
    });
    filling.or_else(|| {
        candidates.find_map(|(group, slots)| {
            let free = slots.iter().position(|s| s.phase == SlotPhase::Free);
            free.map(|index| group * per_group + index)
        })
    })
}

impl Shared {
    fn dispose(&self) {
        let mut state = self.state.lock();
        if state.disposed {
            return;
        }
        state.disposed = true;
        for group in &state.groups {
            if group.mapping && group.signal.state() == MapState::Mapped {
                group.readback_buffer.unmap();
            }
        }
        state.slots.clear();
        state.groups.clear();
        state.labels.clear();
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.dispose();
    }
}

/// Copies `slot`'s timestamps from its region (at `offset`) of its group's mapped view into
/// its scratch.
fn read_ticks(slot: &mut FrameSlot, view: &[u8], offset: u64) {
    let bytes = slot.pairs.len() * 2 * wgpu::QUERY_SIZE as usize;
    let start = usize::try_from(offset).unwrap_or(usize::MAX);
    let region = view.get(start..).and_then(|rest| rest.get(..bytes));
    debug_assert!(
        region.is_some(),
        "a slot's region lies inside its group's buffer"
    );
    slot.raw_ticks.clear();
    slot.raw_ticks.extend(
        region
            .unwrap_or_default()
            .chunks_exact(8)
            .map(|b| b.try_into().map_or(0, u64::from_le_bytes)),
    );
}

/// Finds or stores `label` so that per-frame use does not allocate.
fn intern(labels: &mut Vec<Arc<str>>, label: &str) -> Arc<str> {
    if let Some(known) = labels.iter().find(|l| &***l == label) {
        return Arc::clone(known);
    }
    let fresh: Arc<str> = Arc::from(label);
    if labels.len() < MAX_INTERNED_LABELS {
        labels.push(Arc::clone(&fresh));
    }
    fresh
}

/// Stamps via an empty compute pass's `timestamp_writes`, the only stamp available with plain
/// `TIMESTAMP_QUERY`.
fn stamp_with_empty_pass(
    encoder: &mut wgpu::CommandEncoder,
    query_set: &wgpu::QuerySet,
    beginning_of_pass_write_index: Option<u32>,
    end_of_pass_write_index: Option<u32>,
) {
    let _pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("gpu-timing stamp"),
        timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
            query_set,
            beginning_of_pass_write_index,
            end_of_pass_write_index,
        }),
    });
}
