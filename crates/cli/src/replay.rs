//! `agent-loop replay`: recorded runs played against the current tools, one
//! record in detail or many as a regression suite.
//!
//! One record (a file, without `--jsonl`) prints every check with its detail.
//! Anything more (several files, a folder, or `--jsonl`) is a suite: one line
//! per record and a summary, and a record that cannot be read is reported on
//! its line while the others still run.
//!
//! Exit codes: 0 when every record passes, 3 when any fails, 2 when any input
//! cannot be read. 2 wins over 3: a suite with a hole in it did not test
//! what it claims, whatever the rest says.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use harness::quote::plain;
use harness::replay::{replay, Assertions, Record, ReplayReport};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use serde_json::json;

use harness::mcp::resolve::resolve;
use harness::mcp::transport::McpTransport;

use crate::args::ReplayArgs;
use crate::http::NativeHttp;
use crate::record::{read_record_file, NO_SCENARIO};
use crate::{load, problems_heading, report_problems};

pub fn replay_command(args: &ReplayArgs) -> ExitCode {
    let assertions = match &args.assertions {
        None => Assertions::default(),
        Some(path) => match read_assertions(path) {
            Ok(assertions) => assertions,
            Err(message) => {
                eprintln!("agent-loop: {message}");
                return ExitCode::from(2);
            }
        },
    };
    // Loaded once: with several records, every one replays against it.
    let scenario = match args.scenario.as_deref().map(load).transpose() {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let replayer = Replayer {
        runtime,
        local: tokio::task::LocalSet::new(),
        scenario,
        scenario_source: args.scenario.clone(),
        assertions,
        call_mcp_servers: args.call_mcp_servers,
    };
    match args.records.as_slice() {
        [single] if !args.jsonl && !single.is_dir() => replayer.one_in_detail(single),
        inputs => replayer.suite(&expand(inputs), args.jsonl),
    }
}

/// The keys an assertions file may have.
const ASSERTION_KEYS: [&str; 5] = [
    "status",
    "tool_sequence",
    "same_errors",
    "no_repeated_calls",
    "ids_exist",
];

/// Why an assertions file cannot be used. `Display` is the line printed
/// after `agent-loop: `; `Problems` names every wrong key and value at once.
#[derive(Debug)]
enum AssertionsError {
    Unreadable { file: String, why: String },
    NotJson { file: String, why: String },
    NotAnObject { file: String },
    Problems { file: String, problems: Vec<String> },
}

impl std::fmt::Display for AssertionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NOT_VALID: &str = "not a valid assertions file";
        match self {
            AssertionsError::Unreadable { file, why } => write!(f, "cannot read {file}: {why}"),
            AssertionsError::NotJson { file, why } => {
                write!(f, "{file}: {NOT_VALID}: not JSON: {why}")
            }
            AssertionsError::NotAnObject { file } => write!(
                f,
                "{file}: {NOT_VALID}: expected a JSON object with any of {}",
                ASSERTION_KEYS.join(", ")
            ),
            AssertionsError::Problems { file, problems } => {
                write!(f, "{file}: {NOT_VALID}: {}", problems.join("; "))
            }
        }
    }
}

/// The assertions file, checked key by key so every typo is named with a
/// suggestion and every wrong value with what it must be, in one pass.
fn read_assertions(path: &Path) -> Result<Assertions, AssertionsError> {
    let file = path.display().to_string();
    let text = crate::source::read_text(path).map_err(|e| AssertionsError::Unreadable {
        file: file.clone(),
        why: crate::io_problem(&e),
    })?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| AssertionsError::NotJson {
            file: file.clone(),
            why: e.to_string(),
        })?;
    let Some(object) = value.as_object() else {
        return Err(AssertionsError::NotAnObject { file });
    };
    let expected = |key: &str| match key {
        "status" => "a status such as \"done\"",
        "tool_sequence" => "a list of tool names",
        _ => "true or false",
    };
    let problems: Vec<String> = object
        .iter()
        .filter_map(|(key, v)| {
            if !ASSERTION_KEYS.contains(&key.as_str()) {
                return Some(format!(
                    "unknown key \"{key}\"{}; the keys are {}",
                    harness::suggest::did_you_mean(key, ASSERTION_KEYS),
                    ASSERTION_KEYS.join(", ")
                ));
            }
            // Each known key alone, so a wrong type is named by its key.
            serde_json::from_value::<Assertions>(json!({ key.as_str(): v }))
                .is_err()
                .then(|| format!("{key} must be {}", expected(key)))
        })
        .collect();
    if !problems.is_empty() {
        return Err(AssertionsError::Problems { file, problems });
    }
    serde_json::from_value::<Assertions>(value.clone()).map_err(|e| AssertionsError::Problems {
        file,
        problems: vec![e.to_string()],
    })
}

/// The records the arguments name: a file as given, a folder as every
/// `*.jsonl` in it, sorted by name. A folder that cannot be listed, or holds
/// no record, is kept as an input that fails to read.
fn expand(inputs: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            out.push(Input::Record(input.clone()));
            continue;
        }
        let listing = std::fs::read_dir(input).map(|entries| {
            let mut files: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "jsonl"))
                .collect();
            files.sort();
            files
        });
        match listing {
            Ok(files) if files.is_empty() => out.push(Input::Broken(
                input.clone(),
                "no *.jsonl records in this folder".to_string(),
            )),
            Ok(files) => out.extend(files.into_iter().map(Input::Record)),
            Err(err) => out.push(Input::Broken(
                input.clone(),
                format!("cannot list this folder: {}", crate::io_problem(&err)),
            )),
        }
    }
    out
}

enum Input {
    Record(PathBuf),
    /// A folder that yielded no record, and why.
    Broken(PathBuf, String),
}

/// What replaying one record came to.
enum Verdict {
    Replayed(Box<ReplayReport>),
    /// The record (or the scenario it needs) could not be read or built.
    Unreadable(String),
}

struct Replayer {
    runtime: tokio::runtime::Runtime,
    /// MCP calls run here: a cancelled legacy call spawns its notice.
    local: tokio::task::LocalSet,
    /// `--scenario`, loaded; otherwise each record's own.
    scenario: Option<Scenario>,
    scenario_source: Option<String>,
    assertions: Assertions,
    /// `--call-mcp-servers`: reach the servers rather than the record's results.
    call_mcp_servers: bool,
}

impl Replayer {
    fn replay(&self, record: &Record) -> Result<ReplayReport, Vec<harness::scenario::Problem>> {
        let scenario = match &self.scenario {
            Some(edited) => record.with_recorded_mcp(edited.clone()),
            None => record
                .scenario
                .clone()
                .expect("callers check that a scenario exists"),
        };
        let scenario = if self.call_mcp_servers && !scenario.mcp_servers.is_empty() {
            let transport: Rc<dyn McpTransport> = Rc::new(NativeHttp::new());
            let resolved = self.local.block_on(
                &self.runtime,
                resolve(crate::mcp::unloaded(scenario), transport),
            );
            resolved.map(|(scenario, _)| scenario)?
        } else {
            scenario
        };
        self.local.block_on(
            &self.runtime,
            replay(
                record,
                &scenario,
                &self.assertions,
                Rc::new(TokioRuntime::default()),
            ),
        )
    }

    fn one_in_detail(&self, path: &Path) -> ExitCode {
        let record = match read_record_file(path) {
            Ok(record) => record,
            Err(error) => {
                eprintln!("agent-loop: {}", error.with_path(path));
                return ExitCode::from(2);
            }
        };
        if self.scenario.is_none() && record.scenario.is_none() {
            return crate::usage::usage_error(NO_SCENARIO, Some("replay"));
        }
        let report = match self.replay(&record) {
            Ok(report) => report,
            Err(problems) => {
                let source = self.scenario_source.clone();
                report_problems(
                    &source.unwrap_or_else(|| path.display().to_string()),
                    &problems,
                );
                return ExitCode::from(2);
            }
        };
        for result in &report.results {
            let mark = if result.passed { "✓" } else { "✗" };
            // A detail quotes recorded and current tool results: escaped.
            println!("{mark} {}: {}", result.name, plain(&result.detail));
        }
        match report.first_failure() {
            None => {
                println!("replay passed ({} assertions)", report.results.len());
                ExitCode::SUCCESS
            }
            Some(failure) => {
                eprintln!(
                    "replay failed: first difference: {}: {}",
                    failure.name,
                    plain(&failure.detail)
                );
                ExitCode::from(3)
            }
        }
    }

    fn verdict(&self, path: &Path) -> Verdict {
        let record = match read_record_file(path) {
            Ok(record) => record,
            Err(error) => return Verdict::Unreadable(error.message()),
        };
        if self.scenario.is_none() && record.scenario.is_none() {
            return Verdict::Unreadable(NO_SCENARIO.to_string());
        }
        match self.replay(&record) {
            Ok(report) => Verdict::Replayed(Box::new(report)),
            Err(problems) => {
                let source = self.scenario_source.clone();
                let heading =
                    problems_heading(&source.unwrap_or_else(|| "its scenario".into()), &problems);
                let first = problems.first().map(|p| format!(", first: {p}"));
                Verdict::Unreadable(format!("{heading}{}", first.unwrap_or_default()))
            }
        }
    }

    fn suite(&self, inputs: &[Input], jsonl: bool) -> ExitCode {
        let (mut passed, mut failed, mut unreadable) = (0, 0, 0);
        for input in inputs {
            let (path, verdict) = match input {
                Input::Record(path) => (path, self.verdict(path)),
                Input::Broken(path, why) => (path, Verdict::Unreadable(why.clone())),
            };
            match &verdict {
                Verdict::Replayed(report) if report.passed() => passed += 1,
                Verdict::Replayed(_) => failed += 1,
                Verdict::Unreadable(_) => unreadable += 1,
            }
            if jsonl {
                println!("{}", json_line(path, &verdict));
            } else {
                println!("{}", text_line(path, &verdict));
            }
        }
        let mut summary = format!(
            "{} record{}: {passed} passed, {failed} failed",
            inputs.len(),
            if inputs.len() == 1 { "" } else { "s" }
        );
        if unreadable > 0 {
            summary.push_str(&format!(", {unreadable} unreadable"));
        }
        // With --jsonl, stdout is for machines: one JSON object a line.
        if jsonl {
            eprintln!("{summary}");
        } else {
            println!("{summary}");
        }
        if unreadable > 0 {
            ExitCode::from(2)
        } else if failed > 0 {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// "pass  runs/a.jsonl", "FAIL  runs/b.jsonl: status: expected done, got …".
fn text_line(path: &Path, verdict: &Verdict) -> String {
    let shown = path.display();
    match verdict {
        Verdict::Replayed(report) => match report.first_failure() {
            None => format!("pass  {shown}"),
            Some(failure) => format!("FAIL  {shown}: {}: {}", failure.name, failure.detail),
        },
        Verdict::Unreadable(why) => format!("error {shown}: {why}"),
    }
}

/// One record's result for CI: its path, whether it passed, the status the
/// replay ended with, and every check.
fn json_line(path: &Path, verdict: &Verdict) -> serde_json::Value {
    let record = path.display().to_string();
    match verdict {
        Verdict::Replayed(report) => json!({
            "record": record,
            "passed": report.passed(),
            "status": report.outcome.status.as_str(),
            "checks": report.results,
        }),
        Verdict::Unreadable(why) => json!({
            "record": record,
            "passed": false,
            "status": null,
            "checks": [],
            "error": why,
        }),
    }
}
