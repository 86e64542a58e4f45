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
}
