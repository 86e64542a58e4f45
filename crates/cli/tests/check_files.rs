//! `agent-loop check` recognises what it was given: a scenario is run and
//! checked, a run record is checked as recorded, a request body is checked
//! as its provider would check it.

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
fn a_provider_request_body_is_checked_as_its_provider_would() {
    let body = temp("body.json");
    std::fs::write(
        &body,
        r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
    )
    .unwrap();
    let clean = agent_loop(&["check", body.to_str().unwrap()]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let said = stdout(&clean);
    assert!(said.contains("request body ("), "{said}");
    assert!(said.contains(": no violations"), "{said}");

    // Two tool_use blocks with one id: Anthropic's documented 400.
    std::fs::write(
        &body,
        r#"{"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "t", "input": {}},
                {"type": "tool_use", "id": "toolu_1", "name": "t", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]}"#,
    )
    .unwrap();
    let refused = agent_loop(&["check", body.to_str().unwrap()]);
    let _ = std::fs::remove_file(&body);
    assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
    let said = stdout(&refused);
    assert!(
        said.starts_with(&format!(
            "{}: an Anthropic Messages request body (",
            body.display()
        )),
        "{said}"
    );
    assert!(said.contains("✗ Anthropic Messages: "), "{said}");
    assert!(said.contains("ids must be unique"), "{said}");
}
