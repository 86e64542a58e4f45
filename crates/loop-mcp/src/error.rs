//! Why a server's tools could not be had, as data: each variant carries
//! what went wrong, [`McpError::fixed_by`] says who can fix it, and
//! `Display` gives the sentence a person reads (unchanged from when these
//! were strings). A single request's failure is a [`Failure`], which the
//! variants carry where one caused them.

use std::fmt;

use crate::jsonrpc::RpcError;
use crate::versions::{LEGACY, MODERN};

/// Why a request got no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No HTTP answer at all.
    Unreachable(String),
    /// An HTTP error status without a JSON-RPC error in its body.
    Http { status: u16, body: String },
    /// A JSON-RPC error (with the HTTP status it came with).
    Rpc { status: u16, error: RpcError },
    /// An answer that is not the JSON-RPC response it should be.
    Unreadable(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unreachable(why) => write!(f, "no answer: {why}"),
            Failure::Http { status, body } if body.trim().is_empty() => {
                write!(f, "HTTP {status} with an empty body")
            }
            Failure::Http { status, body } => {
                write!(
                    f,
                    "HTTP {status}: {}",
                    crate::tool::clip(&readable(body), 300)
                )
            }
            Failure::Rpc { status, error } if *status >= 300 => {
                write!(f, "HTTP {status}, {error}")
            }
            Failure::Rpc { error, .. } => write!(f, "{error}"),
            Failure::Unreadable(why) => f.write_str(why),
        }
    }
}

/// A body as a person reads it: an HTML error page (Express's "Cannot
/// POST /sse") as its text, without the markup; anything else as it came.
fn readable(body: &str) -> String {
    let body = body.trim();
    let lower = body.to_ascii_lowercase();
    let html = lower.starts_with("<!doctype html") || lower.starts_with("<html");
    if !html {
        return body.to_string();
    }
    // The text of the body element (the title repeats "Error").
    let start = lower.find("<body").unwrap_or(0);
    let mut text = String::new();
    let mut in_tag = false;
    for c in body[start..].chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why a server's tools could not be had.
#[derive(Clone, Debug, PartialEq)]
pub enum McpError {
    /// The server offers only protocol versions this client does not speak.
    NoCommonVersion { versions: Vec<String> },
    /// A 2026-07-28 server refused this client's request (a header that
    /// does not match the body, a capability it requires).
    RefusedByModernServer(RpcError),
    /// Neither `server/discover` nor the legacy `initialize` got an answer
    /// this client could use.
    NeitherGeneration {
        discover: Failure,
        initialize: Box<McpError>,
    },
    /// Neither transport reached an MCP server at `url`: the POST of
    /// `initialize` (Streamable HTTP) was refused with `post`, and the GET
    /// of the old HTTP+SSE transport got what `get` says.
    NoTransport {
        url: String,
        post: Failure,
        get: String,
    },
    /// The legacy handshake at `version` failed.
    Initialize {
        version: String,
        cause: Box<McpError>,
    },
    /// The handshake's `initialize` request got no result.
    Handshake(Failure),
    /// The server chose a protocol version this client does not speak.
    VersionNotSpoken { chosen: String },
    /// `notifications/initialized` was not accepted.
    Initialized(Failure),
    /// `tools/list` got no result.
    ToolsList(Failure),
    /// `tools/list` answered something that is not a list of tools: the
    /// sentence says what.
    BadToolList(String),
}

/// Who can make an [`McpError`] go away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedBy {
    /// Whoever set up the connection: the URL, the network, the server
    /// being up, or (in a browser) the server's CORS.
    Connection,
    /// The server's author or operator: it answered against the protocol,
    /// or speaks no version in common.
    Server,
    /// This client: it sent something a conforming server refused.
    Client,
}

impl McpError {
    pub fn fixed_by(&self) -> FixedBy {
        match self {
            McpError::NoCommonVersion { .. }
            | McpError::VersionNotSpoken { .. }
            | McpError::BadToolList(_) => FixedBy::Server,
            McpError::RefusedByModernServer(_) => FixedBy::Client,
            McpError::NeitherGeneration { .. } | McpError::NoTransport { .. } => {
                FixedBy::Connection
            }
            McpError::Initialize { cause, .. } => cause.fixed_by(),
            McpError::Handshake(failure)
            | McpError::Initialized(failure)
            | McpError::ToolsList(failure) => match failure {
                Failure::Unreachable(_) => FixedBy::Connection,
                Failure::Http { .. } | Failure::Rpc { .. } | Failure::Unreadable(_) => {
                    FixedBy::Server
                }
            },
        }
    }
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpError::NoCommonVersion { versions } => write!(
                f,
                "the server supports protocol versions {}, none of which this client speaks ({MODERN}, {})",
                versions.join(", "),
                LEGACY.join(", ")
            ),
            McpError::RefusedByModernServer(error) => write!(
                f,
                "the server speaks {MODERN} but refused this client's request: {error}"
            ),
            McpError::NeitherGeneration {
                discover,
                initialize,
            } => write!(
                f,
                "the server answered neither generation of MCP: server/discover ({MODERN}) got {discover}; initialize ({}) got {initialize}",
                LEGACY[0]
            ),
            McpError::NoTransport { url, post, get } => {
                let post = match post {
                    Failure::Http { status, body } if !body.trim().is_empty() => {
                        format!("answered {status} ({})", crate::tool::clip(&readable(body), 200))
                    }
                    Failure::Http { status, .. } => format!("answered {status}"),
                    other => format!("got {other}"),
                };
                write!(
                    f,
                    "neither MCP transport answered: POST {url} (Streamable HTTP) {post}; GET {url} (the old HTTP+SSE transport) {get}"
                )
            }
            McpError::Initialize { version, cause } => {
                write!(f, "initialize ({version}) failed: {cause}")
            }
            McpError::Handshake(failure) => write!(f, "{failure}"),
            McpError::VersionNotSpoken { chosen } => write!(
                f,
                "the server chose protocol version {chosen:?}, which this client does not speak ({} or {MODERN})",
                LEGACY.join(", ")
            ),
            McpError::Initialized(failure) => write!(f, "notifications/initialized: {failure}"),
            McpError::ToolsList(failure) => write!(f, "tools/list failed: {failure}"),
            McpError::BadToolList(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for McpError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_can_fix_it_follows_what_went_wrong() {
        let unreachable = Failure::Unreachable("connection refused".into());
        let neither = McpError::NeitherGeneration {
            discover: unreachable.clone(),
            initialize: Box::new(McpError::Handshake(unreachable.clone())),
        };
        assert_eq!(neither.fixed_by(), FixedBy::Connection);
        assert_eq!(
            neither.to_string(),
            "the server answered neither generation of MCP: server/discover (2026-07-28) got no answer: connection refused; initialize (2025-11-25) got no answer: connection refused"
        );
        let chose = McpError::Initialize {
            version: "2025-06-18".into(),
            cause: Box::new(McpError::VersionNotSpoken {
                chosen: "2024-11-05".into(),
            }),
        };
        assert_eq!(chose.fixed_by(), FixedBy::Server);
        assert!(chose.to_string().starts_with(
            "initialize (2025-06-18) failed: the server chose protocol version \"2024-11-05\""
        ));
        let http = McpError::ToolsList(Failure::Http {
            status: 500,
            body: String::new(),
        });
        assert_eq!(http.fixed_by(), FixedBy::Server);
        let express = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /sse</pre>\n</body>\n</html>\n";
        let none = McpError::NoTransport {
            url: "http://h/sse".into(),
            post: Failure::Http {
                status: 404,
                body: express.into(),
            },
            get: "did not open an SSE stream (HTTP 404: Cannot GET /sse)".into(),
        };
        assert_eq!(none.fixed_by(), FixedBy::Connection);
        assert_eq!(
            none.to_string(),
            "neither MCP transport answered: POST http://h/sse (Streamable HTTP) answered 404 (Cannot POST /sse); GET http://h/sse (the old HTTP+SSE transport) did not open an SSE stream (HTTP 404: Cannot GET /sse)"
        );
        assert_eq!(
            http.to_string(),
            "tools/list failed: HTTP 500 with an empty body"
        );
    }
}
