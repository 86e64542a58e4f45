//! Tool definitions, the registry of one run, and the checks a call passes
//! before it may run.
//!
//! Every way a call can go wrong (unknown tool, argument text that is not
//! JSON, arguments that break the schema, a handler error, a timeout, an
//! oversized result) becomes an `is_error` tool result the model can read and
//! correct; none of them stops the run.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;
use tool_schema::Schema;

use crate::event::Validation;
use crate::message::ToolCall;
use crate::model::ToolSpec;
use crate::runtime::Runtime;

pub trait ToolHandler {
    /// Runs the tool with validated arguments. `Err` is a message for the model.
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>>;

    /// Runs the tool as `call` does, keeping the parts of its result that
    /// are not text (an MCP tool's images, audio, binary resources). The
    /// driver calls this one; a tool whose results are only JSON keeps the
    /// default.
    fn answer(&self, args: Value) -> LocalBoxFuture<'static, Result<ToolOutput, ToolFailure>> {
        let call = self.call(args);
        Box::pin(async move { call.await.map(ToolOutput::from).map_err(ToolFailure::Error) })
    }

    /// The store this tool writes to, as JSON, read right after a call: the
    /// trace carries it on the call's `tool_result`, so the page can show what
    /// each write changed. `None` for tools that keep no state.
    fn state(&self) -> Option<Value> {
        None
    }
}

/// How a call ended without the tool's result. The message is what the
/// model reads; the kind decides what the trace and the tally say of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolFailure {
    /// The tool ran and failed: its own error.
    Error(String),
    /// The tool cannot run here (a JavaScript tool with no sandbox, outside
    /// the browser), so it did not run at all.
    NotRun(String),
    /// The tool was stopped at its time limit before it answered (a
    /// JavaScript tool's sandbox enforces the limit itself).
    TimedOut(String),
}

impl ToolFailure {
    pub fn message(&self) -> &str {
        match self {
            ToolFailure::Error(m) | ToolFailure::NotRun(m) | ToolFailure::TimedOut(m) => m,
        }
    }
}

/// A tool's result: its value (text or JSON) and any parts that are not text.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    pub value: Value,
    pub media: Vec<crate::message::Media>,
}

impl From<Value> for ToolOutput {
    fn from(value: Value) -> Self {
        ToolOutput {
            value,
            media: Vec::new(),
        }
    }
}

/// A tool whose result is fixed in the scenario file, optionally after a
/// simulated latency (how slow and hung tools are demonstrated).
pub struct FixedResult {
    pub value: Value,
    pub delay_ms: Option<u64>,
    pub runtime: Rc<dyn Runtime>,
}

impl ToolHandler for FixedResult {
    fn call(&self, _args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let result = self.value.clone();
        let delay = self
            .delay_ms
            .filter(|&ms| ms > 0)
            .map(|ms| self.runtime.sleep(ms));
        Box::pin(async move {
            if let Some(delay) = delay {
                delay.await;
            }
            Ok(result)
        })
    }
}

/// One result a transcript recorded, with the arguments of its call.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedResult {
    pub args: Value,
    /// The result as the model read it.
    pub content: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// A tool that answers with the results a transcript recorded: each call
/// gets the next unused result recorded for the same arguments (object keys
/// in any order), so an imported conversation replays offline. A call the
/// transcript never made is an error result that says so: nothing is made up.
pub struct RecordedResults {
    entries: Vec<RecordedResult>,
    used: std::cell::RefCell<Vec<bool>>,
}

impl RecordedResults {
    pub fn new(entries: Vec<RecordedResult>) -> Self {
        let used = std::cell::RefCell::new(vec![false; entries.len()]);
        RecordedResults { entries, used }
    }
}

impl ToolHandler for RecordedResults {
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let mut used = self.used.borrow_mut();
        let same = |e: &&RecordedResult| e.args == args;
        let next = self
            .entries
            .iter()
            .enumerate()
            .find(|(i, e)| !used[*i] && same(e))
            .map(|(i, e)| {
                used[i] = true;
                e
            })
            // Asked again after its recorded answers ran out: the last one.
            .or_else(|| self.entries.iter().rev().find(same));
        let answer = match next {
            Some(entry) if entry.is_error => Err(entry.content.clone()),
            Some(entry) => Ok(Value::String(entry.content.clone())),
            None => Err(format!(
                "no result was recorded for these arguments ({args}); the transcript's calls to this tool had {} recorded result{}. Give the tool another handler to answer new calls",
                self.entries.len(),
                if self.entries.len() == 1 { "" } else { "s" }
            )),
        };
        Box::pin(async move { answer })
    }
}

pub struct ToolDef {
    pub spec: ToolSpec,
    pub schema: Schema,
    pub needs_approval: bool,
    pub handler: Rc<dyn ToolHandler>,
}

/// The tools of one run. Built fresh per run, so stateful built-in tools start
/// from their seed state every time.
#[derive(Default)]
pub struct ToolRegistry {
    tools: Vec<ToolDef>,
    /// Kept beside `tools` so a model request can borrow them as a slice.
    specs: Vec<ToolSpec>,
    /// By tool name: the schema checks not run here (an MCP tool's keywords
    /// the validator lacks), which its server still runs. A call that passes
    /// says so, rather than a plain "valid".
    unchecked: Vec<(String, Vec<String>)>,
}

/// Why a call cannot run, as the model is told.
pub struct Rejection {
    pub validation: Validation,
    pub message: String,
}

impl ToolRegistry {
    pub fn new(tools: Vec<ToolDef>) -> Self {
        let specs = tools.iter().map(|t| t.spec.clone()).collect();
        ToolRegistry {
            tools,
            specs,
            unchecked: Vec::new(),
        }
    }

    /// Notes that `tool`'s schema checks `unchecked` are left to its server.
    pub fn leave_to_server(&mut self, tool: &str, unchecked: Vec<String>) {
        if !unchecked.is_empty() {
            self.unchecked.push((tool.to_string(), unchecked));
        }
    }

    /// Keeps `tool` out of what the model is told (`specs`, `names`) while
    /// its calls still run: a tool an imported conversation called without
    /// declaring it, answered from the recorded results.
    pub fn hide_from_model(&mut self, tool: &str) {
        self.specs.retain(|spec| spec.name != tool);
    }

    /// The schema checks of `tool` not run here (see `leave_to_server`).
    pub fn unchecked(&self, tool: &str) -> &[String] {
        self.unchecked
            .iter()
            .find(|(name, _)| name == tool)
            .map_or(&[], |(_, checks)| checks.as_slice())
    }

    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    pub fn names(&self) -> Vec<String> {
        self.specs.iter().map(|s| s.name.clone()).collect()
    }

    pub fn get(&self, name: &str) -> Option<&ToolDef> {
        self.tools.iter().find(|t| t.spec.name == name)
    }

    /// Checks a call's name and arguments.
    pub fn check(&self, call: &ToolCall) -> Result<&ToolDef, Rejection> {
        let Some(tool) = self.get(&call.name) else {
            let available = self.names();
            let listed = if available.is_empty() {
                "none".to_string()
            } else {
                available.join(", ")
            };
            return Err(Rejection {
                message: format!(
                    "unknown tool {}. Available tools: {listed}.",
                    crate::quote::quoted(&call.name)
                ),
                validation: Validation::UnknownTool { available },
            });
        };
        if let Some(raw) = &call.input_raw {
            let message = match serde_json::from_str::<Value>(raw) {
                // serde_json's message says where: "... at line 1 column 44".
                Err(e) => e.to_string(),
                Ok(_) => "not valid JSON".to_string(),
            };
            return Err(Rejection {
                message: format!(
                    "the arguments for {} are not valid JSON: {message}. Received: {}",
                    call.name,
                    clip(raw, 200)
                ),
                validation: Validation::UnparseableArguments { message },
            });
        }
        self.check_args(tool, &call.input)?;
        Ok(tool)
    }

    /// Validates arguments against the tool's schema (also used for edited arguments).
    pub fn check_args(&self, tool: &ToolDef, args: &Value) -> Result<(), Rejection> {
        match tool.schema.validate(args) {
            Ok(()) => Ok(()),
            Err(errors) => {
                let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
                Err(Rejection {
                    message: format!(
                        "invalid arguments for {}: {}",
                        tool.spec.name,
                        errors.join("; ")
                    ),
                    validation: Validation::SchemaViolation { errors },
                })
            }
        }
    }
}

/// A tool's value as the model reads it: strings as they are, anything else as JSON.
pub fn result_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Caps a result at `max_chars` characters and says so, so the model knows it
/// is reading part of the result.
pub fn cap_result(text: String, max_chars: Option<usize>) -> (String, bool) {
    let Some(max) = max_chars else {
        return (text, false);
    };
    let total = text.chars().count();
    if total <= max {
        return (text, false);
    }
    let cut: String = text.chars().take(max).collect();
    (
        format!(
            "{cut}\n[truncated: the result was {total} characters; only the first {max} are shown (max_result_chars {max})]"
        ),
        true,
    )
}

/// `text` cut to `max_chars` characters with `…`, for quoting what a
/// server or provider sent inside a sentence.
pub fn clip(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max_chars).collect();
        format!("{cut}…")
    }
}
