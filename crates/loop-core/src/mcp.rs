//! The scenario's side of MCP (the Model Context Protocol): the servers a
//! scenario names, the tools they offer once loaded, and who answers a call
//! to one. The protocol itself (sessions, `tools/list`, content, the
//! server end) is the `loop-mcp` crate, which builds on these types.
//!
//! - [`config`]: the scenario's `mcp_servers` entries; header values are secrets.
//! - [`recorded`]: the same tools answered from a record's results, offline.
//! - [`schema`]: a server's input schema, compiled as far as our validator goes.
//!
//! A scenario with `mcp_servers` loads before its servers are reached; its
//! run is built only once they are resolved (`Scenario::mcp`).

pub mod config;
pub mod recorded;
pub mod schema;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::ToolSpec;
use crate::tool::{ToolFailure, ToolHandler, ToolOutput};

/// One tool a server offers, as the run uses it. Records keep these, so a
/// replay knows the tools without the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct McpTool {
    /// The scenario's name for the server.
    pub server: String,
    /// The name the model sees: the server's, or `server__name` on a collision.
    pub name: String,
    /// The name the server knows it by.
    pub remote_name: String,
    /// The server's display name for the tool, shown beside its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub description: String,
    pub input_schema: Value,
    /// The server's `outputSchema` for the tool's structured result, if it
    /// declared one (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema):
    /// the form a person answers as the tool with. The model is not told it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    pub needs_approval: bool,
    /// The server's hints (`readOnlyHint`, `destructiveHint`, …), as it sent
    /// them: unverified, shown so a person sees what decided the approval.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub annotations: Value,
    /// The schema checks the harness does not run, each with its path; the
    /// server still checks them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_to_server: Vec<String>,
}

impl McpTool {
    pub fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            input_schema: self.input_schema.clone(),
        }
    }
}

/// Who answers a call to an MCP tool: a live server, or a record.
pub trait McpCaller {
    fn call(
        &self,
        tool: &McpTool,
        args: Value,
    ) -> LocalBoxFuture<'static, Result<ToolOutput, String>>;
}

/// A scenario's MCP tools, loaded, and the connection that answers them.
///
/// A `Scenario` stays `Send + Sync` (the page keeps it in signals), while a
/// connection is an `Rc` over a single-threaded transport; so the scenario
/// holds the connection's number, and the connection lives in this
/// thread's registry ([`connect`]).
#[derive(Clone, Debug)]
pub struct ResolvedMcp {
    pub tools: Vec<McpTool>,
    pub connection: u64,
}

/// The same tools are the same resolution, whichever connection answers
/// them (a record read twice gets two).
impl PartialEq for ResolvedMcp {
    fn eq(&self, other: &Self) -> bool {
        self.tools == other.tools
    }
}

thread_local! {
    static CONNECTIONS: RefCell<Vec<(u64, Rc<dyn McpCaller>)>> = const { RefCell::new(Vec::new()) };
    static NEXT: Cell<u64> = const { Cell::new(1) };
}

/// Registers `caller` for the scenarios resolved with these `tools`. A
/// connection lives as long as the thread (a handful per session: one per
/// load of a scenario's servers).
pub fn connect(tools: Vec<McpTool>, caller: Rc<dyn McpCaller>) -> ResolvedMcp {
    let id = NEXT.with(|next| {
        let id = next.get();
        next.set(id + 1);
        id
    });
    CONNECTIONS.with(|c| c.borrow_mut().push((id, caller)));
    ResolvedMcp {
        tools,
        connection: id,
    }
}

impl ResolvedMcp {
    /// The caller behind this resolution, if this thread holds it.
    pub fn caller(&self) -> Option<Rc<dyn McpCaller>> {
        CONNECTIONS.with(|c| {
            c.borrow()
                .iter()
                .find(|(id, _)| *id == self.connection)
                .map(|(_, caller)| caller.clone())
        })
    }
}

/// A run's handler for one MCP tool.
pub struct McpToolHandler {
    pub tool: McpTool,
    pub caller: Rc<dyn McpCaller>,
}

impl ToolHandler for McpToolHandler {
    /// The text alone, for callers that take only JSON (`serve --mcp`).
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let call = self.caller.call(&self.tool, args);
        Box::pin(async move { call.await.map(|output| output.value) })
    }

    fn answer(&self, args: Value) -> LocalBoxFuture<'static, Result<ToolOutput, ToolFailure>> {
        let call = self.caller.call(&self.tool, args);
        Box::pin(async move { call.await.map_err(ToolFailure::Error) })
    }
}
