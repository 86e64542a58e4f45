//! `agent-loop`: runs, validates and lists scenarios natively, with the same
//! harness the browser runs.
//!
//! Exit codes: 0 when a run ends `done` (or a file is valid), 3 when a run
//! ends with any other status, 2 for a bad file or bad usage (message on stderr).

mod args;
mod bridge;
mod http;
mod lesson;
mod list;
mod mcp;
mod mcp_stdio;
mod oauth;
mod otel;
mod record;
mod replay;
mod run;
mod serve;
mod source;
mod stdio_server;
mod stop;
mod trace;
mod usage;
mod wire;

use std::process::ExitCode;

use clap::Parser;
use harness::library::{self, BUILTIN};
use harness::scenario::{Problem, Scenario, SCENARIO_SCHEMA};

use args::{Cli, Command};

fn main() -> ExitCode {
    restore_default_sigpipe();
    // Lossy only for the help hint; clap itself reads the raw arguments.
    let words: Vec<String> = std::env::args_os()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let cli = match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => return usage::report_clap_error(error, &words),
    };
    match cli.command {
        Command::Run(args) => run::run_command(&args),
        Command::List => list::list_command(),
        Command::Validate(args) => validate_command(&args.scenario),
        Command::Show(args) => record::show_command(&args),
        Command::Replay(args) => replay::replay_command(&args),
        Command::Fork(args) => record::fork_command(&args),
        Command::Wire(args) => run::wire_command(&args),
        Command::Check(args) => run::check_command(&args),
        Command::Serve(args) => serve::command(&args),
        Command::Mcp(args) => mcp::command(&args),
        Command::Schema => {
            println!("{SCENARIO_SCHEMA}");
            ExitCode::SUCCESS
        }
        Command::Export(args) => otel::export_command(&args),
        Command::Import(args) => otel::import_command(&args),
        Command::Lesson(args) => lesson::command(&args),
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

/// A scenario argument: a file, or a built-in scenario's name.
const SCENARIOS: source::Builtins = source::Builtins {
    kind: "scenario",
    listed_by: "agent-loop list",
    names: || BUILTIN.iter().map(|b| b.id).collect(),
};

/// Reads a scenario's text from a file, or by a built-in scenario's name.
pub(crate) fn scenario_text(source: &str) -> Result<String, source::SourceError> {
    source::read(source, SCENARIOS, |id| library::find(id).map(|b| b.json()))
        .map(source::Source::into_text)
}

pub(crate) use source::io_problem;

/// Reads and checks a scenario; problems are reported on stderr (exit 2).
pub(crate) fn load(source: &str) -> Result<Scenario, ExitCode> {
    let text = scenario_text(source).map_err(|message| {
        eprintln!("agent-loop: {message}");
        ExitCode::from(2)
    })?;
    Scenario::load(&text).map_err(|problems| {
        report_problems(source, &problems);
        ExitCode::from(2)
    })
}

pub(crate) fn report_problems(source: &str, problems: &[Problem]) {
    eprintln!("{}", problems_heading(source, problems));
    for problem in problems {
        eprintln!("  {problem}");
    }
}

/// "FILE: 3 problems".
pub(crate) fn problems_heading(source: &str, problems: &[Problem]) -> String {
    format!(
        "{source}: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    )
}

fn validate_command(source: &str) -> ExitCode {
    match load(source) {
        Ok(scenario) => {
            // Notes do not stop the scenario from running: still ok, exit 0.
            let notes = scenario.notes();
            // The name is the file's text: shown escaped and cut.
            let name = harness::quote::one_line(&scenario.name);
            match notes.len() {
                0 => println!("{source}: ok ({name})"),
                1 => println!("{source}: ok ({name}), with 1 note"),
                n => println!("{source}: ok ({name}), with {n} notes"),
            }
            for note in notes {
                println!("  {}", harness::quote::plain(&note.to_string()));
            }
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}
