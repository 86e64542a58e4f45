//! Scenario files: loading, every problem reported with its JSON path, and
//! building a run from a loaded scenario.
//!
//! Loading reads the JSON text (a syntax error is the one problem reported
//! alone, in plain words, `syntax`), then checks it in one pass (`check`):
//! the published format (`scenario.schema.json`, checked by our own
//! validator); numbers against the Rust types that hold them (`parts`, with
//! the numbers serde_json cannot hold as written found in the text by
//! `numbers`); and
//! what a schema cannot say (unknown built-in tools, duplicate names, tool
//! schemas using unsupported keywords, bad regexes, `loop_from` out of range,
//! an inline tool with no handler or two). All of them report at once, each
//! problem with its path. Nothing in loading panics. A file with no problem
//! can also be loaded without the code that words problems (`clean`), which
//! is how the web page's engine loads it.

pub mod bounds;
mod check;
mod clean;
mod notes;
mod numbers;
mod parts;
pub mod syntax;
mod unbuffered;

use std::rc::Rc;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_schema::Schema;

use crate::approval::ApprovalPolicy;
use crate::context::ContextConfig;
use crate::limits::Limits;
use crate::mcp::config::McpServer;
use crate::mcp::{McpToolHandler, ResolvedMcp};
use crate::model::{ModelClient, Pricing, ToolSpec};
use crate::rules::RulesModel;
use crate::run::RunConfig;
use crate::runtime::Runtime;
use crate::script::{JsTool, ScriptHost};
use crate::scripted::{ScriptedModel, ScriptedResponse};
use crate::tool::{FixedResult, ToolDef, ToolRegistry};
use crate::tool_choice::ToolChoice;
use crate::tools;
use crate::verify::{Check, Verifier};

pub use notes::Note;

/// The scenario format as a JSON Schema, published for editors.
pub const SCENARIO_SCHEMA: &str = include_str!("../scenario.schema.json");

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub task: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub system: String,
    #[serde(default)]
    pub tools: Vec<ToolEntry>,
    /// Whether the model may, must, or must not call a tool (see `tool_choice`).
    #[serde(default, skip_serializing_if = "ToolChoice::is_auto")]
    pub tool_choice: ToolChoice,
    /// Servers whose tools join `tools` once resolved (see `crate::mcp`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<McpServer>,
    #[serde(default)]
    pub limits: Limits,
    /// The context window and the strategy that keeps the history in it.
    #[serde(default, skip_serializing_if = "ContextConfig::is_unset")]
    pub context: ContextConfig,
    #[serde(default)]
    pub pricing: Pricing,
    #[serde(default)]
    pub approval: ApprovalPolicy,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verify: Vec<Check>,
    /// The wall-clock time the tools see, `YYYY-MM-DDTHH:MM:SSZ`; absent: the real clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<String>,
    pub model: ModelConfig,
    /// The `mcp_servers`' tools once loaded, and who answers their calls.
    /// Never written out: a record keeps the tools beside the scenario.
    #[serde(skip)]
    pub mcp: Option<ResolvedMcp>,
}

/// Read by `unbuffered`'s `Deserialize`, as serde's untagged enum would.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ToolEntry {
    Builtin(String),
    Inline(Box<InlineTool>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineTool {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "empty_object_schema")]
    pub input_schema: Value,
    /// A JSON Schema of the tool's result, as MCP's `outputSchema`
    /// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema):
    /// it shapes the form a person answers as the tool with. Never sent to
    /// a provider: their tool definitions have no such field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    #[serde(default)]
    pub needs_approval: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// A JavaScript function body that gets the validated `args` and returns
    /// the result (see `script.rs`; it runs only in the browser's sandbox).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js: Option<String>,
    /// Simulated latency of a fixed-result tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    /// The results a transcript recorded for this tool, each with the
    /// arguments of its call: an imported conversation's tools answer with
    /// them (`tool::RecordedResults`), so it replays and forks offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Vec<crate::tool::RecordedResult>>,
    /// A tool an imported conversation called but its request did not
    /// declare (the cookbook's last request sends no `tools`): its calls
    /// are answered from `recorded`, and it is never offered to the model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undeclared: bool,
}

fn empty_object_schema() -> Value {
    serde_json::json!({"type": "object"})
}

/// Read by `unbuffered`'s `Deserialize`, as serde's tagged enum would.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModelConfig {
    Scripted {
        responses: Vec<ScriptedResponse>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        loop_from: Option<usize>,
    },
    /// The deterministic teaching model (see `rules.rs` for what it reads).
    Rules {},
}

/// One problem in a scenario file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// A dotted path such as `model.responses[2].tool_calls[0].args`; empty for the whole file.
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The path names keys from the file and the message may quote its
        // values: neither reaches the screen with a raw control character.
        let message = crate::quote::plain(&self.message);
        if self.path.is_empty() {
            f.write_str(&message)
        } else {
            let path = crate::quote::escaped(&self.path, false);
            write!(f, "{}: {message}", crate::quote::plain(&path))
        }
    }
}

fn problem(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.into(),
        message: message.into(),
    }
}

/// Turns a JSON pointer (`/model/responses/2/args`) into the dotted path
/// people read (`model.responses[2].args`).
pub fn dotted_path(pointer: &str) -> String {
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&token);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

fn scenario_schema() -> Result<&'static Schema, Problem> {
    static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let value: Value = serde_json::from_str(SCENARIO_SCHEMA).map_err(|e| e.to_string())?;
            Schema::compile(&value).map_err(|errors| {
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            })
        })
        .as_ref()
        .map_err(|e| {
            problem(
                "",
                format!("internal error: the scenario schema does not compile: {e}"),
            )
        })
}

/// The numbers of a JSON text that `serde_json` does not print as written
/// (`99999999999999999999` reads as 1e20, `1e3` prints as 1000.0), each as
/// its JSON pointer and its text; numbers past a float's range are left
/// out (such a text does not parse). An editor that rewrites a JSON keeps
/// them as typed with these.
pub fn number_spellings(text: &str) -> Vec<(String, String)> {
    numbers::Spellings::scan(text)
        .all()
        .filter(|s| !s.overflows)
        .map(|s| (s.pointer.clone(), s.text.clone()))
        .collect()
}

impl Scenario {
    /// Parses and checks a scenario file, reporting every problem found: a
    /// syntax error alone, else everything else at once.
    pub fn load(text: &str) -> Result<Scenario, Vec<Problem>> {
        let spellings = numbers::Spellings::scan(text);
        let mut value: Value = serde_json::from_str(&spellings.parseable(text))
            .map_err(|e| vec![problem("", syntax::describe(&e, text))])?;
        spellings.put_stand_ins(&mut value);
        check::check(value, &spellings)
    }

    /// The scenario in `text` when it loads with nothing to report, without
    /// running the reader that words problems (see `clean`); `None` means
    /// "ask `load`", which then either says what is wrong or loads a file
    /// that needed a change (`10.0` in an integer field).
    pub fn load_if_clean(text: &str) -> Option<Scenario> {
        clean::load_if_clean(text)
    }

    /// Checks an already parsed scenario (from a record, say) as `load`
    /// does. Numbers are as parsed: their text is gone.
    pub fn from_value(value: Value) -> Result<Scenario, Vec<Problem>> {
        check::check(value, &numbers::Spellings::default())
    }

    /// The names of the tools whose handler is a JavaScript body.
    pub fn js_tool_names(&self) -> Vec<&str> {
        self.tools
            .iter()
            .filter_map(|entry| match entry {
                ToolEntry::Inline(tool) if tool.js.is_some() => Some(tool.name.as_str()),
                _ => None,
            })
            .collect()
    }

    /// By way of a `Value`: records already turn a scenario into one (see
    /// `Record::to_jsonl`), and pretty-printing a `Value` is compiled anyway,
    /// so the web bundle needs no second serializer for scenarios.
    /// The text is the same as printing the scenario directly.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_value(self)
            .and_then(|value| serde_json::to_string_pretty(&value))
            .unwrap_or_default()
    }

    /// The tools' specs as a run sends them to the model, in file order, read
    /// without building a run: the same as `build(..)`'s `tools.specs()`. A
    /// built-in tool the harness does not have is a problem at its path, as
    /// `build` reports it (a loaded scenario has none).
    pub fn tool_specs(&self) -> Result<Vec<ToolSpec>, Vec<Problem>> {
        let listed = self.listed_tools()?;
        Ok(listed.into_iter().map(|(spec, _)| spec).collect())
    }

    /// The output schema the tool the model knows as `name` declares (an
    /// inline tool's `output_schema`, an MCP tool's `outputSchema`), if any:
    /// what a person answering as that tool fills in.
    pub fn output_schema_of(&self, name: &str) -> Option<&Value> {
        let inline = self.tools.iter().find_map(|entry| match entry {
            ToolEntry::Inline(tool) if tool.name == name => Some(tool.output_schema.as_ref()),
            _ => None,
        });
        let mcp = || {
            self.mcp
                .as_ref()?
                .tools
                .iter()
                .find(|tool| tool.name == name)?
                .output_schema
                .as_ref()
        };
        inline.flatten().or_else(mcp)
    }

    /// The tools an imported conversation called without declaring them
    /// (`InlineTool::undeclared`), in file order.
    pub fn undeclared_tools(&self) -> Vec<String> {
        self.tools
            .iter()
            .filter_map(|entry| match entry {
                ToolEntry::Inline(tool) if tool.undeclared => Some(tool.name.clone()),
                _ => None,
            })
            .collect()
    }

    /// The names of the tools whose every call waits for approval, in file
    /// order, read without building a run.
    pub fn tools_needing_approval(&self) -> Result<Vec<String>, Vec<Problem>> {
        let listed = self.listed_tools()?;
        Ok(listed
            .into_iter()
            .filter(|(_, needs_approval)| *needs_approval)
            .map(|(spec, _)| spec.name)
            .collect())
    }

    /// Each tool's spec and whether its calls need approval. An inline tool
    /// says both itself, even when a built-in handles its calls.
    fn listed_tools(&self) -> Result<Vec<(ToolSpec, bool)>, Vec<Problem>> {
        let mut listed = Vec::with_capacity(self.tools.len());
        let mut problems = Vec::new();
        for (i, entry) in self.tools.iter().enumerate() {
            match entry {
                ToolEntry::Builtin(name) => match tools::builtin(name) {
                    Some(tool) => listed.push((tool.spec, tool.needs_approval)),
                    None => problems.push(problem(format!("tools[{i}]"), unknown_builtin(name))),
                },
                // Never offered to the model: the request did not declare it.
                ToolEntry::Inline(tool) if tool.undeclared => {}
                ToolEntry::Inline(tool) => listed.push((tool.spec(), tool.needs_approval)),
            }
        }
        match (&self.mcp, self.unresolved_mcp()) {
            (Some(mcp), _) => {
                listed.extend(mcp.tools.iter().map(|t| (t.spec(), t.needs_approval)));
            }
            (None, Some(unresolved)) => problems.push(unresolved),
            (None, None) => {}
        }
        if problems.is_empty() {
            Ok(listed)
        } else {
            Err(problems)
        }
    }

    /// What the schema cannot express.
    fn semantic_problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut seen: Vec<(String, usize)> = Vec::new();
        for (i, entry) in self.tools.iter().enumerate() {
            let path = format!("tools[{i}]");
            let name = match entry {
                ToolEntry::Builtin(name) => {
                    if !tools::BUILTIN_NAMES.contains(&name.as_str()) {
                        problems.push(problem(&path, unknown_builtin(name)));
                    }
                    name
                }
                ToolEntry::Inline(tool) => {
                    let handlers = tool.handler_fields();
                    match handlers.as_slice() {
                        [] => problems.push(problem(
                            &path,
                            "an inline tool needs a handler: a fixed \"result\", a \"builtin\" tool's name, a \"js\" function body or \"recorded\" results",
                        )),
                        [_] => {}
                        several => problems.push(problem(
                            &path,
                            format!(
                                "an inline tool has exactly one handler, but this one has {}; keep one of \"result\", \"builtin\", \"js\" or \"recorded\"",
                                several.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(" and ")
                            ),
                        )),
                    }
                    if tool.undeclared && tool.recorded.is_none() {
                        problems.push(problem(
                            format!("{path}.undeclared"),
                            "\"undeclared\" marks a tool answered from \"recorded\" results (an imported conversation's); this tool has none",
                        ));
                    }
                    if let Some(builtin) = &tool.builtin {
                        if !tools::BUILTIN_NAMES.contains(&builtin.as_str()) {
                            problems
                                .push(problem(format!("{path}.builtin"), unknown_builtin(builtin)))
                        }
                    }
                    if tool.js.as_deref().is_some_and(|js| js.trim().is_empty()) {
                        problems.push(problem(
                            format!("{path}.js"),
                            "the JavaScript body is empty; it should return the tool's result, e.g. \"return {ok: true};\"",
                        ));
                    }
                    let schemas = [
                        ("input_schema", Some(&tool.input_schema)),
                        ("output_schema", tool.output_schema.as_ref()),
                    ];
                    for (field, schema) in schemas {
                        let Some(Err(errors)) = schema.map(Schema::compile) else {
                            continue;
                        };
                        for e in errors {
                            let at = format!("{path}.{field}{}", dotted_suffix(&e.schema_path));
                            problems.push(problem(at, e.message.clone()));
                        }
                    }
                    &tool.name
                }
            };
            match seen.iter().find(|(n, _)| n == name) {
                Some((_, first)) => problems.push(problem(
                    &path,
                    format!("duplicate tool name {name:?} (also tools[{first}]); tool names must be unique"),
                )),
                None => seen.push((name.clone(), i)),
            }
        }
        if let Some(now) = &self.now {
            if tools::parse_utc(now).is_none() {
                problems.push(problem(
                    "now",
                    format!("{now:?} is not a UTC time such as 2026-11-29T12:00:00Z"),
                ));
            }
        }
        if let Err(errors) = Verifier::new(self.verify.clone()) {
            for (i, message) in errors {
                problems.push(problem(format!("verify[{i}].regex"), message));
            }
        }
        let (responses, loop_from) = match &self.model {
            ModelConfig::Scripted {
                responses,
                loop_from,
            } => (responses.as_slice(), loop_from),
            ModelConfig::Rules {} => (&[][..], &None),
        };
        if let Some(from) = loop_from {
            if *from >= responses.len() {
                let script = match responses.len() {
                    0 => "the script has no responses".to_string(),
                    1 => "the script has 1 response, index 0".to_string(),
                    n => format!("the script has {n} responses, indices 0 to {}", n - 1),
                };
                problems.push(problem(
                    "model.loop_from",
                    format!("{from} is past the last response ({script})"),
                ));
            }
        }
        let tool_names: Vec<&str> = self
            .tools
            .iter()
            .map(|entry| match entry {
                ToolEntry::Builtin(name) => name.as_str(),
                ToolEntry::Inline(tool) => tool.name.as_str(),
            })
            .collect();
        // Until the servers answer, any name one of them could offer may be
        // theirs: it is judged once their tools are loaded (a call to a name
        // no one offers is then an unknown-tool result, as for local tools).
        let could_be_remote = |name: &str| match &self.mcp {
            Some(mcp) => mcp.tools.iter().any(|t| t.name == name),
            None => self.mcp_servers.iter().any(|s| s.could_offer(name)),
        };
        for (path, message) in
            crate::scripted::script_problems(responses, &tool_names, &could_be_remote)
        {
            problems.push(problem(path, message));
        }
        problems.extend(self.tool_choice_problem(&tool_names, &could_be_remote));
        for (path, message) in crate::mcp::config::problems(&self.mcp_servers) {
            problems.push(problem(path, message));
        }
        for (path, message) in self.context.problems(self.limits.max_output_tokens) {
            problems.push(problem(path, message));
        }
        problems
    }

    /// A `tool_choice` no tool can meet: a named tool the scenario lacks,
    /// or `"any"` with no tool at all.
    fn tool_choice_problem(
        &self,
        tool_names: &[&str],
        could_be_remote: &dyn Fn(&str) -> bool,
    ) -> Option<Problem> {
        let no_tools = tool_names.is_empty() && self.mcp_servers.is_empty();
        match &self.tool_choice {
            ToolChoice::Auto | ToolChoice::None => None,
            ToolChoice::Any if no_tools => Some(problem(
                "tool_choice",
                "\"any\" makes the model call a tool, but this scenario has no tools",
            )),
            ToolChoice::Any => None,
            ToolChoice::Tool(name)
                if tool_names.contains(&name.as_str()) || could_be_remote(name) =>
            {
                None
            }
            ToolChoice::Tool(name) => {
                let message = match crate::suggest::nearest(name, tool_names.iter().copied()) {
                    Some(close) => format!(
                        "no tool is named {} (did you mean `{close}`?)",
                        crate::quote::quoted(name)
                    ),
                    None if no_tools => format!(
                        "no tool is named {}: this scenario has no tools",
                        crate::quote::quoted(name)
                    ),
                    None => format!(
                        "no tool is named {}; the tools are: {}",
                        crate::quote::quoted(name),
                        tool_names.join(", ")
                    ),
                };
                Some(problem("tool_choice.tool", message))
            }
        }
    }

    /// The problem of building a run before the servers' tools are loaded.
    fn unresolved_mcp(&self) -> Option<Problem> {
        if self.mcp_servers.is_empty() || self.mcp.is_some() {
            return None;
        }
        let servers: Vec<String> = self
            .mcp_servers
            .iter()
            .map(|s| format!("{:?} at {}", s.name, s.location()))
            .collect();
        Some(problem(
            "mcp_servers",
            format!(
                "the tools of {} are not loaded yet; connect to the server first (`agent-loop run` does it before the run)",
                servers.join(", ")
            ),
        ))
    }

    /// This scenario with its MCP servers' tools loaded (`crate::mcp::resolve`).
    pub fn with_mcp(mut self, mcp: ResolvedMcp) -> Scenario {
        self.mcp = Some(mcp);
        self
    }

    /// Builds a fresh run (tools start from their seed state) and its model.
    /// JavaScript tools get no host: they answer that they run only in the browser.
    pub fn build(
        &self,
        runtime: Rc<dyn Runtime>,
    ) -> Result<(RunConfig, Box<dyn ModelClient>), Vec<Problem>> {
        self.build_with_scripts(runtime, None)
    }

    /// Like `build`, with `scripts` running the JavaScript tools.
    pub fn build_with_scripts(
        &self,
        runtime: Rc<dyn Runtime>,
        scripts: Option<Rc<dyn ScriptHost>>,
    ) -> Result<(RunConfig, Box<dyn ModelClient>), Vec<Problem>> {
        self.build_continuing_with_scripts(runtime, 0, scripts)
    }

    /// Like `build`, with a scripted model that has already answered
    /// `model_calls_done` requests (a fork continues its parent's script).
    pub fn build_continuing(
        &self,
        runtime: Rc<dyn Runtime>,
        model_calls_done: usize,
    ) -> Result<(RunConfig, Box<dyn ModelClient>), Vec<Problem>> {
        self.build_continuing_with_scripts(runtime, model_calls_done, None)
    }

    /// `build_continuing` with `scripts` running the JavaScript tools.
    pub fn build_continuing_with_scripts(
        &self,
        runtime: Rc<dyn Runtime>,
        model_calls_done: usize,
        scripts: Option<Rc<dyn ScriptHost>>,
    ) -> Result<(RunConfig, Box<dyn ModelClient>), Vec<Problem>> {
        let mut problems = self.semantic_problems();
        problems.extend(self.unresolved_mcp());
        if !problems.is_empty() {
            return Err(problems);
        }
        // One toolbox per run: built-in tools share its stores, fresh each run.
        let now = self.now.as_deref().and_then(tools::parse_utc);
        let toolbox = tools::Toolbox::new(runtime.clone(), now);
        let mut defs = Vec::with_capacity(self.tools.len());
        for (i, entry) in self.tools.iter().enumerate() {
            let path = format!("tools[{i}]");
            let def = match entry {
                ToolEntry::Builtin(name) => toolbox
                    .build(name)
                    .ok_or_else(|| vec![problem(&path, unknown_builtin(name))])?,
                ToolEntry::Inline(tool) => {
                    let js = JsSetup {
                        host: scripts.clone(),
                        tool_timeout_ms: self.limits.tool_timeout_ms,
                    };
                    inline_tool(tool, &toolbox, runtime.clone(), js)
                        .map_err(|message| vec![problem(&path, message)])?
                }
            };
            defs.push(def);
        }
        let mut left_to_server = Vec::new();
        if let Some(mcp) = &self.mcp {
            let caller = mcp.caller().ok_or_else(|| {
                vec![problem(
                    "mcp_servers",
                    "the connection that loaded these MCP tools is not open here; load the servers' tools again",
                )]
            })?;
            for tool in &mcp.tools {
                let (schema, unchecked) = crate::mcp::schema::compile(&tool.input_schema);
                left_to_server.push((tool.name.clone(), unchecked));
                defs.push(ToolDef {
                    spec: tool.spec(),
                    schema,
                    needs_approval: tool.needs_approval,
                    handler: Rc::new(McpToolHandler {
                        tool: tool.clone(),
                        caller: caller.clone(),
                    }),
                });
            }
        }
        let verifier = Verifier::new(self.verify.clone()).map_err(|errors| {
            errors
                .into_iter()
                .map(|(i, m)| problem(format!("verify[{i}].regex"), m))
                .collect::<Vec<_>>()
        })?;
        let model: Box<dyn ModelClient> = match &self.model {
            ModelConfig::Scripted {
                responses,
                loop_from,
            } => Box::new(
                ScriptedModel::new(responses.clone(), *loop_from, runtime)
                    .starting_at(model_calls_done),
            ),
            ModelConfig::Rules {} => Box::new(RulesModel),
        };
        let config = RunConfig {
            scenario_name: self.name.clone(),
            model_label: model.label(),
            system: self.system.clone(),
            task: self.task.clone(),
            limits: self.limits.clone(),
            context: self.context.clone(),
            pricing: self.pricing,
            approval: self.approval,
            verifier,
            tools: {
                let mut tools = ToolRegistry::new(defs);
                for (name, unchecked) in left_to_server {
                    tools.leave_to_server(&name, unchecked);
                }
                for name in self.undeclared_tools() {
                    tools.hide_from_model(&name);
                }
                tools
            },
            tool_choice: self.tool_choice.clone(),
        };
        Ok((config, model))
    }
}

impl InlineTool {
    /// What the model is told about this tool.
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            input_schema: self.input_schema.clone(),
        }
    }

    /// The handler fields this tool sets, in file order.
    fn handler_fields(&self) -> Vec<&'static str> {
        [
            ("result", self.result.is_some()),
            ("builtin", self.builtin.is_some()),
            ("js", self.js.is_some()),
            ("recorded", self.recorded.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }
}

/// What a JavaScript tool needs from the run being built.
struct JsSetup {
    host: Option<Rc<dyn ScriptHost>>,
    tool_timeout_ms: Option<u64>,
}

fn inline_tool(
    tool: &InlineTool,
    toolbox: &tools::Toolbox,
    runtime: Rc<dyn Runtime>,
    js: JsSetup,
) -> Result<ToolDef, String> {
    let schema = Schema::compile(&tool.input_schema).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let handler = match (&tool.result, &tool.builtin, &tool.js) {
        (None, None, None) if tool.recorded.is_some() => Rc::new(crate::tool::RecordedResults::new(
            tool.recorded.clone().unwrap_or_default(),
        ))
            as Rc<dyn crate::tool::ToolHandler>,
        _ if tool.recorded.is_some() => {
            return Err("an inline tool has exactly one handler".to_string())
        }
        (Some(result), None, None) => Rc::new(FixedResult {
            value: result.clone(),
            delay_ms: tool.delay_ms,
            runtime,
        }) as Rc<dyn crate::tool::ToolHandler>,
        (None, Some(builtin), None) => {
            toolbox
                .build(builtin)
                .ok_or_else(|| unknown_builtin(builtin))?
                .handler
        }
        (None, None, Some(source)) => Rc::new(JsTool {
            source: source.clone(),
            tool_timeout_ms: js.tool_timeout_ms,
            host: js.host,
        }),
        _ => return Err("an inline tool has exactly one handler".to_string()),
    };
    Ok(ToolDef {
        spec: tool.spec(),
        schema,
        needs_approval: tool.needs_approval,
        handler,
    })
}

/// The nearest built-in when the name looks like a typo of one, else them all.
fn unknown_builtin(name: &str) -> String {
    match crate::suggest::nearest(name, tools::BUILTIN_NAMES.iter().copied()) {
        Some(close) => format!(
            "unknown built-in tool {} (did you mean `{close}`?)",
            crate::quote::quoted(name)
        ),
        None => format!(
            "unknown built-in tool {}; the built-in tools are: {}",
            crate::quote::quoted(name),
            tools::BUILTIN_NAMES.join(", ")
        ),
    }
}

fn dotted_suffix(pointer: &str) -> String {
    let dotted = dotted_path(pointer);
    if dotted.is_empty() || dotted.starts_with('[') {
        dotted
    } else {
        format!(".{dotted}")
    }
}

#[cfg(test)]
mod tests {
    use super::{dotted_path, Scenario};

    fn load_tool(tool: serde_json::Value) -> Result<Scenario, Vec<String>> {
        let text = serde_json::json!({
            "name": "t", "task": "t", "tools": [tool],
            "model": {"type": "scripted", "responses": [{"text": "ok"}]}
        })
        .to_string();
        Scenario::load(&text).map_err(|ps| ps.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn a_js_tool_loads_with_its_body() {
        let scenario = load_tool(serde_json::json!({"name": "double", "js": "return args.n * 2;"}))
            .expect("loads");
        let super::ToolEntry::Inline(tool) = &scenario.tools[0] else {
            panic!("not inline");
        };
        assert_eq!(tool.js.as_deref(), Some("return args.n * 2;"));
    }

    #[test]
    fn a_tool_with_two_handlers_or_none_is_a_problem_at_its_path() {
        assert_eq!(
            load_tool(serde_json::json!({"name": "x", "js": "return 1;", "result": 1})),
            Err(vec![
                "tools[0]: an inline tool has exactly one handler, but this one has \"result\" and \"js\"; keep one of \"result\", \"builtin\", \"js\" or \"recorded\"".to_string()
            ])
        );
        let both =
            load_tool(serde_json::json!({"name": "x", "js": "return 1;", "builtin": "get_time"}))
                .unwrap_err();
        assert_eq!(both.len(), 1);
        assert!(both[0].contains("\"builtin\" and \"js\""), "{both:?}");
        let none = load_tool(serde_json::json!({"name": "x"})).unwrap_err();
        assert!(
            none[0].starts_with("tools[0]: an inline tool needs a handler"),
            "{none:?}"
        );
        assert!(none[0].contains("\"js\" function body"), "{none:?}");
    }

    #[test]
    fn a_js_body_must_be_a_non_empty_string() {
        assert_eq!(
            load_tool(serde_json::json!({"name": "x", "js": "  \n"})),
            Err(vec![
                "tools[0].js: the JavaScript body is empty; it should return the tool's result, e.g. \"return {ok: true};\"".to_string()
            ])
        );
        let not_text = load_tool(serde_json::json!({"name": "x", "js": 42})).unwrap_err();
        assert_eq!(not_text.len(), 1);
        assert!(not_text[0].starts_with("tools[0].js: "), "{not_text:?}");
    }

    #[test]
    fn pointers_read_as_dotted_paths() {
        assert_eq!(dotted_path(""), "");
        assert_eq!(
            dotted_path("/model/responses/2/tool_calls/0/args"),
            "model.responses[2].tool_calls[0].args"
        );
        assert_eq!(dotted_path("/tools/1/a~1b"), "tools[1].a/b");
    }
}
