//! The HTTP provider adapter end to end: `agent-loop run --provider …`
//! against `agent-loop serve`, in all three formats, streamed and not, with
//! a retried 429, a 401 explained, and the API key kept out of every output.

mod common;

use std::process::{Command, Output};

use common::serve;
use serde_json::Value;

const KEY: &str = "sk-test-key-never-printed";

fn run_against(port: u16, scenario: &str, provider: &str, extra: &[&str]) -> Output {
    let base = format!("http://127.0.0.1:{port}");
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args([
            "run",
            scenario,
            "--jsonl",
            "--provider",
            provider,
            "--base-url",
            &base,
            "--model",
            "scripted-model",
        ])
        .args(extra)
        .env("AGENT_LOOP_API_KEY", KEY)
        .output()
        .expect("agent-loop runs")
}

fn builtin(id: &str) -> Value {
    serde_json::from_str(harness::library::find(id).unwrap().json()).unwrap()
}

fn last_event(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.lines().last().expect("events")).expect("JSON event")
}

fn assert_key_absent(output: &Output) {
    assert!(!String::from_utf8_lossy(&output.stdout).contains(KEY));
    assert!(!String::from_utf8_lossy(&output.stderr).contains(KEY));
}

#[test]
fn each_format_runs_a_tool_turn_to_done_streamed_and_not() {
    for provider in ["anthropic", "openai-chat", "openai-responses"] {
        for stream in [&[][..], &["--no-stream"][..]] {
            let server = serve(&format!("get-time-{provider}"), &builtin("get-time"));
            let output = run_against(server.port, "get-time", provider, stream);
            let last = last_event(&output);
            assert_eq!(
                last["status"], "done",
                "{provider} {stream:?}: {}",
                last["reason"]
            );
            assert_eq!(last["tool_calls"], 1);
            assert_key_absent(&output);
            let first: Value = serde_json::from_str(
                String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .next()
                    .unwrap(),
            )
            .unwrap();
            assert!(first["model"].as_str().unwrap().ends_with("scripted-model"));
            assert!(
                !server.log.lock().unwrap().contains(KEY),
                "the server log never sees the key"
            );
        }
    }
}

#[test]
fn a_429_is_retried_after_the_servers_retry_after() {
    let server = serve("rate-limit", &builtin("rate-limit-retry"));
    let output = run_against(server.port, "rate-limit-retry", "anthropic", &[]);
    assert_eq!(last_event(&output)["status"], "done");
    let retries: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "model_error")
        .collect();
    assert_eq!(retries.len(), 2);
    assert_eq!(retries[0]["status"], 429);
    assert_eq!(
        retries[0]["retry_in_ms"], 300,
        "the server's retry-after-ms is honoured"
    );
    assert_eq!(retries[1]["status"], 529);
}

#[test]
fn a_401_ends_model_error_and_says_what_to_do() {
    let server = serve("auth", &builtin("model-error"));
    let output = run_against(server.port, "model-error", "openai-chat", &[]);
    assert_eq!(output.status.code(), Some(3));
    let last = last_event(&output);
    assert_eq!(last["status"], "model_error");
    let reason = last["reason"].as_str().unwrap();
    assert!(reason.contains("HTTP 401"), "{reason}");
    assert!(
        reason.contains("invalid x-api-key"),
        "the provider's own message: {reason}"
    );
    assert!(
        reason.contains("the API key was refused: check it in the model settings"),
        "{reason}"
    );
    assert!(reason.contains("not retried"), "{reason}");
    assert_key_absent(&output);
}

#[test]
fn an_unreachable_server_is_a_clear_model_error() {
    // Nothing listens on port 9 (discard) here; the connection is refused.
    let output = run_against(9, "get-time", "openai-chat", &[]);
    let last = last_event(&output);
    assert_eq!(last["status"], "model_error");
    assert!(
        last["reason"]
            .as_str()
            .unwrap()
            .contains("could not reach http://127.0.0.1:9/v1/chat/completions"),
        "{}",
        last["reason"]
    );
}

/// A run against a real API records the provider's answers, so it
/// replays later with the server gone and no key set.
#[test]
fn a_recorded_provider_run_replays_offline_without_a_key() {
    let record = std::env::temp_dir().join(format!(
        "agent-loop-provider-record-{}.jsonl",
        std::process::id()
    ));
    let record_path = record.to_str().unwrap();
    {
        let server = serve("record-refund", &builtin("refund-policy"));
        let output = run_against(
            server.port,
            "refund-policy",
            "openai-responses",
            &["--record", record_path],
        );
        assert_eq!(last_event(&output)["status"], "done");
    } // The server stops here.
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(!text.contains(KEY), "the key is in the record");
    assert!(
        text.contains("scripted-model"),
        "the record names the provider's model"
    );
    let replay = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["replay", record_path])
        .env_remove("AGENT_LOOP_API_KEY")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "replay failed: {stdout}{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(!stdout.contains("FAIL"), "{stdout}");
    let _ = std::fs::remove_file(&record);
}
