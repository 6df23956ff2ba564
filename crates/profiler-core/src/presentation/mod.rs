//! When each frame reached the screen, from the window system.
//!
//! wgpu and GL give an app no present feedback (gfx-rs/wgpu#2869), but two window systems tell
//! any client without privileges:
//!
//! | window system | source | per frame | matched by |
//! |---|---|---|---|
//! | Wayland | `wp_presentation.feedback` on the app's `wl_surface`, on its own connection | time shown, refresh period, refresh counter, flags (vsync, hardware clock, hardware completion, zero copy), or discarded | the frame's sequence number, carried by its feedback object |
//! | X11 | Present `CompleteNotify` for the window, over an own connection read by a thread of its own | UST, MSC, flip / copy / skip | order of commit (presents complete in order), serial gaps |
//! | anything else | — | [`PresentationError::Unsupported`] | — |
//!
//! [`PresentationSource`] is the one face; the platform code behind it is picked here with
//! `cfg`.

mod presentation_error;
mod presentation_matcher;
mod presentation_source;
mod presented_frame;

#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod completion_inbox;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod linux;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod monotonic_anchor;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod wayland;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod x11;
#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
use linux as platform;

#[cfg(not(all(unix, not(target_vendor = "apple"), not(target_os = "android"))))]
mod unsupported;
#[cfg(not(all(unix, not(target_vendor = "apple"), not(target_os = "android"))))]
use unsupported as platform;

pub use presentation_error::PresentationError;
pub use presentation_matcher::{
    CommittedFrame, FeedbackFor, MatchedPresentation, PresentationFeedback, PresentationMatcher,
};
pub use presentation_source::PresentationSource;
pub use presented_frame::{PresentationFlags, PresentationOutcome, PresentedFrame};
