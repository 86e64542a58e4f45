//! The MCP model driven through its messages: what the panel says while
//! servers load, which load's answer counts, and where a header value or a
//! token goes (and where it never does).

use harness::mcp::ResolvedMcp;

use super::*;

fn text_with(url: &str) -> String {
    format!(
        r#"{{"name": "s", "mcp_servers": [{{"name": "shop", "url": "{url}"}}], "model": {{"script": []}}}}"#
    )
}

fn shop() -> String {
    text_with("http://127.0.0.1:8787/mcp")
}

fn mcp_scenario() -> Scenario {
    Scenario::load(harness::library::find("mcp-tools").unwrap().json()).unwrap()
}

fn loaded_scenario() -> Scenario {
    mcp_scenario().with_mcp(ResolvedMcp {
        tools: Vec::new(),
        connection: 1,
    })
}

/// The ticket of the load `cmds` start, if they start one.
fn load_of(cmds: &[Cmd]) -> Option<Ticket> {
    cmds.iter().find_map(|c| match c {
        Cmd::Load { ticket, .. } => Some(*ticket),
        _ => None,
    })
}

fn settled_of(cmds: &[Cmd], which: Ticket) -> Option<&Settled> {
    cmds.iter().find_map(|c| match c {
        Cmd::Settle { ticket, settled } if *ticket == which => Some(&**settled),
        _ => None,
    })
}

fn answered(reports: &[&str]) -> LoadAnswer {
    Some(Ok((
        loaded_scenario(),
        reports.iter().map(|r| r.to_string()).collect(),
    )))
}

#[test]
fn a_scenario_naming_servers_loads_them_and_says_which() {
    let mut model = McpModel::default();
    let cmds = model.update(Msg::Text(shop()));
    assert!(load_of(&cmds).is_some());
    assert_eq!(
        model.status,
        McpStatus::Loading("\"shop\" at http://127.0.0.1:8787/mcp".into())
    );
}

#[test]
fn a_scenario_naming_no_server_loads_nothing_and_shows_nothing() {
    let mut model = McpModel::default();
    let cmds = model.update(Msg::Text(r#"{"name": "s"}"#.into()));
    assert!(cmds.is_empty());
    assert_eq!(model.status, McpStatus::None);
}

#[test]
fn a_loaded_server_says_who_answered() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["shop: demo 1.0, 2 tools"])),
    });
    assert_eq!(
        model.status,
        McpStatus::Loaded {
            reports: vec!["shop: demo 1.0, 2 tools".into()],
            tools: Vec::new(),
        }
    );
    assert_eq!(model.loading(), None);
}

#[test]
fn a_failed_load_lists_every_problem() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Loaded {
        ticket,
        answer: Box::new(Some(Err(vec![
            "shop: no answer (CORS?)".into(),
            "try serve --mcp".into(),
        ]))),
    });
    assert_eq!(
        model.status,
        McpStatus::Failed(vec![
            "shop: no answer (CORS?)".into(),
            "try serve --mcp".into()
        ])
    );
    assert_eq!(
        settled_of(&cmds, ticket),
        Some(&Err(vec![
            "shop: no answer (CORS?)".into(),
            "try serve --mcp".into()
        ]))
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
        Some(&Ok(None)),
        "the older load's waiter is told it is moot"
    );
    let late = model.update(Msg::Loaded {
        ticket: first,
        answer: Box::new(answered(&["old server"])),
    });
    assert!(late.is_empty());
    assert_eq!(
        model.status,
        McpStatus::Loading("\"shop\" at http://localhost:9000/mcp".into()),
        "still waiting on the newer servers"
    );
    model.update(Msg::Loaded {
        ticket: second,
        answer: Box::new(answered(&["new server"])),
    });
    assert!(
        matches!(&model.status, McpStatus::Loaded { reports, .. } if reports == &["new server"])
    );
}

#[test]
fn an_edit_that_drops_the_servers_drops_the_load_in_flight() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Text(r#"{"name": "s"}"#.into()));
    assert_eq!(settled_of(&cmds, ticket), Some(&Ok(None)));
    assert_eq!(model.status, McpStatus::None);
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["late"])),
    });
    assert_eq!(model.status, McpStatus::None, "the late answer is dropped");
}

#[test]
fn editing_elsewhere_in_the_scenario_does_not_load_again() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["shop"])),
    });
    let edited = shop().replace("\"name\": \"s\"", "\"name\": \"renamed\"");
    assert!(model.update(Msg::Text(edited)).is_empty());
    assert!(
        model.update(Msg::Text(shop())).is_empty(),
        "nor while it loads"
    );
}

#[test]
fn reload_loads_the_same_servers_again() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["shop"])),
    });
    let again = load_of(&model.update(Msg::Reload(shop())));
    assert!(again.is_some_and(|t| t != ticket));
    assert!(matches!(model.status, McpStatus::Loading(_)));
}

#[test]
fn reload_of_a_text_without_servers_does_nothing() {
    let mut model = McpModel::default();
    assert!(model.update(Msg::Reload("{}".into())).is_empty());
}

#[test]
fn a_text_that_does_not_load_ends_the_load_quietly() {
    let mut model = McpModel::default();
    let ticket = load_of(&model.update(Msg::Text(shop()))).unwrap();
    let cmds = model.update(Msg::Loaded {
        ticket,
        answer: Box::new(None),
    });
    assert_eq!(model.status, McpStatus::None);
    assert_eq!(settled_of(&cmds, ticket), Some(&Ok(None)));
}

// Header values and tokens.

#[test]
fn a_header_value_in_the_text_is_moved_out_and_said_so() {
    let mut model = McpModel::default();
    let text = r#"{"name": "s", "mcp_servers": [{"name": "shop", "url": "http://x/mcp", "headers": {"X-Key": "sk-secret"}}]}"#;
    let clean = model.take_secrets(text.into());
    assert!(!clean.contains("sk-secret"), "{clean}");
    assert!(clean.contains(REDACTED), "{clean}");
    assert_eq!(model.secret("shop", "X-Key").as_deref(), Some("sk-secret"));
    let said = model.moved.clone().unwrap();
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
    assert_eq!(model.moved, None);
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
        ticket,
        text,
        tokens,
        ..
    }) = cmds.iter().find(|c| matches!(c, Cmd::Load { .. }))
    else {
        panic!("a new token loads the servers again");
    };
    assert_ne!(*ticket, first);
    assert_eq!(tokens[0].token, "tok-123");
    assert!(!text.contains("tok-123"));
    assert!(!format!("{:?}", model.status).contains("tok-123"));
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
    let text = harness::library::find("mcp-tools")
        .unwrap()
        .json()
        .to_string();
    let ticket = load_of(&model.update(Msg::Text(text.clone()))).unwrap();
    assert!(matches!(model.ready(&text, &mcp_scenario()), Ready::Load));
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["shop"])),
    });
    assert!(matches!(
        model.ready(&text, &mcp_scenario()),
        Ready::Loaded(_)
    ));
}

#[test]
fn a_run_of_other_servers_loads_them_first() {
    let mut model = McpModel::default();
    let text = harness::library::find("mcp-tools")
        .unwrap()
        .json()
        .to_string();
    let ticket = load_of(&model.update(Msg::Text(text.clone()))).unwrap();
    model.update(Msg::Loaded {
        ticket,
        answer: Box::new(answered(&["shop"])),
    });
    let other = text.replace("127.0.0.1:8787", "127.0.0.1:9999");
    assert!(matches!(model.ready(&other, &mcp_scenario()), Ready::Load));
}

#[test]
fn a_run_without_servers_needs_nothing() {
    let model = McpModel::default();
    let plain = Scenario::load(harness::library::find("get-time").unwrap().json()).unwrap();
    assert!(matches!(model.ready("{}", &plain), Ready::AsIs));
    assert!(matches!(model.ready("{}", &loaded_scenario()), Ready::AsIs));
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
    assert_eq!(model.wire[0].status, None);
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
    let e = &model.wire[0];
    assert_eq!(e.status, Some(200));
    assert_eq!(e.content_type, "text/event-stream");
    assert_eq!(e.response, "data: {}\n");
    assert_eq!(e.method, "tools/list");
}

#[test]
fn a_request_without_answer_says_why() {
    let mut model = McpModel::default();
    model.update(Msg::Wire(request(1)));
    model.update(Msg::Wire(McpWire::NoAnswer {
        n: 1,
        why: "Failed to fetch".into(),
    }));
    assert_eq!(model.wire[0].no_answer.as_deref(), Some("Failed to fetch"));
}

#[test]
fn the_wire_keeps_the_newest_exchanges() {
    let mut model = McpModel::default();
    for n in 0..(WIRE_KEPT as u64 + 5) {
        model.update(Msg::Wire(request(n)));
    }
    assert_eq!(model.wire.len(), WIRE_KEPT);
    assert_eq!(model.wire[0].n, 5);
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
    assert_eq!(model.wire[0].status, None);
}
