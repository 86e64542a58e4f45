//! The harness as one crate for the programs on top (the CLI, the web app,
//! the tests): its layers, each a crate of its own so Cargo keeps their
//! imports one-way, re-exported at the paths they have always had, and the
//! lessons, which use every layer.
//!
//! ```text
//! harness (lessons; this facade)
//!   ├── loop-interop   transcripts, OpenTelemetry
//!   │     └── loop-wire
//!   ├── loop-mcp       the MCP protocol, client and server
//!   │     └── loop-wire
//!   └── loop-wire      wire formats, checker, provider adapters, person turns, pairing
//!         └── loop-core   Run, driver, scenario, events, limits, tools, replay, fork
//! ```

pub mod lesson;

pub use loop_core::*;
/// The interop layer's errors (`harness::error` is the core's).
pub use loop_interop::error as interop_error;
pub use loop_interop::{import, otel, transcript};
pub use loop_mcp as mcp;
pub use loop_wire::{pairing, person_turn, provider, refusal, wire};
