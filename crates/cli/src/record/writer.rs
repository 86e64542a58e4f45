//! `run --record FILE` writes the record as the run goes: the scenario line
//! first, then each event the moment it happens, a whole line in one write.
//! The scenario line goes out with the first event, in the same write, so a
//! file that holds anything holds a record that reads.
//! A run killed at any moment leaves every event up to then in the file;
//! at worst its last line is cut mid-way, which `cut_off` reads past.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use harness::event::RunEvent;
use harness::replay::Record;
use harness::scenario::Scenario;

pub struct RecordWriter {
    file: File,
    path: PathBuf,
    /// The scenario line, until the first event goes out with it.
    header: Option<String>,
    /// The first write that failed; the run goes on, and its end reports it.
    failed: Option<std::io::Error>,
}

impl RecordWriter {
    /// Creates (or empties) `path` before the run starts: a file that
    /// cannot be written is said before any work.
    pub fn create(path: &Path, scenario: &Scenario) -> Result<RecordWriter, ExitCode> {
        let header = Record {
            scenario: Some(scenario.clone()),
            events: Vec::new(),
            forked_at: None,
        }
        .to_jsonl();
        match File::create(path) {
            Ok(file) => Ok(RecordWriter {
                file,
                path: path.to_path_buf(),
                header: Some(header),
                failed: None,
            }),
            Err(err) => Err(cannot_write(path, &err)),
        }
    }

    /// Appends one event as a line. The file is unbuffered, so the line is
    /// the operating system's as soon as this returns: a kill loses nothing.
    pub fn append(&mut self, event: &RunEvent) {
        if self.failed.is_some() {
            return;
        }
        let mut line = self.header.take().unwrap_or_default();
        // An event is plain data: it always serialises.
        line.push_str(&serde_json::to_string(event).unwrap_or_default());
        line.push('\n');
        if let Err(err) = self.file.write_all(line.as_bytes()) {
            self.failed = Some(err);
        }
    }

    /// Reports a write that failed during the run (exit 2).
    pub fn finish(self) -> Result<(), ExitCode> {
        match self.failed {
            None => Ok(()),
            Some(err) => Err(cannot_write(&self.path, &err)),
        }
    }
}

fn cannot_write(path: &Path, err: &std::io::Error) -> ExitCode {
    eprintln!(
        "agent-loop: cannot write the record to {}: {}",
        path.display(),
        crate::io_problem(err)
    );
    ExitCode::from(2)
}
