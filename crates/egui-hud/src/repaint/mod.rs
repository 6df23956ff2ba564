//! Requests for frames: the app's (the ledger that sees them, WHY's rates of their call sites)
//! and the HUD's own (its refresh tick, the one place that asks egui for a frame). Imports
//! nothing else of the crate.

pub(crate) mod own_discard;
pub(crate) mod repaint_ledger;
pub(crate) mod repaint_sites;
pub(crate) mod tick;
pub(crate) mod why_reading;
