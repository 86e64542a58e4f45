//! Tools from MCP servers (the Model Context Protocol), over Streamable HTTP.
//!
//! The protocol logic here is pure and transport-agnostic: it builds
//! JSON-RPC requests and their HTTP headers and reads responses (JSON or an
//! SSE stream) through [`transport::McpTransport`], so the CLI (hyper) and
//! the page (`fetch`) share it. The types a scenario holds ([`McpTool`],
//! [`ResolvedMcp`], the server [`config`], the [`recorded`] answers) are the
//! core's (`loop_core::mcp`), re-exported here so this crate is the one
//! place to find MCP.
//!
//! - [`error`]: why a server's tools could not be had ([`McpError`]), and
//!   who can fix it.
//! - [`session`]: one server: the generation it speaks (2026-07-28, stateless,
//!   or legacy 2025-03-26 … 2025-11-25 with `initialize` and a session),
//!   chosen by the spec's fallback rule; requests, notifications, cancelling.
//! - [`legacy_sse`]: the old HTTP+SSE transport (2024-11-05), for servers
//!   that speak only that.
//! - [`standalone`]: the session's standalone SSE stream, open while a
//!   call runs, so a server's request sent there is declined, not missed.
//! - [`tools`]: `tools/list` followed to the end, into tools a run can call.
//! - [`content`]: a `tools/call` result as the text the model reads.
//! - [`cors`]: what a page needs a server on another origin to allow.
//! - [`resolve`]: every server of a scenario, names de-duplicated, into a
//!   [`ResolvedMcp`] the scenario builds its run with.
//! - [`server`]: the other end, serving a scenario's own tools.

pub mod content;
pub mod cors;
pub mod error;
pub mod jsonrpc;
pub mod legacy_sse;
pub mod resolve;
pub mod server;
pub mod session;
pub mod standalone;
pub mod tools;
pub mod transport;
pub mod versions;

pub use error::McpError;
pub use loop_core::mcp::*;

// The modules below this crate, at the paths these modules were written against.
use loop_core::{message, scenario, suggest, tool};
use loop_wire::{provider, wire};
