//! What a file picked with "Import scenario" holds, before it may replace
//! the editor's text: a scenario goes in; a run record, an OpenTelemetry
//! trace or a provider's request or response body is sent to "Import run…"
//! (where the page reads those); anything else is refused with why, and the
//! editor keeps what it had.
//!
//! Pure and tested natively; the page calls it through a split point
//! (`lazy::scenario_file`), so the first paint does not carry it.

use serde_json::Value;

/// Where a file that is a run belongs.
const TO_IMPORT_RUN: &str =
    "open it with \u{201c}Import run\u{2026}\u{201d} (in Run files above the Trace, or in Import/Export). The editor is unchanged.";

/// What the file is, when it is not a scenario to load.
#[derive(Clone, Debug, PartialEq)]
pub enum NotAScenario {
    /// It is a run (a record, a trace, a provider body): "Import run…" reads it.
    Run(String),
    /// It is not something the playground reads as a scenario, with why.
    Refused(String),
}

impl NotAScenario {
    /// The sentence shown where the editor says what arrived.
    pub fn message(&self, file_name: &str) -> String {
        match self {
            NotAScenario::Run(what) => {
                format!("{file_name} is {what}, not a scenario: {TO_IMPORT_RUN}")
            }
            NotAScenario::Refused(why) => {
                format!("{file_name} was not imported: {why}. The editor is unchanged.")
            }
        }
    }
}

/// Tells a scenario file from the run files people pick by mistake. `Ok`
/// means a JSON object that is none of those: the scenario check decides
/// the rest.
pub fn classify(text: &str) -> Result<(), NotAScenario> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotAScenario::Refused("the file is empty".into()));
    }
    let document: Value = match serde_json::from_str(trimmed) {
        Ok(document) => document,
        Err(whole) => {
            if is_json_lines(trimmed) {
                return Err(NotAScenario::Run(
                    harness::import::Kind::Record.describe().into(),
                ));
            }
            // Said as the JSON box says it: the place in characters, the
            // reason in plain words, not the parser's.
            return Err(NotAScenario::Refused(format!(
                "it is {}",
                harness::scenario::syntax::describe(&whole, trimmed)
            )));
        }
    };
    if !document.is_object() {
        return Err(NotAScenario::Refused(format!(
            "a scenario is a JSON object, and this file holds {}",
            json_kind(&document)
        )));
    }
    // A run file of any other kind, known the way "Import run…" knows it.
    if let Some(kind) = harness::import::kind_of(trimmed) {
        return Err(NotAScenario::Run(kind.describe().into()));
    }
    Ok(())
}

/// More than one line, each a JSON object: a run record or a bare trace.
fn is_json_lines(text: &str) -> bool {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let first_two: Vec<&str> = lines.by_ref().take(2).collect();
    first_two.len() == 2
        && first_two
            .iter()
            .all(|line| serde_json::from_str::<Value>(line).is_ok_and(|v| v.is_object()))
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> String {
        classify(text).unwrap_err().message("x.json")
    }

    #[test]
    fn run_files_are_sent_to_import_run_and_the_editor_is_unchanged() {
        let record = "{\"scenario\":{}}\n{\"seq\":0,\"t_ms\":0,\"type\":\"run_started\"}\n";
        assert_eq!(
            said(record),
            "x.json is a run record (JSON Lines, one event per line), not a scenario: open it with \u{201c}Import run\u{2026}\u{201d} (in Run files above the Trace, or in Import/Export). The editor is unchanged."
        );
        let anthropic = r#"{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}"#;
        assert!(said(anthropic).starts_with("x.json is a provider's request body, not a scenario"));
        let responses = r#"{"model":"gpt-5","input":"hi"}"#;
        assert!(said(responses).contains("a provider's request body"));
        let otel = r#"{"resourceSpans":[]}"#;
        assert!(said(otel).contains("an OpenTelemetry trace"));
        let answer = r#"{"type":"message","role":"assistant","content":[]}"#;
        assert!(said(answer).contains("a provider's response body"));
    }

    #[test]
    fn what_is_not_a_scenario_is_refused_saying_why_once() {
        assert_eq!(
            said("[1, 2]"),
            "x.json was not imported: a scenario is a JSON object, and this file holds a list. The editor is unchanged."
        );
        // The place is named once (it was "line 1 column 2 (line 1, column 2)").
        assert_eq!(
            said("{\"name\": }"),
            "x.json was not imported: it is not valid JSON at line 1, column 10: expected a value: text in double quotes, a number, `true`, `false`, `null`, an object or an array. The editor is unchanged."
        );
        assert_eq!(
            said("  \n"),
            "x.json was not imported: the file is empty. The editor is unchanged."
        );
    }

    #[test]
    fn a_scenario_shaped_object_goes_on_to_the_scenario_check() {
        let scenario = harness::library::find("get-time").unwrap().json();
        assert_eq!(classify(scenario), Ok(()));
        assert_eq!(classify(r#"{"name":"mine"}"#), Ok(()));
    }
}
