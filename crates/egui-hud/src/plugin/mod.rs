//! The one owner of everything the HUD keeps across frames ([`frame_plugin::FramePlugin`]),
//! each viewport's state, the settings and the display watch. Imports every stage below it;
//! only `api` imports it.

pub(crate) mod benchmark_run;
pub(crate) mod display_watch;
pub(crate) mod export_outcome;
pub(crate) mod frame_plugin;
pub(crate) mod gpu_sampled;
pub(crate) mod hud_config;
pub(crate) mod hud_draw;
pub(crate) mod presentation_feed;
pub(crate) mod view_home;
pub(crate) mod viewport_state;
