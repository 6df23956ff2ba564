use std::sync::Arc;

use std::time::Duration;

use gpu_timing::{FrameId, GpuScope, GpuTimer, GpuTimerSettings, PassTimestamps, TimestampSupport};
use parking_lot::Mutex;
use profiler_core::Instant;

use crate::gpu::EGUI_PASS_LABEL;
use crate::gpu::calibration_worker::CalibrationWorker;
use profiler_core::record::frame_phases::{FramePhases, PhaseName, PhaseStart};

/// The GPU timer shared through the egui context: it times egui's own render pass (when the
/// device allows) and the passes the app times itself, in the same frames.
///
/// Get it with [`crate::gpu_timer`] after [`crate::install`] (eframe on wgpu) or
/// [`crate::install_wgpu`] (any integration on wgpu). In a paint callback's `prepare`, put
/// [`EguiGpuTimer::pass_timestamps`] into your render pass descriptor; the HUD shows the pass
/// under its label in the `GPU` row.
///
/// egui's pass is bracketed by a begin stamp written on egui's encoder in the HUD's
/// `finish_prepare` (after every callback's `prepare`, so app passes recorded there are not
/// counted twice; work an app records in its own `finish_prepare` on egui's encoder lands in
/// egui's pass) and an end stamp written inside egui's render pass from a callback on the top
/// layer. That needs `TIMESTAMP_QUERY_INSIDE_PASSES`; without it egui's pass has no line (the hover
/// says why).
///
/// Every viewport's frames are timed apart and shown on that viewport's HUD. Only frames the app
/// caused are timed, and only while the HUD is shown on the viewport with something that reads
/// the results (the GPU, LATENCY or SPIKES row, the details window, a benchmark run; see
/// [`crate::FpsMonitor::gpu_sampling`]): otherwise [`EguiGpuTimer::pass_timestamps`] returns
/// `None` and costs one lock.
#[derive(Clone)]
pub struct EguiGpuTimer {
    timer: GpuTimer,
    /// For a non-blocking poll while results are on their way (idle apps submit nothing).
    device: wgpu::Device,
    stamps: Arc<Mutex<Stamps>>,
    /// Calibrates the clocks off the UI thread; `None` without timestamp queries or where no
    /// thread could be started.
    calibrator: Option<Arc<CalibrationWorker>>,
}

/// A calibration whose bracket is wider than twice this is not used: GPU marks would be off by
/// more than a typical stage.
const MAX_CALIBRATION_UNCERTAINTY: Duration = Duration::from_millis(1);

/// Timed frames read back together (one resolve, one copy and one map for the group: see
/// [`GpuTimerSettings::frames_per_readback`]): an app that times every frame pays the map
/// round trip once in eight frames (on lavapipe, in `benches/hud_render_cost.rs`, eight read
/// 2.7 µs a frame lower in the HUD's own measure than four, and two allocations fewer, the
/// driver's). Its results come up to seven frames later than a frame read back alone (two to
/// eleven frames after the frame), still within the frames a frame's record waits for its GPU
/// marks. A group left part-filled is read back once it has waited as long
/// ([`FLUSH_AFTER_FRAMES`]), and at once in a frame the app did not cause, so an idle app's last
/// frames are read back at the HUD's next frame.
const FRAMES_PER_READBACK: usize = 8;

/// The frames of its viewport after the one that resolved a part-filled group's first frame
/// before a frame flushes the group, timed or not: its results then come within the same two
/// to eleven frames as a full group's first frame (one frame later where a frame of the group
/// still records then: an app pass's, begun in the frame's `prepare`). Where the app draws
/// faster than [`crate::GpuSampling`] times (a 240 Hz display: every other frame timed), the
/// frames not timed between timed ones no longer read each timed frame back alone: on an H100
/// with 4 ms between frames, `benches/hud_render_cost.rs`' full HUD had read 22.5–25.7 µs of
/// its own measure at 48 % of frames timed, more than timing every frame (22.0–22.7). With
/// several viewports a frame not timed of another viewport flushes at once, as every frame not
/// timed did before (their frames share the groups and resolve each other's).
const FLUSH_AFTER_FRAMES: u64 = FRAMES_PER_READBACK as u64 - 1;

// Two groups in flight must fit the timer's ring: checked here, not at `GpuTimer::new`, where
// a bad setting would turn GPU timing off at run time.
const _: () = assert!(
    2 * FRAMES_PER_READBACK <= GpuTimerSettings::MAX_FRAME_SLOTS,
    "two readback groups exceed the GPU timer's frame slots"
);

/// Most frames whose owner is remembered: the timer's ring holds fewer in flight (two groups),
/// so older entries belong to frames it dropped.
const MAX_OWNED_FRAMES: usize = 3 * FRAMES_PER_READBACK;

/// What the paint callbacks of every viewport share.
#[derive(Default)]
struct Stamps {
    viewports: egui::ViewportIdMap<FrameStamps>,
    /// The viewport egui-wgpu is painting now: set by the first callback of its frame (the
    /// begin stamp's `prepare`), so that app passes timed from `prepare` go to its frame.
    painting: Option<egui::ViewportId>,
    /// Frames whose stamps are all recorded and that the next egui encoder resolves (of any
    /// viewport: it is submitted after them).
    to_resolve: Vec<FrameId>,
    /// Frames were resolved since the last flush: their readback group may be waiting for
    /// more frames (see [`FRAMES_PER_READBACK`]) until a frame flushes it (see
    /// [`Stamps::flush_due`]).
    unflushed: Option<Unflushed>,
    owners: FrameOwners,
    /// The app has asked for timestamps of a pass of its own ([`EguiGpuTimer::pass_timestamps`]):
    /// from then on a timed frame gets its begin stamp as a callback of its own, first in paint
    /// order, so that the app's `prepare` knows which viewport is painted. Until then the end
    /// stamp does that work (one callback fewer a timed frame).
    app_times_passes: bool,
    /// Each viewport's paint callbacks, made once and added every frame by `Arc` clone: a
    /// frame allocates none. They reach the stamps through a weak link (no cycle).
    callbacks: egui::ViewportIdMap<KeptCallbacks>,
}

/// The first frame resolved since the last flush: which viewport's frame resolved it, and that
/// frame's sequence number.
#[derive(Clone, Copy)]
struct Unflushed {
    viewport: egui::ViewportId,
    resolved_in: u64,
}

impl Stamps {
    /// Whether a frame of any viewport is being recorded or waits for the next egui encoder to
    /// resolve it: its results are still to be asked for.
    fn has_recorded_frames(&self) -> bool {
        self.unflushed.is_some() || self.has_frames_to_resolve()
    }

    /// Whether a frame of any viewport is being recorded or waits for the next egui encoder to
    /// resolve it.
    fn has_frames_to_resolve(&self) -> bool {
        !self.to_resolve.is_empty() || self.viewports.values().any(|frame| frame.open.is_some())
    }

    /// Whether frame `sequence` of `viewport` flushes the frames resolved since the last flush
    /// (`timed`: whether the frame is timed, or may be, before that is decided). Any frame
    /// once they have waited [`FLUSH_AFTER_FRAMES`] frames of the viewport that resolved the
    /// first of them; at once a frame the app did not cause (`apps` false: the app may have
    /// stopped drawing), and a frame not timed of another viewport (as every frame not timed
    /// did before the wait: several viewports' frames share the groups and resolve each
    /// other's). Set also when nothing waits yet: a frame that resolves the last frame of an
    /// app that stopped drawing flushes it in the same encoder.
    fn flush_due(
        &self,
        viewport: egui::ViewportId,
        (sequence, apps): (u64, bool),
        timed: bool,
    ) -> bool {
        !apps
            || self.unflushed.is_some_and(|unflushed| {
                if unflushed.viewport == viewport {
                    sequence >= unflushed.resolved_in.saturating_add(FLUSH_AFTER_FRAMES)
                } else {
                    !timed
                }
            })
    }

    /// Whether a frame that is not timed has work for the timer's callbacks: frames to
    /// resolve, or resolved ones to flush (`flush`, from [`Self::flush_due`]).
    fn untimed_frame_has_work(&self, flush: bool) -> bool {
        self.has_frames_to_resolve() || (flush && self.unflushed.is_some())
    }

    /// Notes that frame `sequence` of `viewport` ended a frame into a readback group of
    /// `timer`: the first frame resolved since the last flush starts the wait, and a group
    /// completed by the resolve (read back with it, so nothing waits: see
    /// [`GpuTimer::has_waiting_frames`]) ends it. One lock of the timer.
    fn note_resolved(&mut self, timer: &GpuTimer, viewport: egui::ViewportId, sequence: u64) {
        if !timer.has_waiting_frames() {
            self.unflushed = None;
        } else if self.unflushed.is_none() {
            self.unflushed = Some(Unflushed {
                viewport,
                resolved_in: sequence,
            });
        }
    }
}

/// One viewport's four paint callbacks, ready to add.
struct KeptCallbacks {
    begin: egui::PaintCallback,
    end: egui::PaintCallback,
    hud_begin: egui::PaintCallback,
    hud_end: egui::PaintCallback,
}

impl KeptCallbacks {
    fn new(link: &StampLink, viewport: egui::ViewportId) -> Self {
        let callback = |stamp| egui_wgpu::Callback::new_paint_callback(egui::Rect::NOTHING, stamp);
        Self {
            begin: callback(Stamp {
                link: link.clone(),
                viewport,
                kind: StampKind::Begin,
            }),
            end: callback(Stamp {
                link: link.clone(),
                viewport,
                kind: StampKind::End,
            }),
            hud_begin: callback(Stamp {
                link: link.clone(),
                viewport,
                kind: StampKind::HudBegin,
            }),
            hud_end: callback(Stamp {
                link: link.clone(),
                viewport,
                kind: StampKind::HudEnd,
            }),
        }
    }
}

/// What a paint callback reaches: the timer, and the stamps without keeping them alive.
#[derive(Clone)]
struct StampLink {
    timer: GpuTimer,
    stamps: std::sync::Weak<Mutex<Stamps>>,
}

/// The viewport each frame in flight was recorded for, oldest first.
#[derive(Default)]
struct FrameOwners(Vec<(FrameId, egui::ViewportId)>);

impl FrameOwners {
    /// Begins a frame on `timer` for `viewport`.
    fn begin_frame(&mut self, timer: &GpuTimer, viewport: egui::ViewportId) -> Option<FrameId> {
        let frame = timer.begin_frame()?;
        if self.0.len() == MAX_OWNED_FRAMES {
            self.0.remove(0); // a frame the timer dropped: its result never comes
        }
        self.0.push((frame, viewport));
        Some(frame)
    }

    /// The viewport `frame` was recorded for, forgotten now that its result is in.
    fn take(&mut self, frame: FrameId) -> Option<egui::ViewportId> {
        let index = self.0.iter().position(|&(id, _)| id == frame)?;
        Some(self.0.remove(index).1)
    }

    fn any_of(&self, viewport: egui::ViewportId) -> bool {
        self.0.iter().any(|&(_, owner)| owner == viewport)
    }
}

/// One viewport's stamps in its frame being painted.
#[derive(Default)]
struct FrameStamps {
    /// Set by the HUD for a frame it times, cleared when the frame's stamps are done: app
    /// passes are timed only in such frames (never while hidden, never in the HUD's own).
    armed: bool,
    /// The frame being recorded (opened by the first caller this egui frame).
    open: Option<FrameId>,
    /// egui's pass scope in the open frame.
    egui_scope: Option<GpuScope>,
    /// The HUD's own drawing in the open frame, inside egui's pass.
    hud_scope: Option<GpuScope>,
    /// The pass (`cumulative_pass_nr`) whose frame start was marked.
    begin_added_in_pass: Option<u64>,
    /// The frame's begin work (which viewport is painted, the render start, resolving earlier
    /// frames, opening egui's scope) is done by the begin callback; else by the end stamp's
    /// `prepare` and `finish_prepare`, which egui-wgpu calls at the same points for a frame
    /// without app callbacks.
    begin_callback: bool,
    /// When the renderer began the frame being painted (the begin stamp's `prepare`), and the
    /// HUD's sequence number of that frame.
    render_start: Option<(u64, Instant)>,
    /// The latest timed frame painted, with its CPU marks, until the HUD takes it.
    painted: Option<PaintedFrame>,
    /// The HUD's sequence number of the frame whose begin stamp was added last.
    sequence: u64,
    /// Whether that frame flushes the frames resolved since the last flush
    /// ([`Stamps::flush_due`], decided when the frame was marked, and again when stamped).
    flush: bool,
}

/// A timed frame's CPU marks around egui's render pass (the latency path's render start and
/// encode end).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PaintedFrame {
    /// The HUD's sequence number of the frame.
    pub(crate) sequence: u64,
    pub(crate) frame: FrameId,
    pub(crate) render_start: Instant,
    pub(crate) encode_end: Instant,
}

/// One frame's GPU results, as the HUD takes them.
pub(crate) struct TimedGpuFrame {
    /// The viewport the frame was recorded for.
    pub(crate) viewport: egui::ViewportId,
    pub(crate) frame: FrameId,
    /// The app's passes (egui's without the HUD's own drawing), names shared with the timer.
    pub(crate) named: FramePhases,
    /// The HUD's own drawing.
    pub(crate) hud_cost: Option<Duration>,
    /// egui's pass on the CPU clock, placed through the latest calibration.
    pub(crate) egui_pass: Option<(Instant, Instant)>,
}

/// The label of the HUD's own drawing in a frame's results: nested in egui's pass, taken out of
/// it and out of the app's GPU total, shown apart in the hover.
pub(crate) const HUD_PASS_LABEL: &str = "egui-hud";

impl EguiGpuTimer {
    /// Creates the timer for `device`; [`crate::install_wgpu`] makes one and shares it
    /// through the context. The device must have been created with the timestamp features
    /// (`gpu_timing::with_timestamp_features`, or `request_gpu_timing_features` for eframe);
    /// without them the timer does nothing, the reason is logged once and egui's pass has no
    /// line.
    ///
    /// # Errors
    /// A [`gpu_timing::GpuTimingError`] when the timer's buffers cannot be created.
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Self, gpu_timing::GpuTimingError> {
        // No device poll per frame: egui submits every frame and wgpu maps finished buffers
        // inside `submit`; an idle app gets a repaint while results are pending instead.
        let settings = GpuTimerSettings {
            poll_device: false,
            // Two groups: one fills while the other is read back.
            frame_slots: 2 * FRAMES_PER_READBACK,
            frames_per_readback: FRAMES_PER_READBACK,
            ..GpuTimerSettings::default()
        };
        let timer = GpuTimer::new(device, queue, settings)?;
        if timer.support() != TimestampSupport::Full {
            log::info!("egui-hud: GPU timing: {}", timer.support().reason());
        }
        // Started here, with the app, not at the refresh that first needs a calibration.
        let calibrator = timer
            .support()
            .can_time_passes()
            .then(|| CalibrationWorker::start(timer.clone()))
            .and_then(|started| {
                started
                    .inspect_err(|error| {
                        log::info!(
                            "egui-hud: cannot calibrate the GPU clock, GPU marks stay off the \
                             CPU timeline (no thread: {error})"
                        );
                    })
                    .ok()
            })
            .map(Arc::new);
        Ok(Self {
            timer,
            device: device.clone(),
            stamps: Arc::new(Mutex::new(Stamps::default())),
            calibrator,
        })
    }

    /// The underlying timer: statistics (dropped frames, skipped passes, invalid results),
    /// support, calibration. Free.
    pub fn timer(&self) -> &GpuTimer {
        &self.timer
    }

    /// Timestamp writes for one app pass in the egui frame being painted, labelled `label`.
    /// Call it from a paint callback's `prepare` and put
    /// [`PassTimestamps::render_pass_writes`] into the pass descriptor; the pass is shown on the
    /// HUD of the viewport being painted. `None` when the device cannot time passes, the frame
    /// is not timed, or the frame's pool is full (counted), and at the app's first call: until
    /// then the HUD saves a paint callback a timed frame, which app passes need. One lock.
    pub fn pass_timestamps(&self, label: &str) -> Option<PassTimestamps> {
        let frame = self.open_frame()?;
        self.timer.pass_timestamps(frame, label)
    }

    fn open_frame(&self) -> Option<FrameId> {
        let mut guard = self.stamps.lock();
        let stamps = &mut *guard;
        // Asked once: the next timed frames get the begin callback this pass needed (a pass
        // timed before it was added is not: only the app's first one).
        stamps.app_times_passes = true;
        let viewport = stamps.painting?;
        let frame = stamps.viewports.get_mut(&viewport)?;
        if !frame.armed {
            return None;
        }
        if frame.open.is_none() {
            frame.open = stamps.owners.begin_frame(&self.timer, viewport);
        }
        frame.open
    }

    /// GPU passes that cannot be timed on this device: egui's pass without
    /// `TIMESTAMP_QUERY_INSIDE_PASSES`.
    pub(crate) fn unavailable_passes(&self) -> &'static [&'static str] {
        if self.timer.support().can_write_inside_passes() {
            &[]
        } else {
            &[EGUI_PASS_LABEL]
        }
    }

    /// Marks the start of the current viewport's frame and, where the frame needs one, adds
    /// its first paint callback, at the start of its pass, before the app paints: egui-wgpu
    /// calls `prepare` in paint order, so its `prepare` tells app passes timed from theirs
    /// which viewport is being painted, and its `finish_prepare` resolves the frames timed
    /// before. Only for a frame that `may_be_timed` or has earlier frames to resolve, and only
    /// where the end stamp cannot do that work: after the app has timed a pass of its own, on
    /// a device without stamps inside passes, or for a frame that will not be timed. A
    /// callback costs egui's painter, egui-wgpu's calls and a render-state reset (≤ 1–2 µs of
    /// CPU on the H200, within that host's noise). Nothing without timestamp queries.
    /// `sequence`: the HUD's number for the frame, which its paint marks carry; `apps`: the app
    /// caused the frame (see [`Stamps::flush_due`]).
    pub(crate) fn mark_frame_start(
        &self,
        ctx: &egui::Context,
        (sequence, apps): (u64, bool),
        may_be_timed: bool,
    ) {
        if !self.timer.support().can_time_passes() {
            return; // a device without timestamp queries: no callbacks to pay for
        }
        let viewport = ctx.viewport_id();
        let begin = {
            let mut stamps = self.stamps.lock();
            let flush = stamps.flush_due(viewport, (sequence, apps), may_be_timed);
            if !may_be_timed && !stamps.untimed_frame_has_work(flush) {
                return;
            }
            let callback = !may_be_timed
                || stamps.app_times_passes
                || !self.timer.support().can_write_inside_passes();
            let frame = stamps.viewports.entry(viewport).or_default();
            frame.begin_added_in_pass = Some(ctx.cumulative_pass_nr());
            frame.sequence = sequence;
            frame.flush = flush;
            frame.begin_callback = callback;
            if !callback {
                return; // the end stamp begins the frame, or `stamp_frame` adds the callback
            }
            self.kept(&mut stamps, viewport, |kept| &kept.begin)
        };
        add_covering(ctx, egui::LayerId::background(), begin);
    }

    /// Adds the begin callback to the current viewport's frame now, for a frame marked without
    /// one that turned out not to be timed but has earlier frames to resolve (its `prepare`
    /// then runs after the app's: no app pass is timed in an untimed frame anyway).
    fn add_begin_callback(&self, ctx: &egui::Context, viewport: egui::ViewportId) {
        let begin = {
            let mut stamps = self.stamps.lock();
            if let Some(frame) = stamps.viewports.get_mut(&viewport) {
                frame.begin_callback = true;
            }
            self.kept(&mut stamps, viewport, |kept| &kept.begin)
        };
        add_covering(ctx, egui::LayerId::background(), begin);
    }

    /// A kept callback of `viewport` (made on first use), ready to add.
    fn kept(
        &self,
        stamps: &mut Stamps,
        viewport: egui::ViewportId,
        which: impl FnOnce(&KeptCallbacks) -> &egui::PaintCallback,
    ) -> egui::PaintCallback {
        let kept = stamps.callbacks.entry(viewport).or_insert_with(|| {
            // Made once per viewport: the link is not cloned per frame.
            let link = StampLink {
                timer: self.timer.clone(),
                stamps: Arc::downgrade(&self.stamps),
            };
            KeptCallbacks::new(&link, viewport)
        });
        which(kept).clone()
    }

    /// Arms the current viewport's frame for timing and adds the stamp that closes egui's
    /// pass. `timed` is false for frames the sampling leaves out and for those only the HUD's
    /// tick caused (`apps` false): they still resolve and flush earlier frames. An integration
    /// that runs passes without `on_begin_pass` gets the begin stamp here (app passes painted
    /// before it are then not timed).
    pub(crate) fn stamp_frame(
        &self,
        ctx: &egui::Context,
        timed: bool,
        (sequence, apps): (u64, bool),
    ) {
        if !self.timer.support().can_time_passes() {
            return;
        }
        let viewport = ctx.viewport_id();
        let (begin_added, needs_begin_callback) = {
            let mut stamps = self.stamps.lock();
            let flush = stamps.flush_due(viewport, (sequence, apps), timed);
            let has_work = stamps.untimed_frame_has_work(flush);
            let frame = stamps.viewports.entry(viewport).or_default();
            frame.armed = timed;
            let begin_added = frame.begin_added_in_pass == Some(ctx.cumulative_pass_nr());
            if begin_added {
                frame.flush = flush;
            }
            // Foreseen timed (no callback: the end stamp would begin it), decided untimed:
            // the frames recorded before may still need resolving or flushing.
            let untimed_after_all = begin_added && !timed && !frame.begin_callback && has_work;
            (begin_added, untimed_after_all)
        };
        if !begin_added {
            self.mark_frame_start(ctx, (sequence, apps), timed);
        } else if needs_begin_callback {
            self.add_begin_callback(ctx, viewport);
        }
        if timed && self.timer.support().can_write_inside_passes() {
            let end = self.kept(&mut self.stamps.lock(), viewport, |kept| &kept.end);
            add_covering(ctx, egui::LayerId::debug(), end);
        }
    }

    /// Brackets the HUD's own drawing (its layer, `layer`) with stamps inside egui's pass, in a
    /// frame the timer times: call it before the HUD draws, and [`HudLayerEnd::add`] after.
    /// Without in-pass timestamps, or in a frame not timed, `None`, and nothing is added.
    pub(crate) fn bracket_hud_layer(
        &self,
        ctx: &egui::Context,
        layer: egui::LayerId,
    ) -> Option<HudLayerEnd> {
        let viewport = ctx.viewport_id();
        let (begin, end) = {
            let mut stamps = self.stamps.lock();
            let armed = stamps
                .viewports
                .get(&viewport)
                .is_some_and(|frame| frame.armed);
            if !armed || !self.timer.support().can_write_inside_passes() {
                return None;
            }
            (
                self.kept(&mut stamps, viewport, |kept| &kept.hud_begin),
                self.kept(&mut stamps, viewport, |kept| &kept.hud_end),
            )
        };
        add_covering(ctx, layer, begin);
        Some(HudLayerEnd { end, layer })
    }

    /// Hands every GPU result that has arrived to `record` with the viewport it was recorded
    /// for, as labelled durations, with the HUD's own drawing taken out of egui's pass and
    /// handed apart; a frame whose passes were all rejected is skipped. Never blocks.
    ///
    /// `poll_device`: also poll the device (without waiting) first. Only a frame the HUD asked
    /// for to collect results needs it: in an app that draws, egui's submit every frame lets
    /// wgpu map finished buffers, and a poll per frame cost ~100 µs on lavapipe.
    pub(crate) fn drain(&self, poll_device: bool, mut record: impl FnMut(TimedGpuFrame)) {
        if poll_device
            && self.timer.has_pending()
            && let Err(error) = self.device.poll(wgpu::PollType::Poll)
        {
            log::debug!("egui-hud: device poll failed: {error}");
        }
        // Read with the first result: most frames none has arrived (the timer then answers
        // from one atomic), and the calibration is a lock.
        let mut calibration = None;
        self.timer.poll_results(|result| {
            let calibration = *calibration.get_or_insert_with(|| self.trusted_calibration());
            let owner = self.stamps.lock().owners.take(result.frame_id);
            debug_assert!(owner.is_some(), "every timed frame has a viewport");
            let Some(owner) = owner.filter(|_| !result.passes.is_empty()) else {
                return;
            };
            let hud = result
                .passes
                .iter()
                .find(|pass| &*pass.label == HUD_PASS_LABEL)
                .and_then(|pass| Duration::try_from_secs_f64(pass.duration_secs).ok());
            let named = named_passes(result, hud, calibration);
            let egui_pass = result.pass(EGUI_PASS_LABEL).and_then(|pass| {
                let calibration = calibration?;
                Some((
                    calibration.gpu_to_cpu(pass.begin_gpu_nanos)?,
                    calibration.gpu_to_cpu(pass.end_gpu_nanos)?,
                ))
            });
            record(TimedGpuFrame {
                viewport: owner,
                frame: result.frame_id,
                named,
                hud_cost: hud,
                egui_pass,
            });
        });
    }

    /// The latest calibration, if it can be trusted to place GPU times on the CPU clock: its
    /// bracket no wider than 2 ms (a busy queue or a preempted thread widens it).
    pub(crate) fn trusted_calibration(&self) -> Option<gpu_timing::ClockCalibration> {
        self.timer
            .calibration()
            .filter(|c| c.uncertainty() <= MAX_CALIBRATION_UNCERTAINTY)
    }

    /// The latest timed frame `viewport` painted since the last call, with its CPU marks.
    pub(crate) fn take_painted(&self, viewport: egui::ViewportId) -> Option<PaintedFrame> {
        self.stamps
            .lock()
            .viewports
            .get_mut(&viewport)
            .and_then(|frame| frame.painted.take())
    }

    /// Keeps a calibration of the GPU clock against the CPU's fresh (see
    /// [`GpuTimer::recalibrate_if_stale`]: every 10 s), so GPU times can be placed on the CPU
    /// timeline. The calibration blocks for a few GPU round trips, so it runs on the timer's
    /// [`CalibrationWorker`] thread, one at a time. Costs a lock when fresh; when not, an atomic
    /// swap and, unless a calibration is already under way, an `unpark`. Called at the HUD's
    /// refreshes (twice a second, not every frame), only while the timer is timing (a frame
    /// timed since the last refresh, or not [`Self::is_idle`]): a calibration nothing reads is
    /// not kept fresh.
    pub(crate) fn keep_calibrated(&self) {
        let fresh = self
            .timer
            .calibration()
            .is_some_and(|c| c.age() < self.timer.settings().recalibration_interval);
        if let Some(calibrator) = self.calibrator.as_ref().filter(|_| !fresh) {
            calibrator.calibrate();
        }
    }

    /// Whether the timer has nothing to do for `viewport` in a frame it does not time: the
    /// viewport's frame is not armed and has no painted frame untaken, and no frame of any
    /// viewport is open, waiting to be resolved or in flight. The HUD then skips the timer for
    /// the frame (no drain, no stamp), so a HUD that shows no GPU
    /// figure pays two locks a frame for it. Two locks.
    pub(crate) fn is_idle(&self, viewport: egui::ViewportId) -> bool {
        {
            let stamps = self.stamps.lock();
            let busy = stamps
                .viewports
                .get(&viewport)
                .is_some_and(|frame| frame.armed || frame.painted.is_some())
                || stamps.has_recorded_frames();
            if busy {
                return false;
            }
        }
        !self.timer.has_pending()
    }

    /// Whether results of a frame of `viewport` are still to come: recorded and not yet
    /// handed out, while something is in flight (an owner left by a frame the timer dropped
    /// does not count once nothing is).
    pub(crate) fn has_pending(&self, viewport: egui::ViewportId) -> bool {
        let stamps = self.stamps.lock();
        stamps.owners.any_of(viewport) && (stamps.has_recorded_frames() || self.timer.has_pending())
    }
}

/// The stamp that closes the HUD's own GPU scope ([`EguiGpuTimer::bracket_hud_layer`]): the
/// kept callback (an `Arc`) and the layer it goes on, carried to the end of the HUD's drawing.
pub(crate) struct HudLayerEnd {
    end: egui::PaintCallback,
    layer: egui::LayerId,
}

impl HudLayerEnd {
    /// Adds the stamp on the HUD's layer, after everything the HUD drew there.
    pub(crate) fn add(self, ctx: &egui::Context) {
        add_covering(ctx, self.layer, self.end);
    }
}

/// Adds `callback` to `layer`, covering the current viewport: egui-wgpu skips callbacks whose
/// viewport rounds to zero pixels (the callbacks draw nothing). Straight into the layer's paint
/// list, not through a `Painter`: two reads of egui's context, not three and a clone of it (up
/// to four callbacks a timed frame).
fn add_covering(ctx: &egui::Context, layer: egui::LayerId, mut callback: egui::PaintCallback) {
    let screen = ctx.content_rect();
    callback.rect = screen;
    ctx.graphics_mut(|layers| {
        layers
            .entry(layer)
            .add(screen, egui::Shape::Callback(callback));
    });
}

/// Which of a viewport's four stamps a paint callback is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StampKind {
    /// The first callback of the frame (background layer): its `prepare` says which viewport
    /// is being painted; its `finish_prepare`, after every callback's `prepare`, writes the
    /// begin stamp of egui's pass on egui's encoder.
    Begin,
    /// Painted first on the HUD's layer: opens the HUD's own scope inside egui's pass.
    HudBegin,
    /// Painted last on the HUD's layer: closes it.
    HudEnd,
    /// Painted last (debug layer): closes egui's pass scope inside the pass. In a timed frame
    /// without a begin callback (no app pass timed yet) its `prepare` and `finish_prepare` do
    /// the begin callback's work: one callback fewer a timed frame.
    End,
}

/// One of a viewport's kept paint callbacks.
struct Stamp {
    link: StampLink,
    viewport: egui::ViewportId,
    kind: StampKind,
}

impl Stamp {
    /// The stamps, while the timer that owns them lives.
    fn stamps(&self) -> Option<Arc<Mutex<Stamps>>> {
        self.link.stamps.upgrade()
    }

    /// Runs `work` on the locked stamps when this callback does its frame's begin work in
    /// `prepare` and `finish_prepare`: the begin callback, or the end stamp of a frame that has
    /// none (egui-wgpu calls every callback's `prepare` in paint order, then every
    /// `finish_prepare`, all before the render pass: without app callbacks in between, the end
    /// stamp's calls come at the same points). One lock; none for the HUD's own stamps.
    fn begin_work(&self, work: impl FnOnce(&mut Stamps)) {
        if matches!(self.kind, StampKind::HudBegin | StampKind::HudEnd) {
            return;
        }
        let Some(shared) = self.stamps() else {
            return;
        };
        let mut stamps = shared.lock();
        let begins = self.kind != StampKind::End
            || stamps
                .viewports
                .get(&self.viewport)
                .is_some_and(|frame| !frame.begin_callback);
        if begins {
            work(&mut stamps);
        }
    }
}

impl egui_wgpu::CallbackTrait for Stamp {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _egui_encoder: &mut wgpu::CommandEncoder,
        _resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        self.begin_work(|stamps| {
            stamps.painting = Some(self.viewport);
            let frame = stamps.viewports.entry(self.viewport).or_default();
            frame.render_start = Some((frame.sequence, Instant::now()));
        });
        Vec::new()
    }

    fn finish_prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        egui_encoder: &mut wgpu::CommandEncoder,
        _resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let timer = &self.link.timer;
        self.begin_work(|stamps| {
            stamps.painting = None;
            let frame = stamps.viewports.entry(self.viewport).or_default();
            if frame.egui_scope.take().is_some()
                && let Some(unfinished) = frame.open.take()
            {
                // The last frame was never painted (surface lost, window hidden): its egui scope
                // has no end stamp and validation rejects it; resolve it to free its slot.
                stamps.to_resolve.push(unfinished);
            }
            // Earlier frames' stamps are all in submitted command buffers: resolve them on this
            // encoder, which is submitted after them.
            let sequence = stamps
                .viewports
                .get(&self.viewport)
                .map_or(0, |f| f.sequence);
            let mut resolved = false;
            for frame in stamps.to_resolve.drain(..) {
                resolved |= timer.resolve_frame(frame, egui_encoder);
            }
            if resolved {
                stamps.note_resolved(timer, self.viewport, sequence);
            }
            let frame = stamps.viewports.entry(self.viewport).or_default();
            if frame.flush && stamps.unflushed.is_some() {
                // The group has waited as long as a full group's first frame, or the app may
                // have stopped drawing: read back what is resolved now rather than wait for the
                // group to fill (before this frame, if timed, opens its own). A group with
                // another viewport's frame still recording is left to fill; that frame's
                // resolve starts the wait again.
                timer.flush(egui_encoder);
                if !timer.has_waiting_frames() {
                    stamps.unflushed = None;
                }
                // Else a frame of the group still records (an app pass's, begun in `prepare`):
                // the wait stays due, and the next frame, which resolves that one, flushes.
            }
            if frame.armed && timer.support().can_write_inside_passes() {
                if frame.open.is_none() {
                    frame.open = stamps.owners.begin_frame(timer, self.viewport);
                }
                if let Some(open) = frame.open {
                    frame.egui_scope =
                        timer.begin_encoder_scope(open, EGUI_PASS_LABEL, egui_encoder);
                }
            } else {
                // App passes only (no in-pass stamps): they were recorded in this frame's
                // `prepare` calls, before this encoder's commands or in buffers submitted ahead
                // of it, so resolving here is safe.
                let resolved = frame
                    .open
                    .take()
                    .is_some_and(|open| timer.resolve_frame(open, egui_encoder));
                frame.armed = false;
                if resolved {
                    stamps.note_resolved(timer, self.viewport, sequence);
                }
            }
        });
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        render_pass: &mut wgpu::RenderPass<'static>,
        _resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(shared) = self.stamps() else {
            return;
        };
        let timer = &self.link.timer;
        let mut guard = shared.lock();
        let stamps = &mut *guard;
        let Some(frame) = stamps.viewports.get_mut(&self.viewport) else {
            return;
        };
        match self.kind {
            StampKind::Begin => {}
            StampKind::HudBegin => {
                // Only inside egui's own scope: a frame not timed has no open frame.
                if frame.egui_scope.is_some()
                    && let Some(open) = frame.open
                {
                    frame.hud_scope =
                        timer.begin_scope_in_render_pass(open, HUD_PASS_LABEL, render_pass);
                }
            }
            StampKind::HudEnd => {
                if let Some(scope) = frame.hud_scope.take() {
                    timer.end_scope_in_render_pass(&scope, render_pass);
                }
            }
            StampKind::End => {
                if let Some(scope) = frame.egui_scope.take() {
                    timer.end_scope_in_render_pass(&scope, render_pass);
                }
                if let Some(open) = frame.open.take() {
                    stamps.to_resolve.push(open);
                    if let Some((sequence, render_start)) = frame.render_start.take() {
                        frame.painted = Some(PaintedFrame {
                            sequence,
                            frame: open,
                            render_start,
                            encode_end: Instant::now(),
                        });
                    }
                }
                // A HUD scope left open (its end was not painted) is rejected as unfinished.
                frame.hud_scope = None;
                frame.armed = false;
            }
        }
    }
}

impl TimedGpuFrame {
    /// One frame of GPU results timed elsewhere (no HUD scope, no calibration), for
    /// `viewport`.
    pub(crate) fn timed_elsewhere(
        viewport: egui::ViewportId,
        result: &gpu_timing::GpuFrameResult,
    ) -> Self {
        Self {
            viewport,
            frame: result.frame_id,
            named: named_passes(result, None, None),
            hud_cost: None,
            egui_pass: None,
        }
    }
}

/// A result's passes with their shared labels, the HUD's own drawing (`hud`, measured inside
/// egui's pass) left out of egui's pass and of the list.
fn named_passes(
    result: &gpu_timing::GpuFrameResult,
    hud: Option<Duration>,
    calibration: Option<gpu_timing::ClockCalibration>,
) -> FramePhases {
    let mut named = FramePhases::default();
    for pass in &result.passes {
        let Ok(duration) = Duration::try_from_secs_f64(pass.duration_secs) else {
            continue;
        };
        if &*pass.label == HUD_PASS_LABEL {
            continue;
        }
        let hud_part = hud
            .filter(|_| &*pass.label == EGUI_PASS_LABEL)
            .unwrap_or_default();
        let start = calibration
            .and_then(|c| c.gpu_to_cpu(pass.begin_gpu_nanos))
            .map(PhaseStart::Instant);
        named.add(
            PhaseName::Shared(Arc::clone(&pass.label)),
            duration.saturating_sub(hud_part),
            start,
        );
    }
    named
}
