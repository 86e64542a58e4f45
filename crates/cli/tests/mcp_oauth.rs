//! `agent-loop mcp` before a server protected with OAuth. The sign-in
//! itself is proven by the MCP conformance suite's 21 auth scenarios
//! (scripts/mcp-conformance.sh); here, what a person reads when agent-loop
//! is not to sign in.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;

/// A server on 127.0.0.1 that answers each request with what `respond`
/// makes of its request target; returns its origin.
fn serve(respond: impl Fn(&str, &str) -> String + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let base = origin.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buffer = [0u8; 65536];
            let n = stream.read(&mut buffer).unwrap_or(0);
            let head = String::from_utf8_lossy(&buffer[..n]);
            let target = head.split_whitespace().nth(1).unwrap_or("/").to_string();
            let _ = stream.write_all(respond(&base, &target).as_bytes());
        }
    });
    origin
}

/// An HTTP/1.1 response with a body and extra header lines.
fn response(status: &str, content_type: &str, extra: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A server that refuses every request as an MCP server protected with
/// OAuth does (the Bearer challenge of the MCP TypeScript SDK's middleware).
fn protected_server() -> String {
    let origin = serve(|origin, _| {
        response(
            "401 Unauthorized",
            "application/json",
            &format!("www-authenticate: Bearer error=\"invalid_token\", error_description=\"Missing Authorization header\", resource_metadata=\"{origin}/.well-known/oauth-protected-resource/mcp\"\r\n"),
            r#"{"error":"invalid_token","error_description":"Missing Authorization header"}"#,
        )
    });
    format!("{origin}/mcp")
}

#[test]
fn a_protected_server_without_sign_in_says_what_to_do() {
    let url = protected_server();
    let out = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["mcp", "tools", &url, "--authorize", "off"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the server wants authorization (Missing Authorization header)"),
        "{stderr}"
    );
    assert!(stderr.contains("--authorize browser"), "{stderr}");
    assert!(stderr.contains("Authorization: Bearer"), "{stderr}");
    assert!(!stderr.contains("JSON-RPC error"), "{stderr}");
}

#[test]
fn a_protected_server_with_no_metadata_names_what_was_tried() {
    let url = protected_server();
    let out = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["mcp", "tools", &url, "--authorize", "follow"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // The challenge names resource metadata this server does not serve.
    assert!(
        stderr.contains("signing in with OAuth failed: the resource metadata its challenge names could not be read"),
        "{stderr}"
    );
    assert!(
        stderr.contains(".well-known/oauth-protected-resource/mcp (401)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("generation"),
        "said once, not per generation: {stderr}"
    );
}

#[test]
fn a_run_whose_server_wants_a_sign_in_says_what_to_do_in_the_scenario() {
    let url = protected_server();
    let dir = std::env::temp_dir().join(format!("mcp-oauth-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("protected.json");
    std::fs::write(
        &scenario,
        serde_json::json!({
            "name": "protected",
            "task": "Say done.",
            "model": {"type": "scripted", "responses": [{"text": "done"}]},
            "mcp_servers": [{"name": "locked", "url": url}]
        })
        .to_string(),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .arg("run")
        .arg(&scenario)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("mcp_servers[0]"), "{stderr}");
    assert!(
        stderr.contains("the server wants authorization (Missing Authorization header)"),
        "{stderr}"
    );
    assert!(stderr.contains("\"headers\""), "{stderr}");
    assert!(
        !stderr.contains("--authorize"),
        "a run has no such flag: {stderr}"
    );
}

/// A protected server whose authorization server refuses the sign-in
/// with an error page instead of redirecting back.
fn server_whose_sign_in_is_refused() -> String {
    let origin = serve(|origin, target| {
        let json = |status: &str, body: serde_json::Value| {
            response(status, "application/json", "", &body.to_string())
        };
        if target.starts_with("/mcp") {
            let challenge = format!("www-authenticate: Bearer resource_metadata=\"{origin}/.well-known/oauth-protected-resource/mcp\"\r\n");
            response(
                "401 Unauthorized",
                "application/json",
                &challenge,
                r#"{"error":"invalid_token"}"#,
            )
        } else if target.starts_with("/.well-known/oauth-protected-resource") {
            json(
                "200 OK",
                serde_json::json!({"resource": format!("{origin}/mcp"), "authorization_servers": [origin]}),
            )
        } else if target.starts_with("/.well-known/oauth-authorization-server") {
            json(
                "200 OK",
                serde_json::json!({
                    "issuer": origin,
                    "authorization_endpoint": format!("{origin}/authorize"),
                    "token_endpoint": format!("{origin}/token"),
                    "registration_endpoint": format!("{origin}/register"),
                    "code_challenge_methods_supported": ["S256"]
                }),
            )
        } else if target.starts_with("/register") {
            json("201 Created", serde_json::json!({"client_id": "c1"}))
        } else if target.starts_with("/authorize") {
            json(
                "400 Bad Request",
                serde_json::json!({"error": "invalid_request", "error_description": "unknown client"}),
            )
        } else {
            response("404 Not Found", "text/plain", "", "")
        }
    });
    format!("{origin}/mcp")
}

#[test]
fn a_sign_in_the_authorization_server_refuses_ends_with_its_words() {
    let url = server_whose_sign_in_is_refused();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["mcp", "tools", &url, "--authorize", "follow"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("agent-loop waited on a redirect the authorization server never sent");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "the authorization endpoint answered invalid_request (unknown client) instead of redirecting back"
        ),
        "{stderr}"
    );
}

#[test]
fn a_401_without_a_bearer_challenge_is_shown_as_it_is() {
    // The bridge's refusal, say: it wants the token it printed, not OAuth.
    let origin = serve(|_, _| {
        let body = "this bridge wants the token it printed";
        response("401 Unauthorized", "text/plain", "", body)
    });
    let out = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["mcp", "tools", &format!("{origin}/mcp")])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("this bridge wants the token it printed"),
        "{stderr}"
    );
    assert!(!stderr.contains("--authorize"), "{stderr}");
}
