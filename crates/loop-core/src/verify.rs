//! Checks on the final answer. A rejection names the check that failed.
//!
//! `tool_called` means the tool actually ran and returned a non-error result in
//! this run — asking for it is not enough (seed 000: "verification cannot undo
//! a write", so the check looks at what happened, not at what was said).
//! `tool_called_with` also asks with which arguments it ran: those a person
//! edited at an approval, not those the model asked for, so an answer that
//! names the order the model wanted refunded does not pass when another was.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::quote::quoted;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    Contains(String),
    NotContains(String),
    Regex(String),
    ToolCalled(String),
    ToolCalledWith(CalledWith),
    ToolNotCalled(String),
}

/// A tool, and argument values at least one of its successful runs had.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalledWith {
    pub tool: String,
    /// Each named argument must equal this value; others may be anything.
    pub args: Map<String, Value>,
}

impl CalledWith {
    fn matches(&self, ran_with: &Value) -> bool {
        self.args
            .iter()
            .all(|(name, wanted)| ran_with.get(name) == Some(wanted))
    }
}

/// What ran successfully in a run, as the checks ask it: each tool's name,
/// and the arguments of its runs for the tools a `tool_called_with` names
/// (only those, so a long run keeps no arguments nobody checks).
#[derive(Clone, Debug, Default)]
pub struct RanOk {
    tools: HashSet<String>,
    args: HashMap<String, Vec<Value>>,
}

impl RanOk {
    /// `tool` ran and returned a non-error result, with `args` (as it ran).
    pub fn record(&mut self, verifier: &Verifier, tool: &str, args: &Value) {
        if !self.tools.contains(tool) {
            self.tools.insert(tool.to_string());
        }
        if verifier.wants_args_of(tool) {
            self.args
                .entry(tool.to_string())
                .or_default()
                .push(args.clone());
        }
    }

    fn ran(&self, tool: &str) -> bool {
        self.tools.contains(tool)
    }

    fn runs_of(&self, tool: &str) -> &[Value] {
        self.args.get(tool).map_or(&[], Vec::as_slice)
    }
}

impl Check {
    /// A short rendering for reasons: `contains "ord_"`.
    pub fn describe(&self) -> String {
        match self {
            Check::Contains(s) => format!("contains {}", quoted(s)),
            Check::NotContains(s) => format!("not_contains {}", quoted(s)),
            Check::Regex(s) => format!("regex {}", quoted(s)),
            Check::ToolCalled(s) => format!("tool_called {}", quoted(s)),
            Check::ToolCalledWith(c) => {
                format!(
                    "tool_called_with {} {}",
                    quoted(&c.tool),
                    Value::Object(c.args.clone())
                )
            }
            Check::ToolNotCalled(s) => format!("tool_not_called {}", quoted(s)),
        }
    }
}

/// Compiled checks; regexes are compiled once when the scenario loads.
#[derive(Clone, Debug, Default)]
pub struct Verifier {
    checks: Vec<(Check, Option<regex_lite::Regex>)>,
}

impl Verifier {
    /// Errors name the check (by index) whose regex does not compile.
    pub fn new(checks: Vec<Check>) -> Result<Verifier, Vec<(usize, String)>> {
        let mut compiled = Vec::with_capacity(checks.len());
        let mut errors = Vec::new();
        for (i, check) in checks.into_iter().enumerate() {
            let regex = match &check {
                Check::Regex(pattern) => match regex_lite::Regex::new(pattern) {
                    Ok(re) => Some(re),
                    Err(e) => {
                        errors.push((i, format!("invalid regex {}: {e}", quoted(pattern))));
                        None
                    }
                },
                _ => None,
            };
            compiled.push((check, regex));
        }
        if errors.is_empty() {
            Ok(Verifier { checks: compiled })
        } else {
            Err(errors)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    /// Whether a check asks with which arguments `tool` ran.
    pub fn wants_args_of(&self, tool: &str) -> bool {
        self.checks
            .iter()
            .any(|(check, _)| matches!(check, Check::ToolCalledWith(c) if c.tool == tool))
    }

    /// `Err` names the first failed check and why.
    pub fn verify(&self, answer: &str, ran_ok: &RanOk) -> Result<(), String> {
        for (i, (check, regex)) in self.checks.iter().enumerate() {
            let failure = match check {
                Check::Contains(s) => (!answer.contains(s.as_str()))
                    .then(|| "the answer does not contain it".to_string()),
                Check::NotContains(s) => answer
                    .contains(s.as_str())
                    .then(|| "the answer contains it".to_string()),
                Check::Regex(_) => match regex {
                    Some(re) if re.is_match(answer) => None,
                    _ => Some("the answer does not match".to_string()),
                },
                Check::ToolCalled(tool) => (!ran_ok.ran(tool))
                    .then(|| format!("{tool} never ran successfully in this run")),
                Check::ToolCalledWith(wanted) => called_with_failure(wanted, ran_ok),
                Check::ToolNotCalled(tool) => {
                    ran_ok.ran(tool).then(|| format!("{tool} ran in this run"))
                }
            };
            if let Some(why) = failure {
                return Err(format!(
                    "verifier check {} ({}) failed: {why}",
                    i + 1,
                    check.describe()
                ));
            }
        }
        Ok(())
    }
}

/// Why no successful run of the tool had the wanted arguments, naming what
/// its last run had instead; `None` when one had them.
fn called_with_failure(wanted: &CalledWith, ran_ok: &RanOk) -> Option<String> {
    let tool = &wanted.tool;
    let runs = ran_ok.runs_of(tool);
    if runs.iter().any(|args| wanted.matches(args)) {
        return None;
    }
    let Some(last) = runs.last() else {
        return Some(format!("{tool} never ran successfully in this run"));
    };
    let differs = |(name, wanted): (&String, &Value)| match last.get(name) {
        Some(had) if had == wanted => None,
        Some(had) => Some(format!("{name} {had} (wanted {wanted})")),
        None => Some(format!("no {name} (wanted {wanted})")),
    };
    let differences: Vec<String> = wanted.args.iter().filter_map(differs).collect();
    Some(format!(
        "{tool} ran, but its last successful run had {}",
        differences.join(", ")
    ))
}
