//! A scenario's `mcp_servers` entries: where a server is (a URL, or a
//! command started over stdio), which of its tools the scenario takes, the
//! headers or environment given to it, and who decides approval.
//!
//! Header values and environment values are secrets (an `Authorization`
//! token, an API key, say): they are held as [`Secret`], which serializes
//! as `"[redacted]"` and debugs as `…`, so a scenario written into a
//! record, an export or a trace never carries them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a header value becomes wherever a scenario is written out.
pub const REDACTED: &str = "[redacted]";

/// One MCP server a scenario takes tools from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// Short and unique in the scenario; prefixes a tool's name when two
    /// servers (or a server and the scenario) offer the same name.
    pub name: String,
    /// The Streamable HTTP endpoint, e.g. `http://127.0.0.1:3001/mcp`;
    /// empty for a server started from `command`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub url: String,
    /// A server spoken to over stdio: the program and its arguments, e.g.
    /// `["uvx", "mcp-server-time"]`; empty for a server at `url`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Added to the inherited environment of `command`'s process.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, Secret>,
    /// Where `command` runs; relative to the scenario file's folder, which
    /// is also where it runs when this is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Only these of the server's tools (by the server's names); absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_tools: Option<Vec<String>>,
    /// Sent with every request to this server (e.g. `Authorization`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, Secret>,
    /// Overrides the server's annotations: `true`/`false` for every tool, or
    /// a tool name (the server's) to `true`/`false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalOverride>,
}

/// Who decides whether a server's tool needs approval, when not its hints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ApprovalOverride {
    Every(bool),
    ByTool(BTreeMap<String, bool>),
}

impl ApprovalOverride {
    /// The override for `tool` (the server's name), if it has one.
    pub fn for_tool(&self, tool: &str) -> Option<bool> {
        match self {
            ApprovalOverride::Every(every) => Some(*every),
            ApprovalOverride::ByTool(by_tool) => by_tool.get(tool).copied(),
        }
    }
}

/// A header or environment value: given to its server, written nowhere else.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The value itself, for the one place that needs it: the request headers.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(REDACTED)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// Headers the transport sets itself; a scenario may not override them.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
];

/// What the scenario schema cannot say about `mcp_servers`: (path, message).
pub fn problems(servers: &[McpServer]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        let at = format!("mcp_servers[{i}]");
        if let Some(first) = servers[..i].iter().position(|s| s.name == server.name) {
            out.push((
                format!("{at}.name"),
                format!(
                    "duplicate server name {:?} (also mcp_servers[{first}]); server names must be unique",
                    server.name
                ),
            ));
        }
        out.extend(where_problems(server, &at));
        for name in server.headers.keys() {
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                out.push((
                    format!("{at}.headers.{name}"),
                    format!("{name} is set by the MCP transport itself; leave it out"),
                ));
            }
        }
        if let Some(allowed) = &server.allowed_tools {
            for (k, tool) in allowed.iter().enumerate() {
                if allowed[..k].contains(tool) {
                    out.push((
                        format!("{at}.allowed_tools[{k}]"),
                        format!("{tool:?} is listed twice"),
                    ));
                }
            }
            if let Some(ApprovalOverride::ByTool(by_tool)) = &server.approval {
                for tool in by_tool.keys() {
                    if !allowed.contains(tool) {
                        out.push((
                            format!("{at}.approval.{tool}"),
                            format!(
                                "{tool:?} is not in allowed_tools, so the scenario never has it"
                            ),
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Exactly one of `url` and `command`, and only the fields that go with it.
fn where_problems(server: &McpServer, at: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match (server.url.is_empty(), server.command.is_empty()) {
        (true, true) => out.push((
            at.to_string(),
            format!(
                "{:?} says neither where the server is nor how to start it: give \"url\" (e.g. \"http://127.0.0.1:3001/mcp\") or \"command\" (e.g. [\"uvx\", \"mcp-server-time\"])",
                server.name
            ),
        )),
        (false, false) => out.push((
            at.to_string(),
            format!(
                "{:?} gives both \"url\" and \"command\"; a server is either at a URL or started from a command: keep one",
                server.name
            ),
        )),
        (false, true) => {
            if let Err(why) = check_url(&server.url) {
                out.push((format!("{at}.url"), why.to_string()));
            }
            if !server.env.is_empty() {
                out.push((
                    format!("{at}.env"),
                    "env is given to a server started from \"command\"; a server at a URL gets \"headers\"".to_string(),
                ));
            }
            if server.cwd.is_some() {
                out.push((
                    format!("{at}.cwd"),
                    "cwd is where a server started from \"command\" runs; a server at a URL has none".to_string(),
                ));
            }
        }
        (true, false) => {
            if server.command[0].trim().is_empty() {
                out.push((
                    format!("{at}.command[0]"),
                    "the program to run is empty; the first word is the program, e.g. \"uvx\"".to_string(),
                ));
            }
            if !server.headers.is_empty() {
                out.push((
                    format!("{at}.headers"),
                    "headers are sent to a server at a URL; a server started from \"command\" gets \"env\" instead".to_string(),
                ));
            }
        }
    }
    out
}

fn check_url(url: &str) -> Result<(), McpUrlError> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(McpUrlError::NotAUrl { url: url.into() });
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(McpUrlError::Scheme {
            url: url.into(),
            scheme: scheme.into(),
        });
    }
    if rest.is_empty() || rest.starts_with('/') {
        return Err(McpUrlError::NoHost { url: url.into() });
    }
    Ok(())
}

/// The names the model could see for a server's `tool`: its own, and the
/// prefixed form used when it collides with another tool.
pub fn prefixed(server: &str, tool: &str) -> String {
    format!("{server}__{tool}")
}

impl McpServer {
    /// Where the server is, for messages: its URL, or its command as a
    /// person would type it.
    pub fn location(&self) -> String {
        if self.command.is_empty() {
            self.url.clone()
        } else {
            format!("`{}`", command_line(&self.command))
        }
    }

    /// Whether a tool the script names (`name`, as the model sees it) could
    /// be one of this server's once its tools are loaded.
    pub fn could_offer(&self, name: &str) -> bool {
        match &self.allowed_tools {
            None => true,
            Some(allowed) => allowed
                .iter()
                .any(|tool| tool == name || prefixed(&self.name, tool) == name),
        }
    }
}

/// The words of `command` joined as a shell would read them back: a word
/// with spaces or quotes is single-quoted.
pub fn command_line(command: &[String]) -> String {
    command
        .iter()
        .map(|word| {
            let plain = !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
            if plain {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why an MCP server's `url` is not one its transport can reach.
#[derive(Clone, Debug, PartialEq)]
pub enum McpUrlError {
    NotAUrl {
        url: String,
    },
    /// Streamable HTTP needs http:// or https://.
    Scheme {
        url: String,
        scheme: String,
    },
    NoHost {
        url: String,
    },
}

impl McpUrlError {
    /// The URL is as someone wrote it, in the scenario's `mcp_servers` or the
    /// MCP panel's box: only they can correct it.
    pub fn fixed_by(&self) -> crate::fixed_by::FixedBy {
        crate::fixed_by::FixedBy::TheFile
    }
}

impl std::fmt::Display for McpUrlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            McpUrlError::NotAUrl { url } => write!(
                f,
                "{url:?} is not a URL; an MCP endpoint looks like http://127.0.0.1:3001/mcp"
            ),
            McpUrlError::Scheme { url, scheme } => write!(
                f,
                "{url:?} uses {scheme}://; MCP's Streamable HTTP transport needs http:// or https://"
            ),
            McpUrlError::NoHost { url } => write!(f, "{url:?} has no host"),
        }
    }
}

impl std::error::Error for McpUrlError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_never_serialize() {
        let server: McpServer = serde_json::from_value(serde_json::json!({
            "name": "s", "url": "http://127.0.0.1:1/mcp",
            "headers": {"Authorization": "Bearer sk-secret"}
        }))
        .unwrap();
        assert_eq!(server.headers["Authorization"].expose(), "Bearer sk-secret");
        let written = serde_json::to_string(&server).unwrap();
        assert!(!written.contains("sk-secret"), "{written}");
        assert!(written.contains(REDACTED), "{written}");
        assert!(!format!("{server:?}").contains("sk-secret"));
    }

    #[test]
    fn environment_values_never_serialize() {
        let server: McpServer = serde_json::from_value(serde_json::json!({
            "name": "s", "command": ["uvx", "mcp-server-time"],
            "env": {"API_KEY": "sk-secret"}
        }))
        .unwrap();
        assert_eq!(server.env["API_KEY"].expose(), "sk-secret");
        let written = serde_json::to_string(&server).unwrap();
        assert!(!written.contains("sk-secret"), "{written}");
        assert!(written.contains(REDACTED), "{written}");
        assert!(!format!("{server:?}").contains("sk-secret"));
    }

    #[test]
    fn a_server_is_either_at_a_url_or_started_from_a_command() {
        let said = |entry: serde_json::Value| {
            let server: McpServer = serde_json::from_value(entry).unwrap();
            problems(&[server])
        };
        assert_eq!(
            said(serde_json::json!({"name": "time"})),
            vec![(
                "mcp_servers[0]".to_string(),
                "\"time\" says neither where the server is nor how to start it: give \"url\" (e.g. \"http://127.0.0.1:3001/mcp\") or \"command\" (e.g. [\"uvx\", \"mcp-server-time\"])".to_string()
            )]
        );
        assert_eq!(
            said(serde_json::json!({"name": "time", "url": "http://127.0.0.1:1/mcp", "command": ["uvx"]})),
            vec![(
                "mcp_servers[0]".to_string(),
                "\"time\" gives both \"url\" and \"command\"; a server is either at a URL or started from a command: keep one".to_string()
            )]
        );
        assert!(said(
            serde_json::json!({"name": "time", "command": ["uvx", "mcp-server-time"], "cwd": "."})
        )
        .is_empty());
        assert_eq!(
            said(serde_json::json!({"name": "time", "command": ["uvx"], "headers": {"X": "1"}}))[0]
                .0,
            "mcp_servers[0].headers"
        );
    }

    #[test]
    fn a_url_its_transport_cannot_reach_says_why_and_is_the_writer_s_to_fix() {
        let said = |url: &str| check_url(url).unwrap_err();
        let scheme = said("ws://127.0.0.1:3001/mcp");
        assert_eq!(
            scheme.to_string(),
            "\"ws://127.0.0.1:3001/mcp\" uses ws://; MCP's Streamable HTTP transport needs http:// or https://"
        );
        assert_eq!(scheme.fixed_by(), crate::fixed_by::FixedBy::TheFile);
        assert!(matches!(said("not a url"), McpUrlError::NotAUrl { .. }));
        assert!(check_url("https://example.com/mcp").is_ok());
    }
}
