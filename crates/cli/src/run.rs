//! `agent-loop run`, `wire` and `check`: a scenario run to the end, printed
//! as a trace, or rebuilt as each provider's requests and checked.

use std::process::ExitCode;
use std::rc::Rc;

use harness::approval::ApprovalPolicy;
use harness::cancel::CancelToken;
use harness::event::{EventKind, RunEvent, Status};
use harness::provider::{ApiKey, HttpModel, ProviderSettings};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::wire::{Provider, RequestShape};
use harness::RunOptions;

use crate::args::{CheckArgs, RunArgs, WireArgs};
use crate::usage::usage_error;
use crate::{http, load, report_problems, stop, trace, wire};

/// The variable every SDK of this provider reads its key from.
fn sdk_key_variable(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "ANTHROPIC_API_KEY",
        Provider::OpenaiChat | Provider::OpenaiResponses => "OPENAI_API_KEY",
    }
}

/// `AGENT_LOOP_API_KEY` when it is set (one variable for any provider, e.g.
/// a local server's), else the provider's own variable, so a shell or CI job
/// already set up for the official SDKs needs nothing more. The key goes
/// into the request headers only: `ApiKey` has no Display, and its Debug
/// hides it.
fn api_key(provider: Provider) -> ApiKey {
    let read = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    ApiKey::new(
        read("AGENT_LOOP_API_KEY")
            .or_else(|| read(sdk_key_variable(provider)))
            .unwrap_or_default(),
    )
}

pub fn run_command(args: &RunArgs) -> ExitCode {
    if args.provider.is_none()
        && (args.base_url.is_some() || args.model.is_some() || args.no_stream)
    {
        return usage_error(
            "--base-url, --model and --no-stream go with --provider",
            Some("run"),
        );
    }
    let mut scenario = match load(&args.scenario) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    if let Some(policy) = args.approval.policy() {
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
    // MCP sessions and their cancellation notices are `!Send`: they live
    // on this thread, in this set.
    let local = tokio::task::LocalSet::new();
    let scenario = match crate::mcp::load_tools(&runtime, &local, scenario, &args.scenario) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    // What the run's requests carry besides their history, for the
    // protocol check its end reports; a scenario it cannot be built for
    // fails to run, and says why.
    let shape = RequestShape::of(&scenario).ok();
    let jsonl = args.jsonl;
    // Written as the run goes, so a killed run keeps every event up to then.
    let mut record = match &args.record {
        Some(path) => match crate::record::writer::RecordWriter::create(path, &scenario) {
            Ok(writer) => Some(writer),
            Err(code) => return code,
        },
        None => None,
    };
    let mut recorded = Vec::new();
    let mut refusal = None;
    let mut on_event = |event: &RunEvent| {
        if let Some(record) = record.as_mut() {
            record.append(event);
        }
        recorded.push(event.clone());
        if let EventKind::RunFinished(outcome) = &event.kind {
            refusal = shape.as_ref().and_then(|shape| {
                let found = harness::wire::rejections(shape, &recorded);
                harness::refusal::done_but_refused(outcome.status, &found)
            });
        }
        match &event.kind {
            _ if jsonl => println!("{}", serde_json::to_string(event).unwrap_or_default()),
            EventKind::RunFinished(outcome) => trace::print_finished(outcome, refusal.as_deref()),
            _ => trace::print(event),
        }
    };
    let clock: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
    stop::say_how_to_stop(&args.scenario);
    let cancel = CancelToken::new();
    let options = RunOptions {
        cancel: cancel.clone(),
        stepper: Some(stop::BETWEEN_STEPS),
        ..RunOptions::default()
    };
    let outcome = match args.provider {
        None => local.block_on(
            &runtime,
            stop::stoppable(
                cancel,
                harness::run_scenario(&scenario, clock, options, &mut on_event),
            ),
        ),
        Some(provider) => {
            let provider = provider.into();
            let settings = ProviderSettings {
                provider,
                base_url: args
                    .base_url
                    .clone()
                    .unwrap_or_else(|| ProviderSettings::default_base_url(provider).to_string()),
                model: args.model.clone().unwrap_or_else(|| "default".to_string()),
                stream: !args.no_stream,
            };
            let key = api_key(provider);
            if key.is_empty() && args.base_url.is_none() {
                // Said before the hosted API answers 401, on stderr, so a
                // JSON Lines trace on stdout stays clean.
                eprintln!(
                    "note: no API key: set {} (or AGENT_LOOP_API_KEY)",
                    sdk_key_variable(provider)
                );
            }
            let model = HttpModel::new(settings, key, http::NativeHttp::new());
            local.block_on(
                &runtime,
                stop::stoppable(
                    cancel,
                    harness::run_scenario_with_model(
                        &scenario,
                        clock,
                        &model,
                        options,
                        &mut on_event,
                    ),
                ),
            )
        }
    };
    crate::mcp::send_pending(&runtime, local);
    if let Some(Err(code)) = record.map(|record| record.finish()) {
        return code;
    }
    match outcome {
        Ok(outcome) if outcome.status == Status::Done => match refusal {
            Some(refusal) if !args.allow_refused => {
                // On stderr, so a JSON Lines trace on stdout stays clean.
                eprintln!(
                    "agent-loop: the run ended done, {refusal} (HTTP 400): `agent-loop check {}` says why; --allow-refused exits 0 for such a run",
                    args.scenario
                );
                ExitCode::from(3)
            }
            _ => ExitCode::SUCCESS,
        },
        Ok(outcome) => {
            if outcome.status == Status::Blocked && scenario.approval == ApprovalPolicy::Ask {
                eprintln!("hint: pass --approve all or --approve none to decide approvals from the command line");
            }
            ExitCode::from(3)
        }
        Err(problems) => {
            report_problems(&args.scenario, &problems);
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
    let runtime = crate::tokio_runtime()?;
    let local = tokio::task::LocalSet::new();
    let scenario = crate::mcp::load_tools(&runtime, &local, scenario, source)?;
    let mut events = Vec::new();
    stop::say_how_to_stop(source);
    let cancel = CancelToken::new();
    let options = RunOptions {
        cancel: cancel.clone(),
        stepper: Some(stop::BETWEEN_STEPS),
        ..RunOptions::default()
    };
    let mut on_event = |event: &RunEvent| events.push(event.clone());
    let outcome = local.block_on(
        &runtime,
        stop::stoppable(
            cancel,
            harness::run_scenario(
                &scenario,
                Rc::new(TokioRuntime::default()),
                options,
                &mut on_event,
            ),
        ),
    );
    crate::mcp::send_pending(&runtime, local);
    match outcome {
        Ok(_) => Ok((scenario, events)),
        Err(problems) => {
            report_problems(source, &problems);
            Err(ExitCode::from(2))
        }
    }
}

/// What the run's requests carried besides their history: the system prompt
/// and the tools as the run advertised them, built-in definitions included.
/// Runs the scenario and gives what `wire` and `check` rebuild its requests
/// from: the request shape (system prompt, tools) and the trace.
fn run_for_requests(
    source: &str,
    approve: Option<ApprovalPolicy>,
) -> Result<(RequestShape, Vec<RunEvent>), ExitCode> {
    let (scenario, events) = run_collecting(source, approve)?;
    let shape = RequestShape::of(&scenario).map_err(|problems| {
        report_problems(source, &problems);
        ExitCode::from(2)
    })?;
    Ok((shape, events))
}

pub fn wire_command(args: &WireArgs) -> ExitCode {
    let (shape, events) = match run_for_requests(&args.scenario, args.approval.policy()) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let bodies = wire::request_bodies(args.provider.into(), &shape, &events);
    println!(
        "{}",
        serde_json::to_string_pretty(&bodies).unwrap_or_default()
    );
    ExitCode::SUCCESS
}

pub fn check_command(args: &CheckArgs) -> ExitCode {
    if let Some(code) = check_what_is_not_a_scenario(&args.scenario) {
        return code;
    }
    let (shape, events) = match run_for_requests(&args.scenario, args.approval.policy()) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let (report, violations) = wire::check_report(&shape, &events);
    print!("{report}");
    if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

/// `check` is also given what is not a scenario: a run record (JSON Lines,
/// as `run --record` and `--jsonl` write) is checked as recorded, with the
/// same checker; a provider's request body is sent to `import`, which reads
/// it with its verdict. `None`: a scenario (or a built-in's name), checked
/// by running it.
fn check_what_is_not_a_scenario(source: &str) -> Option<ExitCode> {
    use harness::import::{kind_of, Kind};
    let text = crate::source::read_text(source).ok()?;
    match kind_of(&text)? {
        // A body is checked as it stands, by the provider it is written for.
        Kind::Request => {
            let body: serde_json::Value = serde_json::from_str(&text).ok()?;
            let (provider, detected_by) = harness::wire::Provider::of_request_body(&body).ok()?;
            let violations = harness::wire::check_body(provider, &body);
            let refused = !violations.is_empty();
            println!(
                "{source}: an {} request body ({detected_by}); checked as that provider would:",
                provider.label()
            );
            print!("{}", wire::verdict(provider, violations));
            return Some(if refused {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            });
        }
        Kind::Record => {}
        // A scenario's own loader says what is wrong with anything else.
        Kind::Event | Kind::Otlp | Kind::Response => return None,
    }
    // A killed run's record is checked as far as it was written.
    let (whole, cut_line) = crate::record::cut_off::whole_lines(&text);
    let record = match harness::replay::Record::from_jsonl(whole) {
        Ok(record) => record,
        Err(why) => {
            eprintln!("agent-loop: {source}: {why}");
            return Some(ExitCode::from(2));
        }
    };
    // What follows a cut-off run's last request was never sent: a call left
    // without its result there is the cut, not a history a provider refuses.
    let mut events = record.events.as_slice();
    if let Some(cut) = crate::record::cut_off::cut_off_sentence(&record, cut_line) {
        let sent = crate::record::cut_off::up_to_last_request(events);
        let last = sent.last().map_or(0, |e| e.seq);
        eprintln!("note: {source}: {cut}; its requests are checked, up to the last it sent (event {last})");
        events = sent;
    }
    // A bare trace holds no scenario: its history is checked without a
    // system prompt or tool definitions.
    let shape = match &record.scenario {
        Some(scenario) => match RequestShape::of(scenario) {
            Ok(shape) => shape,
            Err(problems) => {
                report_problems(source, &problems);
                return Some(ExitCode::from(2));
            }
        },
        None => RequestShape::default(),
    };
    println!("{source}: a run record; its history as recorded:");
    let (report, violations) = wire::check_report(&shape, events);
    print!("{report}");
    Some(if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}
