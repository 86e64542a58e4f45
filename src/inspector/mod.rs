//! The inspector: what it shows (open, turn, view, format, the block a
//! verdict points at). The model is plain data changed by messages
//! (`model`); `state::inspector` holds it.

pub mod model;
