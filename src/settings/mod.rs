//! The Model settings: the scripted model or a provider, with its key,
//! base URL and wire format, as a plain model (`model`), held for the page
//! by its adapter (`state`), and the section that edits them (`view`).

pub mod model;
pub mod state;
pub mod view;
