//! `agent-loop check` recognises what it was given: a scenario is run and
//! checked, a run record is checked as recorded, a request body is sent to
//! `import`.

mod process;
use process::{agent_loop, stderr, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("agent-loop-check-{}-{name}", std::process::id()))
}

#[test]
fn a_run_record_is_checked_as_recorded() {
    let bad = temp("dup.jsonl");
    let run = agent_loop(&[
        "run",
        "protocol-duplicate-ids",
        "--record",
        bad.to_str().unwrap(),
    ]);
    assert!(run.status.code().is_some(), "{}", stderr(&run));
    let checked = agent_loop(&["check", bad.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(3), "{}", stderr(&checked));
    let text = stdout(&checked);
    assert!(
        text.starts_with(&format!(
            "{}: a run record; its history as recorded:\n",
            bad.display()
        )),
        "{text}"
    );
    assert!(
        text.contains("  at messages.1.content.1: HTTP 400 messages.1.content.1: `tool_use` ids must be unique\n"),
        "{text}"
    );

    let good = temp("get-time.jsonl");
    agent_loop(&["run", "get-time", "--record", good.to_str().unwrap()]);
    let checked = agent_loop(&["check", good.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(stdout(&checked).contains("✓ OpenAI Responses: no violations\n"));
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(good);
}

#[test]
fn a_provider_request_body_is_sent_to_import() {
    let body = temp("body.json");
    std::fs::write(
        &body,
        r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
    )
    .unwrap();
    let checked = agent_loop(&["check", body.to_str().unwrap()]);
    let _ = std::fs::remove_file(&body);
    assert_eq!(checked.status.code(), Some(2));
    assert_eq!(
        stderr(&checked),
        format!(
            "agent-loop: {}: this is a provider request body: use `agent-loop import`\n",
            body.display()
        )
    );
}
