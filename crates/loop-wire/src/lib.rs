//! The three providers' wire formats and what is built on them: the
//! offline protocol checker, the provider adapters a run calls over HTTP,
//! a turn a person types as the model (checked against the providers'
//! rules), and how a history's calls and results pair up.
//!
//! Builds on `loop-core` only; MCP, transcripts and OpenTelemetry build on
//! this crate.

pub mod pairing;
pub mod person_turn;
pub mod provider;
pub mod refusal;
pub mod wire;

// The core's modules, at the paths these modules were written against.
#[cfg(test)]
use loop_core::library;
use loop_core::{event, limits, message, model, scenario, suggest, tool, tool_choice};
