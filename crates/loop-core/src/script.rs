//! User-written JavaScript tools: the `ScriptHost` trait a caller supplies to
//! run them, and `JsTool`, the tool handler that uses it.
//!
//! The harness never runs JavaScript itself (it has no browser or engine
//! dependency). The web app supplies a host that runs each call in a Web
//! Worker inside a sandboxed iframe (`src/browser/sandbox.rs`); without a
//! host (the CLI, native tests) a JavaScript tool answers with an error
//! result that says where it can run, so the model sees why and the run goes
//! on.
//!
//! Timeouts: the driver races every tool call against `tool_timeout_ms` and
//! drops the losing future, so a host must stop the script when its future
//! is dropped. The host also gets the timeout itself and must enforce it as
//! a backstop (the script keeps running in its worker otherwise); when it
//! fires, `JsTool` reports the driver's own timeout message, so the trace
//! reads the same whichever side noticed first.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::tool::{ToolFailure, ToolHandler, ToolOutput};

/// What the model reads when no host can run a JavaScript tool.
pub const NO_HOST_MESSAGE: &str = "JavaScript tools run only in the browser playground's sandbox";

/// The sandbox's own limit when the scenario sets no `tool_timeout_ms`, so
/// an endless loop never runs unbounded in a worker.
pub const DEFAULT_SCRIPT_TIMEOUT_MS: u64 = 10_000;

/// Why a script gave no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// It threw, did not compile, or returned something that is not JSON;
    /// the message says which.
    Failed(String),
    /// It was still running at its timeout and was stopped.
    TimedOut,
}

/// Runs a JavaScript tool body somewhere isolated.
pub trait ScriptHost {
    /// Runs `source`, the body of an async function of `args`, and resolves
    /// to the JSON value it returns. The host stops the script at
    /// `timeout_ms`, and also when the returned future is dropped.
    fn run(
        &self,
        source: &str,
        args: Value,
        timeout_ms: u64,
    ) -> LocalBoxFuture<'static, Result<Value, ScriptError>>;
}

/// The driver's words for a tool that ran past `tool_timeout_ms` (`Run::feed_tool_timeout`).
pub fn tool_timeout_message(ms: u64) -> String {
    format!("the tool did not finish within {ms} ms (tool_timeout_ms) and was stopped")
}

/// An inline tool whose handler is a JavaScript body.
pub struct JsTool {
    pub source: String,
    /// The scenario's `tool_timeout_ms`.
    pub tool_timeout_ms: Option<u64>,
    pub host: Option<Rc<dyn ScriptHost>>,
}

impl ToolHandler for JsTool {
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let answer = self.answer(args);
        Box::pin(async move {
            answer
                .await
                .map(|output| output.value)
                .map_err(|failure| failure.message().to_string())
        })
    }

    /// A script stopped at its limit never finished, and one with no host
    /// never ran: each says so to the trace, not only in its words.
    fn answer(&self, args: Value) -> LocalBoxFuture<'static, Result<ToolOutput, ToolFailure>> {
        let Some(host) = &self.host else {
            return Box::pin(async { Err(ToolFailure::NotRun(NO_HOST_MESSAGE.to_string())) });
        };
        let timeout_ms = self.tool_timeout_ms.unwrap_or(DEFAULT_SCRIPT_TIMEOUT_MS);
        let running = host.run(&self.source, args, timeout_ms);
        let limit_set = self.tool_timeout_ms.is_some();
        Box::pin(async move {
            running.await.map(ToolOutput::from).map_err(|error| match error {
                ScriptError::Failed(message) => {
                    ToolFailure::Error(format!("the JavaScript tool failed: {message}"))
                }
                ScriptError::TimedOut if limit_set => {
                    ToolFailure::TimedOut(tool_timeout_message(timeout_ms))
                }
                ScriptError::TimedOut => ToolFailure::TimedOut(format!(
                    "the tool did not finish within {timeout_ms} ms (the JavaScript sandbox's limit when no tool_timeout_ms is set) and was stopped"
                )),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    /// The canned host answers at once, so a call's future is ready on first poll.
    fn block_on<T>(future: LocalBoxFuture<'static, T>) -> T {
        future.now_or_never().expect("ready at once")
    }

    /// Answers every call with a fixed outcome and records what it was asked.
    struct Canned {
        outcome: Result<Value, ScriptError>,
        asked: std::cell::RefCell<Vec<(String, Value, u64)>>,
    }

    impl ScriptHost for Canned {
        fn run(
            &self,
            source: &str,
            args: Value,
            timeout_ms: u64,
        ) -> LocalBoxFuture<'static, Result<Value, ScriptError>> {
            self.asked
                .borrow_mut()
                .push((source.to_string(), args, timeout_ms));
            let outcome = self.outcome.clone();
            Box::pin(async move { outcome })
        }
    }

    fn js_tool(outcome: Result<Value, ScriptError>, timeout: Option<u64>) -> (JsTool, Rc<Canned>) {
        let host = Rc::new(Canned {
            outcome,
            asked: Default::default(),
        });
        let tool = JsTool {
            source: "return args.n * 2;".to_string(),
            tool_timeout_ms: timeout,
            host: Some(host.clone()),
        };
        (tool, host)
    }

    #[test]
    fn without_a_host_the_model_is_told_where_js_tools_run() {
        let tool = JsTool {
            source: "return 1;".to_string(),
            tool_timeout_ms: Some(500),
            host: None,
        };
        assert_eq!(
            block_on(tool.call(serde_json::json!({}))),
            Err(NO_HOST_MESSAGE.to_string())
        );
    }

    #[test]
    fn the_host_gets_the_body_the_arguments_and_the_tool_timeout() {
        let (tool, host) = js_tool(Ok(serde_json::json!(42)), Some(750));
        assert_eq!(
            block_on(tool.call(serde_json::json!({"n": 21}))),
            Ok(serde_json::json!(42))
        );
        assert_eq!(
            host.asked.borrow().as_slice(),
            &[(
                "return args.n * 2;".to_string(),
                serde_json::json!({"n": 21}),
                750
            )]
        );
    }

    #[test]
    fn a_script_failure_is_an_error_result_with_its_message() {
        let (tool, _) = js_tool(
            Err(ScriptError::Failed("Error: weight must be positive".into())),
            Some(750),
        );
        assert_eq!(
            block_on(tool.call(serde_json::json!({}))),
            Err("the JavaScript tool failed: Error: weight must be positive".to_string())
        );
    }

    #[test]
    fn a_timeout_reads_like_the_drivers_and_has_a_limit_without_one() {
        let (tool, _) = js_tool(Err(ScriptError::TimedOut), Some(750));
        assert_eq!(
            block_on(tool.call(serde_json::json!({}))),
            Err(tool_timeout_message(750))
        );
        let (tool, host) = js_tool(Err(ScriptError::TimedOut), None);
        let message = block_on(tool.call(serde_json::json!({}))).unwrap_err();
        assert!(message.contains("10000 ms"), "{message}");
        assert_eq!(host.asked.borrow()[0].2, DEFAULT_SCRIPT_TIMEOUT_MS);
    }
}
