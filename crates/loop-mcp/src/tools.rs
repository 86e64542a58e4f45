//! `tools/list`, followed through `nextCursor` to the end, and what a run
//! makes of each listed tool: its approval from the server's hints (or the
//! scenario's override) and the checks its schema leaves to the server.

use crate::error::McpError;
use serde_json::{json, Value};

use super::config::McpServer;
use super::session::Session;
use super::McpTool;

/// Pages past this many are refused: a server whose cursor never ends.
const MAX_PAGES: usize = 100;

/// A tool as the server listed it.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedTool {
    pub name: String,
    /// The server's display name for it, if it gave one.
    pub title: Option<String>,
    pub description: String,
    pub input_schema: Value,
    /// Its `outputSchema`, when it declares the shape of its structured
    /// result (MCP 2025-06-18 and later).
    pub output_schema: Option<Value>,
    pub annotations: Value,
}

/// Every tool the server lists, across all its pages.
pub async fn list(session: &Session) -> Result<Vec<ListedTool>, McpError> {
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let params = match &cursor {
            Some(cursor) => json!({"cursor": cursor}),
            None => json!({}),
        };
        let page = session
            .request("tools/list", params)
            .await
            .map_err(McpError::ToolsList)?;
        let Some(listed) = page.get("tools").and_then(Value::as_array) else {
            return Err(McpError::BadToolList(format!(
                "tools/list answered without a \"tools\" array: {}",
                crate::tool::clip(&page.to_string(), 200)
            )));
        };
        for tool in listed {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                return Err(McpError::BadToolList(format!(
                    "tools/list listed a tool without a name: {}",
                    crate::tool::clip(&tool.to_string(), 200)
                )));
            };
            tools.push(ListedTool {
                name: name.to_string(),
                title: tool
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                description: tool
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                input_schema: tool
                    .get("inputSchema")
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "object"})),
                output_schema: tool.get("outputSchema").filter(|s| s.is_object()).cloned(),
                annotations: tool.get("annotations").cloned().unwrap_or(Value::Null),
            });
        }
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) if cursor.as_deref() == Some(next) => {
                return Err(McpError::BadToolList(format!(
                    "tools/list returned the same cursor {next:?} twice"
                )))
            }
            Some(next) => cursor = Some(next.to_string()),
            None => return Ok(tools),
        }
    }
    Err(McpError::BadToolList(format!(
        "tools/list went on for more than {MAX_PAGES} pages"
    )))
}

/// Whether calls need approval: the scenario's override wins; else a
/// read-only tool does not, and any other does unless it says it is not
/// destructive (the spec's default for `destructiveHint` is true). Hints
/// come from an untrusted server, so the safe reading is the default.
pub fn needs_approval(server: &McpServer, tool: &ListedTool) -> bool {
    if let Some(decided) = server
        .approval
        .as_ref()
        .and_then(|a| a.for_tool(&tool.name))
    {
        return decided;
    }
    let hint = |name: &str| tool.annotations.get(name).and_then(Value::as_bool);
    if hint("readOnlyHint") == Some(true) {
        return false;
    }
    hint("destructiveHint") != Some(false)
}

/// The run's tool for a listed one, named `name`.
pub fn to_run_tool(server: &McpServer, tool: &ListedTool, name: String) -> McpTool {
    let (_, left_to_server) = super::schema::compile(&tool.input_schema);
    McpTool {
        server: server.name.clone(),
        name,
        remote_name: tool.name.clone(),
        title: tool.title.clone(),
        description: tool.description.clone(),
        input_schema: tool.input_schema.clone(),
        output_schema: tool.output_schema.clone(),
        needs_approval: needs_approval(server, tool),
        annotations: tool.annotations.clone(),
        left_to_server,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(approval: Value) -> McpServer {
        serde_json::from_value(json!({"name": "s", "url": "http://h/mcp", "approval": approval}))
            .unwrap()
    }

    fn tool(annotations: Value) -> ListedTool {
        ListedTool {
            name: "t".into(),
            title: None,
            description: String::new(),
            input_schema: json!({"type": "object"}),
            output_schema: None,
            annotations,
        }
    }

    #[test]
    fn approval_follows_the_hints_unless_the_scenario_says() {
        let none = server(Value::Null);
        assert!(
            needs_approval(&none, &tool(Value::Null)),
            "unset hints: ask"
        );
        assert!(!needs_approval(&none, &tool(json!({"readOnlyHint": true}))));
        assert!(!needs_approval(
            &none,
            &tool(json!({"destructiveHint": false}))
        ));
        assert!(needs_approval(
            &none,
            &tool(json!({"destructiveHint": true}))
        ));
        assert!(!needs_approval(&server(json!(false)), &tool(Value::Null)));
        assert!(needs_approval(
            &server(json!({"t": true})),
            &tool(json!({"readOnlyHint": true}))
        ));
    }
}
