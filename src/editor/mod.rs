//! The scenario editor: the text the next run loads, where it came from,
//! and its live check. The model is plain data changed by messages
//! (`model`); `state::editor` holds it and performs its commands.

pub mod model;
