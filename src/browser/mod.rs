//! Everything that touches the browser's APIs lives under this module, so the
//! rest of the app stays plain Rust that compiles and tests natively.

pub mod csp;
pub mod fetch;
pub mod files;
pub mod history_store;
pub mod mcp_fetch;
pub mod offline;
pub mod page;
pub mod panic;
pub mod runner;
pub mod runtime;
pub mod sandbox;
pub mod stylesheet;
