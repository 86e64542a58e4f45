//! Checking a parsed scenario in one pass: every schema, range and semantic
//! problem at once, each once, in the order of the file.
//!
//! The passes (the published schema; numbers against their Rust types, in
//! `parts`; the checks a schema cannot express, in `Scenario::
//! semantic_problems`) all run, whatever the earlier ones found: a person
//! fixing a file should not meet a second list after fixing the first. Where
//! two passes would say the same thing about the same value, the earlier one
//! speaks.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use tool_schema::ValidationError;

use super::bounds;
use super::numbers::{Spelling, Spellings};
use super::parts::{self, Finding};
use super::{dotted_path, scenario_schema, Problem, Scenario};
use crate::suggest::did_you_mean;

/// How many of an object's fields an "unknown field" message lists when no
/// field is close to the misspelt one.
const LISTED_FIELDS: usize = 6;

pub(super) fn check(mut value: Value, spellings: &Spellings) -> Result<Scenario, Vec<Problem>> {
    let schema = scenario_schema().map_err(|p| vec![p])?;
    let errors = schema.validate(&value).err().unwrap_or_default();
    let mut findings: Vec<Finding> = errors
        .iter()
        .map(|e| schema_finding(e, &value, spellings))
        .collect();
    let reported: Vec<String> = findings.iter().map(|f| f.pointer.clone()).collect();
    // What reading sets aside: each reported value, and for a missing field
    // the object that lacks it.
    let set_aside: Vec<String> = errors
        .iter()
        .zip(&reported)
        .map(|(e, pointer)| match e.missing {
            Some(_) => e.instance_path.clone(),
            None => pointer.clone(),
        })
        .collect();
    // Bounds the schema also states, in case a value slipped past it (a
    // stand-in for a number past a float's range is judged here too).
    for finding in bounds::check(&value, spellings) {
        if !findings.iter().any(|f| f.pointer == finding.pointer) {
            findings.push(finding);
        }
    }
    let reported: Vec<String> = findings.iter().map(|f| f.pointer.clone()).collect();
    let reading = parts::read(&mut value, &set_aside, spellings);
    for finding in reading.findings {
        if !reported.contains(&finding.pointer) {
            findings.push(finding);
        }
    }
    // Numbers past a float's range that no check above spoke of (in a
    // float field, or in a tool's fixed result).
    for overflow in spellings.overflowing() {
        if !findings.iter().any(|f| f.pointer == overflow.pointer) {
            findings.push(too_large_for_a_number(overflow));
        }
    }

    let mut problems: Vec<Problem> = findings
        .iter()
        .map(|f| Problem {
            path: dotted_path(&f.pointer),
            message: f.message.clone(),
        })
        .collect();
    let replaced: Vec<String> = reading.replaced.iter().map(|p| dotted_path(p)).collect();
    let clean = problems.is_empty() && replaced.is_empty();
    let scenario = if clean {
        // Exactly what serde reads, now that every part is known to fit.
        match Scenario::deserialize(&value) {
            Ok(scenario) => scenario,
            Err(_) => return Err(vec![Problem {
                path: String::new(),
                message: "internal error: the scenario passed every check but could not be read; please report this file".to_string(),
            }]),
        }
    } else {
        reading.scenario
    };
    for semantic in scenario.semantic_problems() {
        let said = problems.iter().any(|p| p.path == semantic.path);
        let in_stand_in = replaced.iter().any(|r| is_within(&semantic.path, r));
        if !said && !in_stand_in {
            problems.push(semantic);
        }
    }
    if problems.is_empty() {
        return Ok(scenario);
    }
    // Reading changed no structure (only `10.0` to `10`), so the places are
    // the file's.
    in_file_order(&mut problems, &value);
    Err(problems)
}

/// A schema error as a finding: at the field itself for a missing or an
/// unexpected one, and with numbers as they were written.
fn schema_finding(error: &ValidationError, value: &Value, spellings: &Spellings) -> Finding {
    if let Some(missing) = &error.missing {
        let message = match error.keyword {
            "required" => "this required field is missing".to_string(),
            _ => error.message.clone(),
        };
        return Finding {
            pointer: member(&error.instance_path, missing),
            message,
        };
    }
    if let Some(unexpected) = &error.unexpected {
        let owner = dotted_path(&error.instance_path);
        let owner = if owner.is_empty() {
            "the scenario".to_string()
        } else {
            owner
        };
        let declared = || unexpected.declared.iter().map(String::as_str);
        let suggestion = did_you_mean(&unexpected.name, declared());
        let message = if !suggestion.is_empty() || unexpected.declared.is_empty() {
            format!("not a field of {owner}{suggestion}")
        } else {
            let listed: Vec<&str> = declared().take(LISTED_FIELDS).collect();
            let more = unexpected.declared.len() - listed.len();
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!(
                "not a field of {owner}; its fields are {}{tail}",
                listed.join(", ")
            )
        };
        return Finding {
            pointer: member(&error.instance_path, &unexpected.name),
            message,
        };
    }
    if error.keyword == "maximum" {
        if let Some(message) = bounds::too_large(&error.instance_path, value, spellings) {
            return Finding {
                pointer: error.instance_path.clone(),
                message,
            };
        }
    }
    let message = spellings.respell(&error.instance_path, error.message.clone(), value);
    Finding {
        message: format!("{message}{}", nearest_allowed(error, value)),
        pointer: error.instance_path.clone(),
    }
}

/// " (did you mean `scripted`?)" when a word that is not one of the allowed
/// words (`enum`, `const`) is close to one of them.
fn nearest_allowed(error: &ValidationError, value: &Value) -> String {
    let (Some(allowed), Some(Value::String(written))) =
        (&error.allowed, value.pointer(&error.instance_path))
    else {
        return String::new();
    };
    did_you_mean(written, allowed.iter().filter_map(Value::as_str))
}

fn too_large_for_a_number(overflow: &Spelling) -> Finding {
    let message = if overflow.text.starts_with('-') {
        format!(
            "{} is too small to be a number; the smallest is about -1.8e308",
            overflow.text
        )
    } else {
        format!(
            "{} is too large to be a number; the largest is about 1.8e308",
            overflow.text
        )
    };
    Finding {
        pointer: overflow.pointer.clone(),
        message,
    }
}

/// The pointer of member `name` of the object at `object`.
fn member(object: &str, name: &str) -> String {
    format!("{object}/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// Whether dotted `path` is `part` or inside it.
fn is_within(path: &str, part: &str) -> bool {
    part.is_empty()
        || path == part
        || path
            .strip_prefix(part)
            .is_some_and(|rest| rest.starts_with(['.', '[']))
}

/// Sorts problems by where their path first appears in the file (a path
/// the file does not have, by its nearest ancestor that it has), keeping
/// the order of problems at the same place.
fn in_file_order(problems: &mut [Problem], value: &Value) {
    if problems.len() < 2 {
        return;
    }
    let mut places: HashMap<String, usize> = HashMap::new();
    let mut pending = vec![(String::new(), value)];
    while let Some((pointer, node)) = pending.pop() {
        let next = places.len();
        places.entry(dotted_path(&pointer)).or_insert(next);
        // Pushed in reverse so that they pop in file order.
        match node {
            Value::Object(members) => {
                for (key, member) in members.iter().rev() {
                    let key = key.replace('~', "~0").replace('/', "~1");
                    pending.push((format!("{pointer}/{key}"), member));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    pending.push((format!("{pointer}/{i}"), item));
                }
            }
            _ => {}
        }
    }
    let place = |path: &str| {
        let mut path = path;
        loop {
            if let Some(&at) = places.get(path) {
                return at;
            }
            match path.rfind(['.', '[']) {
                Some(cut) => path = &path[..cut],
                None => return 0,
            }
        }
    };
    problems.sort_by_cached_key(|p| place(&p.path));
}

#[cfg(test)]
mod tests {
    use super::is_within;

    #[test]
    fn within_means_the_part_or_below() {
        assert!(is_within("tools[1]", "tools[1]"));
        assert!(is_within("tools[1].js", "tools[1]"));
        assert!(is_within("tools[1][0]", "tools[1]"));
        assert!(!is_within("tools[10]", "tools[1]"));
        assert!(!is_within("tools_x", "tools"));
        assert!(is_within("anything", ""));
    }
}
