//! The split points over engine work, and the engine only they reach. Each
//! `#[lazy]` function here, with the code only it reaches, is moved by
//! `scripts/wasm-split.mjs` into its own wasm file that the browser fetches
//! the first time the function is called, so the first paint does not load
//! it. Code that several split points reach goes into shared chunks, fetched
//! once.
//!
//! What the first paint leaves out through this module:
//! - the run engine (`engine`, private here, handed out by [`engine()`]):
//!   loading a scenario, building and driving a run, validating edited
//!   arguments. Checking a file that has problems, and wording them, is
//!   [`check_scenario`], fetched the first time a file has one. The editor's live check of the opening scenario
//!   fetches it right after the first paint; a run started before it
//!   arrives shows as running and goes ahead when it lands;
//! - what the engine does that a first run never needs (`offstage`, handed
//!   out by [`offstage()`]): comparisons, forks, replays, a tool called by hand;
//! - the built-ins' files (the first paint has their names and the opening
//!   scenario's text, see `harness::library`), preloaded once no run needs
//!   the network, and the kept run's scenario matched against them
//!   (`scenario_text`);
//! - reading records back and writing them out, the inspector's request
//!   bodies and checker, and the real-provider model;
//! - the JavaScript sandbox's host (`run_script`), which the engine reaches
//!   only through the stand-in [`script_host`], fetched at the first call
//!   of a script tool.
//!
//! Components that are split themselves (the approval bar, the Compare panel,
//! the run history's list) declare their own `#[lazy]` function next to them,
//! in their module: a split point here takes and returns plain data only, so
//! this module imports no page state and no component, and the layers stay
//! one-way (components → page state → split points → engine → browser glue
//! and the harness). The history's actions (keep, open, import, replay) are
//! no split points: their heavy parts are (`record_jsonl`, `parse_record`,
//! the engine), and the rest costs the first paint about 3 KiB.
//!
//! The rule that keeps the engine out of the first paint: in the web app,
//! `Scenario::load`, `Scenario::load_if_clean`, `Scenario::build*`, `harness::run_scenario*`,
//! `harness::replay::replay*`, `harness::fork::fork`, `library::json_of` and
//! `BuiltinScenario::json` are called only in this module. `clippy.toml`
//! lists them under `disallowed-methods`, and this module alone allows them
//! (`#![allow]` below), so a call anywhere else fails `cargo clippy` at the
//! call site. Each engine operation is written once, a default method of the
//! `Engine` or `Offstage` trait, whose one implementation is private and empty:
//! the page calls them through the `dyn` [`engine()`] or [`offstage()`] hands out.
//! `scripts/bundle-size.mjs` in CI still checks the first paint's 250 KiB
//! budget, which catches the rest (a new heavy dependency, say).
//!
//! The `split` feature (on by default) makes them split points; without it
//! they are plain `async` functions. The wasm tests run without it: a test
//! binary is not split, and a split point that calls another one would leave
//! it an import that only the split build's loader provides.
//!
//! Leptos's `#[lazy]` makes each one `async` for its callers. Underneath it is
//! an `extern "Rust"` call between the two modules, so every argument and result
//! is owned. A module that cannot be fetched panics, which the panic panel
//! reports with the trace so far (a deployment that lost files, not bad input).
//! Natively (tests, the CLI) the functions are called directly.

// The split rule's one exemption (see above and clippy.toml).
#![allow(clippy::disallowed_methods)]

mod background;
mod engine;
mod offstage;

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::event::RunEvent;
use harness::library;
use harness::model::ModelClient;
use harness::provider::{HttpModel, ProviderRun};
use harness::replay::Record;
use harness::scenario::Scenario;
use harness::script::{ScriptError, ScriptHost};
use harness::wire::RequestShape;
#[cfg(feature = "split")]
use leptos::prelude::lazy;

use std::rc::Rc;

use crate::browser::fetch::FetchTransport;
use crate::browser::mcp_fetch::McpWire;
use crate::inspector::wire_view::{self, TurnWire};
use crate::mcp::text::{self as mcp_text, HeaderSecret};

pub use background::{AutoDecision, Rounds};
pub use engine::{Engine, McpLoaded, Play};
pub use offstage::Offstage;

/// The run engine (see `engine`): loading, building and driving runs.
#[cfg_attr(feature = "split", lazy)]
pub async fn engine() -> &'static dyn Engine {
    engine::page_engine()
}

/// `Scenario::load` in full: every problem of `text`, or the scenario it
/// loads after a change (`10.0` in an integer field). The engine reads a
/// file with no problem itself (`Scenario::load_if_clean`) and asks this
/// only for the others, so the reader that finds and words problems is a
/// module of its own, fetched the first time a file has one.
#[cfg_attr(feature = "split", lazy)]
pub async fn check_scenario(text: String) -> Result<Scenario, Vec<harness::scenario::Problem>> {
    Scenario::load(&text)
}

/// What the engine does that a first run never needs (see `offstage`):
/// comparisons, forks, replays and a tool called by hand.
#[cfg_attr(feature = "split", lazy)]
pub async fn offstage() -> &'static dyn Offstage {
    offstage::page_offstage()
}

/// The JavaScript sandbox's host, as the engine hands it to runs: a stand-in
/// whose calls go through [`run_script`], so the host itself (the hidden
/// frame, its workers, their messages) is a split module fetched at the
/// first script tool's call. A default run has no script tool, and the
/// engine, which every run needs, no longer carries it.
pub fn script_host() -> Rc<dyn ScriptHost> {
    Rc::new(SplitSandbox)
}

struct SplitSandbox;

impl ScriptHost for SplitSandbox {
    fn run(
        &self,
        source: &str,
        args: serde_json::Value,
        timeout_ms: u64,
    ) -> LocalBoxFuture<'static, Result<serde_json::Value, ScriptError>> {
        // Dropping this future drops the host's, which stops the worker: the
        // split point awaits it in place.
        Box::pin(run_script(source.to_string(), args, timeout_ms))
    }
}

/// One script tool's call in the sandbox (`browser::sandbox`).
#[cfg_attr(feature = "split", lazy)]
pub async fn run_script(
    source: String,
    args: serde_json::Value,
    timeout_ms: u64,
) -> Result<serde_json::Value, ScriptError> {
    crate::browser::sandbox::host()
        .run(&source, args, timeout_ms)
        .await
}

/// `library::json_of`: a built-in scenario's file, which the first paint
/// does not carry.
#[cfg_attr(feature = "split", lazy)]
pub async fn builtin_json(id: String) -> Option<&'static str> {
    library::json_of(&id).or_else(|| library::find(&id).map(|b| b.json()))
}

/// Fetches the built-ins' module without calling into it.
pub async fn preload_builtins() {
    #[cfg(feature = "split")]
    __preload_builtin_json().await;
}

/// The editor text for a kept run's scenario: a built-in's own file when
/// the scenario is that built-in (so the picker names it), else pretty JSON.
/// A split point of its own, not an engine method: it holds every built-in's
/// file, which a first run does not need.
#[cfg_attr(feature = "split", lazy)]
pub async fn scenario_text(scenario: Scenario) -> String {
    builtin_text_or_pretty(&scenario)
}

fn builtin_text_or_pretty(scenario: &Scenario) -> String {
    library::BUILTIN
        .iter()
        // Only a built-in of the same name can be it, so only those are
        // loaded, not all of them (their names need no loading).
        .filter(|b| b.name() == scenario.name)
        .find(|b| Scenario::load(b.json()).as_ref() == Ok(scenario))
        .map(|b| b.json().to_string())
        .unwrap_or_else(|| scenario.to_json_pretty())
}

/// The built-in whose file `text` is, if any: the picker's value for it.
#[cfg_attr(feature = "split", lazy)]
pub async fn builtin_id_of(text: String) -> Option<&'static str> {
    library::BUILTIN
        .iter()
        .chain(library::WITH_SERVER.iter().map(|w| &w.scenario))
        .find(|b| b.json() == text)
        .map(|b| b.id)
}

/// Whether a file picked with "Import scenario" may replace the editor's
/// text: `Err` is the sentence to show instead (a run file belongs in
/// "Import run…"; wrong-shaped JSON is refused with its problems).
#[cfg_attr(feature = "split", lazy)]
pub async fn scenario_file(file_name: String, text: String) -> Result<(), String> {
    crate::editor::scenario_file::classify(&text).map_err(|not| not.message(&file_name))?;
    engine::page_engine().load(&text).await.map(drop).map_err(|problems| {
        format!(
            "{file_name} was not imported: it is not a scenario the playground can run ({}). The editor is unchanged.",
            crate::run::view_model::problem_lines(&problems).join("; ")
        )
    })
}

/// How many events are written out per browser task (a few milliseconds).
const EVENTS_PER_SLICE: usize = 2_000;

/// `Record::to_jsonl`, the same text: what Export saves and the history
/// keeps. It is written a slice of events at a time with the page handed
/// back in between: a 10,000-turn run is about 7 MB of text, which in one
/// go would hold the page for longer than a frame, right when the run's
/// stop banner is to be painted.
#[cfg_attr(feature = "split", lazy)]
pub async fn record_jsonl(record: Record) -> String {
    // The scenario line alone, as `to_jsonl` writes it.
    let mut text = Record {
        scenario: record.scenario.clone(),
        events: Vec::new(),
        forked_at: record.forked_at,
    }
    .to_jsonl();
    for slice in record.events.chunks(EVENTS_PER_SLICE) {
        TimeoutFuture::new(0).await;
        text.push_str(&harness::event::to_jsonl(slice));
    }
    text
}

/// A record (or a bare trace) from its JSON Lines text, or why not in the
/// words the history shows. Worded here, behind the split point: the
/// error's `Display` (with the scenario loader's problems) in the first
/// paint would cost it about 2 KiB.
#[cfg_attr(feature = "split", lazy)]
pub async fn parse_record(text: String) -> Result<Record, String> {
    Record::from_jsonl(&text).map_err(|error| error.to_string())
}

/// A run file picked for import, read by `harness::import::read` (the
/// CLI's `import` reads with it too): a record (or a bare trace) as JSON
/// Lines, an OpenTelemetry trace as OTLP/JSON, a provider's request body,
/// or a provider's response (a body, or a saved SSE stream) read as the
/// answer to the request `in_view` ends on; with what the file did not
/// hold, and a body's verdict, in plain sentences.
#[cfg_attr(feature = "split", lazy)]
pub async fn read_run_file(text: String, in_view: Record) -> Result<(Record, Vec<String>), String> {
    use harness::import::{read, Import, ImportError, KINDS_READ};
    match read(&text, Some(&in_view)) {
        Ok(Import::Record(record)) => Ok((record, Vec::new())),
        Ok(Import::Response(answered)) => {
            let note = format!(
                "Read as an {} response ({}): turn {}'s answer, added to the run in view.",
                answered.provider.label(),
                answered.read_as,
                answered.turn
            );
            Ok((answered.record, vec![note]))
        }
        Ok(Import::Otlp(imported)) => {
            let mut notes = imported.notes;
            if !imported.ours {
                let read = imported.conventions;
                let first = if imported.record.scenario.is_some() {
                    format!("Read from OpenTelemetry {read} written by another tool: its calls and results are as the spans recorded them, and the scenario (system prompt, tools, the model's turns) is rebuilt from them, its tools answering with the recorded results, so the run replays and forks.")
                } else {
                    format!("Read from OpenTelemetry {read} written by another tool: the run has no scenario, and its calls and results are as the spans recorded them.")
                };
                notes.insert(0, first);
            }
            Ok((imported.record, notes))
        }
        // A provider's request body: the conversation it carries, with
        // what was left out and the provider's verdict on the body.
        Ok(Import::Request(transcript)) => {
            let label = transcript.provider.label();
            let mut notes = vec![format!(
                "Read as an {label} request ({}); its tools answer with the results it recorded.",
                transcript.detected_by
            )];
            if !transcript.lost.is_empty() {
                notes.push(format!("Not kept: {}.", transcript.lost.join("; ")));
            }
            if !transcript.undeclared.is_empty() {
                notes.push(format!(
                    "Called but not declared in the body: {}. The scenario answers these calls from the recorded results and does not offer the tools to the model.",
                    transcript.undeclared.join(", ")
                ));
            }
            notes.extend(transcript.refused.iter().map(|v| {
                format!(
                    "✗ {label} would refuse this body: HTTP 400 {} (at {}).",
                    v.message, v.path
                )
            }));
            if transcript.refused.is_empty() {
                notes.push(format!("✓ {label} would accept this body."));
            }
            Ok((transcript.record, notes))
        }
        Err(ImportError::Request(why)) => {
            Err(format!("not a request body the playground can read: {why}"))
        }
        Err(ImportError::Scenario) => Err(
            "this is a scenario, not a run: open it with \u{201c}Import scenario\u{201d} (the Scenario panel) to run it".to_string(),
        ),
        Err(ImportError::Unknown(why)) => Err(format!(
            "none of the files the playground reads ({KINDS_READ}); as a request body, {why}"
        )),
        Err(other) => Err(other.to_string()),
    }
}

/// The run as an OpenTelemetry trace (OTLP/JSON, GenAI conventions; see
/// `harness::otel::to_otlp`), placed at `started_unix_ms`.
#[cfg_attr(feature = "split", lazy)]
pub async fn otlp_json(record: Record, started_unix_ms: u64) -> String {
    serde_json::to_string_pretty(&harness::otel::to_otlp(&record, started_unix_ms))
        .unwrap_or_default()
}

/// The run POSTed as OTLP/JSON to the OTLP/HTTP endpoint typed in
/// `endpoint` (see `harness::otel::send`): what happened, in a sentence.
#[cfg_attr(feature = "split", lazy)]
pub async fn send_otlp(
    record: Record,
    started_unix_ms: u64,
    endpoint: String,
) -> Result<String, String> {
    use futures::StreamExt;
    use harness::otel::send;
    let endpoint = send::endpoint(&endpoint).map_err(|why| why.to_string())?;
    let origin = crate::browser::csp::page_origin();
    if let Ok(url) = harness::provider::parse_base_url(&endpoint) {
        if let Some(why) = crate::connect_src::connect_problem(&url, &origin) {
            return Err(format!("OTLP endpoint: {why}"));
        }
    }
    let document = harness::otel::to_otlp(&record, started_unix_ms);
    let spans = document
        .pointer("/resourceSpans/0/scopeSpans/0/spans")
        .and_then(|s| s.as_array())
        .map_or(0, Vec::len);
    let response = crate::browser::fetch::send(send::request(&endpoint, document.to_string()))
        .await
        .map_err(|_| send::no_answer(&endpoint, &origin))?;
    let status = response.status;
    let mut body = Vec::new();
    let mut chunks = response.body;
    while let Some(Ok(chunk)) = chunks.next().await {
        body.extend(chunk);
    }
    send::answer(&endpoint, spans, status, &String::from_utf8_lossy(&body))
        .map_err(|why| why.to_string())
}

/// `wire_view::turn_wire`: a turn's request, verdict and answers as each
/// provider would see them, and its conversation.
#[cfg_attr(feature = "split", lazy)]
pub async fn turn_wire(events: Vec<RunEvent>, shape: RequestShape, turn: u32) -> Option<TurnWire> {
    wire_view::turn_wire(&events, &shape, turn)
}

/// The scenario in `text` with its MCP servers' tools loaded (the held
/// header values put back first, the tokens added), each exchange told to `on_wire`; `None`
/// when the text does not load (the editor's check says why).
#[cfg_attr(feature = "split", lazy)]
pub async fn load_mcp(
    text: String,
    secrets: Vec<HeaderSecret>,
    tokens: Vec<crate::mcp::text::ServerToken>,
    on_wire: Rc<dyn Fn(McpWire)>,
) -> Option<McpLoaded> {
    let engine = engine::page_engine();
    let scenario = engine.load(&text).await.ok()?;
    let filled = match mcp_text::fill_secrets(scenario, &secrets) {
        Ok(filled) => mcp_text::add_tokens(filled, &tokens),
        Err(lines) => return Some(Err(lines)),
    };
    Some(engine::resolve_mcp(filled, on_wire).await)
}

/// The model that talks to a real provider over `fetch`.
#[cfg_attr(feature = "split", lazy)]
pub async fn provider_model(run: ProviderRun) -> Box<dyn ModelClient> {
    let model: Box<dyn ModelClient> =
        Box::new(HttpModel::new(run.settings, run.key, FetchTransport));
    model
}

/// `wire::rejections`: every request of the run checked for all three
/// providers, each violation placed at the first turn that carried it; and
/// the words that name who would refuse it ("Anthropic Messages would
/// refuse turn 2"), made here so the first paint carries none of them.
#[cfg_attr(feature = "split", lazy)]
pub async fn rejections(
    events: Vec<RunEvent>,
    shape: RequestShape,
) -> (Vec<harness::wire::Rejection>, Option<String>) {
    let found = harness::wire::rejections(&shape, &events);
    let words = harness::refusal::would_refuse(&found);
    (found, words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operations of `trait_name` in `source`: each `fn` of the trait's
    /// body, which runs from its header to the first line that closes it.
    fn operations(source: &str, trait_name: &str) -> Vec<String> {
        let header = format!("pub trait {trait_name} {{");
        let body = source
            .split_once(&header)
            .unwrap_or_else(|| panic!("{trait_name} is declared"))
            .1;
        let body = body.split("\n}").next().unwrap_or_default();
        body.lines()
            .filter_map(|line| line.strip_prefix("    fn "))
            .map(|rest| rest.split('(').next().unwrap_or_default().to_string())
            .collect()
    }

    /// `Engine`'s and `Offstage`'s operations are each written once, as the
    /// trait's default method: the one implementation adds no method, and
    /// no function of the split points' module repeats one to forward to.
    #[test]
    fn every_engine_operation_is_written_once() {
        let sources = [
            ("engine.rs", include_str!("engine.rs")),
            ("offstage.rs", include_str!("offstage.rs")),
            ("background.rs", include_str!("background.rs")),
            ("mod.rs", include_str!("mod.rs")),
        ];
        for (file, trait_name, implementation) in [
            ("engine.rs", "Engine", "impl Engine for PageEngine {}"),
            (
                "offstage.rs",
                "Offstage",
                "impl Offstage for PageOffstage {}",
            ),
        ] {
            let source = sources.iter().find(|(name, _)| *name == file).unwrap().1;
            // Its one implementation adds nothing: every body is the trait's.
            assert!(
                source.contains(implementation),
                "{file}: `{implementation}` is empty, each operation's body being the trait's"
            );
            let operations = operations(source, trait_name);
            assert!(!operations.is_empty(), "{trait_name} has operations");
            // No function in the split points' module repeats one, for the
            // trait to forward to.
            for operation in operations {
                let declaration = format!("fn {operation}(");
                let written: Vec<&str> = sources
                    .iter()
                    .flat_map(|(name, text)| {
                        std::iter::repeat_n(*name, text.matches(&declaration).count())
                    })
                    .collect();
                assert_eq!(
                    written,
                    [file],
                    "{trait_name}::{operation} is written once, in the trait"
                );
            }
        }
    }

    #[test]
    fn a_builtin_scenario_comes_back_as_its_own_file() {
        for builtin in library::BUILTIN {
            let scenario = Scenario::load(builtin.json()).unwrap();
            assert_eq!(
                builtin_text_or_pretty(&scenario),
                builtin.json(),
                "{}",
                builtin.id
            );
        }
        let builtin = harness::library::find("get-time").unwrap().json();
        let scenario = Scenario::load(builtin).unwrap();
        let mut edited = scenario.clone();
        edited.task = "Edited".into();
        let text = builtin_text_or_pretty(&edited);
        assert_eq!(Scenario::load(&text).unwrap(), edited);
    }
}
