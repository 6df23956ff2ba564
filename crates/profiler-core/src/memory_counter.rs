/// Which counter a memory reading comes from: they are not the same quantity on every platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryCounter {
    /// Linux resident anonymous memory (`RssAnon`): heap and stacks actually in RAM, no file
    /// mappings.
    ResidentAnonymous,
    /// macOS physical footprint: what Activity Monitor's "Memory" column shows.
    PhysicalFootprint,
    /// Windows private usage (commit charge).
    PrivateUsage,
    /// Resident set size: the fallback where nothing better is available. Includes shared
    /// libraries and file mappings.
    ResidentSet,
}

impl MemoryCounter {
    /// A short name for hover texts and logs.
    pub fn name(self) -> &'static str {
        match self {
            Self::ResidentAnonymous => "RssAnon",
            Self::PhysicalFootprint => "phys_footprint",
            Self::PrivateUsage => "PrivateUsage",
            Self::ResidentSet => "RSS",
        }
    }
}
