//! MCP tools answered from a record: each call gets the result the server
//! gave the same call (same tool, same arguments) when the run was
//! recorded, in order. So `replay` and `fork` run offline, without the
//! server; a call the record never made says so in an error result. The
//! images, audio and binary resources a result carried come back with it.

use std::cell::RefCell;
use std::collections::HashMap;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use super::{McpCaller, McpTool};
use crate::event::{EventKind, RunEvent};
use crate::limits::canonical_call;
use crate::tool::ToolOutput;

pub struct RecordedCaller {
    /// Canonical call → the results still to give, oldest first.
    results: RefCell<HashMap<String, Vec<Result<ToolOutput, String>>>>,
}

impl RecordedCaller {
    /// Collects the results the MCP `tools` gave in `events`. A result a
    /// person typed in step mode is left out: the server never gave it.
    pub fn from_events(events: &[RunEvent], tools: &[McpTool]) -> Self {
        let mut args_by_id: HashMap<&str, &Value> = HashMap::new();
        let mut results: HashMap<String, Vec<Result<ToolOutput, String>>> = HashMap::new();
        for event in events {
            match &event.kind {
                EventKind::ToolCall { id, args, .. } => {
                    args_by_id.insert(id, args);
                }
                EventKind::ApprovalDecided {
                    id,
                    args: Some(edited),
                    ..
                } => {
                    args_by_id.insert(id, edited);
                }
                EventKind::ToolResult {
                    id,
                    name,
                    content,
                    is_error,
                    by_person: false,
                    media,
                    ..
                } if tools.iter().any(|t| &t.name == name) => {
                    if let Some(args) = args_by_id.get(id.as_str()) {
                        // The run words a handler's error "tool error: …";
                        // the handler gave what follows.
                        let result = if *is_error {
                            Err(content
                                .strip_prefix("tool error: ")
                                .unwrap_or(content)
                                .to_string())
                        } else {
                            Ok(ToolOutput {
                                value: Value::String(content.clone()),
                                media: media.clone(),
                            })
                        };
                        results
                            .entry(canonical_call(name, args))
                            .or_default()
                            .push(result);
                    }
                }
                _ => {}
            }
        }
        RecordedCaller {
            results: RefCell::new(results),
        }
    }
}

impl McpCaller for RecordedCaller {
    fn call(
        &self,
        tool: &McpTool,
        args: Value,
    ) -> LocalBoxFuture<'static, Result<ToolOutput, String>> {
        let key = canonical_call(&tool.name, &args);
        let next = self
            .results
            .borrow_mut()
            .get_mut(&key)
            .filter(|queue| !queue.is_empty())
            .map(|queue| queue.remove(0));
        let answer = next.unwrap_or_else(|| {
            Err(format!(
                "the record holds no result for this call to {} with these arguments; a replay does not contact the MCP server {:?}",
                tool.name, tool.server
            ))
        });
        Box::pin(async move { answer })
    }
}
