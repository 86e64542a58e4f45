//! The MCP model driven through its messages: what the panel says while
//! servers load, which load's answer counts, what a run waiting on a load is
//! told, where a header value or a token goes (and where it never does), and
//! what the wire view keeps.

use harness::mcp::ResolvedMcp;
use serde_json::json;

use super::*;
use crate::mcp::text::fill_secrets;

fn text_with(url: &str) -> String {
    format!(
        r#"{{"name": "s", "mcp_servers": [{{"name": "shop", "url": "{url}"}}], "model": {{"script": []}}}}"#
    )
}

fn shop() -> String {
    text_with("http://127.0.0.1:8787/mcp")
}

/// A scenario naming one server with a header value in it.
const WITH_KEY: &str = r#"{"name": "s", "task": "t", "mcp_servers": [{"name": "shop", "url": "http://x/mcp", "headers": {"X-Key": "sk-secret"}}], "model": {"type": "scripted", "responses": [{"text": "ok"}]}}"#;

fn mcp_tools_text() -> String {
    harness::library::find("mcp-tools")
        .unwrap()
        .json()
        .to_string()
}

fn mcp_scenario() -> Scenario {
    Scenario::load(&mcp_tools_text()).unwrap()
}

fn tool(name: &str) -> McpTool {
    McpTool {
        server: "shop".into(),
        name: name.into(),
        remote_name: name.into(),
        title: None,
        description: format!("{name}, from the shop"),
        input_schema: json!({"type": "object"}),
        output_schema: None,
        needs_approval: false,
        annotations: serde_json::Value::Null,
        left_to_server: Vec::new(),
    }
}

fn resolved(tools: &[&str]) -> ResolvedMcp {
    ResolvedMcp {
        tools: tools.iter().map(|t| tool(t)).collect(),
        connection: 1,
    }
}

/// What the engine answers when the servers gave `tools`.
fn answered_with(tools: &[&str], reports: &[&str]) -> Box<LoadAnswer> {
    Box::new(Some(Ok((
        mcp_scenario().with_mcp(resolved(tools)),
        reports.iter().map(|r| r.to_string()).collect(),
    ))))
}

fn answered(reports: &[&str]) -> Box<LoadAnswer> {
    answered_with(&[], reports)
}

fn failed(lines: &[&str]) -> Box<LoadAnswer> {
    Box::new(Some(Err(lines.iter().map(|l| l.to_string()).collect())))
}

/// The number of the load `cmds` start, if they start one.
fn load_of(cmds: &[Cmd]) -> Option<u64> {
    cmds.iter().find_map(|c| match c {
        Cmd::Load { load, .. } => Some(*load),
        _ => None,
    })
}

/// How load `which` settled, if `cmds` say.
fn settled_of(cmds: &[Cmd], which: u64) -> Option<&Settled> {
    cmds.iter().find_map(|c| match c {
        Cmd::Settle { load, settled } if *load == which => Some(settled),
        _ => None,
    })
}

fn changed_while_loading() -> Settled {
    Err(vec![CHANGED_WHILE_LOADING.to_string()])
}

/// A model that loaded the shop's servers from `text`, with these tools.
fn loaded_from(text: String, tools: &[&str]) -> McpModel {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(text))).unwrap();
    model.update(Msg::Loaded {
        load,
        answer: answered_with(tools, &["shop: demo 1.0"]),
    });
    model
}

// Loading the servers the scenario names.

#[test]
fn a_scenario_naming_servers_loads_them_and_says_which() {
    let mut model = McpModel::default();
    let cmds = model.update(Msg::Text(shop()));
    assert!(load_of(&cmds).is_some());
    assert_eq!(
        model.status(),
        &McpStatus::Loading("\"shop\" at http://127.0.0.1:8787/mcp".into())
    );
}

#[test]
fn loading_names_every_server() {
    let mut model = McpModel::default();
    let text = r#"{"mcp_servers": [{"name": "a", "url": "http://a/mcp"}, {"name": "b", "url": "http://b/mcp"}]}"#;
    model.update(Msg::Text(text.into()));
    assert_eq!(
        model.status(),
        &McpStatus::Loading("\"a\" at http://a/mcp, \"b\" at http://b/mcp".into())
    );
}

#[test]
fn a_scenario_naming_no_server_loads_nothing_and_shows_nothing() {
    let mut model = McpModel::default();
    let cmds = model.update(Msg::Text(r#"{"name": "s"}"#.into()));
    assert!(cmds.is_empty());
    assert_eq!(model.status(), &McpStatus::None);
}

#[test]
fn a_text_that_is_not_json_loads_nothing() {
    let mut model = McpModel::default();
    assert!(model
        .update(Msg::Text("{ \"mcp_servers\": [".into()))
        .is_empty());
    assert_eq!(model.status(), &McpStatus::None);
}

#[test]
fn a_loaded_server_says_who_answered_and_lists_its_tools() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(shop()))).unwrap();
    model.update(Msg::Loaded {
        load,
        answer: answered_with(
            &["get_order_status", "issue_refund"],
            &["shop: demo 1.0, 2 tools"],
        ),
    });
    assert_eq!(
        model.status(),
        &McpStatus::Loaded {
            reports: vec!["shop: demo 1.0, 2 tools".into()],
            tools: vec![tool("get_order_status"), tool("issue_refund")],
        }
    );
    assert_eq!(model.loading(), None);
}

#[test]
fn a_failed_load_names_the_server_and_why() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let lines = [
        "mcp_servers[0] (\"shop\"): no answer from http://127.0.0.1:8787/mcp",
        "The browser got no answer from http://127.0.0.1:8787/mcp: is the server running, and does it allow this page's origin (CORS)?",
    ];
    let cmds = model.update(Msg::Loaded {
        load,
        answer: failed(&lines),
    });
    let expected: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    assert_eq!(model.status(), &McpStatus::Failed(expected.clone()));
    assert_eq!(
        settled_of(&cmds, load),
        Some(&Err(expected)),
        "a run waiting on it is refused with the same lines"
    );
}

#[test]
fn a_header_value_not_held_fails_the_load_naming_the_header() {
    // The engine fills the held values in before reaching the servers; one
    // with no value held is the load's problem, said where it is written.
    let mut model = McpModel::default();
    let clean = model.take_secrets(WITH_KEY.into());
    model.update(Msg::SetSecret {
        server: "shop".into(),
        header: "X-Key".into(),
        value: String::new(),
    });
    let cmds = model.update(Msg::Text(clean.clone()));
    let Some(Cmd::Load {
        load,
        text,
        secrets,
        ..
    }) = cmds.into_iter().find(|c| matches!(c, Cmd::Load { .. }))
    else {
        panic!("the servers load");
    };
    let problems = fill_secrets(Scenario::load(&text).unwrap(), &secrets).unwrap_err();
    model.update(Msg::Loaded {
        load,
        answer: Box::new(Some(Err(problems))),
    });
    let McpStatus::Failed(lines) = model.status() else {
        panic!("{:?}", model.status());
    };
    assert!(
        lines[0].starts_with("mcp_servers[0].headers.X-Key: enter its value under \"MCP servers\""),
        "{lines:?}"
    );
}

#[test]
fn a_later_success_replaces_the_failure() {
    let mut model = McpModel::default();
    let first = load_of(&model.update(Msg::Text(shop()))).unwrap();
    model.update(Msg::Loaded {
        load: first,
        answer: failed(&["shop: no answer"]),
    });
    let again = load_of(&model.update(Msg::Reload(shop()))).unwrap();
    assert!(matches!(model.status(), McpStatus::Loading(_)));
    model.update(Msg::Loaded {
        load: again,
        answer: answered(&["shop: demo 1.0"]),
    });
    assert!(
        matches!(model.status(), McpStatus::Loaded { reports, .. } if reports == &["shop: demo 1.0"])
    );
}

#[test]
fn a_newer_load_wins_over_an_older_answer() {
    let mut model = McpModel::default();
    let first = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Text(text_with("http://localhost:9000/mcp")));
    let second = load_of(&cmds).unwrap();
    assert_eq!(
        settled_of(&cmds, first),
        Some(&changed_while_loading()),
        "a run waiting on the older load is told to run again"
    );
    let late = model.update(Msg::Loaded {
        load: first,
        answer: answered(&["old server"]),
    });
    assert!(late.is_empty());
    assert_eq!(
        model.status(),
        &McpStatus::Loading("\"shop\" at http://localhost:9000/mcp".into()),
        "still waiting on the newer servers"
    );
    model.update(Msg::Loaded {
        load: second,
        answer: answered(&["new server"]),
    });
    assert!(
        matches!(model.status(), McpStatus::Loaded { reports, .. } if reports == &["new server"])
    );
}

#[test]
fn an_older_failure_arriving_late_does_not_hide_the_newer_tools() {
    let mut model = McpModel::default();
    let first = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let second = load_of(&model.update(Msg::Reload(shop()))).unwrap();
    model.update(Msg::Loaded {
        load: second,
        answer: answered_with(&["issue_refund"], &["shop: demo 1.0"]),
    });
    model.update(Msg::Loaded {
        load: first,
        answer: failed(&["shop: no answer"]),
    });
    assert!(matches!(model.status(), McpStatus::Loaded { tools, .. } if tools.len() == 1));
    assert!(matches!(
        model.ready(&shop(), &mcp_scenario()),
        Ready::Loaded(_)
    ));
}

#[test]
fn an_edit_that_drops_the_servers_drops_the_load_in_flight() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Text(r#"{"name": "s"}"#.into()));
    assert_eq!(settled_of(&cmds, load), Some(&changed_while_loading()));
    assert_eq!(model.status(), &McpStatus::None);
    assert_eq!(model.loading(), None);
    model.update(Msg::Loaded {
        load,
        answer: answered(&["late"]),
    });
    assert_eq!(
        model.status(),
        &McpStatus::None,
        "the late answer is dropped"
    );
}

#[test]
fn an_edit_that_drops_the_servers_forgets_their_tools() {
    let mut model = loaded_from(shop(), &["issue_refund"]);
    model.update(Msg::Text(r#"{"name": "s"}"#.into()));
    assert_eq!(model.status(), &McpStatus::None);
    let back = model.update(Msg::Text(shop()));
    assert!(
        load_of(&back).is_some(),
        "naming them again loads them again"
    );
}

#[test]
fn editing_elsewhere_in_the_scenario_does_not_load_again() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(shop()))).unwrap();
    assert!(
        model.update(Msg::Text(shop())).is_empty(),
        "not while it loads"
    );
    model.update(Msg::Loaded {
        load,
        answer: answered(&["shop"]),
    });
    let edited = shop().replace("\"name\": \"s\"", "\"name\": \"renamed\"");
    assert!(model.update(Msg::Text(edited)).is_empty());
}

#[test]
fn reload_loads_the_same_servers_again() {
    let mut model = loaded_from(shop(), &[]);
    let again = load_of(&model.update(Msg::Reload(shop())));
    assert!(again.is_some_and(|n| n != 1));
    assert!(matches!(model.status(), McpStatus::Loading(_)));
}

#[test]
fn reload_of_a_text_without_servers_does_nothing() {
    let mut model = McpModel::default();
    assert!(model.update(Msg::Reload("{}".into())).is_empty());
    assert_eq!(model.status(), &McpStatus::None);
}

#[test]
fn a_text_that_does_not_load_ends_the_load_quietly() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Loaded {
        load,
        answer: Box::new(None),
    });
    assert_eq!(model.status(), &McpStatus::None);
    assert_eq!(settled_of(&cmds, load), Some(&changed_while_loading()));
}

#[test]
fn every_load_settles_once() {
    let mut model = McpModel::default();
    let first = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let second_cmds = model.update(Msg::Reload(shop()));
    let second = load_of(&second_cmds).unwrap();
    let settles = |cmds: &[Cmd]| {
        cmds.iter()
            .filter(|c| matches!(c, Cmd::Settle { .. }))
            .count()
    };
    assert_eq!(settles(&second_cmds), 1, "the overtaken one");
    let late = model.update(Msg::Loaded {
        load: first,
        answer: answered(&["old"]),
    });
    assert_eq!(settles(&late), 0, "it settled when it was overtaken");
    let done = model.update(Msg::Loaded {
        load: second,
        answer: answered(&["new"]),
    });
    assert_eq!(settles(&done), 1);
    let twice = model.update(Msg::Loaded {
        load: second,
        answer: answered(&["again"]),
    });
    assert!(twice.is_empty(), "an answer given twice counts once");
}

// Header values and tokens.

#[test]
fn a_header_value_in_the_text_is_moved_out_and_said_so() {
    let mut model = McpModel::default();
    let clean = model.take_secrets(WITH_KEY.into());
    assert!(!clean.contains("sk-secret"), "{clean}");
    assert!(clean.contains(REDACTED), "{clean}");
    assert_eq!(model.secret("shop", "X-Key").as_deref(), Some("sk-secret"));
    let said = model.moved().unwrap();
    assert!(
        said.starts_with("The value of X-Key of server \"shop\" was moved out"),
        "{said}"
    );
    assert!(!said.contains("sk-secret"));
}

#[test]
fn a_text_without_header_values_is_left_as_it_is() {
    let mut model = McpModel::default();
    assert_eq!(model.take_secrets(shop()), shop());
    assert_eq!(model.moved(), None);
}

#[test]
fn a_moved_value_goes_to_the_load_and_nowhere_the_page_keeps_or_exports() {
    let mut model = McpModel::default();
    let clean = model.take_secrets(WITH_KEY.into());
    let cmds = model.update(Msg::Text(clean));
    let Some(Cmd::Load {
        load,
        text,
        secrets,
        ..
    }) = cmds.into_iter().find(|c| matches!(c, Cmd::Load { .. }))
    else {
        panic!("the servers load");
    };
    assert_eq!(secrets[0].value, "sk-secret", "the request gets it");
    assert!(!text.contains("sk-secret"), "the text it loads does not");
    // The engine fills the value in for the request; the scenario a run
    // gets, kept in a record and exported, writes it redacted.
    let filled = fill_secrets(Scenario::load(&text).unwrap(), &secrets).unwrap();
    let cmds = model.update(Msg::Loaded {
        load,
        answer: Box::new(Some(Ok((
            filled.with_mcp(resolved(&["lookup"])),
            vec!["shop".into()],
        )))),
    });
    let exported = serde_json::to_string(&filled_scenario_of(&cmds)).unwrap();
    assert!(!exported.contains("sk-secret"), "{exported}");
    assert!(!format!("{:?}", model.status()).contains("sk-secret"));
}

/// The scenario a run would start with after `cmds` settled its load.
fn filled_scenario_of(cmds: &[Cmd]) -> Scenario {
    let Some(Cmd::Settle {
        settled: Ok(mcp), ..
    }) = cmds.first()
    else {
        panic!("{cmds:?}");
    };
    Scenario::load(WITH_KEY).unwrap().with_mcp(mcp.clone())
}

#[test]
fn the_token_goes_to_the_load_and_nowhere_in_the_text_or_status() {
    let mut model = McpModel::default();
    let first = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::SetToken {
        server: "shop".into(),
        token: "  tok-123 \n".into(),
    });
    assert_eq!(model.token("shop").as_deref(), Some("tok-123"), "trimmed");
    let Some(Cmd::Load {
        load, text, tokens, ..
    }) = cmds.iter().find(|c| matches!(c, Cmd::Load { .. }))
    else {
        panic!("a new token loads the servers again");
    };
    assert_ne!(*load, first);
    assert_eq!(tokens[0].token, "tok-123");
    assert!(!text.contains("tok-123"));
    assert!(!format!("{:?}", model.status()).contains("tok-123"));
}

#[test]
fn the_same_token_again_does_not_load_again() {
    let mut model = McpModel::default();
    model.update(Msg::Text(shop()));
    let token = || Msg::SetToken {
        server: "shop".into(),
        token: "tok".into(),
    };
    assert!(load_of(&model.update(token())).is_some());
    assert!(model.update(token()).is_empty());
}

#[test]
fn an_empty_token_forgets_it() {
    let mut model = McpModel::default();
    model.update(Msg::SetToken {
        server: "shop".into(),
        token: "t".into(),
    });
    model.update(Msg::SetToken {
        server: "shop".into(),
        token: " ".into(),
    });
    assert_eq!(model.token("shop"), None);
}

#[test]
fn a_header_value_typed_loads_the_servers_with_it() {
    let mut model = McpModel::default();
    model.update(Msg::Text(shop()));
    let cmds = model.update(Msg::SetSecret {
        server: "shop".into(),
        header: "X-Key".into(),
        value: "v1".into(),
    });
    let Some(Cmd::Load { secrets, .. }) = cmds.iter().find(|c| matches!(c, Cmd::Load { .. }))
    else {
        panic!("loads again with the value");
    };
    assert_eq!(secrets[0].value, "v1");
    model.update(Msg::SetSecret {
        server: "shop".into(),
        header: "X-Key".into(),
        value: String::new(),
    });
    assert_eq!(model.secret("shop", "X-Key"), None);
}

#[test]
fn a_value_held_before_any_text_loads_nothing() {
    let mut model = McpModel::default();
    let cmds = model.update(Msg::SetSecret {
        server: "shop".into(),
        header: "X-Key".into(),
        value: "v".into(),
    });
    assert!(cmds.is_empty());
}

// A run about to start.

#[test]
fn a_run_takes_the_loaded_tools_of_its_servers() {
    let mut model = McpModel::default();
    let text = mcp_tools_text();
    let load = load_of(&model.update(Msg::Text(text.clone()))).unwrap();
    assert_eq!(model.ready(&text, &mcp_scenario()), Ready::Load);
    model.update(Msg::Loaded {
        load,
        answer: answered_with(&["issue_refund"], &["shop"]),
    });
    assert_eq!(
        model.ready(&text, &mcp_scenario()),
        Ready::Loaded(resolved(&["issue_refund"]))
    );
}

#[test]
fn a_run_of_other_servers_loads_them_first() {
    let text = mcp_tools_text();
    let model = loaded_from(text.clone(), &["issue_refund"]);
    let other = text.replace("127.0.0.1:8787", "127.0.0.1:9999");
    assert_eq!(model.ready(&other, &mcp_scenario()), Ready::Load);
}

#[test]
fn a_run_after_a_failed_load_loads_again() {
    let mut model = McpModel::default();
    let text = mcp_tools_text();
    let load = load_of(&model.update(Msg::Text(text.clone()))).unwrap();
    model.update(Msg::Loaded {
        load,
        answer: failed(&["shop: no answer"]),
    });
    assert_eq!(model.ready(&text, &mcp_scenario()), Ready::Load);
}

#[test]
fn a_run_without_servers_needs_nothing() {
    let model = McpModel::default();
    let plain = Scenario::load(harness::library::find("get-time").unwrap().json()).unwrap();
    assert_eq!(model.ready("{}", &plain), Ready::AsIs);
    let with_tools = mcp_scenario().with_mcp(resolved(&[]));
    assert_eq!(model.ready(&mcp_tools_text(), &with_tools), Ready::AsIs);
}

#[test]
fn a_run_waiting_on_its_load_gets_the_tools_it_loaded() {
    let mut model = McpModel::default();
    let text = mcp_tools_text();
    let load = load_of(&model.update(Msg::Reload(text))).unwrap();
    assert_eq!(model.loading(), Some(load));
    let cmds = model.update(Msg::Loaded {
        load,
        answer: answered_with(&["get_order_status"], &["shop"]),
    });
    assert_eq!(
        settled_of(&cmds, load),
        Some(&Ok(resolved(&["get_order_status"])))
    );
}

#[test]
fn a_run_waiting_on_a_load_the_servers_answered_without_tools_is_told_so() {
    let mut model = McpModel::default();
    let load = load_of(&model.update(Msg::Reload(shop()))).unwrap();
    let cmds = model.update(Msg::Loaded {
        load,
        answer: Box::new(Some(Ok((mcp_scenario(), vec!["shop".into()])))),
    });
    assert_eq!(
        settled_of(&cmds, load),
        Some(&Err(vec!["the MCP tools did not load".to_string()]))
    );
    assert_eq!(model.ready(&shop(), &mcp_scenario()), Ready::Load);
}

// The wire.

fn request(n: u64) -> McpWire {
    McpWire::Request {
        n,
        url: "http://x/mcp".into(),
        headers: vec![("X-Key".into(), REDACTED.into())],
        method: "tools/list".into(),
        body: "{}".into(),
    }
}

#[test]
fn an_exchange_shows_its_request_then_its_answer_as_it_streams() {
    let mut model = McpModel::default();
    model.update(Msg::Wire(request(1)));
    assert_eq!(model.wire()[0].status, None);
    model.update(Msg::Wire(McpWire::Answer {
        n: 1,
        status: 200,
        content_type: "text/event-stream".into(),
    }));
    model.update(Msg::Wire(McpWire::Chunk {
        n: 1,
        text: "data: {".into(),
    }));
    model.update(Msg::Wire(McpWire::Chunk {
        n: 1,
        text: "}\n".into(),
    }));
    let e = &model.wire()[0];
    assert_eq!(e.status, Some(200));
    assert_eq!(e.content_type, "text/event-stream");
    assert_eq!(e.response, "data: {}\n");
    assert_eq!(e.method, "tools/list");
    assert_eq!(e.headers, vec![("X-Key".to_string(), REDACTED.to_string())]);
}

#[test]
fn answers_go_to_their_own_exchange() {
    let mut model = McpModel::default();
    model.update(Msg::Wire(request(1)));
    model.update(Msg::Wire(request(2)));
    model.update(Msg::Wire(McpWire::Chunk {
        n: 1,
        text: "first".into(),
    }));
    assert_eq!(model.wire()[0].response, "first");
    assert_eq!(model.wire()[1].response, "");
}

#[test]
fn a_request_without_answer_says_why() {
    let mut model = McpModel::default();
    model.update(Msg::Wire(request(1)));
    model.update(Msg::Wire(McpWire::NoAnswer {
        n: 1,
        why: "Failed to fetch".into(),
    }));
    assert_eq!(
        model.wire()[0].no_answer.as_deref(),
        Some("Failed to fetch")
    );
}

#[test]
fn the_wire_keeps_the_newest_exchanges() {
    let mut model = McpModel::default();
    for n in 0..(WIRE_KEPT as u64 + 5) {
        model.update(Msg::Wire(request(n)));
    }
    assert_eq!(model.wire().len(), WIRE_KEPT);
    assert_eq!(model.wire()[0].n, 5);
    assert_eq!(model.wire()[WIRE_KEPT - 1].n, WIRE_KEPT as u64 + 4);
}

#[test]
fn an_answer_for_an_exchange_no_longer_kept_changes_nothing() {
    let mut model = McpModel::default();
    model.update(Msg::Wire(request(1)));
    model.update(Msg::Wire(McpWire::Answer {
        n: 99,
        status: 500,
        content_type: String::new(),
    }));
    assert_eq!(model.wire()[0].status, None);
}

#[test]
fn an_overtaken_loads_exchanges_still_show() {
    // The wire view shows what went over the network, whichever load sent it.
    let mut model = McpModel::default();
    model.update(Msg::Text(shop()));
    model.update(Msg::Wire(request(1)));
    model.update(Msg::Reload(shop()));
    model.update(Msg::Wire(McpWire::Answer {
        n: 1,
        status: 200,
        content_type: "application/json".into(),
    }));
    assert_eq!(model.wire()[0].status, Some(200));
}
