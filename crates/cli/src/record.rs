//! `agent-loop show` and `agent-loop fork`: reading recorded runs, and
//! continuing one from a step under an edited scenario. Reading a record and
//! choosing the scenario to play it with are shared with `replay.rs`.

pub mod cut_off;
pub mod writer;

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use harness::event::{EventKind, Outcome};
use harness::replay::Record;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::wire::RequestShape;

use crate::args::{ForkArgs, ShowArgs};
use crate::usage::usage_error;
use crate::{load, trace};

/// Why a record file could not be read, without its path, so a suite's
/// line (which starts with the path) does not name it twice.
pub enum RecordError {
    /// The file itself: missing, a folder, not text.
    Unreadable(String),
    /// Its contents: not a record.
    Invalid(harness::error::RecordError),
}

impl RecordError {
    pub fn message(&self) -> String {
        match self {
            RecordError::Unreadable(why) => why.clone(),
            RecordError::Invalid(error) => error.to_string(),
        }
    }

    /// "cannot read run.jsonl: no such file or folder", "run.jsonl: line 3: …".
    pub fn with_path(&self, path: &Path) -> String {
        match self {
            RecordError::Unreadable(why) => format!("cannot read {}: {why}", path.display()),
            RecordError::Invalid(why) => format!("{}: {why}", path.display()),
        }
    }
}

/// Reads a record, a killed run's too: a replay, a fork or an export
/// works from the events it holds, and stderr says where the run was cut
/// off (the record's status is then not the run's end).
pub fn read_record_file(path: &Path) -> Result<Record, RecordError> {
    let (record, cut) = read_possibly_cut(path)?;
    if let Some(cut) = cut {
        eprintln!("note: {}: {cut}", path.display());
    }
    Ok(record)
}

/// The record, and where its run was cut off, if it was.
fn read_possibly_cut(path: &Path) -> Result<(Record, Option<String>), RecordError> {
    let text = crate::source::read_text(path)
        .map_err(|err| RecordError::Unreadable(crate::io_problem(&err)))?;
    let (whole, cut_line) = cut_off::whole_lines(&text);
    let record = Record::from_jsonl(whole).map_err(RecordError::Invalid)?;
    let cut = cut_off::cut_off_sentence(&record, cut_line);
    Ok((record, cut))
}

fn read_record(path: &Path) -> Result<Record, ExitCode> {
    read_record_file(path).map_err(|error| {
        eprintln!("agent-loop: {}", error.with_path(path));
        ExitCode::from(2)
    })
}

/// Said when a bare trace (no scenario line) is replayed or forked without `--scenario`.
pub const NO_SCENARIO: &str =
    "this recording holds no scenario (a bare trace): pass --scenario FILE with the definitions to use";

/// The scenario to continue or replay a recording with: `--scenario`, or the
/// one the recording holds.
fn scenario_for(
    record: &Record,
    source: Option<&str>,
    command: &str,
) -> Result<Scenario, ExitCode> {
    match (source, &record.scenario) {
        (Some(source), _) => load(source).map(|edited| record.with_recorded_mcp(edited)),
        (None, Some(scenario)) => Ok(scenario.clone()),
        (None, None) => Err(usage_error(NO_SCENARIO, Some(command))),
    }
}

pub fn show_command(args: &ShowArgs) -> ExitCode {
    let (record, cut) = match read_possibly_cut(&args.record) {
        Ok(read) => read,
        Err(error) => {
            eprintln!("agent-loop: {}", error.with_path(&args.record));
            return ExitCode::from(2);
        }
    };
    if let Some(scenario) = &record.scenario {
        println!("scenario: {} — {}", scenario.name, scenario.task);
    }
    for event in &record.events {
        match &event.kind {
            EventKind::RunFinished(outcome) => {
                trace::print_finished(outcome, refusal_of(&record, outcome).as_deref())
            }
            _ => trace::print(event),
        }
    }
    if let Some(cut) = cut {
        println!("({cut}; the record ends before run_finished)");
    }
    let facts = harness::facts::confirmed(&record.events);
    if !facts.is_empty() {
        let listed: Vec<String> = facts
            .iter()
            .map(|f| format!("{}={} ({})", f.name, f.value, f.tool))
            .collect();
        println!("confirmed by tools: {}", listed.join(", "));
    }
    ExitCode::SUCCESS
}

/// "but Anthropic Messages would refuse turn 2" for a recorded `done` run
/// whose requests a provider would refuse: `show` closes as `run` did, so
/// reading the record back never says a plain "done" the run did not earn.
/// A bare trace is checked without a system prompt or tools, as `check` does.
fn refusal_of(record: &Record, outcome: &Outcome) -> Option<String> {
    let shape = match &record.scenario {
        Some(scenario) => RequestShape::of(scenario).ok()?,
        None => RequestShape::default(),
    };
    let found = harness::wire::rejections(&shape, &record.events);
    harness::refusal::done_but_refused(outcome.status, &found)
}

pub fn fork_command(args: &ForkArgs) -> ExitCode {
    let parent = match read_record(&args.record) {
        Ok(record) => record,
        Err(code) => return code,
    };
    if args.list {
        for point in harness::fork::fork_points(&parent.events) {
            println!("{:>5}  {}", point.seq, point.label);
        }
        return ExitCode::SUCCESS;
    }
    let Some(at) = args.at else {
        return usage_error(
            "fork needs --at EVENT, or --list to see the steps to fork from",
            Some("fork"),
        );
    };
    let scenario = match scenario_for(&parent, args.scenario.as_deref(), "fork") {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let local = tokio::task::LocalSet::new();
    let scenario = if args.call_mcp_servers {
        let source = args
            .scenario
            .clone()
            .unwrap_or_else(|| args.record.display().to_string());
        match crate::mcp::load_tools(&runtime, &local, crate::mcp::unloaded(scenario), &source) {
            Ok(scenario) => scenario,
            Err(code) => return code,
        }
    } else {
        scenario
    };
    let forked = local.block_on(
        &runtime,
        harness::fork::fork(
            &parent,
            at,
            &scenario,
            Rc::new(TokioRuntime::default()),
            Default::default(),
            &mut |event| trace::print(event),
        ),
    );
    let child = match forked {
        Ok(child) => child,
        Err(err) => {
            eprintln!("agent-loop: {err}");
            return ExitCode::from(2);
        }
    };
    if let Some(divergence) = harness::fork::first_divergence(&parent.events, &child.events) {
        println!(
            "first divergence from the parent at event {}: parent {} | fork {}",
            divergence.index,
            divergence.left.as_deref().unwrap_or("(ended)"),
            divergence.right.as_deref().unwrap_or("(ended)")
        );
    }
    if let Some(path) = &args.out {
        if let Err(err) = std::fs::write(path, child.to_jsonl()) {
            eprintln!(
                "agent-loop: cannot write the fork to {}: {}",
                path.display(),
                crate::io_problem(&err)
            );
            return ExitCode::from(2);
        }
    }
    match child.outcome() {
        Some(outcome) if outcome.status == harness::event::Status::Done => ExitCode::SUCCESS,
        _ => ExitCode::from(3),
    }
}
