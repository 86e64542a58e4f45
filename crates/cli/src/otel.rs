//! `agent-loop export --otel` and `agent-loop import`: a recorded run as an
//! OpenTelemetry GenAI trace (OTLP/JSON); such a trace, or a provider's
//! request body, back as a record (read by `harness::import`, the page's
//! reader too).

use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use harness::import::{Import, ImportError, KINDS_READ};
use harness::otel::to_otlp;
use harness::quote::{one_line, plain};
use harness::transcript::Transcript;

use crate::args::{ExportArgs, ImportArgs};
use crate::record::read_record_file;

pub fn export_command(args: &ExportArgs) -> ExitCode {
    let record = match read_record_file(&args.record) {
        Ok(record) => record,
        Err(error) => {
            eprintln!("agent-loop: {}", error.with_path(&args.record));
            return ExitCode::from(2);
        }
    };
    // The trace keeps times relative to the run's start; OTLP wants them absolute.
    let started = args.started_at_ms.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    });
    let document = to_otlp(&record, started);
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    write_out(args.out.as_deref(), &text)
}

pub fn import_command(args: &ImportArgs) -> ExitCode {
    let shown = args.trace.display();
    let text = match crate::source::read_text(&args.trace) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("agent-loop: {shown}: {}", crate::io_problem(&err));
            return ExitCode::from(2);
        }
    };
    // The page's "Import run…" reads with the same reader; there a
    // response answers the run in view, here there is none.
    let imported = match harness::import::read(&text, None) {
        Ok(imported) => imported,
        Err(ImportError::Request(why)) => {
            eprintln!("agent-loop: {shown}: not a request body it can read: {why}");
            return ExitCode::from(2);
        }
        Err(ImportError::Scenario) => {
            eprintln!(
                "agent-loop: {shown}: a scenario, not a run: run it with `agent-loop run {shown}`"
            );
            return ExitCode::from(2);
        }
        Err(ImportError::Unknown(why)) => {
            eprintln!("agent-loop: {shown}: none of the files it reads ({KINDS_READ}); as a request body, {why}");
            return ExitCode::from(2);
        }
        Err(why) => {
            eprintln!("agent-loop: {shown}: {why}");
            return ExitCode::from(2);
        }
    };
    let imported = match imported {
        Import::Request(transcript) => {
            return import_request_body(&args.trace, transcript, args.out.as_deref())
        }
        Import::Otlp(imported) => imported,
        other => {
            let record = other.into_record();
            eprintln!(
                "read {} events from {shown} (a run record, written out as it is)",
                record.events.len()
            );
            return write_out(args.out.as_deref(), &record.to_jsonl());
        }
    };
    let events = imported.record.events.len();
    let from = if imported.ours {
        "an agent-loop export, read back event for event"
    } else {
        imported.conventions
    };
    eprintln!("read {events} events from {shown} ({from})");
    for note in &imported.notes {
        eprintln!("note: {}", plain(note));
    }
    write_out(args.out.as_deref(), &imported.record.to_jsonl())
}

/// A provider's request body: the conversation as a record, what it lost,
/// and the provider's verdict on the body as pasted. Exit 3 when the
/// provider would refuse it (the record is written all the same).
fn import_request_body(path: &Path, transcript: Transcript, out: Option<&Path>) -> ExitCode {
    let shown = path.display();
    let label = transcript.provider.label();
    eprintln!(
        "read {shown} as an {label} request ({}): {} events",
        transcript.detected_by,
        transcript.record.events.len()
    );
    for lost in &transcript.lost {
        eprintln!("not kept: {}", plain(lost));
    }
    for name in &transcript.undeclared {
        let name = one_line(name);
        eprintln!("note: {name} is called in the conversation but the body does not declare it; the scenario answers its calls from the recorded results and does not offer it to the model");
    }
    if transcript.refused.is_empty() {
        eprintln!("✓ {label} would accept this body");
    }
    for violation in &transcript.refused {
        eprintln!(
            "✗ {label} would refuse this body: HTTP 400 {}",
            plain(&violation.message)
        );
        eprintln!(
            "  at {} ({})",
            plain(&violation.path),
            plain(&violation.place.to_string())
        );
    }
    let code = write_out(out, &transcript.record.to_jsonl());
    if code == ExitCode::SUCCESS && !transcript.refused.is_empty() {
        ExitCode::from(3)
    } else {
        code
    }
}

fn write_out(out: Option<&Path>, text: &str) -> ExitCode {
    match out {
        None => {
            println!("{}", text.trim_end());
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!(
                    "agent-loop: cannot write {}: {}",
                    path.display(),
                    crate::io_problem(&err)
                );
                ExitCode::from(2)
            }
        },
    }
}
