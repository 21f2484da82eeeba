//! The `hook` command. See the README for a tour.
fn main() {}
