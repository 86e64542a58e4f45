//! The inspector: what it shows (open, turn, view, format, the block a
//! verdict points at). The model is plain data changed by messages
//! (`model`); `inspector::state` holds it.

pub mod marked_json;
pub mod model;
pub mod state;
pub mod view;
pub mod wire_view;
