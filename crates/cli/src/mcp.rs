//! MCP from the command line: `agent-loop mcp tools URL|-- CMD`,
//! `agent-loop mcp call URL TOOL ARGUMENTS` (or `TOOL ARGUMENTS -- CMD`),
//! and loading a scenario's `mcp_servers` before `run`: over http or https
//! on the same client as providers (`crate::http`), or over a started
//! process's stdio (`crate::mcp_stdio`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use harness::mcp::config::{McpServer, Secret};
use harness::mcp::resolve::resolve_each;
use harness::mcp::session::{Session, ELICITATION};
use harness::mcp::standalone;
use harness::mcp::tools;
use harness::mcp::transport::McpTransport;
use harness::mcp::McpError;
use harness::scenario::Scenario;
use serde_json::{json, Value};
use tokio::task::LocalSet;

use crate::args::{McpArgs, McpCallArgs, McpCommand, McpToolsArgs};
use crate::http::NativeHttp;
use crate::mcp_stdio::StdioTransport;
use crate::report_problems;
use crate::stdio_server::StdioServer;

pub fn command(args: &McpArgs) -> ExitCode {
    match &args.command {
        McpCommand::Tools(args) => tools_command(args),
        McpCommand::Call(args) => call_command(args),
        McpCommand::Bridge(args) => crate::bridge::command(args),
    }
}

/// `mcp call`: one `tools/call` through the same session code a run uses
/// (generation, SSE, resumption), so what works here works in a run.
fn call_command(args: &McpCallArgs) -> ExitCode {
    // With a command after --, there is no URL: the words shift left.
    let (url, tool, arguments) = if args.command.is_empty() {
        let Some(tool) = &args.second else {
            return crate::usage::usage_error(
                "give the tool to call after the URL, e.g. `agent-loop mcp call http://127.0.0.1:3001/mcp add '{\"a\": 2}'`",
                Some("mcp call"),
            );
        };
        (Some(args.first.as_str()), tool, args.third.as_deref())
    } else {
        if args.third.is_some() {
            return crate::usage::usage_error(
                "with a command after --, give TOOL [ARGUMENTS] and no URL, e.g. `agent-loop mcp call get_current_time '{\"timezone\": \"UTC\"}' -- uvx mcp-server-time`",
                Some("mcp call"),
            );
        }
        (None, &args.first, args.second.as_deref())
    };
    let headers = match parse_headers(&args.headers) {
        Ok(headers) => headers,
        Err(message) => return crate::usage::usage_error(&message, Some("mcp call")),
    };
    if url.is_none() && !headers.is_empty() {
        return crate::usage::usage_error(
            "--header goes with a URL; a server started from a command gets no headers",
            Some("mcp call"),
        );
    }
    let arguments: Value = match serde_json::from_str(arguments.unwrap_or("{}")) {
        Ok(value @ Value::Object(_)) => value,
        Ok(other) => {
            return crate::usage::usage_error(
                &format!("ARGUMENTS must be a JSON object, e.g. '{{\"a\": 2}}'; got {other}"),
                Some("mcp call"),
            )
        }
        Err(e) => {
            return crate::usage::usage_error(
                &format!("ARGUMENTS is not JSON ({e}); write a JSON object, e.g. '{{\"a\": 2}}'"),
                Some("mcp call"),
            )
        }
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let local = LocalSet::new();
    let outcome = local.block_on(&runtime, async {
        let reached = Reached::open(url, &args.command, &args.oauth)?;
        let session = Session::connect(&reached.shown, headers, reached.transport.clone())
            .await
            .map_err(|why| {
                format!(
                    "cannot reach the MCP server at {}: {}",
                    reached.shown,
                    reached.explain(why)
                )
            })?;
        eprintln!(
            "{}{} speaks {}: calling {}",
            reached.shown,
            session
                .server_info()
                .map(|i| format!(" ({i})"))
                .unwrap_or_default(),
            session.speaks(),
            tool
        );
        let params = json!({"name": tool, "arguments": arguments});
        // The server may ask for elicitation on the session's standalone
        // stream rather than the call's: listen there too, or it would wait
        // on an answer that never comes.
        let call = standalone::while_listening(&session, session.request("tools/call", params));
        let result = call.await;
        for method in session.take_declined() {
            eprintln!("{}", declined_line(&method));
        }
        Ok::<_, String>(result.map_err(|failure| reached.explain(failure)))
    });
    match outcome {
        Err(why) => {
            eprintln!("agent-loop: {why}");
            ExitCode::from(2)
        }
        // The server refused the call itself (a JSON-RPC error, an HTTP
        // error, a stream that ended without the answer): no tool result.
        Ok(Err(failure)) => {
            eprintln!("agent-loop: tools/call {tool} failed: {failure}");
            ExitCode::from(2)
        }
        Ok(Ok(result)) => match harness::mcp::content::tool_result(&result) {
            // The media's own lines ("[image: image/png, 4033 bytes]") are
            // in the text; the bytes are for a model, not a terminal.
            Ok(output) => {
                println!("{}", text_of(&output.value));
                ExitCode::SUCCESS
            }
            Err(text) => {
                eprintln!("{tool} answered with an error result:");
                println!("{text}");
                ExitCode::from(1)
            }
        },
    }
}

/// What `mcp call` says of a request of the server's own it declined.
fn declined_line(method: &str) -> String {
    if method == ELICITATION {
        "note: the server asked for input from the user (elicitation/create) during the call; agent-loop has no one to ask, so it declined at once ({\"action\": \"decline\"})".to_string()
    } else {
        format!("note: the server asked agent-loop for {method} during the call, which it does not offer: declined at once with an error")
    }
}

/// A result's text as the model reads it: a string as it is, anything
/// else as JSON.
fn text_of(result: &Value) -> String {
    match result {
        Value::String(text) => text.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

fn tools_command(args: &McpToolsArgs) -> ExitCode {
    let headers = match parse_headers(&args.headers) {
        Ok(headers) => headers,
        Err(message) => return crate::usage::usage_error(&message, Some("mcp tools")),
    };
    if args.url.is_none() && !headers.is_empty() {
        return crate::usage::usage_error(
            "--header goes with a URL; a server started from a command gets no headers",
            Some("mcp tools"),
        );
    }
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let local = LocalSet::new();
    let listed = local.block_on(&runtime, async {
        let reached = Reached::open(args.url.as_deref(), &args.command, &args.oauth)?;
        let listed = async {
            let session =
                Session::connect(&reached.shown, headers.clone(), reached.transport.clone())
                    .await?;
            let listed = tools::list(&session).await?;
            Ok::<_, McpError>((session, listed))
        };
        listed.await.map_err(|why| {
            format!(
                "cannot list the tools of {}: {}",
                reached.shown,
                reached.explain(why)
            )
        })
    });
    let (session, listed) = match listed {
        Ok(found) => found,
        Err(why) => {
            eprintln!("agent-loop: {why}");
            return ExitCode::from(2);
        }
    };
    let shown = match &args.url {
        Some(url) => url.clone(),
        None => format!("`{}`", harness::mcp::config::command_line(&args.command)),
    };
    eprintln!(
        "{}{} speaks {}: {} tool{}",
        shown,
        session
            .server_info()
            .map(|i| format!(" ({i})"))
            .unwrap_or_default(),
        session.speaks(),
        listed.len(),
        if listed.len() == 1 { "" } else { "s" }
    );
    // Approval is read from the hints alone here: no scenario overrides it.
    let server = McpServer {
        name: "server".to_string(),
        url: args.url.clone().unwrap_or_default(),
        command: args.command.clone(),
        env: Default::default(),
        cwd: None,
        allowed_tools: None,
        headers: Default::default(),
        approval: None,
    };
    let mut out = Vec::new();
    for tool in &listed {
        let (_, checked, left) = harness::mcp::schema::compile_checked(&tool.input_schema);
        for line in &left {
            eprintln!("  {}: left to the server: {line}", tool.name);
        }
        let mut entry = json!({
            "name": tool.name,
            "description": tool.description,
            "input_schema": checked,
        });
        if tools::needs_approval(&server, tool) {
            entry["needs_approval"] = Value::Bool(true);
        }
        out.push(entry);
    }
    let where_it_is = match &args.url {
        Some(url) => format!("\"url\": {}", json!(url)),
        None => format!("\"command\": {}", json!(args.command)),
    };
    eprintln!(
        "note: pasted into \"tools\", each needs a handler (\"result\", \"builtin\" or \"js\") to run without the server; to call the server itself, add \"mcp_servers\": [{{\"name\": \"NAME\", {where_it_is}}}]"
    );
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
}

/// The server `mcp tools` or `mcp call` speaks to: at a URL, or a command
/// started here (in the current folder) and spoken to over stdio.
struct Reached {
    /// The URL, or the command as typed, for messages.
    shown: String,
    transport: Rc<dyn McpTransport>,
    stdio: Option<Rc<StdioTransport>>,
    oauth: Option<Rc<crate::oauth::OAuthHttp>>,
}

impl Reached {
    /// Starts the command, if it is one. Runs inside the runtime: the
    /// process's pipes need its reactor.
    fn open(
        url: Option<&str>,
        command: &[String],
        oauth: &crate::oauth::OAuthArgs,
    ) -> Result<Reached, String> {
        match url {
            // A server protected with OAuth is signed in to as it asks.
            Some(url) => {
                let http = Rc::new(NativeHttp::new());
                let oauth = Rc::new(crate::oauth::OAuthHttp::new(http, url, oauth));
                Ok(Reached {
                    shown: url.to_string(),
                    transport: oauth.clone(),
                    stdio: None,
                    oauth: Some(oauth),
                })
            }
            None => {
                let server = StdioServer::spawn(command, &BTreeMap::new(), None)?;
                let stdio = Rc::new(StdioTransport::new(server));
                Ok(Reached {
                    shown: format!("`{}`", stdio.command_line()),
                    transport: stdio.clone(),
                    stdio: Some(stdio),
                    oauth: None,
                })
            }
        }
    }

    /// Why a request failed: for a started server that ended or wrote
    /// something that is not JSON-RPC, that, in its own words (the session
    /// would wrap it once per generation it tried); the same for a server
    /// that refused and could not be signed in to; else `why`.
    fn explain(&self, why: impl std::fmt::Display) -> String {
        let refused = self.oauth.as_ref().and_then(|oauth| oauth.refusal());
        let ended = || self.stdio.as_ref().and_then(|stdio| stdio.ended());
        refused.or_else(ended).unwrap_or_else(|| why.to_string())
    }
}

/// `Name: value` pairs from `--header`.
fn parse_headers(raw: &[String]) -> Result<Vec<(String, Secret)>, String> {
    raw.iter()
        .map(|header| match header.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), Secret::new(value.trim())))
            }
            _ => Err(format!(
                "--header {header:?} is not NAME: VALUE, e.g. \"Authorization: Bearer …\""
            )),
        })
        .collect()
}

/// `scenario` without the MCP tools it holds (a record's, answered from its
/// results), so `load_tools` reaches its servers again.
pub fn unloaded(mut scenario: Scenario) -> Scenario {
    scenario.mcp = None;
    scenario
}

/// Loads the tools of `scenario`'s MCP servers (a report per server on
/// stderr), or reports every problem (exit 2). A scenario without servers
/// comes back as it is.
pub fn load_tools(
    runtime: &tokio::runtime::Runtime,
    local: &LocalSet,
    scenario: Scenario,
    source: &str,
) -> Result<Scenario, ExitCode> {
    if scenario.mcp_servers.is_empty() || scenario.mcp.is_some() {
        return Ok(scenario);
    }
    let http: Rc<dyn McpTransport> = Rc::new(NativeHttp::new());
    let folder = scenario_folder(source);
    let names: Vec<String> = scenario
        .mcp_servers
        .iter()
        .map(|s| s.name.clone())
        .collect();
    // The started servers, by name, to say why one ended.
    let started: RefCell<Vec<(String, Rc<StdioTransport>)>> = RefCell::new(Vec::new());
    let transport_for = |server: &McpServer| -> Result<Rc<dyn McpTransport>, String> {
        if server.command.is_empty() {
            // A server protected with OAuth is signed in to as it asks.
            return Ok(Rc::new(crate::oauth::OAuthHttp::for_run(
                http.clone(),
                &server.url,
            )));
        }
        let env = server
            .env
            .iter()
            .map(|(name, value)| (name.clone(), value.expose().to_string()))
            .collect();
        let cwd = match &server.cwd {
            Some(cwd) => folder.join(cwd),
            None => folder.clone(),
        };
        let stdio = Rc::new(StdioTransport::new(StdioServer::spawn(
            &from_folder(&server.command, &cwd),
            &env,
            Some(&cwd),
        )?));
        started
            .borrow_mut()
            .push((server.name.clone(), stdio.clone()));
        Ok(stdio)
    };
    let resolved = local.block_on(runtime, resolve_each(scenario, transport_for));
    match resolved.map_err(|problems| with_ends(problems, &names, &started.borrow())) {
        Ok((scenario, reports)) => {
            for report in &reports {
                eprintln!("{report}");
            }
            if let Some(mcp) = &scenario.mcp {
                for tool in mcp.tools.iter().filter(|t| !t.left_to_server.is_empty()) {
                    for line in &tool.left_to_server {
                        eprintln!("  {}: left to the server: {line}", tool.name);
                    }
                }
            }
            Ok(scenario)
        }
        Err(problems) => {
            report_problems(source, &problems);
            Err(ExitCode::from(2))
        }
    }
}

/// The folder a scenario's server commands run in by default: the
/// scenario file's, or the current one for a built-in or standard input.
fn scenario_folder(source: &str) -> PathBuf {
    let path = Path::new(source);
    match path.parent() {
        Some(parent) if path.is_file() && !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `command` with a relative path to its program (`bin/server`, not a
/// bare name looked up on PATH) made to start from `cwd`, where the
/// scenario says it is: the operating system would otherwise read it
/// against agent-loop's own folder or the child's, depending on the platform.
fn from_folder(command: &[String], cwd: &Path) -> Vec<String> {
    let mut command = command.to_vec();
    if let Some(program) = command.first_mut() {
        let path = Path::new(program.as_str());
        if path.is_relative() && path.components().count() > 1 {
            *program = cwd.join(path).display().to_string();
        }
    }
    command
}

/// `problems` with a started server's own end (it exited, or wrote
/// something that is not JSON-RPC) as the problem at its path, in place of
/// what the session made of it.
fn with_ends(
    mut problems: Vec<harness::scenario::Problem>,
    names: &[String],
    started: &[(String, Rc<StdioTransport>)],
) -> Vec<harness::scenario::Problem> {
    for (name, stdio) in started {
        let Some(ended) = stdio.ended() else { continue };
        let Some(index) = names.iter().position(|n| n == name) else {
            continue;
        };
        let at = format!("mcp_servers[{index}]");
        for problem in problems.iter_mut().filter(|p| p.path == at) {
            problem.message = ended.clone();
        }
    }
    problems
}

/// Gives cancellation notices still on their way (spawned as a call was
/// dropped) a moment to be sent before the process ends.
pub fn send_pending(runtime: &tokio::runtime::Runtime, local: LocalSet) {
    runtime.block_on(async {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), local).await;
    });
}
