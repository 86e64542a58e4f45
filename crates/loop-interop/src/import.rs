//! One reader for every run file a person brings, picked, dropped, pasted
//! or named on the command line: a record or a bare trace (JSON Lines), an
//! OpenTelemetry trace (OTLP/JSON), a provider's request body, or a
//! provider's response (its JSON body, or its SSE stream as saved), read as
//! the answer to the run in view.
//!
//! [`kind_of`] decides what a text is from its shape alone, so the page's
//! "Import scenario" can say what a run file is without reading it, and
//! [`read`] reads it as that. The page and the CLI both call these; each
//! words the result and its errors for where they are shown.

use crate::error::{OtlpError, TranscriptError};
use serde_json::Value;

use crate::otel::{from_otlp, Imported};
use crate::replay::Record;
use crate::transcript::{import_request, import_response, Answered, Transcript};
use crate::wire::Provider;

/// What a run file is, by its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// JSON Lines whose first line is an object: a record, or a bare trace.
    Record,
    /// One JSON object that is an event of a trace (it has `seq`).
    Event,
    /// An OpenTelemetry trace: one object with `resourceSpans`.
    Otlp,
    /// A provider's response body, or a saved SSE stream.
    Response,
    /// A provider's request body: `messages` or `input`, and no `task`.
    Request,
}

impl Kind {
    /// The kind in a few words, to follow "this file is".
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Record => "a run record (JSON Lines, one event per line)",
            Kind::Event => "one event of a run's trace",
            Kind::Otlp => "an OpenTelemetry trace (OTLP/JSON)",
            Kind::Response => "a provider's response body or stream",
            Kind::Request => "a provider's request body",
        }
    }
}

/// Every kind of file `read` takes, in a few words, for a message that
/// says a file is none of them.
pub const KINDS_READ: &str =
    "a run record or trace, an OpenTelemetry trace, a provider's request or response";

/// What `text` is; `None` for a text that is no run file (a scenario, a
/// list, a JSON object of no known shape, prose).
pub fn kind_of(text: &str) -> Option<Kind> {
    let trimmed = text.trim_start();
    if trimmed.starts_with("event:") || trimmed.starts_with("data:") {
        return Some(Kind::Response);
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(document) => kind_of_document(&document),
        // Not one JSON value: JSON Lines when its first line is an object.
        Err(_) => {
            let first = text.lines().find(|line| !line.trim().is_empty())?;
            serde_json::from_str::<Value>(first)
                .is_ok_and(|v| v.is_object())
                .then_some(Kind::Record)
        }
    }
}

fn kind_of_document(document: &Value) -> Option<Kind> {
    let object = document.as_object()?;
    if object.contains_key("resourceSpans") {
        Some(Kind::Otlp)
    } else if object.contains_key("seq") {
        Some(Kind::Event)
    } else if document["type"] == "scenario" {
        // A record's first line, alone.
        Some(Kind::Record)
    } else if Provider::of_response_body(document).is_some() {
        Some(Kind::Response)
    } else if (object.get("messages").is_some_and(Value::is_array) || object.contains_key("input"))
        && !object.contains_key("task")
    {
        Some(Kind::Request)
    } else {
        None
    }
}

/// A run file, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Import {
    Record(Record),
    Otlp(Imported),
    Request(Transcript),
    Response(Answered),
}

impl Import {
    pub fn record(&self) -> &Record {
        match self {
            Import::Record(record) => record,
            Import::Otlp(imported) => &imported.record,
            Import::Request(transcript) => &transcript.record,
            Import::Response(answered) => &answered.record,
        }
    }

    pub fn into_record(self) -> Record {
        match self {
            Import::Record(record) => record,
            Import::Otlp(imported) => imported.record,
            Import::Request(transcript) => transcript.record,
            Import::Response(answered) => answered.record,
        }
    }
}

/// Why a run file could not be read, by what it was read as: the reader's
/// own sentence, which each caller places in its own words.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    Record(loop_core::error::RecordError),
    Otlp(OtlpError),
    Request(TranscriptError),
    Response(TranscriptError),
    /// A JSON object of none of the known shapes: what reading it as a
    /// request body (the likeliest of them) found.
    Unknown(TranscriptError),
    /// A scenario (a `task` and a `model`): something to run, not a run.
    Scenario,
}

impl ImportError {
    /// What the file was read as.
    pub fn kind(&self) -> Kind {
        match self {
            ImportError::Record(_) => Kind::Record,
            ImportError::Otlp(_) => Kind::Otlp,
            ImportError::Request(_) | ImportError::Unknown(_) | ImportError::Scenario => {
                Kind::Request
            }
            ImportError::Response(_) => Kind::Response,
        }
    }

    /// The reader's sentence, without the kind.
    pub fn why(&self) -> String {
        match self {
            ImportError::Record(error) => error.to_string(),
            ImportError::Otlp(error) => error.to_string(),
            ImportError::Request(error)
            | ImportError::Response(error)
            | ImportError::Unknown(error) => error.to_string(),
            ImportError::Scenario => {
                "it is a scenario (a task and a model): something to run, not a run".to_string()
            }
        }
    }
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why())
    }
}

impl std::error::Error for ImportError {}

/// Reads `text` as the run file it is ([`kind_of`]). A response is the
/// answer to the request `in_view` ends on; with no run in view (the CLI),
/// it is refused saying so. A JSON object of no known shape is read as a
/// request body, whose reader says what one holds.
pub fn read(text: &str, in_view: Option<&Record>) -> Result<Import, ImportError> {
    let object = serde_json::from_str::<Value>(text.trim_start())
        .ok()
        .filter(Value::is_object);
    match (kind_of(text), object) {
        (Some(Kind::Response), _) => {
            let Some(in_view) = in_view else {
                return Err(ImportError::Response(TranscriptError::NoRunInView));
            };
            import_response(in_view, text)
                .map(Import::Response)
                .map_err(ImportError::Response)
        }
        (Some(Kind::Otlp), Some(document)) => from_otlp(&document)
            .map(Import::Otlp)
            .map_err(ImportError::Otlp),
        (Some(Kind::Request), Some(document)) => import_request(&document)
            .map(Import::Request)
            .map_err(ImportError::Request),
        (None, Some(document)) if is_scenario(&document) => Err(ImportError::Scenario),
        (None, Some(document)) => import_request(&document)
            .map(Import::Request)
            .map_err(ImportError::Unknown),
        _ => Record::from_jsonl(text)
            .map(Import::Record)
            .map_err(ImportError::Record),
    }
}

/// A scenario's two required fields: the commonest wrong file in "Import
/// run", said as what it is rather than as a request body that is not one.
fn is_scenario(document: &Value) -> bool {
    document.get("task").is_some_and(Value::is_string)
        && document.get("model").is_some_and(Value::is_object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_is_refused_as_what_it_is() {
        let scenario = loop_core::library::OPENING_JSON;
        let error = read(scenario, None).map(|_| ()).unwrap_err();
        assert!(matches!(error, ImportError::Scenario), "{error:?}");
        assert!(error.to_string().contains("it is a scenario"), "{error}");
    }

    #[test]
    fn each_run_file_is_known_by_its_shape() {
        let anthropic_request =
            r#"{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}"#;
        let cases = [
            (
                "{\"type\":\"scenario\",\"scenario\":{}}\n{\"seq\":0}\n",
                Some(Kind::Record),
            ),
            (r#"{"type":"scenario","scenario":{}}"#, Some(Kind::Record)),
            (
                r#"{"seq":0,"t_ms":0,"type":"run_started"}"#,
                Some(Kind::Event),
            ),
            (r#"{"resourceSpans":[]}"#, Some(Kind::Otlp)),
            (
                r#"{"type":"message","role":"assistant","content":[]}"#,
                Some(Kind::Response),
            ),
            (
                r#"{"object":"chat.completion","choices":[]}"#,
                Some(Kind::Response),
            ),
            (r#"{"object":"response","output":[]}"#, Some(Kind::Response)),
            ("event: message_start\ndata: {}\n", Some(Kind::Response)),
            ("data: {\"choices\":[]}\n", Some(Kind::Response)),
            (anthropic_request, Some(Kind::Request)),
            (r#"{"model":"gpt-5","input":"hi"}"#, Some(Kind::Request)),
            // A scenario has a task; one whose tools take `input` is still a scenario.
            (r#"{"task":"t","input":"x","messages":[]}"#, None),
            (r#"{"name":"x"}"#, None),
            ("[1, 2]", None),
            ("hello", None),
        ];
        for (text, kind) in cases {
            assert_eq!(kind_of(text), kind, "{text}");
        }
    }

    #[test]
    fn a_response_without_a_run_to_answer_is_refused_saying_what_to_do() {
        let error = read(r#"{"type":"message","content":[]}"#, None).unwrap_err();
        assert_eq!(error.kind(), Kind::Response);
        assert!(
            error.why().contains("import the request body first"),
            "{error}"
        );
    }

    #[test]
    fn an_object_of_no_known_shape_is_told_what_a_request_body_holds() {
        let error = read(r#"{"name":"x"}"#, None).unwrap_err();
        assert!(matches!(error, ImportError::Unknown(_)), "{error:?}");
        assert_eq!(error.kind(), Kind::Request);
        assert!(error.why().contains("\"messages\""), "{error}");
        let error = read(r#"{"resourceSpans":[]}"#, None).unwrap_err();
        assert_eq!(error.kind(), Kind::Otlp);
        assert!(error.why().starts_with("no spans found"), "{error}");
        let error = read("not json\n", None).unwrap_err();
        assert_eq!(error.kind(), Kind::Record);
        assert!(error.why().starts_with("line 1: not valid JSON"), "{error}");
    }
}
