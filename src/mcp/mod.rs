//! The scenario's MCP servers in the page, as a plain model (`model`): their
//! tools loaded, the JSON-RPC exchanges on the wire, the header values and
//! tokens held in memory only, and which load's answer counts.
//!
//! The page still runs the servers through `state::mcp`'s signals; this
//! model is what that module is to become the adapter of, as
//! `state::controller` is the runs' (`run::model`).

pub mod model;
