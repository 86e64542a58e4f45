//! Runs that were read, not run, and runs sent elsewhere: provider
//! transcripts (request bodies, responses and streams, read into a trace)
//! and OpenTelemetry (a trace as GenAI spans, exported, sent, and read back,
//! our own or another instrumentation's).
//!
//! [`import`] is the one reader of every run file (records, OTLP, request
//! bodies, responses), for the page and the CLI alike.
//!
//! Builds on `loop-core` and `loop-wire`.

pub mod error;
pub mod import;
pub mod otel;
pub mod transcript;

// The modules below this crate, at the paths these modules were written against.
use loop_core::{event, message, model, replay, scenario, tool};
use loop_wire::{provider, wire};
