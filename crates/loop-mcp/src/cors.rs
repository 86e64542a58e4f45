//! What a page needs from an MCP server on another origin, said when the
//! browser got no answer at all. A CORS refusal reaches a page as a bare
//! network error (the browser hides the reason from scripts), so the advice
//! names both causes and exactly what the server must send back.

use super::config::McpServer;

/// The request headers this client sends (besides a scenario's own): the
/// browser asks the server's preflight to allow each of them.
pub const CLIENT_HEADERS: &[&str] = &[
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
];

/// The response headers the client must read: the legacy generation's session.
pub const EXPOSED_HEADERS: &[&str] = &["mcp-session-id"];

/// Why a page at `origin` may get no answer from `server`, and what the
/// server must allow, with a one-line example for Express's `cors`.
pub fn advice(server: &McpServer, origin: &str) -> String {
    let mut allowed: Vec<String> = CLIENT_HEADERS.iter().map(|h| h.to_string()).collect();
    for name in server.headers.keys() {
        let name = name.to_ascii_lowercase();
        if !allowed.contains(&name) {
            allowed.push(name);
        }
    }
    format!(
        "The browser got no answer from {url}. Either nothing listens there, or the server does not allow this page (CORS): \
a page may call another origin only if the server's answers, and its answer to the preflight OPTIONS request, allow it. \
The server must send \"Access-Control-Allow-Origin: {origin}\" (or *), \"Access-Control-Allow-Methods: POST, DELETE\", \
\"Access-Control-Allow-Headers: {headers}\", and \"Access-Control-Expose-Headers: {exposed}\". \
With Express: app.use(cors({{ origin: \"{origin}\", exposedHeaders: [\"{exposed}\"] }})) (the cors package allows the requested headers by default). \
The command line is not bound by CORS: agent-loop run reaches the same server.",
        url = server.url,
        headers = allowed.join(", "),
        exposed = EXPOSED_HEADERS.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_advice_names_every_header_the_server_must_allow_and_expose() {
        let server: McpServer = serde_json::from_value(json!({
            "name": "shop", "url": "http://127.0.0.1:3001/mcp",
            "headers": {"Authorization": "Bearer t0ken"}
        }))
        .unwrap();
        let text = advice(&server, "http://127.0.0.1:8080");
        assert!(text.contains("http://127.0.0.1:3001/mcp"), "{text}");
        assert!(
            text.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080"),
            "{text}"
        );
        assert!(
            text.contains("Access-Control-Allow-Headers: content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, authorization"),
            "{text}"
        );
        assert!(
            text.contains("Access-Control-Expose-Headers: mcp-session-id"),
            "{text}"
        );
        assert!(
            !text.contains("t0ken"),
            "the header's value is a secret: {text}"
        );
    }
}
