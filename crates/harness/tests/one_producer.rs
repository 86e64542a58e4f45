//! ARCHITECTURE.md's invariant "one producer": every trace, run or read back
//! from a transcript or an OpenTelemetry trace, is written through
//! `harness::event::writer::TraceWriter`, which numbers the events and counts
//! the calls. This test fails when code anywhere in the workspace makes a
//! `RunEvent` itself (a struct expression naming its `seq`), outside that
//! module and outside tests.

use std::fs;
use std::path::{Path, PathBuf};

const WRITER: &str = "crates/loop-core/src/event/writer.rs";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code before its test module (`#[cfg(test)]` comes last in
/// this project's files).
fn code_of(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

/// Where `code` makes a `RunEvent`: a `RunEvent {` whose braces name `seq`
/// (a pattern that reads an event names `kind` and `..`, not `seq`).
fn constructions(code: &str) -> Vec<usize> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("RunEvent {") {
        let before = &code[..at];
        if before.ends_with("struct ") {
            continue;
        }
        let body = &code[at..];
        let end = body.find('}').unwrap_or(body.len());
        let inside = &body[..end];
        if inside
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "seq")
        {
            found.push(before.lines().count());
        }
    }
    found
}

#[test]
fn only_the_trace_writer_makes_run_events() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        root.join(WRITER).is_file(),
        "{WRITER} moved: point WRITER at the trace writer"
    );
    let mut files = Vec::new();
    // Every crate's source, so a crate added later is scanned too.
    for entry in fs::read_dir(root.join("crates")).unwrap().flatten() {
        rust_files(&entry.path().join("src"), &mut files);
    }
    rust_files(&root.join("src"), &mut files);
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    let mut offenders = Vec::new();
    for file in &files {
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        // A test module kept in a file of its own (`model/tests.rs`) is
        // tests, as a `#[cfg(test)]` module at the end of a file is.
        if shown == WRITER || shown.ends_with("/tests.rs") {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        for line in constructions(code_of(&text)) {
            offenders.push(format!("{shown}:{line}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "these make a RunEvent themselves; write it through TraceWriter instead: {offenders:?}"
    );
}

#[test]
fn the_scan_sees_a_construction_and_not_a_pattern() {
    assert_eq!(
        constructions("let e = RunEvent { seq: 0, t_ms: 0, kind };"),
        [1]
    );
    assert_eq!(
        constructions("\n\nevents.push(RunEvent { seq, t_ms, kind });"),
        [3]
    );
    assert!(constructions("Some(RunEvent { kind: EventKind::RunFinished(_), .. })").is_empty());
    assert!(constructions("pub struct RunEvent {\n    pub seq: u64,\n}").is_empty());
}
