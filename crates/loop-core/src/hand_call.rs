//! A tool called by a person, outside any run, as the MCP Inspector calls a
//! server's tools: the same handler a run would call, with arguments already
//! checked against the tool's schema, under the run's `tool_timeout_ms`, and
//! stoppable. No trace, no history: nothing here reaches a model.

use futures::future::{self, Either};
use futures::pin_mut;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::runtime::Runtime;
use crate::tool::{result_text, ToolDef};

/// How a call by hand ended.
#[derive(Clone, Debug, PartialEq)]
pub enum HandCall {
    /// The tool answered: its value, the text a model would read, and its
    /// store right after the call (for the built-in tools that keep one).
    Answered {
        value: Value,
        text: String,
        state: Option<Value>,
    },
    /// The tool failed: what a model would get as an error result.
    Failed { message: String },
    /// `tool_timeout_ms` passed first.
    TimedOut { after_ms: u64 },
    /// The person pressed Stop first.
    Stopped,
}

/// Calls `tool` with `args` (already valid for its schema).
pub async fn call_by_hand(
    tool: &ToolDef,
    args: Value,
    runtime: &dyn Runtime,
    timeout_ms: Option<u64>,
    cancel: &CancelToken,
) -> HandCall {
    let call = tool.handler.call(args);
    let timer = async {
        match timeout_ms {
            Some(ms) => runtime.sleep(ms).await,
            None => future::pending().await,
        }
    };
    let stopped = cancel.cancelled();
    pin_mut!(call, timer, stopped);
    match future::select(call, future::select(timer, stopped)).await {
        Either::Left((Ok(value), _)) => HandCall::Answered {
            text: result_text(&value),
            state: tool.handler.state(),
            value,
        },
        Either::Left((Err(message), _)) => HandCall::Failed { message },
        Either::Right((Either::Left(_), _)) => HandCall::TimedOut {
            after_ms: timeout_ms.unwrap_or_default(),
        },
        Either::Right((Either::Right(_), _)) => HandCall::Stopped,
    }
}
