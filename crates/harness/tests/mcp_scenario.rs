//! `mcp_servers` in a scenario file: what loads before any server is
//! reached, every problem with its path, and header values kept out of
//! everything written.

use std::rc::Rc;

use harness::replay::Record;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use serde_json::{json, Value};

fn scenario(servers: Value, responses: Value) -> String {
    json!({
        "name": "mcp", "task": "t",
        "tools": ["get_time"],
        "mcp_servers": servers,
        "model": {"type": "scripted", "responses": responses}
    })
    .to_string()
}

fn problems(text: &str) -> Vec<String> {
    match Scenario::load(text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_script_may_name_tools_a_server_has_not_listed_yet() {
    let text = scenario(
        json!([{"name": "everything", "url": "http://127.0.0.1:3001/mcp"}]),
        json!([
            {"tool_calls": [{"name": "echo", "args": {"message": "hi"}}]},
            {"text": "done", "branches": [{"when": {"echo": "ok"}, "text": "echoed"}]}
        ]),
    );
    let loaded = Scenario::load(&text).expect("loads before the server is reached");
    assert_eq!(loaded.mcp_servers[0].name, "everything");
    assert!(loaded.mcp.is_none());
}

#[test]
fn allowed_tools_narrows_what_a_script_may_name() {
    let text = scenario(
        json!([{"name": "everything", "url": "http://127.0.0.1:3001/mcp", "allowed_tools": ["echo"]}]),
        json!([{"text": "done", "branches": [
            {"when": {"everything__echo": "ok"}, "text": "a"},
            {"when": {"get-sum": "ok"}, "text": "b"}
        ]}]),
    );
    assert_eq!(
        problems(&text),
        vec![
            "model.responses[0].branches[1].when.get-sum: the scenario has no tool named \"get-sum\"; its tools are: get_time"
                .to_string()
        ]
    );
}

#[test]
fn every_problem_in_mcp_servers_is_reported_with_its_path() {
    let text = scenario(
        json!([
            {"name": "a", "url": "ftp://x/mcp", "headers": {"Mcp-Session-Id": "x"}},
            {"name": "a", "url": "127.0.0.1:3001", "allowed_tools": ["echo", "echo"],
             "approval": {"get-sum": true}},
            {"name": "bad name!", "url": "http://h/mcp", "colour": "red"}
        ]),
        json!([{"text": "done"}]),
    );
    let found = problems(&text);
    let expected = [
        "mcp_servers[0].url: \"ftp://x/mcp\" uses ftp://; MCP's Streamable HTTP transport needs http:// or https://",
        "mcp_servers[0].headers.Mcp-Session-Id: Mcp-Session-Id is set by the MCP transport itself; leave it out",
        "mcp_servers[1].name: duplicate server name \"a\" (also mcp_servers[0]); server names must be unique",
        "mcp_servers[1].url: \"127.0.0.1:3001\" is not a URL; an MCP endpoint looks like http://127.0.0.1:3001/mcp",
        "mcp_servers[1].allowed_tools[1]: \"echo\" is listed twice",
        "mcp_servers[1].approval.get-sum: \"get-sum\" is not in allowed_tools, so the scenario never has it",
    ];
    for line in expected {
        assert!(
            found.iter().any(|f| f == line),
            "missing {line:?} in {found:#?}"
        );
    }
    assert!(
        found.iter().any(|f| f.starts_with("mcp_servers[2].name: ")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("mcp_servers[2].colour: ")),
        "{found:#?}"
    );
}

#[test]
fn a_run_is_not_built_before_the_servers_tools_are_loaded() {
    let text = scenario(
        json!([{"name": "everything", "url": "http://127.0.0.1:3001/mcp"}]),
        json!([{"text": "done"}]),
    );
    let loaded = Scenario::load(&text).unwrap();
    let problems = match loaded.build(Rc::new(TokioRuntime::default())) {
        Ok(_) => panic!("built without the server's tools"),
        Err(problems) => problems,
    };
    assert_eq!(
        problems[0].to_string(),
        "mcp_servers: the tools of \"everything\" at http://127.0.0.1:3001/mcp are not loaded yet; connect to the server first (`agent-loop run` does it before the run)"
    );
}

#[test]
fn header_values_stay_out_of_records_and_exports() {
    let text = scenario(
        json!([{"name": "s", "url": "http://127.0.0.1:3001/mcp",
                "headers": {"Authorization": "Bearer sk-live-123"}}]),
        json!([{"text": "done"}]),
    );
    let loaded = Scenario::load(&text).unwrap();
    assert_eq!(
        loaded.mcp_servers[0].headers["Authorization"].expose(),
        "Bearer sk-live-123"
    );
    let record = Record {
        scenario: Some(loaded.clone()),
        events: Vec::new(),
        forked_at: None,
    }
    .to_jsonl();
    assert!(!record.contains("sk-live-123"), "{record}");
    assert!(
        record.contains("\"Authorization\":\"[redacted]\""),
        "{record}"
    );
    let export = loaded.to_json_pretty();
    assert!(!export.contains("sk-live-123"), "{export}");
    assert!(!format!("{loaded:?}").contains("sk-live-123"));
}
