//! Page state that more than one feature reads: made once in the root
//! component, so it outlives every component and every spawned run. (Each
//! feature's own state is its folder's `state.rs`, the adapter of its
//! model.) Nothing here imports a component.
//!
//! - [`form_doc`]: a scenario text the structured form edits (A's, the
//!   comparison's variant B, or a fork's draft).
//! - [`mirror`]: how an adapter shows its model in the signals views read.
//! - [`tied_notice`]: a notice that leaves with the run or scenario text
//!   it describes.

pub mod form_doc;
pub mod mirror;
pub mod tied_notice;
