//! The Lessons mode: the course open, a lesson's attempt (verdict, failed
//! checks, hints, the run Check waits for) and the edits it undoes. The
//! model is plain data changed by messages (`model`); `lessons::state`
//! holds it and performs its commands.

pub mod model;
pub mod state;
pub mod view;
pub mod words;
