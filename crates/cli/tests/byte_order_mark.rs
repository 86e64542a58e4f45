//! A file saved with a UTF-8 byte-order mark (as Notepad and some other
//! Windows editors save JSON) reads as the same file without it, whatever
//! the command: the mark says how the file is encoded, it is not data.

mod process;
use process::{agent_loop, stderr, stdout};

const MARK: &str = "\u{feff}";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Writes `text` to a new file named `name`, the mark first.
fn with_mark(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, format!("{MARK}{text}")).unwrap();
    path.to_str().unwrap().to_owned()
}

/// A file of the run's record (JSONL), as `run --record` writes it.
fn recorded(name: &str, scenario: &str) -> String {
    let path = temp(name);
    let run = agent_loop(&["run", scenario, "--record", path.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    std::fs::read_to_string(&path).unwrap()
}

fn scenario_text(id: &str) -> String {
    harness::library::find(id).unwrap().json().to_owned()
}

#[test]
fn a_scenario_with_a_mark_validates_and_runs() {
    let file = with_mark("get-time.json", &scenario_text("get-time"));
    let validated = agent_loop(&["validate", &file]);
    assert_eq!(validated.status.code(), Some(0), "{}", stderr(&validated));
    let ran = agent_loop(&["run", &file]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    assert!(stdout(&ran).contains("done"), "{}", stdout(&ran));
}

#[test]
fn a_record_with_a_mark_is_checked_shown_and_replayed() {
    let file = with_mark("get-time.jsonl", &recorded("plain.jsonl", "get-time"));
    let checked = agent_loop(&["check", &file]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(
        stdout(&checked).starts_with(&format!("{file}: a run record;")),
        "{}",
        stdout(&checked)
    );
    let shown = agent_loop(&["show", &file]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    let assertions = with_mark("assert.json", r#"{"status": "done"}"#);
    let replayed = agent_loop(&["replay", &file, "--assert", &assertions]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert!(
        stdout(&replayed).contains("✓ status: ended done"),
        "{}",
        stdout(&replayed)
    );
}

#[test]
fn a_request_body_with_a_mark_is_checked_and_imported() {
    let file = with_mark(
        "body.json",
        r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
    );
    let checked = agent_loop(&["check", &file]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(
        stdout(&checked).contains("request body ("),
        "{}",
        stdout(&checked)
    );
    let record = temp("imported.jsonl");
    let imported = agent_loop(&["import", &file, "--out", record.to_str().unwrap()]);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
}

#[test]
fn an_opentelemetry_trace_with_a_mark_is_imported() {
    let record = temp("for-trace.jsonl");
    std::fs::write(&record, recorded("trace-run.jsonl", "get-time")).unwrap();
    let trace = temp("trace.otlp.json");
    let exported = agent_loop(&[
        "export",
        "--otel",
        record.to_str().unwrap(),
        "--out",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(exported.status.code(), Some(0), "{}", stderr(&exported));
    let file = with_mark("trace.json", &std::fs::read_to_string(&trace).unwrap());
    let back = temp("back.jsonl");
    let imported = agent_loop(&["import", &file, "--out", back.to_str().unwrap()]);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    let shown = agent_loop(&["show", back.to_str().unwrap()]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
}

#[test]
fn a_lesson_with_a_mark_is_checked() {
    let shown = agent_loop(&["lesson", "show", "turn-limit"]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    let file = with_mark("lesson.json", &stdout(&shown));
    let checked = agent_loop(&["lesson", "check", &file]);
    // The lesson as shown is unsolved: checked (exit 3), not refused (2).
    assert_eq!(checked.status.code(), Some(3), "{}", stderr(&checked));
    assert!(stderr(&checked).is_empty(), "{}", stderr(&checked));
}
