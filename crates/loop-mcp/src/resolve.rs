//! A scenario's `mcp_servers`, reached and listed: the tools a run can call,
//! and for each server a report of who answered, in which protocol version,
//! with how many tools. A server that cannot be reached or refuses is a
//! problem at its path, never a server with no tools.

use std::collections::HashMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use super::config::{command_line, prefixed, McpServer};
use super::session::Session;
use super::tools::{self, ListedTool};
use super::transport::McpTransport;
use super::{connect, McpCaller, McpTool};
use crate::scenario::{Problem, Scenario, ToolEntry};
use crate::tool::ToolOutput;

/// What loading one server found.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerReport {
    /// The scenario's name for it.
    pub name: String,
    /// Where it is: its URL, or its command (`McpServer::location`).
    pub url: String,
    /// `name version` as the server introduced itself, when it did.
    pub server_info: Option<String>,
    /// The version, and the transport when it is the old HTTP+SSE one.
    pub protocol_version: String,
    /// The tools the scenario takes from it (after `allowed_tools`).
    pub tools: usize,
    /// How many of those have checks left to the server.
    pub tools_with_checks_left: usize,
}

impl std::fmt::Display for ServerReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MCP server {:?} at {}{} speaks {}: {} tool{}",
            self.name,
            self.url,
            self.server_info
                .as_ref()
                .map(|i| format!(" ({i})"))
                .unwrap_or_default(),
            self.protocol_version,
            self.tools,
            if self.tools == 1 { "" } else { "s" }
        )?;
        if self.tools_with_checks_left > 0 {
            write!(
                f,
                ", {} with schema checks left to the server",
                self.tools_with_checks_left
            )?;
        }
        Ok(())
    }
}

/// Reaches every server of `scenario` over `transport` (HTTP: the page,
/// which cannot start a server's `command`, says so for each such server)
/// and returns it with their tools loaded, and a report per server; or
/// every problem, each at its path.
pub async fn resolve(
    scenario: Scenario,
    transport: Rc<dyn McpTransport>,
) -> Result<(Scenario, Vec<ServerReport>), Vec<Problem>> {
    resolve_each(scenario, |server| {
        if server.command.is_empty() {
            Ok(transport.clone())
        } else {
            let command = command_line(&server.command);
            Err(format!("the page cannot start `{command}`; run `agent-loop mcp bridge -- {command}` and use the URL and token it prints"))
        }
    })
    .await
}

/// As [`resolve`], with each server reached through the transport
/// `transport_for` gives it (a started process for a `command`, HTTP for a
/// `url`), or a problem at the server's path when it gives none.
pub async fn resolve_each(
    scenario: Scenario,
    transport_for: impl Fn(&McpServer) -> Result<Rc<dyn McpTransport>, String>,
) -> Result<(Scenario, Vec<ServerReport>), Vec<Problem>> {
    let mut problems = Vec::new();
    let mut listed: Vec<(usize, Rc<Session>, Vec<ListedTool>)> = Vec::new();
    for (i, server) in scenario.mcp_servers.iter().enumerate() {
        let at = format!("mcp_servers[{i}]");
        let location = server.location();
        let transport = match transport_for(server) {
            Ok(transport) => transport,
            Err(why) => {
                let at = if server.command.is_empty() {
                    at
                } else {
                    format!("{at}.command")
                };
                problems.push(problem(at, why));
                continue;
            }
        };
        let headers = server
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let session = match Session::connect(&server.url, headers, transport).await {
            Ok(session) => session,
            Err(why) => {
                problems.push(problem(
                    &at,
                    format!(
                        "cannot load the tools of {:?} at {location}: {why}",
                        server.name
                    ),
                ));
                continue;
            }
        };
        let offered = match tools::list(&session).await {
            Ok(offered) => offered,
            Err(why) => {
                problems.push(problem(
                    &at,
                    format!("{:?} at {location}: {why}", server.name),
                ));
                continue;
            }
        };
        let taken: Vec<ListedTool> = match &server.allowed_tools {
            None => offered,
            Some(allowed) => {
                for (k, name) in allowed.iter().enumerate() {
                    if !offered.iter().any(|t| &t.name == name) {
                        let names: Vec<&str> = offered.iter().map(|t| t.name.as_str()).collect();
                        problems.push(problem(
                            format!("{at}.allowed_tools[{k}]"),
                            format!(
                                "{:?} does not offer {name:?}{}; it offers: {}",
                                server.name,
                                crate::suggest::did_you_mean(name, names.iter().copied()),
                                if names.is_empty() {
                                    "no tools".to_string()
                                } else {
                                    names.join(", ")
                                }
                            ),
                        ));
                    }
                }
                offered
                    .into_iter()
                    .filter(|t| allowed.contains(&t.name))
                    .collect()
            }
        };
        listed.push((i, session, taken));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // A name offered twice (by two servers, or by a server and the
    // scenario) is prefixed with its server's name wherever a server offers it.
    let mut count: HashMap<String, usize> = HashMap::new();
    for entry in &scenario.tools {
        let name = match entry {
            ToolEntry::Builtin(name) => name.clone(),
            ToolEntry::Inline(tool) => tool.name.clone(),
        };
        *count.entry(name).or_default() += 1;
    }
    for (_, _, taken) in &listed {
        for tool in taken {
            *count.entry(tool.name.clone()).or_default() += 1;
        }
    }
    let mut run_tools = Vec::new();
    let mut reports = Vec::new();
    let mut sessions = Vec::new();
    for (i, session, taken) in listed {
        let server = &scenario.mcp_servers[i];
        let tools: Vec<McpTool> = taken
            .iter()
            .map(|tool| {
                let name = if count[&tool.name] > 1 {
                    prefixed(&server.name, &tool.name)
                } else {
                    tool.name.clone()
                };
                tools::to_run_tool(server, tool, name)
            })
            .collect();
        reports.push(ServerReport {
            name: server.name.clone(),
            url: server.location(),
            server_info: session.server_info(),
            protocol_version: session.speaks(),
            tools: tools.len(),
            tools_with_checks_left: tools
                .iter()
                .filter(|t| !t.left_to_server.is_empty())
                .count(),
        });
        run_tools.extend(tools);
        sessions.push((server.name.clone(), session));
    }
    let caller = Rc::new(LiveCaller { sessions });
    Ok((scenario.with_mcp(connect(run_tools, caller)), reports))
}

fn problem(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.into(),
        message: message.into(),
    }
}

/// Calls go to the server that listed the tool, under the server's name for it.
pub struct LiveCaller {
    sessions: Vec<(String, Rc<Session>)>,
}

impl McpCaller for LiveCaller {
    fn call(
        &self,
        tool: &McpTool,
        args: Value,
    ) -> LocalBoxFuture<'static, Result<ToolOutput, String>> {
        match self.sessions.iter().find(|(name, _)| *name == tool.server) {
            Some((_, session)) => session.call_tool(&tool.remote_name, args),
            None => {
                let message = format!(
                    "no connection to the MCP server {:?} in this run",
                    tool.server
                );
                Box::pin(async move { Err(message) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{HttpRequest, HttpResponse};
    use futures::FutureExt;

    /// A transport no request may reach: the page's, for a server it must
    /// not try.
    struct Unused;

    impl McpTransport for Unused {
        fn post(
            &self,
            request: HttpRequest,
        ) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
            panic!(
                "nothing is sent for a command server, yet {} was",
                request.body
            )
        }
        fn get(
            &self,
            request: HttpRequest,
        ) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
            panic!(
                "nothing is sent for a command server, yet GET {} was",
                request.url
            )
        }
        fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
            Box::pin(async {})
        }
        fn spawn(&self, _task: LocalBoxFuture<'static, ()>) {}
    }

    #[test]
    fn over_http_alone_a_command_server_says_to_bridge_it() {
        let scenario = Scenario::load(
            r#"{"name": "t", "task": "x",
                "mcp_servers": [{"name": "time", "command": ["uvx", "mcp-server-time"]}],
                "model": {"type": "scripted", "responses": [{"text": "ok"}]}}"#,
        )
        .unwrap();
        let problems = resolve(scenario, Rc::new(Unused))
            .now_or_never()
            .expect("nothing to wait for")
            .unwrap_err();
        assert_eq!(
            problems,
            vec![problem(
                "mcp_servers[0].command",
                "the page cannot start `uvx mcp-server-time`; run `agent-loop mcp bridge -- uvx mcp-server-time` and use the URL and token it prints"
            )]
        );
    }
}
