//! The protocol checker, live, on the run in view: the rejections each turn
//! card shows at its turn, and the verdict on the whole history the stop
//! banner, the header and the loop's exit give once the run ends. When a
//! check is asked and which answer counts is the plain model's (`model`);
//! `protocol_check::state` holds it, asks the split module to check, and
//! shows the verdicts to the turn cards and the inspector.

pub mod model;
pub mod state;
