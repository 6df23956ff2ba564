use std::sync::Arc;

use crate::{FrameId, GpuFrameResult, GpuPassResult, TimestampPair};

impl GpuFrameResult {
    /// Converts one frame of `wgpu-profiler` results (from `GpuProfiler::process_finished_frame`)
    /// so apps already using it can feed the HUD. Needs the `wgpu-profiler` feature.
    ///
    /// Only the outermost timed scopes become passes: a timed parent already contains its
    /// children's time, and the HUD adds passes up into a frame's GPU time, so listing both would
    /// count the children twice. Children of an untimed scope are searched instead, labelled
    /// `"parent/child"`. Scopes without a time (timer queries off or unsupported) are left out;
    /// scopes whose time fails the same validation as this crate's own results (end before begin,
    /// longer than `max_duration_secs`) are left out and counted in [`Self::rejected_passes`].
    /// Allocates the labels and the pass list.
    pub fn from_wgpu_profiler(
        frame_index: u64,
        results: &[wgpu_profiler::GpuTimerQueryResult],
        max_duration_secs: f64,
    ) -> Self {
        let mut frame = Self {
            frame_id: FrameId::from_index(frame_index),
            ..Self::default()
        };
        flatten(&mut frame, "", results, max_duration_secs);
        frame
    }
}

fn flatten(
    frame: &mut GpuFrameResult,
    prefix: &str,
    results: &[wgpu_profiler::GpuTimerQueryResult],
    max_duration_secs: f64,
) {
    for result in results {
        let label = if prefix.is_empty() {
            result.label.clone()
        } else {
            format!("{prefix}/{}", result.label)
        };
        if let Some(time) = &result.time {
            // wgpu-profiler gives seconds of an arbitrary GPU epoch; back to nanoseconds so the
            // usual validation (and calibration) apply. A negative start means a bogus value.
            let to_nanos = |secs: f64| {
                if secs.is_finite() && secs > 0.0 {
                    secs * 1e9
                } else {
                    0.0
                }
            };
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "non-negative and finite; saturates"
            )]
            let pair = TimestampPair {
                begin_ticks: to_nanos(time.start) as u64,
                end_ticks: to_nanos(time.end) as u64,
            };
            match pair.validate(1.0, max_duration_secs) {
                Ok(duration_secs) => frame.passes.push(GpuPassResult {
                    label: Arc::from(label.as_str()),
                    duration_secs,
                    begin_gpu_nanos: pair.begin_ticks,
                    end_gpu_nanos: pair.end_ticks,
                }),
                Err(_) => frame.rejected_passes += 1,
            }
        } else {
            flatten(frame, &label, &result.nested_queries, max_duration_secs);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::GpuFrameResult;

    fn query(
        label: &str,
        time: Option<std::ops::Range<f64>>,
        nested: Vec<wgpu_profiler::GpuTimerQueryResult>,
    ) -> wgpu_profiler::GpuTimerQueryResult {
        wgpu_profiler::GpuTimerQueryResult {
            label: label.to_owned(),
            pid: 1,
            tid: std::thread::current().id(),
            time,
            nested_queries: nested,
        }
    }

    #[test]
    fn tree_is_flattened_and_validated() {
        let tree = vec![
            query(
                "frame",
                Some(1.0..1.004),
                vec![
                    query("scene", Some(1.0..1.003), vec![]),
                    query("off", None, vec![]),
                ],
            ),
            query("reversed", Some(2.0..1.5), vec![]),
            query("post", Some(1.003..1.004), vec![]),
            query(
                "untimed",
                None,
                vec![query("scene", Some(1.0..1.003), vec![])],
            ),
        ];
        let frame = GpuFrameResult::from_wgpu_profiler(7, &tree, 1.0);
        assert_eq!(frame.frame_id.index(), 7);
        let labels: Vec<&str> = frame.passes.iter().map(|p| &*p.label).collect();
        assert_eq!(
            labels,
            ["frame", "post", "untimed/scene"],
            "children of a timed scope are folded in"
        );
        assert_eq!(frame.rejected_passes, 1);
        assert!(
            (frame.total_duration_secs() - 0.008).abs() < 1e-6,
            "no double counting"
        );
        let scene = frame.pass("untimed/scene").unwrap();
        assert!(
            (scene.duration_secs - 0.003).abs() < 1e-6,
            "{}",
            scene.duration_secs
        );
    }
}
