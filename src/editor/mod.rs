//! The scenario editor: the text the next run loads, where it came from,
//! and its live check. The model is plain data changed by messages
//! (`model`); `editor::state` holds it and performs its commands.

pub mod form;
pub mod model;
pub mod provenance;
pub mod scenario_file;
pub mod share;
pub mod state;
pub mod view;
