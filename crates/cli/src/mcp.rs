//! MCP from the command line: `agent-loop mcp tools URL`, `agent-loop mcp
//! call URL TOOL ARGUMENTS`, and loading a
//! scenario's `mcp_servers` before `run` (over http or https, on the same
//! client as providers: `crate::http`).

use std::process::ExitCode;
use std::rc::Rc;

use harness::mcp::config::{McpServer, Secret};
use harness::mcp::resolve::resolve;
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
use crate::report_problems;

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
    let headers = match parse_headers(&args.headers) {
        Ok(headers) => headers,
        Err(message) => return crate::usage::usage_error(&message, Some("mcp call")),
    };
    let arguments: Value = match serde_json::from_str(&args.arguments) {
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
    let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp::new());
    let outcome = local.block_on(&runtime, async {
        let session = Session::connect(&args.url, headers, transport).await?;
        eprintln!(
            "{}{} speaks {}: calling {}",
            args.url,
            session
                .server_info()
                .map(|i| format!(" ({i})"))
                .unwrap_or_default(),
            session.protocol_version(),
            args.tool
        );
        let params = json!({"name": args.tool, "arguments": arguments});
        // The server may ask for elicitation on the session's standalone
        // stream rather than the call's: listen there too, or it would wait
        // on an answer that never comes.
        let call = standalone::while_listening(&session, session.request("tools/call", params));
        let result = call.await;
        for method in session.take_declined() {
            eprintln!("{}", declined_line(&method));
        }
        Ok::<_, McpError>(result)
    });
    match outcome {
        Err(why) => {
            eprintln!(
                "agent-loop: cannot reach the MCP server at {}: {why}",
                args.url
            );
            ExitCode::from(2)
        }
        // The server refused the call itself (a JSON-RPC error, an HTTP
        // error, a stream that ended without the answer): no tool result.
        Ok(Err(failure)) => {
            eprintln!("agent-loop: tools/call {} failed: {failure}", args.tool);
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
                eprintln!("{} answered with an error result:", args.tool);
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
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let local = LocalSet::new();
    let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp::new());
    let listed = local.block_on(&runtime, async {
        let session = Session::connect(&args.url, headers.clone(), transport).await?;
        let listed = tools::list(&session).await?;
        Ok::<_, McpError>((session, listed))
    });
    let (session, listed) = match listed {
        Ok(found) => found,
        Err(why) => {
            eprintln!("agent-loop: cannot list the tools of {}: {why}", args.url);
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "{}{} speaks {}: {} tool{}",
        args.url,
        session
            .server_info()
            .map(|i| format!(" ({i})"))
            .unwrap_or_default(),
        session.protocol_version(),
        listed.len(),
        if listed.len() == 1 { "" } else { "s" }
    );
    // Approval is read from the hints alone here: no scenario overrides it.
    let server = McpServer {
        name: "server".to_string(),
        url: args.url.clone(),
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
    eprintln!(
        "note: pasted into \"tools\", each needs a handler (\"result\", \"builtin\" or \"js\") to run without the server; to call the server itself, add \"mcp_servers\": [{{\"name\": \"NAME\", \"url\": \"{}\"}}]",
        args.url
    );
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
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
    let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp::new());
    match local.block_on(runtime, resolve(scenario, transport)) {
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

/// Gives cancellation notices still on their way (spawned as a call was
/// dropped) a moment to be sent before the process ends.
pub fn send_pending(runtime: &tokio::runtime::Runtime, local: LocalSet) {
    runtime.block_on(async {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), local).await;
    });
}
