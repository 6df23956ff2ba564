//! Demo placeholder.
fn main() {}
