/// A [`SamplerConfig`](crate::SamplerConfig) or budget the sampler cannot work with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The capacity is zero or absurdly large.
    #[error(
        "capacity {capacity} is out of range: keep between 1 and 1000000 draw samples (the default, 120, is two seconds at 60 Hz)"
    )]
    Capacity {
        /// The refused capacity.
        capacity: usize,
    },
    /// A frame budget of zero would make every frame a drop.
    #[error(
        "a frame budget of zero makes every frame a drop: pin a positive budget (e.g. 1/60 s) or leave it unset to follow the display"
    )]
    ZeroBudget,
    /// FPS cannot be computed over an empty window.
    #[error("the present window must be positive (the default is 1 s)")]
    ZeroPresentWindow,
    /// Every frame would be rejected as implausible, or the bound is too large to keep the
    /// statistics exact.
    #[error("max_draw_duration must be between 1 ns and 1 hour (the default is 5 s)")]
    MaxDrawDuration,
    /// A spike threshold that would keep every frame, or none by accident.
    #[error(
        "a spike threshold must be a positive, finite multiple of the budget or a positive duration (the default is 2x the budget); use Off to record no spikes"
    )]
    SpikeThreshold,
}
