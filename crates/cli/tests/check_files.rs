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

/// With extended thinking on, the assistant message that opened the tool
/// loop must be sent back starting with its thinking block. A body, a
/// scenario run, a run record and an import all say Anthropic refuses it.
#[test]
fn a_dropped_thinking_block_is_refused_in_a_body_a_run_a_record_and_an_import() {
    let refusal = |found: &str| {
        format!("HTTP 400 messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, a final `assistant` message must start with a thinking block")
    };
    let body = temp("thinking-body.json");
    let opener = |first: &str| {
        format!(
            r#"{{"model": "claude-sonnet-4-5", "max_tokens": 2048,
            "thinking": {{"type": "enabled", "budget_tokens": 1024}},
            "messages": [
                {{"role": "user", "content": "What time is it?"}},
                {{"role": "assistant", "content": [{first}
                    {{"type": "tool_use", "id": "toolu_a", "name": "get_time", "input": {{}}}}]}},
                {{"role": "user", "content": [
                    {{"type": "tool_result", "tool_use_id": "toolu_a", "content": "12:00"}}]}}]}}"#
        )
    };
    std::fs::write(&body, opener("")).unwrap();
    let checked = agent_loop(&["check", body.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(3), "{}", stdout(&checked));
    assert!(
        stdout(&checked).contains(&refusal("tool_use")),
        "{}",
        stdout(&checked)
    );
    let imported = agent_loop(&["import", body.to_str().unwrap()]);
    assert_eq!(imported.status.code(), Some(3), "{}", stderr(&imported));
    assert!(
        stderr(&imported).contains(&format!(
            "✗ Anthropic Messages would refuse this body: {}",
            refusal("tool_use")
        )),
        "{}",
        stderr(&imported)
    );
    // Its thinking sent back first: accepted.
    std::fs::write(
        &body,
        opener(r#"{"type": "thinking", "thinking": "I have get_time.", "signature": "sig"},"#),
    )
    .unwrap();
    let checked = agent_loop(&["check", body.to_str().unwrap()]);
    let _ = std::fs::remove_file(&body);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));

    // The pitfall's run: its model thought, its history dropped the thinking.
    let checked = agent_loop(&["check", "history-text-only"]);
    assert_eq!(checked.status.code(), Some(3), "{}", stdout(&checked));
    let text = stdout(&checked);
    assert!(
        text.contains("✗ Anthropic Messages: 1 violation\n"),
        "{text}"
    );
    assert!(text.contains(&refusal("text")), "{text}");
    let record = temp("text-only.jsonl");
    agent_loop(&[
        "run",
        "history-text-only",
        "--record",
        record.to_str().unwrap(),
    ]);
    let checked = agent_loop(&["check", record.to_str().unwrap()]);
    let _ = std::fs::remove_file(&record);
    assert_eq!(checked.status.code(), Some(3), "{}", stdout(&checked));
    assert!(
        stdout(&checked).contains(&refusal("text")),
        "{}",
        stdout(&checked)
    );
    // The same run with its thinking kept passes.
    let checked = agent_loop(&["check", "get-time"]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
}
