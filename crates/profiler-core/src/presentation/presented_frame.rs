//! What the window system said about one committed frame.

use std::time::Duration;

use crate::Instant;

/// What became of one frame the app committed to its window, as the window system reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresentationOutcome {
    /// The frame was shown.
    Shown(PresentedFrame),
    /// The frame was replaced before it was shown (Wayland `discarded`).
    Discarded,
    /// The frame was skipped: a newer one was shown at the same refresh (X11 Present's
    /// `CompleteModeSkip`).
    Skipped,
}

/// When a frame was shown, and on which refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresentedFrame {
    /// When the frame turned into light (or, per the flags, the best the window system can
    /// tell): Wayland `presented`'s time, X11 Present's UST, on `CLOCK_MONOTONIC` and mapped to
    /// an [`Instant`].
    pub on_screen: Instant,
    /// The output's refresh period at that time (Wayland `presented.refresh`); `None` when the
    /// window system does not say (X11) or says 0 (variable refresh).
    pub refresh_period: Option<Duration>,
    /// The output's refresh counter when the frame was shown (Wayland `seq`, X11 MSC).
    pub refresh_counter: u64,
    /// How the time was obtained (Wayland's flags; on X11 [`PresentationFlags::ZERO_COPY`] for a
    /// flip).
    pub flags: PresentationFlags,
}

/// How a presentation time was obtained: Wayland's `wp_presentation_feedback.kind` bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PresentationFlags(u8);

impl PresentationFlags {
    /// The frame was shown in sync with the vertical retrace (no tearing).
    pub const VSYNC: Self = Self(0x1);
    /// The time came from the display hardware's clock, not a software estimate.
    pub const HW_CLOCK: Self = Self(0x2);
    /// The hardware signalled that the display update completed.
    pub const HW_COMPLETION: Self = Self(0x4);
    /// The app's buffer was scanned out directly (no copy by the compositor).
    pub const ZERO_COPY: Self = Self(0x8);

    /// The flags from Wayland's bit set (bits beyond the four are dropped).
    pub fn from_bits(bits: u32) -> Self {
        Self(u8::try_from(bits & 0xf).unwrap_or(0))
    }

    /// The flags' bits, as Wayland sends them.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Whether every flag of `other` is set here.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The set flags as short words (`vsync hw-clock hw-completion zero-copy`), for the hover
    /// and the exports; empty when none is set.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        [
            (Self::VSYNC, "vsync"),
            (Self::HW_CLOCK, "hw-clock"),
            (Self::HW_COMPLETION, "hw-completion"),
            (Self::ZERO_COPY, "zero-copy"),
        ]
        .into_iter()
        .filter(move |(flag, _)| self.contains(*flag))
        .map(|(_, name)| name)
    }
}

impl std::ops::BitOr for PresentationFlags {
    type Output = Self;

    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}
