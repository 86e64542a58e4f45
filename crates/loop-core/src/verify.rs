//! Checks on the final answer. A rejection names the check that failed.
//!
//! `tool_called` means the tool actually ran and returned a non-error result in
//! this run — asking for it is not enough (seed 000: "verification cannot undo
//! a write", so the check looks at what happened, not at what was said).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    Contains(String),
    NotContains(String),
    Regex(String),
    ToolCalled(String),
    ToolNotCalled(String),
}

impl Check {
    /// A short rendering for reasons: `contains "ord_"`.
    pub fn describe(&self) -> String {
        match self {
            Check::Contains(s) => format!("contains {s:?}"),
            Check::NotContains(s) => format!("not_contains {s:?}"),
            Check::Regex(s) => format!("regex {s:?}"),
            Check::ToolCalled(s) => format!("tool_called {s:?}"),
            Check::ToolNotCalled(s) => format!("tool_not_called {s:?}"),
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
                        errors.push((i, format!("invalid regex {pattern:?}: {e}")));
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

    /// `Err` names the first failed check and why.
    pub fn verify(&self, answer: &str, tools_run_ok: &HashSet<String>) -> Result<(), String> {
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
                Check::ToolCalled(tool) => (!tools_run_ok.contains(tool))
                    .then(|| format!("{tool} never ran successfully in this run")),
                Check::ToolNotCalled(tool) => tools_run_ok
                    .contains(tool)
                    .then(|| format!("{tool} ran in this run")),
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
