//! `agent-loop mcp` before a server protected with OAuth. The sign-in
//! itself is proven by the MCP conformance suite's 21 auth scenarios
//! (scripts/mcp-conformance.sh); here, what a person reads when agent-loop
//! is not to sign in.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;

/// A server that refuses every request as an MCP server protected with
/// OAuth does (the Bearer challenge of the MCP TypeScript SDK's middleware).
fn protected_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buffer = [0u8; 65536];
            let _ = stream.read(&mut buffer);
            let body =
                r#"{"error":"invalid_token","error_description":"Missing Authorization header"}"#;
            let response = format!(
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nwww-authenticate: Bearer error=\"invalid_token\", error_description=\"Missing Authorization header\", resource_metadata=\"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp\"\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    format!("http://127.0.0.1:{port}/mcp")
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
