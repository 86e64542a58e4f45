//! Usage errors as one line: what is wrong, and which `--help` to read.
//!
//! clap's own error is a paragraph (the error, a tip, the usage line, a
//! pointer to `--help`); a person who typed `--aprove` needs the first and
//! the last of those, so this module rebuilds the message from the error's
//! context. Suggestions come from `harness::suggest`, so a misspelt flag, a
//! command and a scenario name are all suggested the same way.

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Command, CommandFactory};
use harness::suggest::did_you_mean;

use crate::args::{Cli, COMMAND_NAMES};

/// Prints a usage error (one line, on stderr) and gives exit code 2.
/// `command` is the subcommand whose help explains the mistake.
pub fn usage_error(message: &str, command: Option<&str>) -> ExitCode {
    eprintln!("agent-loop: {message}; {}", see_help(command));
    ExitCode::from(2)
}

fn see_help(command: Option<&str>) -> String {
    match command {
        Some(name) => format!("see `agent-loop {name} --help`"),
        None => "see `agent-loop --help`".to_string(),
    }
}

/// The command the arguments name, if they name one (for the help hint and
/// for what to suggest): `run`, or `mcp tools` when a command has commands
/// of its own and the next word names one of them.
pub fn command_named(args: &[String]) -> Option<String> {
    let first = args
        .get(1)
        .map(String::as_str)
        .filter(|name| *name != "help" && COMMAND_NAMES.contains(name))?;
    let root = Cli::command();
    let nested = root
        .find_subcommand(first)
        .zip(args.get(2))
        .and_then(|(command, word)| command.find_subcommand(word.as_str()))
        .map(|inner| format!("{first} {}", inner.get_name()));
    Some(nested.unwrap_or_else(|| first.to_string()))
}

/// The definition of `command` ("mcp tools": one word per level).
fn definition_of<'c>(root: &'c Command, command: Option<&str>) -> &'c Command {
    let mut definition = root;
    for word in command.unwrap_or_default().split_whitespace() {
        match definition.find_subcommand(word) {
            Some(inner) => definition = inner,
            None => break,
        }
    }
    definition
}

/// Handles a clap error: help and version are printed and exit 0; anything
/// else becomes one line on stderr and exit 2.
pub fn report_clap_error(error: clap::Error, args: &[String]) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Help goes to stdout with clap's formatting; a closed pipe is not an error.
            let _ = error.print();
            ExitCode::SUCCESS
        }
        _ => {
            let command = command_named(args);
            let command = command.as_deref();
            usage_error(&describe(&error, command), command)
        }
    }
}

/// What is wrong, in a few words.
fn describe(error: &clap::Error, command: Option<&str>) -> String {
    let root = Cli::command();
    let definition = definition_of(&root, command);
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let strings = |kind| match error.get(kind) {
        Some(ContextValue::Strings(list)) => list.clone(),
        _ => Vec::new(),
    };
    match error.kind() {
        ErrorKind::InvalidSubcommand | ErrorKind::UnknownArgument if command.is_none() => {
            let word = text(ContextKind::InvalidSubcommand)
                .or_else(|| text(ContextKind::InvalidArg))
                .unwrap_or_default();
            if word.starts_with('-') {
                format!(
                    "unknown flag {word}{}",
                    did_you_mean(word, ["--help", "--version"])
                )
            } else {
                format!(
                    "unknown command `{word}`{}",
                    did_you_mean(word, COMMAND_NAMES.iter().copied())
                )
            }
        }
        // A command with commands of its own (`mcp`), given a word that is
        // none of them: suggested from its own commands, as the top level is.
        ErrorKind::InvalidSubcommand => {
            let word = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            let names = subcommands_of(definition);
            format!(
                "unknown {} command `{word}`{}",
                command.unwrap_or_default(),
                did_you_mean(word, names.iter().map(String::as_str))
            )
        }
        ErrorKind::UnknownArgument => {
            let word = text(ContextKind::InvalidArg).unwrap_or_default();
            if word.starts_with('-') {
                let flag = word.split('=').next().unwrap_or(word);
                let flags = flags_of(definition);
                format!(
                    "unknown flag {flag}{}",
                    did_you_mean(flag, flags.iter().map(String::as_str))
                )
            } else {
                format!("unexpected extra argument `{word}`")
            }
        }
        ErrorKind::InvalidValue => {
            let flag = flag_name(text(ContextKind::InvalidArg).unwrap_or_default());
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            let valid = strings(ContextKind::ValidValue);
            let choices = or_list(&valid);
            if value.is_empty() {
                if choices.is_empty() {
                    format!("{flag} needs a value")
                } else {
                    format!("{flag} needs a value: {choices}")
                }
            } else if choices.is_empty() {
                format!("{flag} does not take `{value}`")
            } else {
                format!(
                    "{flag} takes {choices}, not `{value}`{}",
                    did_you_mean(value, valid.iter().map(String::as_str))
                )
            }
        }
        ErrorKind::ValueValidation => {
            let flag = flag_name(text(ContextKind::InvalidArg).unwrap_or_default());
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            let why = std::error::Error::source(error)
                .map(|source| format!(": {source}"))
                .unwrap_or_default();
            format!("{flag} got `{value}`{why}")
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = strings(ContextKind::InvalidArg)
                .iter()
                .map(|name| explain_missing(definition, name))
                .collect();
            format!("missing {}", missing.join(" and "))
        }
        // No command at all: clap would print the whole help, as a mistake.
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            if command.is_some() =>
        {
            format!(
                "{} needs a command: {}",
                command.unwrap_or_default(),
                or_list(&subcommands_of(definition))
            )
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!(
                "expected a command: {}",
                or_list(
                    &COMMAND_NAMES[..COMMAND_NAMES.len() - 1]
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                )
            )
        }
        ErrorKind::ArgumentConflict => {
            let flag = flag_name(text(ContextKind::InvalidArg).unwrap_or_default());
            let prior = match error.get(ContextKind::PriorArg) {
                Some(ContextValue::String(prior)) => vec![prior.clone()],
                Some(ContextValue::Strings(list)) => list.clone(),
                _ => Vec::new(),
            };
            let prior: Vec<String> = prior.iter().map(|p| flag_name(p)).collect();
            if prior.contains(&flag) {
                format!("{flag} is given more than once")
            } else if prior.is_empty() {
                format!("{flag} cannot be combined with the other arguments")
            } else {
                format!("{flag} cannot be combined with {}", prior.join(", "))
            }
        }
        // Rare shapes (value counts, `=` rules): clap's own first line says it.
        _ => error
            .render()
            .to_string()
            .lines()
            .next()
            .unwrap_or("bad usage")
            .trim_start_matches("error: ")
            .to_string(),
    }
}

/// `--approve <all|none>` → `--approve`; a positional `<SCENARIO>` → `SCENARIO`.
fn flag_name(rendered: &str) -> String {
    let first = rendered.split_whitespace().next().unwrap_or(rendered);
    first
        .trim_end_matches("...")
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

/// "SCENARIO (a scenario file, or …)": a missing argument with its help.
fn explain_missing(definition: &Command, rendered: &str) -> String {
    let name = flag_name(rendered);
    let help = definition
        .get_arguments()
        .find(|arg| {
            arg.get_long().map(|long| format!("--{long}")) == Some(name.clone())
                || arg
                    .get_value_names()
                    .is_some_and(|names| names.iter().any(|n| n.as_str() == name))
        })
        .and_then(|arg| arg.get_help())
        .map(|help| format!(" ({})", first_letter_lowercase(&help.to_string())))
        .unwrap_or_default();
    format!("{name}{help}")
}

fn first_letter_lowercase(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The `--long` flags a command takes, for "did you mean".
fn flags_of(definition: &Command) -> Vec<String> {
    definition
        .get_arguments()
        .filter_map(|arg| arg.get_long())
        .map(|long| format!("--{long}"))
        .chain(["--help".to_string()])
        .collect()
}

/// The commands a command has (`mcp`: `tools`), for suggestions.
fn subcommands_of(definition: &Command) -> Vec<String> {
    definition
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn message(args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let error = match Cli::try_parse_from(&args) {
            Ok(_) => panic!("{args:?} parsed"),
            Err(error) => error,
        };
        describe(&error, command_named(&args).as_deref())
    }

    #[test]
    fn each_kind_of_mistake_reads_as_one_short_sentence() {
        assert_eq!(
            message(&["agent-loop", "run", "get-time", "--aprove", "all"]),
            "unknown flag --aprove (did you mean `--approve`?)"
        );
        assert_eq!(
            message(&["agent-loop", "rnu", "get-time"]),
            "unknown command `rnu` (did you mean `run`?)"
        );
        assert_eq!(
            message(&["agent-loop", "run", "get-time", "--approve", "maybe"]),
            "--approve takes all or none, not `maybe`"
        );
        assert_eq!(
            message(&["agent-loop", "run", "get-time", "--approve", "nome"]),
            "--approve takes all or none, not `nome` (did you mean `none`?)"
        );
        assert_eq!(
            message(&["agent-loop", "run"]),
            "missing SCENARIO (a scenario file, or the name of a built-in scenario; `agent-loop list` names them)"
        );
        assert_eq!(
            message(&["agent-loop", "serve", "--port", "http", "get-time"]),
            "--port got `http`: expected a port number from 0 to 65535 (0 picks a free one)"
        );
        assert_eq!(
            message(&["agent-loop", "run", "a.json", "b.json"]),
            "unexpected extra argument `b.json`"
        );
        assert_eq!(
            message(&["agent-loop", "fork", "r.jsonl", "--list", "--at", "3"]),
            "--list cannot be combined with --at"
        );
        assert_eq!(
            message(&["agent-loop", "replay"]),
            "missing RECORD.jsonl|FOLDER (recorded runs, as `run --record` writes them, or folders of them: a folder means every *.jsonl file in it, sorted by name)"
        );
        assert_eq!(
            message(&["agent-loop"]),
            "expected a command: run, list, validate, show, replay, fork, wire, check, serve, mcp, schema, export, import or lesson"
        );
    }
}
