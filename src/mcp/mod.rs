//! The scenario's MCP servers: their tools, loaded; the JSON-RPC
//! exchanges; header values, held in memory only. The model is plain data
//! changed by messages (`model`); `mcp::state` holds it and performs its
//! commands.

pub mod model;
pub mod state;
pub mod text;
pub mod view;
