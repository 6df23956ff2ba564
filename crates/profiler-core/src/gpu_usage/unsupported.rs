//! Sources not available on this platform or build: they never answer.

/// A source that never has a reading.
#[derive(Debug, Default)]
pub(super) struct Unsupported;

impl Unsupported {
    pub(super) fn new() -> Self {
        Self
    }

    #[expect(
        clippy::unused_self,
        clippy::needless_pass_by_ref_mut,
        reason = "same signature as the real sources"
    )]
    pub(super) fn sample(&mut self, _now_nanos: u64) -> Option<f64> {
        None
    }
}
