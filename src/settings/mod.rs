//! The Model settings: the scripted model or a provider, with its key,
//! base URL and wire format (`state`), and the section that edits them
//! (`view`).

pub mod state;
pub mod view;
