//! `agent-loop`: runs, validates and lists scenarios natively, with the same
//! harness the browser runs.
//!
//! Exit codes: 0 when a run ends `done` (or a file is valid), 3 when a run
//! ends with any other status, 2 for a bad file or bad usage (message on stderr).

mod http;
mod record;
mod serve;
mod trace;
mod wire;

use std::process::ExitCode;
use std::rc::Rc;

use harness::approval::ApprovalPolicy;
use harness::event::{RunEvent, Status};
use harness::library::{self, BUILTIN};
use harness::provider::{ApiKey, HttpModel, ProviderSettings};
use harness::runtime::TokioRuntime;
use harness::scenario::{Problem, Scenario, SCENARIO_SCHEMA};
use harness::RunOptions;

const USAGE: &str = "\
usage:
  agent-loop run FILE|BUILTIN [--approve all|none] [--jsonl] [--record OUT.jsonl]
      run a scenario; prints the trace (one JSON event a line with --jsonl);
      --record writes the scenario and the trace to OUT.jsonl for show/replay
      --provider anthropic|openai-chat|openai-responses --base-url URL --model NAME
          [--no-stream]: drive the run with a model behind that HTTP API
          instead of the scenario's (plain http: a local server or
          `agent-loop serve`); the key is read from AGENT_LOOP_API_KEY
      --approve all   approve every call that needs approval
      --approve none  refuse them all (the run ends blocked)
      exit 0 when the run ends done, 3 for any other status, 2 for a bad file
  agent-loop wire --provider anthropic|openai-chat|openai-responses FILE|BUILTIN [--approve all|none]
      run a scenario and print, as JSON, the request body of each model call
      in that provider's format
  agent-loop check FILE|BUILTIN [--approve all|none]
      run a scenario and check its history against each provider's tool-call
      rules, printing the error text each provider would answer with;
      exit 0 when no provider would reject it, 3 when one would
  agent-loop show RECORD.jsonl
      print a recorded run's trace (a --record file or a JSON Lines trace)
  agent-loop replay RECORD.jsonl [--scenario FILE|BUILTIN] [--assert ASSERT.json]
      replay a recorded run's model turns against the current tools (the
      recording's scenario, or --scenario) and check outcomes: same status,
      same tool calls and error flags, no new repeated call, no invented id;
      exit 0 when every assertion holds, 3 with the first difference otherwise
  agent-loop serve [--port PORT] [--pace-ms MS] FILE|BUILTIN
      serve the scenario's model as an HTTP API on 127.0.0.1 (default port
      8787; 0 picks a free one): POST /v1/messages, /v1/chat/completions and
      /v1/responses, streamed when the body has \"stream\": true (events MS
      apart with --pace-ms); POST /reset starts the script over, as does a
      request with no assistant message
  agent-loop fork RECORD.jsonl --list
  agent-loop fork RECORD.jsonl --at EVENT [--scenario EDITED] [--record OUT.jsonl]
      continue a recorded run from a step (before a model or tool call) under
      an edited scenario, keeping the steps before it; prints the new events
      and where the fork first differs from its parent
  agent-loop validate FILE|BUILTIN
      list every problem in a scenario file, with its path; exit 2 if any
  agent-loop list
      the built-in scenarios
  agent-loop schema
      print the scenario file format as a JSON Schema";

fn main() -> ExitCode {
    restore_default_sigpipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run_command(&args[1..]),
        Some("validate") => validate_command(&args[1..]),
        Some("wire") => wire_command(&args[1..]),
        Some("check") => check_command(&args[1..]),
        Some("show") => record::show_command(&args[1..]),
        Some("replay") => record::replay_command(&args[1..]),
        Some("fork") => record::fork_command(&args[1..]),
        Some("serve") => serve::command(&args[1..]),
        Some("list") if args.len() == 1 => list_command(),
        Some("schema") if args.len() == 1 => {
            println!("{SCENARIO_SCHEMA}");
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => usage_error(
            "expected a command: run, wire, check, show, replay, fork, serve, validate, list or schema",
        ),
    }
}

/// The CLI's single-threaded async runtime (timers and sockets).
pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| {
            eprintln!("agent-loop: cannot start the async runtime: {err}");
            ExitCode::from(2)
        })
}

/// Rust ignores SIGPIPE, so `agent-loop show x | head` would panic on the
/// closed pipe; like other Unix tools, end quietly instead.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; resetting
    // a signal to its default disposition has no other effect on Rust's state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

pub(crate) fn usage_error(message: &str) -> ExitCode {
    eprintln!("agent-loop: {message}\n{USAGE}");
    ExitCode::from(2)
}

struct RunArgs {
    source: String,
    approve: Option<ApprovalPolicy>,
    jsonl: bool,
    record: Option<String>,
    provider: Option<harness::wire::Provider>,
    base_url: Option<String>,
    model: Option<String>,
    stream: bool,
}

fn parse_run_args(args: &[String]) -> Result<RunArgs, String> {
    let mut source = None;
    let mut approve = None;
    let mut jsonl = false;
    let mut record = None;
    let mut provider = None;
    let mut base_url = None;
    let mut model = None;
    let mut stream = true;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--jsonl" => jsonl = true,
            "--no-stream" => stream = false,
            "--provider" => {
                let name = rest
                    .next()
                    .ok_or("--provider takes anthropic, openai-chat or openai-responses")?;
                provider = Some(wire::parse_provider(name).ok_or_else(|| {
                    format!(
                        "--provider takes anthropic, openai-chat or openai-responses, not {name:?}"
                    )
                })?);
            }
            "--base-url" => base_url = Some(rest.next().ok_or("--base-url takes a URL")?.clone()),
            "--model" => model = Some(rest.next().ok_or("--model takes a model name")?.clone()),
            "--record" => {
                record = Some(rest.next().ok_or("--record takes a file to write")?.clone())
            }
            "--approve" => {
                approve = Some(match rest.next().map(String::as_str) {
                    Some("all") => ApprovalPolicy::ApproveAll,
                    Some("none") => ApprovalPolicy::DenyAll,
                    Some(other) => {
                        return Err(format!("--approve takes all or none, not {other:?}"))
                    }
                    None => return Err("--approve takes all or none".to_string()),
                })
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file if source.is_none() => source = Some(file.to_string()),
            extra => return Err(format!("unexpected argument {extra:?}")),
        }
    }
    let source = source.ok_or("expected a scenario file or a built-in scenario's name")?;
    if provider.is_none() && (base_url.is_some() || model.is_some()) {
        return Err("--base-url and --model go with --provider".to_string());
    }
    Ok(RunArgs {
        source,
        approve,
        jsonl,
        record,
        provider,
        base_url,
        model,
        stream,
    })
}

/// Reads a scenario from a file, or by a built-in scenario's name.
pub(crate) fn load(source: &str) -> Result<Scenario, ExitCode> {
    let text = match std::fs::read_to_string(source) {
        Ok(text) => text,
        Err(err) => match library::find(source) {
            Some(builtin) => builtin.json().to_string(),
            None => {
                eprintln!(
                    "agent-loop: cannot read {source}: {err} (nor is it a built-in scenario; see `agent-loop list`)"
                );
                return Err(ExitCode::from(2));
            }
        },
    };
    Scenario::load(&text).map_err(|problems| {
        report_problems(source, &problems);
        ExitCode::from(2)
    })
}

pub(crate) fn report_problems(source: &str, problems: &[Problem]) {
    eprintln!(
        "{source}: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for problem in problems {
        eprintln!("  {problem}");
    }
}

fn run_command(args: &[String]) -> ExitCode {
    let args = match parse_run_args(args) {
        Ok(args) => args,
        Err(message) => return usage_error(&message),
    };
    let mut scenario = match load(&args.source) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    if let Some(policy) = args.approve {
        scenario.approval = policy;
    }
    let js_tools = scenario.js_tool_names();
    if !js_tools.is_empty() {
        // Said up front, on stderr, so a JSON Lines trace on stdout stays clean.
        eprintln!(
            "note: {} {} a JavaScript body, which runs only in the browser playground's sandbox; here every call to it answers with an error result",
            js_tools.join(", "),
            if js_tools.len() == 1 { "has" } else { "have" }
        );
    }
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let jsonl = args.jsonl;
    let mut recorded = Vec::new();
    let mut on_event = |event: &RunEvent| {
        if args.record.is_some() {
            recorded.push(event.clone());
        }
        if jsonl {
            println!("{}", serde_json::to_string(event).unwrap_or_default());
        } else {
            trace::print(event);
        }
    };
    let clock: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
    let outcome = match args.provider {
        None => runtime.block_on(harness::run_scenario(
            &scenario,
            clock,
            RunOptions::default(),
            &mut on_event,
        )),
        Some(provider) => {
            let settings = ProviderSettings {
                provider,
                base_url: args
                    .base_url
                    .clone()
                    .unwrap_or_else(|| ProviderSettings::default_base_url(provider).to_string()),
                model: args.model.clone().unwrap_or_else(|| "default".to_string()),
                stream: args.stream,
            };
            let key = ApiKey::new(std::env::var("AGENT_LOOP_API_KEY").unwrap_or_default());
            let model = HttpModel::new(settings, key, http::NativeHttp);
            runtime.block_on(harness::run_scenario_with_model(
                &scenario,
                clock,
                &model,
                RunOptions::default(),
                &mut on_event,
            ))
        }
    };
    if let Some(path) = &args.record {
        let record = harness::replay::Record {
            scenario: Some(scenario.clone()),
            events: recorded,
            forked_at: None,
        };
        if let Err(err) = std::fs::write(path, record.to_jsonl()) {
            eprintln!("agent-loop: cannot write the record to {path}: {err}");
            return ExitCode::from(2);
        }
    }
    match outcome {
        Ok(outcome) if outcome.status == Status::Done => ExitCode::SUCCESS,
        Ok(outcome) => {
            if outcome.status == Status::Blocked && scenario.approval == ApprovalPolicy::Ask {
                eprintln!("hint: pass --approve all or --approve none to decide approvals from the command line");
            }
            ExitCode::from(3)
        }
        Err(problems) => {
            report_problems(&args.source, &problems);
            ExitCode::from(2)
        }
    }
}

/// Runs a scenario to the end, keeping its events; errors are already reported.
fn run_collecting(
    source: &str,
    approve: Option<ApprovalPolicy>,
) -> Result<(Scenario, Vec<RunEvent>), ExitCode> {
    let mut scenario = load(source)?;
    if let Some(policy) = approve {
        scenario.approval = policy;
    }
    let runtime = tokio_runtime()?;
    let mut events = Vec::new();
    let outcome = runtime.block_on(harness::run_scenario(
        &scenario,
        Rc::new(TokioRuntime::default()),
        RunOptions::default(),
        &mut |event: &RunEvent| events.push(event.clone()),
    ));
    match outcome {
        Ok(_) => Ok((scenario, events)),
        Err(problems) => {
            report_problems(source, &problems);
            Err(ExitCode::from(2))
        }
    }
}

/// The tools as the run advertised them, built-in definitions included.
fn tool_specs(scenario: &Scenario) -> Vec<harness::model::ToolSpec> {
    scenario
        .build(Rc::new(TokioRuntime::default()))
        .map(|(config, _)| config.tools.specs().to_vec())
        .unwrap_or_default()
}

fn wire_command(args: &[String]) -> ExitCode {
    let mut provider = None;
    let mut rest = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--provider" {
            match iter.next().map(|p| wire::parse_provider(p)) {
                Some(Some(p)) => provider = Some(p),
                _ => {
                    return usage_error(
                        "--provider takes anthropic, openai-chat or openai-responses",
                    )
                }
            }
        } else {
            rest.push(arg.clone());
        }
    }
    let Some(provider) = provider else {
        return usage_error("wire needs --provider anthropic|openai-chat|openai-responses");
    };
    let args = match parse_run_args(&rest) {
        Ok(args) if !args.jsonl => args,
        Ok(_) => return usage_error("wire prints JSON already; --jsonl does not apply"),
        Err(message) => return usage_error(&message),
    };
    let (scenario, events) = match run_collecting(&args.source, args.approve) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let tools = tool_specs(&scenario);
    let shape = wire::RunShape {
        system: &scenario.system,
        tools: &tools,
        max_output_tokens: scenario.limits.max_output_tokens,
    };
    let bodies = wire::request_bodies(provider, &shape, &events);
    println!(
        "{}",
        serde_json::to_string_pretty(&bodies).unwrap_or_default()
    );
    ExitCode::SUCCESS
}

fn check_command(args: &[String]) -> ExitCode {
    let args = match parse_run_args(args) {
        Ok(args) if !args.jsonl => args,
        Ok(_) => return usage_error("check does not take --jsonl"),
        Err(message) => return usage_error(&message),
    };
    let (scenario, events) = match run_collecting(&args.source, args.approve) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let tools = tool_specs(&scenario);
    let shape = wire::RunShape {
        system: &scenario.system,
        tools: &tools,
        max_output_tokens: scenario.limits.max_output_tokens,
    };
    let (report, violations) = wire::check_report(&shape, &events);
    print!("{report}");
    if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

fn validate_command(args: &[String]) -> ExitCode {
    let [source] = args else {
        return usage_error("validate takes one scenario file");
    };
    match load(source) {
        Ok(scenario) => {
            println!("{source}: ok ({})", scenario.name);
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

fn list_command() -> ExitCode {
    let width = BUILTIN.iter().map(|s| s.id.len()).max().unwrap_or(0);
    let mut group = "";
    for builtin in BUILTIN {
        if builtin.group != group {
            group = builtin.group;
            println!("{group}:");
        }
        let name = Scenario::load(builtin.json())
            .map(|s| s.name)
            .unwrap_or_else(|_| "(invalid)".to_string());
        println!(
            "  {:width$}  {:<20}  {name}",
            builtin.id, builtin.expected_status
        );
    }
    ExitCode::SUCCESS
}
