//! One frame in progress: its stamps, the facts its hooks gather, and whose frame it is.
//! Imports `repaint` (the request that woke it) and nothing above.

pub(crate) mod frame_facts;
pub(crate) mod frame_in_progress;
pub(crate) mod window_fingerprint;
