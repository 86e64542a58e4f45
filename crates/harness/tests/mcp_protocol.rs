//! The MCP client against scripted HTTP answers: which generation it picks
//! (the spec's fallback rule), the headers each request carries, pages of
//! `tools/list`, names prefixed only on collision, and how results and
//! failures read.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::mcp::resolve::resolve;
use harness::mcp::session::{Generation, Session};
use harness::mcp::transport::{HttpRequest, HttpResponse, McpTransport};
use harness::scenario::Scenario;
use serde_json::{json, Value};

type Answer = Box<dyn Fn(&HttpRequest, &Value) -> (u16, Vec<(String, String)>, String)>;

/// A request's headers and JSON body.
type Seen = (Vec<(String, String)>, Value);

/// Answers each POST with `answer(request, body)`, keeping every request;
/// each GET (a resumed SSE stream) with `resume(request)`, kept in `gets`.
struct Scripted {
    answer: Answer,
    seen: RefCell<Vec<Seen>>,
    resume: Option<Resume>,
    /// Each GET's headers, with how many POSTs came before it.
    gets: RefCell<Vec<Get>>,
}

/// A GET's place (the POSTs before it) and headers.
type Get = (usize, Vec<(String, String)>);

type Resume = Box<dyn Fn(&HttpRequest) -> (u16, Vec<(String, String)>, String)>;

impl McpTransport for Scripted {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        let body: Value = serde_json::from_str(&request.body).unwrap();
        let (status, headers, text) = (self.answer)(&request, &body);
        let hangs = body["params"]["name"] == "slow";
        self.seen.borrow_mut().push((request.headers.clone(), body));
        Box::pin(async move {
            if hangs {
                futures::future::pending::<()>().await;
            }
            Ok(HttpResponse {
                status,
                headers,
                body: Box::pin(futures::stream::iter(vec![Ok(text.into_bytes())])),
            })
        })
    }

    fn get(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        let resume = self.resume.as_ref().expect("this server takes no GET");
        let (status, headers, text) = resume(&request);
        self.gets
            .borrow_mut()
            .push((self.seen.borrow().len(), request.headers.clone()));
        Box::pin(async move {
            Ok(HttpResponse {
                status,
                headers,
                body: Box::pin(futures::stream::iter(vec![Ok(text.into_bytes())])),
            })
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
    }

    /// Posting records the request already; what is left need not run.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        drop(task);
    }
}

fn scripted(answer: Answer) -> Rc<Scripted> {
    Rc::new(Scripted {
        answer,
        seen: RefCell::new(Vec::new()),
        resume: None,
        gets: RefCell::new(Vec::new()),
    })
}

fn json_answer(body: Value) -> (u16, Vec<(String, String)>, String) {
    (
        200,
        vec![("content-type".into(), "application/json".into())],
        body.to_string(),
    )
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// A 2026-07-28 server with two pages of tools.
fn modern_server() -> Rc<Scripted> {
    scripted(Box::new(|_, body| {
        let id = body["id"].clone();
        let result = match body["method"].as_str().unwrap() {
            "server/discover" => {
                json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "shop", "version": "1.0"}}, "ttlMs": 0, "cacheScope": "private"})
            }
            "tools/list" if body["params"].get("cursor").is_none() => {
                json!({"resultType": "complete",
                "tools": [{"name": "get_time", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}],
                "nextCursor": "p2", "ttlMs": 0, "cacheScope": "private"})
            }
            "tools/list" => json!({"resultType": "complete",
                "tools": [{"name": "delete", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "unevaluatedProperties": false},
                           "outputSchema": {"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]}}],
                "ttlMs": 0, "cacheScope": "private"}),
            "tools/call" => {
                json!({"resultType": "complete", "content": [{"type": "text", "text": format!("called {}", body["params"]["name"])}]})
            }
            other => panic!("unexpected {other}"),
        };
        json_answer(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }))
}

#[tokio::test]
async fn a_modern_server_is_spoken_to_statelessly_with_its_headers() {
    let server = modern_server();
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    assert_eq!(session.generation(), Generation::Modern);
    assert_eq!(session.server_info().as_deref(), Some("shop 1.0"));
    let result = session
        .call_tool("get_time", json!({}))
        .await
        .map(|o| o.value);
    assert_eq!(result, Ok(json!("called \"get_time\"")));
    let seen = server.seen.borrow();
    let (headers, body) = seen.last().unwrap();
    assert_eq!(header(headers, "mcp-method"), Some("tools/call"));
    assert_eq!(header(headers, "mcp-name"), Some("get_time"));
    assert_eq!(header(headers, "mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(header(headers, "mcp-session-id"), None);
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"],
        json!({})
    );
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]["name"],
        "agent-loop"
    );
}

/// A 2025-11-25 server: 400 without a modern error for anything before
/// `initialize`, then a session.
fn legacy_server() -> Rc<Scripted> {
    scripted(Box::new(|request, body| {
        let id = body.get("id").cloned().unwrap_or(Value::Null);
        let session = header(&request.headers, "mcp-session-id");
        match body["method"].as_str() {
            Some("initialize") => {
                let mut answer = json_answer(json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "2"}}}));
                answer.1.push(("mcp-session-id".into(), "s-1".into()));
                answer
            }
            _ if session != Some("s-1") => (400, vec![("content-type".into(), "application/json".into())],
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}).to_string()),
            Some("notifications/initialized") | Some("notifications/cancelled") => (202, Vec::new(), String::new()),
            Some("tools/list") => (200, vec![("content-type".into(), "text/event-stream".into())],
                format!("id: 1\ndata: \n\nevent: message\ndata: {}\n\n",
                    json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "get_time", "inputSchema": {"type": "object"}}]}}))),
            Some("tools/call") => json_answer(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "bad args"}})),
            other => panic!("unexpected {other:?}"),
        }
    }))
}

#[tokio::test]
async fn a_legacy_server_gets_initialize_and_its_session_after_the_modern_probe_fails() {
    let server = legacy_server();
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    assert_eq!(
        session.generation(),
        Generation::Legacy {
            version: "2025-11-25".into(),
            session_id: Some("s-1".into())
        }
    );
    let methods: Vec<String> = server
        .seen
        .borrow()
        .iter()
        .map(|(_, b)| b["method"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        methods,
        ["server/discover", "initialize", "notifications/initialized"]
    );
    let result = session
        .call_tool("get_time", json!({}))
        .await
        .map(|o| o.value);
    assert_eq!(
        result,
        Err("the MCP server answered tools/call with JSON-RPC error -32602 (invalid params): bad args".to_string())
    );
    let seen = server.seen.borrow();
    let (headers, _) = seen.last().unwrap();
    assert_eq!(header(headers, "mcp-protocol-version"), Some("2025-11-25"));
    assert_eq!(header(headers, "mcp-method"), None);
}

#[tokio::test]
async fn a_dropped_legacy_call_sends_notifications_cancelled_with_its_id() {
    let server = legacy_server();
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    // Polled once, then dropped, as a tool timeout drops it.
    let call = session.call_tool("slow", json!({}));
    match futures::future::select(call, std::future::ready(())).await {
        futures::future::Either::Left(_) => panic!("the slow call answered"),
        futures::future::Either::Right((_, call)) => drop(call),
    }
    let seen = server.seen.borrow();
    let (_, call) = &seen[seen.len() - 2];
    let (headers, cancelled) = seen.last().unwrap();
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], call["id"]);
    assert!(cancelled["params"]["reason"]
        .as_str()
        .unwrap()
        .contains("tool timeout"));
    assert_eq!(header(headers, "mcp-session-id"), Some("s-1"));
}

#[tokio::test]
async fn an_unsupported_version_error_naming_a_legacy_version_falls_back_to_it() {
    let server = scripted(Box::new(|_, body| {
        match body["method"].as_str() {
        Some("server/discover") => (400, vec![("content-type".into(), "application/json".into())],
            json!({"jsonrpc": "2.0", "id": body["id"], "error": {"code": -32022, "message": "unsupported",
                "data": {"supported": ["2025-06-18"], "requested": "2026-07-28"}}}).to_string()),
        Some("initialize") => json_answer(json!({"jsonrpc": "2.0", "id": body["id"], "result": {"protocolVersion": "2025-06-18", "capabilities": {}}})),
        _ => (202, Vec::new(), String::new()),
    }
    }));
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    assert_eq!(session.protocol_version(), "2025-06-18");
    assert_eq!(
        server.seen.borrow()[1].1["params"]["protocolVersion"],
        "2025-06-18"
    );
}

/// An older server answers every method, `server/discover`
/// too, with an empty `{}` result (seen with the conformance suite's
/// `initialize` scenario). That is not a conforming discover answer (it
/// names no `supportedVersions`), so the client must still initialize.
#[tokio::test]
async fn an_empty_discover_result_is_no_proof_of_2026_and_the_client_initializes() {
    let server = scripted(Box::new(|_, body| {
        let id = body.get("id").cloned().unwrap_or(Value::Null);
        match body["method"].as_str() {
            Some("server/discover") => {
                json_answer(json!({"jsonrpc": "2.0", "id": id, "result": {}}))
            }
            Some("initialize") => json_answer(json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}})),
            Some("notifications/initialized") => (202, Vec::new(), String::new()),
            Some("tools/list") => json_answer(json!({"jsonrpc": "2.0", "id": id, "result": {
                "tools": [{"name": "get_time", "inputSchema": {"type": "object"}}]}})),
            other => panic!("unexpected {other:?}"),
        }
    }));
    let text =
        json!({"name": "t", "task": "t", "mcp_servers": [{"name": "old", "url": "http://h/mcp"}],
        "model": {"type": "scripted", "responses": [{"text": "ok"}]}})
        .to_string();
    let (scenario, reports) = resolve(Scenario::load(&text).unwrap(), server.clone())
        .await
        .unwrap_or_else(|problems| panic!("{problems:?}"));
    let methods: Vec<String> = server
        .seen
        .borrow()
        .iter()
        .map(|(_, b)| b["method"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
    let seen = server.seen.borrow();
    assert_eq!(seen[1].1["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        header(&seen[3].0, "mcp-protocol-version"),
        Some("2025-11-25"),
        "tools/list is sent in the legacy generation"
    );
    assert_eq!(header(&seen[3].0, "mcp-method"), None);
    drop(seen);
    let mcp = scenario.mcp.as_ref().unwrap();
    let names: Vec<&str> = mcp.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get_time"]);
    assert_eq!(reports[0].protocol_version, "2025-11-25");
    assert!(
        reports[0]
            .to_string()
            .contains("(old 1) speaks 2025-11-25: 1 tool"),
        "{}",
        reports[0]
    );
}

#[tokio::test]
async fn a_server_that_answers_neither_generation_is_a_problem_that_says_what_each_got() {
    let server = scripted(Box::new(|_, _| {
        (401, Vec::new(), "Unauthorized".to_string())
    }));
    let text =
        json!({"name": "t", "task": "t", "mcp_servers": [{"name": "shop", "url": "http://h/mcp"}],
        "model": {"type": "scripted", "responses": [{"text": "ok"}]}})
        .to_string();
    let problems = resolve(Scenario::load(&text).unwrap(), server)
        .await
        .unwrap_err();
    assert_eq!(
        problems[0].to_string(),
        "mcp_servers[0]: cannot load the tools of \"shop\" at http://h/mcp: the server answered neither generation of MCP: server/discover (2026-07-28) got HTTP 401: Unauthorized; initialize (2025-11-25) got HTTP 401: Unauthorized"
    );
}

#[tokio::test]
async fn tools_are_listed_across_pages_filtered_and_prefixed_only_on_collision() {
    let text = json!({"name": "t", "task": "t", "tools": ["get_time"],
        "mcp_servers": [{"name": "shop", "url": "http://h/mcp"}],
        "model": {"type": "scripted", "responses": [{"text": "ok"}]}})
    .to_string();
    let (scenario, reports) = resolve(Scenario::load(&text).unwrap(), modern_server())
        .await
        .unwrap();
    let mcp = scenario.mcp.as_ref().unwrap();
    let names: Vec<(&str, &str, bool)> = mcp
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.remote_name.as_str(), t.needs_approval))
        .collect();
    assert_eq!(
        names,
        [
            ("shop__get_time", "get_time", false),
            ("delete", "delete", true)
        ]
    );
    assert_eq!(
        mcp.tools[1].left_to_server,
        ["/unevaluatedProperties: not checked here (keyword \"unevaluatedProperties\" is not supported by tool-schema; use \"additionalProperties\": false to reject unknown properties)"]
    );
    assert_eq!(
        reports[0].to_string(),
        "MCP server \"shop\" at http://h/mcp (shop 1.0) speaks 2026-07-28: 2 tools, 1 with schema checks left to the server"
    );
    // A declared `outputSchema` is kept for a person answering as the
    // tool; a tool that declares none has none.
    assert_eq!(
        scenario.output_schema_of("delete"),
        Some(
            &json!({"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]})
        )
    );
    assert_eq!(scenario.output_schema_of("shop__get_time"), None);

    let text = json!({"name": "t", "task": "t",
        "mcp_servers": [{"name": "shop", "url": "http://h/mcp", "allowed_tools": ["delete", "get_tme"]}],
        "model": {"type": "scripted", "responses": [{"text": "ok"}]}}).to_string();
    let problems = resolve(Scenario::load(&text).unwrap(), modern_server())
        .await
        .unwrap_err();
    assert_eq!(
        problems[0].to_string(),
        "mcp_servers[0].allowed_tools[1]: \"shop\" does not offer \"get_tme\" (did you mean `get_time`?); it offers: get_time, delete"
    );
}

mod common;

/// Answers every call with "ok".
struct Ok_;

impl harness::mcp::McpCaller for Ok_ {
    fn call(
        &self,
        _: &harness::mcp::McpTool,
        _: Value,
    ) -> LocalBoxFuture<'static, Result<harness::tool::ToolOutput, String>> {
        Box::pin(async { Ok(Value::String("ok".into()).into()) })
    }
}

#[tokio::test(start_paused = true)]
async fn a_valid_call_says_which_checks_only_the_server_runs() {
    let scenario = Scenario::load(
        &json!({"name": "t", "task": "t",
            "mcp_servers": [{"name": "s", "url": "http://h/mcp"}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "pick", "args": {"n": 1}}]},
                {"text": "done"}]}})
        .to_string(),
    )
    .unwrap();
    let listed = harness::mcp::McpTool {
        server: "s".into(),
        name: "pick".into(),
        remote_name: "pick".into(),
        title: None,
        description: String::new(),
        input_schema: json!({"type": "object", "unevaluatedProperties": false}),
        output_schema: None,
        needs_approval: false,
        annotations: Value::Null,
        left_to_server: Vec::new(),
    };
    let scenario = scenario.with_mcp(harness::mcp::connect(vec![listed], Rc::new(Ok_)));
    let (outcome, events) = common::run_with(&scenario, None).await;
    assert_eq!(outcome.status.as_str(), "done");
    let unchecked = events
        .iter()
        .find_map(|e| match &e.kind {
            harness::event::EventKind::ToolCall { unchecked, .. } => Some(unchecked.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(unchecked.len(), 1, "{unchecked:?}");
    assert!(
        unchecked[0].contains("unevaluatedProperties"),
        "{unchecked:?}"
    );
    // In the trace's JSON, as a record keeps it.
    let call = events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .find(|v| v["type"] == "tool_call")
        .unwrap();
    assert_eq!(call["unchecked"][0], json!(unchecked[0]));
}

fn sse_answer(text: &str) -> (u16, Vec<(String, String)>, String) {
    (
        200,
        vec![("content-type".into(), "text/event-stream".into())],
        text.to_string(),
    )
}

/// A 2025-11-25 server in a session that answers `tools/call` with an SSE
/// stream holding only its priming event (`id: e1`, `retry: 10`), then
/// closes it ("SSE polling"); a GET resumes with `resume`.
fn polling_server(resume: Resume) -> Rc<Scripted> {
    let answer: Answer = Box::new(|_, body| {
        let id = body.get("id").cloned().unwrap_or(Value::Null);
        match body["method"].as_str() {
            Some("server/discover") => (400, Vec::new(), "no session".into()),
            Some("initialize") => {
                let mut answer = json_answer(json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "poll", "version": "1"}}}));
                answer.1.push(("mcp-session-id".into(), "s-9".into()));
                answer
            }
            Some("notifications/initialized") => (202, Vec::new(), String::new()),
            Some("tools/call") => sse_answer("id: e1\nretry: 10\ndata:\n\n"),
            other => panic!("unexpected {other:?}"),
        }
    });
    Rc::new(Scripted {
        answer,
        seen: RefCell::new(Vec::new()),
        resume: Some(resume),
        gets: RefCell::new(Vec::new()),
    })
}

#[tokio::test]
async fn a_call_whose_sse_stream_closes_after_priming_is_resumed_with_last_event_id() {
    let server = polling_server(Box::new(|request| {
        assert_eq!(header(&request.headers, "last-event-id"), Some("e1"));
        let answer = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "resumed"}]}});
        sse_answer(&format!("id: e2\ndata: {answer}\n\n"))
    }));
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    let result = session
        .call_tool("get_time", json!({}))
        .await
        .map(|o| o.value);
    assert_eq!(result, Ok(json!("resumed")));
    let seen = server.seen.borrow();
    let (_, call) = seen.last().unwrap();
    assert_eq!(call["method"], "tools/call");
    assert_eq!(call["id"], 3);
    let gets = server.gets.borrow();
    assert_eq!(gets.len(), 1);
    let (posts_before, headers) = &gets[0];
    assert_eq!(
        *posts_before,
        seen.len(),
        "the GET comes after the call's POST"
    );
    assert_eq!(header(headers, "last-event-id"), Some("e1"));
    assert_eq!(header(headers, "accept"), Some("text/event-stream"));
    assert_eq!(header(headers, "mcp-session-id"), Some("s-9"));
    assert_eq!(header(headers, "mcp-protocol-version"), Some("2025-11-25"));
    assert_eq!(header(headers, "content-type"), None);
}

#[tokio::test]
async fn a_stream_that_every_reconnect_also_ends_empty_fails_naming_the_reconnects() {
    let server = polling_server(Box::new(|_| sse_answer("id: e1\nretry: 10\ndata:\n\n")));
    let session = Session::connect("http://h/mcp", Vec::new(), server.clone())
        .await
        .unwrap();
    let error = session.call_tool("get_time", json!({})).await.unwrap_err();
    assert!(
        error.contains("the SSE stream ended without the answer to request 3")
            && error.contains("3 reconnects")
            && error.contains("Last-Event-ID: e1"),
        "{error}"
    );
    let gets = server.gets.borrow();
    assert_eq!(gets.len(), 3);
    assert!(gets
        .iter()
        .all(|(_, headers)| header(headers, "last-event-id") == Some("e1")));
}
