//! `agent-loop show` and `agent-loop replay`: reading recorded runs, and
//! checking that the current tool definitions still lead to the same outcomes.

use std::process::ExitCode;
use std::rc::Rc;

use harness::replay::{replay, Assertions, Record};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;

use crate::{load, report_problems, trace, usage_error};

fn read_record(path: &str) -> Result<Record, ExitCode> {
    let text = std::fs::read_to_string(path).map_err(|err| {
        eprintln!("agent-loop: cannot read {path}: {err}");
        ExitCode::from(2)
    })?;
    Record::from_jsonl(&text).map_err(|err| {
        eprintln!("agent-loop: {path}: {err}");
        ExitCode::from(2)
    })
}

/// The scenario to continue or replay a recording with: `--scenario`, or the
/// one the recording holds.
fn scenario_for(record: &Record, source: Option<&str>) -> Result<Scenario, ExitCode> {
    match (source, &record.scenario) {
        (Some(source), _) => load(source),
        (None, Some(scenario)) => Ok(scenario.clone()),
        (None, None) => Err(usage_error(
            "this recording holds no scenario (a bare trace): pass --scenario FILE with the definitions to use",
        )),
    }
}

pub fn show_command(args: &[String]) -> ExitCode {
    let [path] = args else {
        return usage_error("show takes one recorded run (a .jsonl file)");
    };
    let record = match read_record(path) {
        Ok(record) => record,
        Err(code) => return code,
    };
    if let Some(scenario) = &record.scenario {
        println!("scenario: {} — {}", scenario.name, scenario.task);
    }
    for event in &record.events {
        trace::print(event);
    }
    if record.outcome().is_none() {
        println!("(the recording ends before run_finished: the run was cut off)");
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

pub fn replay_command(args: &[String]) -> ExitCode {
    let mut record_path = None;
    let mut scenario_source = None;
    let mut assert_path = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--scenario" => match rest.next() {
                Some(source) => scenario_source = Some(source.clone()),
                None => return usage_error("--scenario takes a scenario file or a built-in name"),
            },
            "--assert" => match rest.next() {
                Some(path) => assert_path = Some(path.clone()),
                None => return usage_error("--assert takes a JSON file of assertions"),
            },
            flag if flag.starts_with("--") => {
                return usage_error(&format!("unknown option {flag}"))
            }
            path if record_path.is_none() => record_path = Some(path.to_string()),
            extra => return usage_error(&format!("unexpected argument {extra:?}")),
        }
    }
    let Some(record_path) = record_path else {
        return usage_error("replay takes a recorded run (a .jsonl file from run --record)");
    };
    let record = match read_record(&record_path) {
        Ok(record) => record,
        Err(code) => return code,
    };
    let scenario = match scenario_for(&record, scenario_source.as_deref()) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let assertions = match &assert_path {
        None => Assertions::default(),
        Some(path) => {
            let parsed = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    serde_json::from_str::<Assertions>(&text).map_err(|e| e.to_string())
                });
            match parsed {
                Ok(assertions) => assertions,
                Err(err) => {
                    eprintln!("agent-loop: {path}: not a valid assertions file: {err}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let report = match runtime.block_on(replay(
        &record,
        &scenario,
        &assertions,
        Rc::new(TokioRuntime::default()),
    )) {
        Ok(report) => report,
        Err(problems) => {
            report_problems(
                scenario_source.as_deref().unwrap_or(&record_path),
                &problems,
            );
            return ExitCode::from(2);
        }
    };
    for result in &report.results {
        let mark = if result.passed { "✓" } else { "✗" };
        println!("{mark} {}: {}", result.name, result.detail);
    }
    match report.first_failure() {
        None => {
            println!("replay passed ({} assertions)", report.results.len());
            ExitCode::SUCCESS
        }
        Some(failure) => {
            eprintln!(
                "replay failed: first difference: {}: {}",
                failure.name, failure.detail
            );
            ExitCode::from(3)
        }
    }
}

pub fn fork_command(args: &[String]) -> ExitCode {
    let mut record_path = None;
    let mut at = None;
    let mut list = false;
    let mut scenario_source = None;
    let mut out = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--list" => list = true,
            "--at" => match rest.next().map(|s| s.parse::<u64>()) {
                Some(Ok(seq)) => at = Some(seq),
                _ => return usage_error("--at takes an event number (see fork --list)"),
            },
            "--scenario" => match rest.next() {
                Some(source) => scenario_source = Some(source.clone()),
                None => return usage_error("--scenario takes the edited scenario file"),
            },
            "--record" => match rest.next() {
                Some(path) => out = Some(path.clone()),
                None => return usage_error("--record takes a file to write"),
            },
            flag if flag.starts_with("--") => {
                return usage_error(&format!("unknown option {flag}"))
            }
            path if record_path.is_none() => record_path = Some(path.to_string()),
            extra => return usage_error(&format!("unexpected argument {extra:?}")),
        }
    }
    let Some(record_path) = record_path else {
        return usage_error("fork takes a recorded run (a .jsonl file from run --record)");
    };
    let parent = match read_record(&record_path) {
        Ok(record) => record,
        Err(code) => return code,
    };
    if list {
        for point in harness::fork::fork_points(&parent.events) {
            println!("{:>5}  {}", point.seq, point.label);
        }
        return ExitCode::SUCCESS;
    }
    let Some(at) = at else {
        return usage_error("fork needs --at EVENT (or --list to see the steps to fork from)");
    };
    let scenario = match scenario_for(&parent, scenario_source.as_deref()) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let forked = runtime.block_on(harness::fork::fork(
        &parent,
        at,
        &scenario,
        Rc::new(TokioRuntime::default()),
        Default::default(),
        &mut |event| trace::print(event),
    ));
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
    if let Some(path) = &out {
        if let Err(err) = std::fs::write(path, child.to_jsonl()) {
            eprintln!("agent-loop: cannot write the fork to {path}: {err}");
            return ExitCode::from(2);
        }
    }
    match child.outcome() {
        Some(outcome) if outcome.status == harness::event::Status::Done => ExitCode::SUCCESS,
        _ => ExitCode::from(3),
    }
}
