//! Property tests: whatever the event stream, the readouts keep their invariants.

use std::sync::Arc;
use std::time::Duration;

use profiler_core::{FrameOrigin, FrameRecord, FrameSampler, ManualClock, SamplerConfig};
use proptest::prelude::*;

/// One arbitrary event: possibly backwards, zero-length, huge, self-induced.
fn record() -> impl Strategy<Value = FrameRecord> {
    (
        0_u64..20_000_000_000,
        -5_000_000_i64..12_000_000_000,
        prop::option::of(-2_000_000_000_i64..2_000_000_000),
        0_u32..10,
        any::<bool>(),
        0_u64..2_000_000,
        // The HUD's time after a frame's end: none, plausible, or any value a caller passes.
        prop_oneof![Just(0_u64), 0_u64..2_000_000, any::<u64>()],
    )
        .prop_map(
            |(start, draw, present_offset, invalidations, tick, overlay, after)| {
                let draw_start = Duration::from_nanos(start);
                let draw_end = Duration::from_nanos(start.saturating_add_signed(draw));
                FrameRecord {
                    draw_start,
                    draw_end,
                    present: present_offset
                        .map(|o| Duration::from_nanos(start.saturating_add_signed(o))),
                    invalidations,
                    origin: if tick {
                        FrameOrigin::SelfInduced
                    } else {
                        FrameOrigin::App
                    },
                    overlay_cost: Duration::from_nanos(overlay),
                    overlay_cost_after_end: Duration::from_nanos(after),
                    excluded: Duration::from_nanos(overlay / 2),
                    back_to_back: true,
                }
            },
        )
}

proptest! {
    #[test]
    fn readouts_keep_their_invariants(
        records in prop::collection::vec(record(), 0..300),
        capacity in 1_usize..64,
        warmup in 0_u32..10,
        now in 0_u64..30_000_000_000,
    ) {
        let clock = ManualClock::new();
        let config = SamplerConfig { capacity, warmup_frames: warmup, ..SamplerConfig::default() };
        let mut sampler = FrameSampler::new(config, Arc::new(clock.clone())).expect("valid");
        let mut counted_draws = Vec::new();
        for record in &records {
            if sampler.record_frame(*record) == profiler_core::FrameVerdict::Counted {
                let draw = record.draw_end.saturating_sub(record.draw_start);
                counted_draws.push(
                    draw.saturating_sub(record.overlay_cost.min(draw))
                        .saturating_sub(record.excluded),
                );
            }
        }
        clock.set(Duration::from_nanos(now));
        let snap = sampler.snapshot();
        let retained: Vec<Duration> =
            counted_draws.iter().rev().take(capacity).copied().collect();

        prop_assert_eq!(snap.samples, retained.len());
        prop_assert!(snap.samples <= capacity);
        if let Some(drop) = snap.drop {
            prop_assert!((0.0..=1.0).contains(&drop), "drop {}", drop);
        }
        if let Some(p95) = snap.p95 {
            prop_assert!(retained.contains(&p95), "P95 {:?} is one of the samples", p95);
        }
        if let Some(frame) = snap.frame {
            let max = retained.iter().max().copied().unwrap_or_default();
            let min = retained.iter().min().copied().unwrap_or_default();
            prop_assert!(frame <= max && frame >= min, "{:?} <= FRAME {:?} <= {:?}", min, frame, max);
        }
        prop_assert_eq!(snap.frame.is_some(), !retained.is_empty());
        if let Some(fps) = snap.fps {
            prop_assert!(fps.is_finite() && fps > 0.0, "fps {}", fps);
        }
        if let Some(max_fps) = snap.max_fps {
            prop_assert!(max_fps > 0.0, "max fps {}", max_fps);
        }
        if let Some(inv) = snap.inv {
            prop_assert!((0.0..10.0).contains(&inv), "inv {}", inv);
        }
    }
}
