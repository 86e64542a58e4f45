//! MCP from the command line: `agent-loop mcp tools URL`, and loading a
//! scenario's `mcp_servers` before `run` (over plain HTTP, as providers are).

use std::process::ExitCode;
use std::rc::Rc;

use harness::event::{EventKind, RunEvent, Validation};
use harness::mcp::config::{McpServer, Secret};
use harness::mcp::resolve::resolve;
use harness::mcp::session::Session;
use harness::mcp::tools;
use harness::mcp::transport::McpTransport;
use harness::scenario::Scenario;
use serde_json::{json, Value};
use tokio::task::LocalSet;

use crate::args::{McpArgs, McpCommand, McpToolsArgs};
use crate::http::NativeHttp;
use crate::report_problems;

pub fn command(args: &McpArgs) -> ExitCode {
    match &args.command {
        McpCommand::Tools(args) => tools_command(args),
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
    let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp);
    let listed = local.block_on(&runtime, async {
        let session = Session::connect(&args.url, headers.clone(), transport).await?;
        let listed = tools::list(&session).await?;
        Ok::<_, String>((session, listed))
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
    let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp);
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

/// Under a valid call to an MCP tool whose schema has checks this harness
/// does not run: which ones the server alone checks.
pub fn left_to_server_line(scenario: &Scenario, event: &RunEvent) -> Option<String> {
    let EventKind::ToolCall {
        name,
        validation: Validation::Valid,
        ..
    } = &event.kind
    else {
        return None;
    };
    let tool = scenario
        .mcp
        .as_ref()?
        .tools
        .iter()
        .find(|t| &t.name == name)?;
    (!tool.left_to_server.is_empty()).then(|| {
        format!(
            "           checked here but for what is left to the server: {}",
            tool.left_to_server.join("; ")
        )
    })
}

/// Gives cancellation notices still on their way (spawned as a call was
/// dropped) a moment to be sent before the process ends.
pub fn send_pending(runtime: &tokio::runtime::Runtime, local: LocalSet) {
    runtime.block_on(async {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), local).await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::mcp::{connect, McpCaller, McpTool};

    struct Never;

    impl McpCaller for Never {
        fn call(
            &self,
            _: &McpTool,
            _: Value,
        ) -> futures::future::LocalBoxFuture<'static, Result<Value, String>> {
            Box::pin(futures::future::pending())
        }
    }

    #[test]
    fn a_valid_call_says_which_checks_only_the_server_runs() {
        let text = json!({"name": "t", "task": "t",
            "mcp_servers": [{"name": "s", "url": "http://h/mcp"}],
            "model": {"type": "scripted", "responses": [{"text": "ok"}]}})
        .to_string();
        let tool = McpTool {
            server: "s".into(),
            name: "pick".into(),
            remote_name: "pick".into(),
            title: None,
            description: String::new(),
            input_schema: json!({"type": "object", "unevaluatedProperties": false}),
            needs_approval: false,
            annotations: Value::Null,
            left_to_server: vec!["/unevaluatedProperties: not checked here".into()],
        };
        let scenario = Scenario::load(&text)
            .unwrap()
            .with_mcp(connect(vec![tool], std::rc::Rc::new(Never)));
        let event: RunEvent =
            serde_json::from_value(json!({"seq": 3, "t_ms": 0, "type": "tool_call",
            "turn": 1, "id": "toolu_1", "name": "pick", "args": {},
            "validation": {"outcome": "valid"}, "needs_approval": false}))
            .unwrap();
        assert_eq!(
            left_to_server_line(&scenario, &event).as_deref(),
            Some("           checked here but for what is left to the server: /unevaluatedProperties: not checked here")
        );
    }
}
