//! `agent-loop export --otel` and `agent-loop import`: a recorded run out as
//! an OTLP/JSON GenAI trace and back as the same record; bad files said plainly.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn agent_loop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .output()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-otel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_recorded_run_exports_as_genai_spans_and_imports_back_the_same() {
    let record = temp("refund.jsonl");
    let run = agent_loop(&["run", "refund-policy", "--record", record.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let trace = temp("refund.otlp.json");
    let export = agent_loop(&[
        "export",
        "--otel",
        record.to_str().unwrap(),
        "--started-at-ms",
        "1764000000000",
        "--out",
        trace.to_str().unwrap(),
    ]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = spans.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "invoke_agent Refund after a policy check (seed 003)",
            "chat scripted",
            "execute_tool get_order",
            "chat scripted",
            "execute_tool check_refund_policy",
            "chat scripted",
            "execute_tool refund_order",
            "chat scripted",
        ]
    );
    assert!(spans[0]["startTimeUnixNano"]
        .as_str()
        .unwrap()
        .starts_with("1764000000000"));
    let import = agent_loop(&["import", trace.to_str().unwrap()]);
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(
        stderr.contains("(an agent-loop export, read back event for event)"),
        "{stderr}"
    );
    let original = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&import.stdout).trim_end(),
        original.trim_end()
    );
}

#[test]
fn export_needs_a_format_and_import_names_what_is_wrong() {
    let help = agent_loop(&["export", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("OTLP/JSON"));
    let no_format = agent_loop(&["export", "x.jsonl"]);
    assert_eq!(no_format.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_format.stderr).contains("--otel"));
    let bad = temp("not-a-trace.json");
    std::fs::write(&bad, r#"{"resourceSpans": []}"#).unwrap();
    let import = agent_loop(&["import", bad.to_str().unwrap()]);
    assert_eq!(import.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(stderr.contains("no spans found"), "{stderr}");
    std::fs::write(&bad, "{ not json").unwrap();
    let import = agent_loop(&["import", bad.to_str().unwrap()]);
    assert_eq!(import.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&import.stderr).contains("not-a-trace.json: "));
    // One JSON line of no known shape: said to be none of them, not only
    // "not a request body".
    let unknown = temp("one-line.jsonl");
    std::fs::write(&unknown, "{\"name\":\"x\"}\n").unwrap();
    let import = agent_loop(&["import", unknown.to_str().unwrap()]);
    assert_eq!(import.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(
        stderr.contains("none of the files it reads (a run record or trace")
            && stderr.contains("as a request body, neither \"messages\""),
        "{stderr}"
    );
    // A scenario, the commonest wrong file: said as what it is.
    let scenario = format!(
        "{}/../loop-core/scenarios/get-time.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let import = agent_loop(&["import", &scenario]);
    assert_eq!(import.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(
        stderr.contains("a scenario, not a run: run it with `agent-loop run"),
        "{stderr}"
    );
}

#[test]
fn a_request_body_imports_as_a_record_that_replays_with_the_providers_verdict() {
    let fixture = format!(
        "{}/../harness/tests/fixtures/wire/anthropic_request_tool_result.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let record = temp("imported.jsonl");
    let import = agent_loop(&["import", &fixture, "--out", record.to_str().unwrap()]);
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(
        stderr.contains("as an Anthropic Messages request"),
        "{stderr}"
    );
    assert!(
        stderr.contains("✓ Anthropic Messages would accept this body"),
        "{stderr}"
    );
    let replay = agent_loop(&["replay", record.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.status.success(), "{out}");
    assert!(
        out.contains("the record stops before turn 2's answer, and the replay got there"),
        "{out}"
    );
    // A body the provider refuses: its 400, at its path; the record is still written.
    let broken = temp("duplicate-ids.json");
    let call = serde_json::json!({"type": "tool_use", "id": "toolu_dup", "name": "t", "input": {}});
    std::fs::write(&broken, serde_json::json!({
        "model": "m", "max_tokens": 10,
        "tools": [{"name": "t", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [call.clone(), call]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_dup", "content": "ok"}]}
        ]
    }).to_string()).unwrap();
    let refused = agent_loop(&["import", broken.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("✗ Anthropic Messages would refuse this body: HTTP 400 messages.1.content.1: `tool_use` ids must be unique"), "{stderr}");
    assert!(stderr.contains("at messages.1.content.1"), "{stderr}");
    assert!(!refused.stdout.is_empty(), "no record was written");
}

/// The cookbook's last request sends no `tools`, though its history calls
/// `ask_database`: the import says so, and the replay answers the call from
/// the recorded result and names the undeclared tool.
#[test]
fn a_body_calling_an_undeclared_tool_imports_and_replays_saying_so() {
    let fixture = format!(
        "{}/../harness/tests/fixtures/wire/openai_chat_request_undeclared_tool.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let record = temp("undeclared.jsonl");
    let import = agent_loop(&["import", &fixture, "--out", record.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(import.status.success(), "{stderr}");
    assert!(
        stderr.contains("✓ OpenAI Chat Completions would accept this body"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "note: ask_database is called in the conversation but the body does not declare it"
        ),
        "{stderr}"
    );
    let replay = agent_loop(&["replay", record.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(!out.contains("unknown tool"), "{out}");
    assert!(
        out.contains("✓ undeclared_tools: called but not declared in the imported request: ask_database; each call answered from the recorded results"),
        "{out}"
    );
}

/// `import` reads with the page's reader: a record comes back as it is, and
/// a response, which answers a run in view, is refused saying what to do.
#[test]
fn import_writes_a_record_back_and_refuses_a_response_with_no_run_to_answer() {
    let record = temp("get-time.jsonl");
    let run = agent_loop(&["run", "get-time", "--record", record.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let again = temp("get-time-again.jsonl");
    let import = agent_loop(&[
        "import",
        record.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(import.status.success(), "{stderr}");
    assert!(
        stderr.contains("(a run record, written out as it is)"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
    let response = temp("response.json");
    std::fs::write(
        &response,
        r#"{"type": "message", "role": "assistant", "content": []}"#,
    )
    .unwrap();
    let import = agent_loop(&["import", response.to_str().unwrap()]);
    assert_eq!(import.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&import.stderr);
    assert!(stderr.contains("import the request body first"), "{stderr}");
}
