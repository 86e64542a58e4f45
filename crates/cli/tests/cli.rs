//! The CLI as a user meets it: exit codes, the JSON Lines trace, problems
//! with their paths, and a deadline that interrupts a slow call in real time.

use std::io::Write;
use std::time::Instant;

mod process;
use process::{agent_loop, stderr, stdout};

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(contents.as_bytes())
        .unwrap();
    path
}

#[test]
fn jsonl_prints_one_event_a_line_ending_with_run_finished() {
    let output = agent_loop(&["run", "get-time", "--jsonl"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines[0]["type"], "run_started");
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "run_finished");
    assert_eq!(last["status"], "done");
    for key in [
        "reason",
        "turns",
        "tool_calls",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "elapsed_ms",
        "answer",
    ] {
        assert!(last.get(key).is_some(), "run_finished has {key}");
    }
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["seq"], i as u64);
    }
}

#[test]
fn a_file_runs_and_a_non_done_status_exits_3() {
    let output = agent_loop(&["run", "turn-limit"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).contains("⊘ turn_limit — made 3 of max 3 model calls"));

    let path = temp_file(
        "refusal.json",
        r#"{"name": "r", "task": "t", "model": {"type": "scripted", "responses": [{"text": "no", "stop_reason": "refusal"}]}}"#,
    );
    let output = agent_loop(&["run", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).contains("■ refusal"));
}

#[test]
fn approval_flag_decides_calls_that_need_approval() {
    let all = agent_loop(&["run", "refund-with-approval", "--approve", "all"]);
    assert_eq!(all.status.code(), Some(0), "{}", stdout(&all));
    assert!(stdout(&all).contains("  ✔ issue_refund: approved by policy (approve)\n"));

    // A denial is never shown with a check mark.
    let none = agent_loop(&["run", "refund-with-approval", "--approve", "none"]);
    assert_eq!(none.status.code(), Some(3));
    assert!(
        stdout(&none).contains("  ✘ issue_refund: denied by policy (deny_and_stop)\n"),
        "{}",
        stdout(&none)
    );
    assert!(!stdout(&none).contains("✔"), "{}", stdout(&none));
    assert!(stdout(&none)
        .contains("⊘ blocked — issue_refund needs approval and the approval policy is deny_all"));

    let unasked = agent_loop(&["run", "refund-with-approval"]);
    assert_eq!(unasked.status.code(), Some(3));
    assert!(stdout(&unasked).contains("no approver is available"));
    assert!(stderr(&unasked).contains("--approve all or --approve none"));
}

#[test]
fn validate_lists_every_problem_with_its_path_and_exits_2() {
    let path = temp_file(
        "broken.json",
        r#"{"name": "b", "task": "t", "tools": ["get_weather", {"name": "x", "input_schema": {"type": "object", "requried": ["a"]}, "result": 1}],
            "limits": {"max_turn": 3, "cost_mode": "cheap"},
            "model": {"type": "scripted", "loop_from": 4, "responses": [{"tool_calls": [{"name": "x", "args": "oops"}]}]}}"#,
    );
    // One call reports every problem: syntax-valid JSON with schema, range
    // and meaning problems all at once (they used to take two runs).
    let output = agent_loop(&["validate", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains(": 6 problems\n"), "not one pass:\n{err}");
    for expected in [
        "tools[0]: unknown built-in tool \"get_weather\"; the built-in tools are: get_time, get_order_status, issue_refund,",
        "tools[1].input_schema.requried: unknown keyword \"requried\" (did you mean \"required\"?)",
        "limits.max_turn: not a field of limits (did you mean `max_turns`?)",
        "limits.cost_mode: expected one of [\"strict\",\"naive\"], found \"cheap\"",
        "model.loop_from: 4 is past the last response",
        "model.responses[0].tool_calls[0].args: expected an object, found a string",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }

    let output = agent_loop(&[
        "validate",
        temp_file("bad.json", "{\"name\": ").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    // The place once, in plain words (it was "line 1 column 9 (line 1, column 9)").
    let err = stderr(&output);
    assert!(
        err.contains("not valid JSON at line 1, column 9: the text ends where a value should be"),
        "{err}"
    );
    assert_eq!(err.matches("line 1").count(), 1, "{err}");

    let output = agent_loop(&["validate", "get-time"]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    for args in [
        &["run"][..],
        &["run", "get-time", "--approve", "maybe"],
        &["run", "no-such-file.json"],
        &["frobnicate"],
    ] {
        let output = agent_loop(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).starts_with("agent-loop: "),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn list_shows_every_builtin_scenario() {
    let output = agent_loop(&["list"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    for builtin in harness::library::BUILTIN {
        assert!(text.contains(builtin.id), "{}", builtin.id);
    }
    assert!(text.contains("Stop conditions:"));
}

#[test]
fn list_says_which_scenarios_need_approve_all_to_end_as_listed() {
    let text = stdout(&agent_loop(&["list"]));
    let line = |id: &str| {
        text.lines()
            .find(|line| line.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id}:\n{text}"))
            .to_string()
    };
    assert!(
        line("press-stop").contains(" cancelled on Ctrl+C "),
        "{}",
        line("press-stop")
    );
    let refund = line("refund-with-approval");
    assert!(
        refund.contains(" done with --approve all  Refund with approval"),
        "{refund}"
    );
    // What the line promises is what a run does: only with the flag.
    assert_eq!(
        agent_loop(&["run", "refund-with-approval", "--approve", "all"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        agent_loop(&["run", "refund-with-approval"]).status.code(),
        Some(3)
    );
    // A policy written in the file needs no flag; nor does a scenario that asks nothing.
    assert!(
        !line("blocked").contains("--approve"),
        "{}",
        line("blocked")
    );
    assert!(
        !line("get-time").contains("--approve"),
        "{}",
        line("get-time")
    );
    // A deadline counted from the page's load cannot be met by a fresh process.
    let shared = line("deadline-shared");
    assert!(
        shared.contains(" deadline in the page ")
            && shared.ends_with(
                "(once the page has been open 2.5 s; each `agent-loop run` starts a fresh clock)"
            ),
        "{shared}"
    );
}

#[test]
fn the_deadline_interrupts_a_60_second_call_in_real_time() {
    let started = Instant::now();
    let output = agent_loop(&["run", "deadline", "--jsonl"]);
    let wall = started.elapsed();
    assert_eq!(output.status.code(), Some(3));
    let last: serde_json::Value =
        serde_json::from_str(stdout(&output).lines().last().unwrap()).unwrap();
    assert_eq!(last["status"], "deadline");
    let elapsed = last["elapsed_ms"].as_u64().unwrap();
    assert!((1500..2500).contains(&elapsed), "stopped at {elapsed} ms");
    assert!(
        wall.as_secs() < 10,
        "the process ended in {wall:?}, not after the 60 s delay"
    );
}

#[test]
fn a_js_tool_runs_to_its_error_result_and_the_cli_says_why() {
    let output = agent_loop(&["run", "js-tool", "--jsonl"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with("note: shipping_cost has a JavaScript body, which runs only in the browser playground's sandbox"),
        "{}",
        stderr(&output)
    );
    let result = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["type"] == "tool_result")
        .expect("a tool_result event");
    assert_eq!(result["is_error"], true);
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains(harness::script::NO_HOST_MESSAGE),
        "{result}"
    );
}

#[test]
fn schema_command_prints_the_published_format() {
    let output = agent_loop(&["schema"]);
    assert_eq!(output.status.code(), Some(0));
    let schema: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(schema["title"], "Agent Loop Playground scenario");
}

#[test]
fn wire_prints_each_request_body_in_the_providers_format() {
    let output = agent_loop(&["wire", "--provider", "anthropic", "get-time"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let wire: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(wire["provider"], "anthropic");
    let requests = wire["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 2, "one body per model call");
    let second = &requests[1]["body"];
    assert_eq!(
        second["system"],
        "You are a helpful assistant. Use tools when they help."
    );
    assert_eq!(second["tools"][0]["name"], "get_time");
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    // The thinking block goes back unchanged, and the result answers the call by id.
    assert_eq!(messages[1]["content"][0]["type"], "thinking");
    let call_id = messages[1]["content"][2]["id"].clone();
    assert_eq!(messages[2]["content"][0]["type"], "tool_result");
    assert_eq!(messages[2]["content"][0]["tool_use_id"], call_id);

    let output = agent_loop(&["wire", "--provider", "openai-responses", "get-time"]);
    let wire: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let input = wire["requests"][1]["body"]["input"].as_array().unwrap();
    assert!(input
        .iter()
        .any(|item| item["type"] == "function_call_output"));

    let output = agent_loop(&["wire", "--provider", "gemini", "get-time"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn wire_sends_each_tool_as_the_scenario_describes_it() {
    // A built-in by name carries its own description; an inline tool that
    // borrows a built-in's handler carries the scenario's.
    let path = temp_file(
        "wire-tools.json",
        r#"{"name": "w", "task": "Refund ord_1.", "system": "Be careful.",
            "limits": {"max_output_tokens": 300},
            "tools": ["get_time",
                {"name": "refund", "description": "Refund it.", "builtin": "issue_refund",
                 "input_schema": {"type": "object"}}],
            "model": {"type": "scripted", "responses": [{"text": "Done."}]}}"#,
    );
    let output = agent_loop(&["wire", "--provider", "anthropic", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let wire: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let body = &wire["requests"][0]["body"];
    assert_eq!(body["system"], "Be careful.");
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(body["tools"][0]["name"], "get_time");
    assert_eq!(
        body["tools"][0]["description"],
        "Returns the current date and time in UTC. Takes no arguments."
    );
    assert_eq!(body["tools"][1]["name"], "refund");
    assert_eq!(body["tools"][1]["description"], "Refund it.");
    assert_eq!(
        body["tools"][1]["input_schema"],
        serde_json::json!({"type": "object"})
    );
}

#[test]
fn check_shows_the_error_each_provider_would_answer_with() {
    let output = agent_loop(&["check", "protocol-duplicate-ids"]);
    assert_eq!(output.status.code(), Some(3));
    let text = stdout(&output);
    assert!(
        text.contains("messages.1.content.1: `tool_use` ids must be unique"),
        "{text}"
    );
    assert!(
        text.contains(
            "Duplicate value for 'tool_call_id' of 'toolu_dup' in messages[2] and messages[3]"
        ),
        "{text}"
    );
    // OpenAI Responses refuses it too, as reported, and the CLI says that
    // the refusal is not documented rather than call the history accepted.
    assert!(
        text.contains(
            "✗ OpenAI Responses: 2 violations (reported in public issue threads, not documented)"
        ),
        "{text}"
    );
    assert!(
        text.contains("HTTP 400 Duplicate function_call_output for call_id toolu_dup."),
        "{text}"
    );

    let output = agent_loop(&["check", "refund-with-approval", "--approve", "all"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output).matches("no violations").count(), 3);
}

#[test]
fn a_recorded_run_shows_and_replays_and_a_changed_tool_fails_the_replay() {
    let dir = std::env::temp_dir().join(format!("agent-loop-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("run.jsonl");
    let record = record.to_str().unwrap();
    let output = agent_loop(&["run", "refund-policy", "--record", record]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(record).unwrap();
    assert!(text
        .lines()
        .next()
        .unwrap()
        .starts_with("{\"type\":\"scenario\""));

    let shown = agent_loop(&["show", record]);
    assert_eq!(shown.status.code(), Some(0));
    assert!(stdout(&shown).contains("■ done — the model gave a final answer in turn 4"));

    let replayed = agent_loop(&["replay", record]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stdout(&replayed));
    assert!(stdout(&replayed).contains("replay passed (5 assertions)"));

    // The current refund_order now insists on a reason the recorded model never gave.
    let changed = temp_file(
        "changed.json",
        &text
            .lines()
            .next()
            .map(|line| {
                let mut scenario: serde_json::Value = serde_json::from_str(line).unwrap();
                let scenario = scenario["scenario"].take();
                let mut scenario = scenario;
                scenario["tools"][2] = serde_json::json!({"name": "refund_order", "builtin": "refund_order",
                    "description": "Refund an order.", "input_schema": {"type": "object",
                    "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
                    "required": ["order_id", "reason"]}});
                scenario.to_string()
            })
            .unwrap(),
    );
    let failed = agent_loop(&["replay", record, "--scenario", changed.to_str().unwrap()]);
    assert_eq!(failed.status.code(), Some(3));
    let err = stderr(&failed);
    assert!(
        err.starts_with(
            "replay failed: first difference: status: expected done, got failed_verification"
        ),
        "{err}"
    );
    assert!(stdout(&failed).contains("✗ same_errors: call 3 (refund_order): the recording's result was ok, now it is an error: invalid arguments for refund_order: missing required property \"reason\""), "{}", stdout(&failed));

    let assertions = temp_file("assert.json", r#"{"status": "failed_verification"}"#);
    let output = agent_loop(&[
        "replay",
        record,
        "--scenario",
        changed.to_str().unwrap(),
        "--assert",
        assertions.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(3),
        "status now matches, but the error flags still differ"
    );
    assert!(stdout(&output).contains("✓ status: ended failed_verification"));

    let bad = temp_file("bad-assert.json", r#"{"stauts": "done"}"#);
    let output = agent_loop(&["replay", record, "--assert", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "not a valid assertions file: unknown key \"stauts\" (did you mean `status`?); the keys are status, tool_sequence,"
        ),
        "{}",
        stderr(&output)
    );

    // Every problem in one pass: a typo and a wrong value, both named.
    let two = temp_file(
        "two-problems-assert.json",
        r#"{"stauts": "done", "no_repeated_calls": "yes"}"#,
    );
    let output = agent_loop(&["replay", record, "--assert", two.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("unknown key \"stauts\" (did you mean `status`?)")
            && said.contains("; no_repeated_calls must be true or false"),
        "{said}"
    );
}

#[test]
fn fork_lists_steps_and_continues_a_recording_under_an_edit() {
    let dir = std::env::temp_dir().join(format!("agent-loop-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parent = dir.join("parent.jsonl");
    let parent = parent.to_str().unwrap();
    assert_eq!(
        agent_loop(&["run", "refund-policy", "--record", parent])
            .status
            .code(),
        Some(0)
    );
    let listed = agent_loop(&["fork", parent, "--list"]);
    assert!(
        stdout(&listed).contains("    9  before turn 3"),
        "{}",
        stdout(&listed)
    );

    let edited = temp_file(
        "refund-policy-2-turns.json",
        &harness::library::find("refund-policy")
            .unwrap()
            .json()
            .replace("\"max_turns\": 8", "\"max_turns\": 2"),
    );
    let child = dir.join("child.jsonl");
    let output = agent_loop(&[
        "fork",
        parent,
        "--at",
        "9",
        "--scenario",
        edited.to_str().unwrap(),
        "--record",
        child.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3));
    let text = stdout(&output);
    assert!(
        text.contains("⊘ turn_limit — made 2 of max 2 model calls"),
        "{text}"
    );
    assert!(text.contains("first divergence from the parent at event 9: parent model_request turn=3 attempt=1 | fork run_finished turn_limit"), "{text}");
    let child = std::fs::read_to_string(child).unwrap();
    assert!(child.lines().next().unwrap().contains("\"forked_at\":9"));

    let output = agent_loop(&["fork", parent, "--at", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("event 2 is not a step to fork from"));
}

/// Ctrl+C is the command line's Stop: the hung run ends `cancelled` with its
/// trace printed and recorded, not killed with the trace lost.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_hung_run_which_ends_cancelled_with_its_trace_kept() {
    use std::process::{Command, Stdio};
    let record = std::env::temp_dir().join(format!("agent-loop-stop-{}.jsonl", std::process::id()));
    let child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["run", "press-stop", "--jsonl", "--record"])
        .arg(&record)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-loop runs");
    // Past the first turn (200 ms), into the call that hangs for an hour.
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        started.elapsed().as_secs() < 5,
        "the run did not end on Ctrl+C"
    );
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("press Ctrl+C"),
        "nothing said how to stop it: {}",
        stderr(&output)
    );
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let last = lines.last().expect("a trace");
    assert_eq!(last["type"], "run_finished");
    assert_eq!(last["status"], "cancelled");
    assert!(
        lines.iter().any(|e| e["type"] == "tool_result"),
        "the trace before Stop was lost"
    );
    let recorded = std::fs::read_to_string(&record).expect("the record was written");
    assert!(recorded.lines().last().unwrap().contains("\"cancelled\""));
    let _ = std::fs::remove_file(record);
}

/// The CLI's closing lines name the tool calls as the page's header does
/// (`harness::tally`), from the same `run_finished` it records, for every
/// built-in that ends on its own.
#[test]
fn every_built_in_prints_its_tool_calls_by_the_pages_names() {
    let dir = std::env::temp_dir().join(format!("agent-loop-counts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for builtin in harness::library::BUILTIN {
        let ends_alone = builtin.stop_pressed_after_ms().is_none()
            && harness::library::clock_age_needed_ms(builtin) == 0;
        if !ends_alone {
            continue;
        }
        let record = dir.join(format!("{}.jsonl", builtin.id));
        let output = agent_loop(&[
            "run",
            builtin.id,
            "--approve",
            "all",
            "--record",
            record.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&record).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let calls: harness::tally::CallCounts =
            serde_json::from_value(last["calls"].clone()).expect("run_finished has its calls");
        let line = format!(
            "tool calls: {}, {} checked against max_tool_calls",
            calls.summary(0),
            last["tool_calls"]
        );
        assert!(
            stdout(&output).contains(&line),
            "{}: {line:?} not in\n{}",
            builtin.id,
            stdout(&output)
        );
    }
}

/// An imported body that answers a call it never made: `show` names the
/// result as one for an unknown call, and the request as estimated tokens.
#[test]
fn show_names_a_result_for_an_unknown_call() {
    let body = temp_file(
        "orphan.json",
        r#"{"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [
            {"role": "user", "content": "What is the stock of warehouse A?"},
            {"role": "assistant", "content": "Let me look."},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_orphan", "content": "12 units"}]}]}"#,
    );
    let record = body.with_file_name("orphan.jsonl");
    let output = agent_loop(&[
        "import",
        body.to_str().unwrap(),
        "--out",
        record.to_str().unwrap(),
    ]);
    // Exit 3: the body is one Anthropic would refuse; the record is written.
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let output = agent_loop(&["show", record.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(
        text.contains("→ for an unknown call [toolu_orphan]"),
        "{text}"
    );
    assert!(text.contains("turn 2 → model (≈"), "{text}");
    assert!(!text.contains("(≈0 input tokens)"), "{text}");
}
