//! The page's modes: the mode open (Run, Compare, Scenario, History,
//! Import/Export) and those opened so far, whose panels are drawn. The
//! model is plain data changed by messages (`model`); `modes::state` holds
//! it.

pub mod model;
pub mod state;
