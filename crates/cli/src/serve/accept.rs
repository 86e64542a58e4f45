//! Accepting connections when resources run short: at most
//! [`MAX_CONNECTIONS`] are served at once (a connection past them is
//! answered 503 with `Retry-After`), and a failing `accept` (too many open
//! files, most often) is retried after a growing pause instead of at once,
//! with at most one log line a second.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde_json::json;

use super::Answer;

/// Connections served at once; a client past them is asked to come back.
pub const MAX_CONNECTIONS: usize = 256;

/// Seconds a client past the cap is asked to wait (`Retry-After`).
const RETRY_AFTER_SECONDS: u64 = 1;

/// The first pause after a failed accept, doubled on each failure in a row.
const FIRST_PAUSE: Duration = Duration::from_millis(10);
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// How often a run of accept failures is logged.
const LOG_EVERY: Duration = Duration::from_secs(1);

/// The connections being served, counted by the guards they hold.
#[derive(Clone, Default)]
pub struct OpenConnections(Rc<Cell<usize>>);

/// Held while a connection is served; counts it out when dropped.
pub struct Served(Rc<Cell<usize>>);

impl OpenConnections {
    /// A place for one more connection, unless all are taken.
    pub fn enter(&self) -> Option<Served> {
        let open = self.0.get();
        if open >= MAX_CONNECTIONS {
            return None;
        }
        self.0.set(open + 1);
        Some(Served(self.0.clone()))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// The answer to every request on a connection past the cap.
pub fn too_busy() -> Answer {
    let message = format!(
        "this server is serving {MAX_CONNECTIONS} connections already; retry in {RETRY_AFTER_SECONDS} s"
    );
    let mut answer = Answer::json(
        StatusCode::SERVICE_UNAVAILABLE,
        &json!({"error": {"type": "overloaded_error", "message": message}}),
        "too many connections",
    );
    answer
        .headers
        .push(("retry-after", RETRY_AFTER_SECONDS.to_string()));
    answer.headers.push(("connection", "close".to_string()));
    answer
}

/// Failed accepts in a row: how long to pause, and what is yet to be logged.
pub struct AcceptFailures {
    pause: Duration,
    last_logged: Option<Instant>,
    unlogged: u64,
}

impl Default for AcceptFailures {
    fn default() -> Self {
        AcceptFailures {
            pause: FIRST_PAUSE,
            last_logged: None,
            unlogged: 0,
        }
    }
}

impl AcceptFailures {
    /// A connection was accepted: the next failure pauses briefly again.
    pub fn accepted(&mut self) {
        self.pause = FIRST_PAUSE;
    }

    /// Logs `err` (unless a line went out less than a second ago), then
    /// pauses: retrying at once would spin, since the cause (a full file
    /// table) lasts until connections close.
    pub async fn failed(&mut self, err: &std::io::Error) {
        self.unlogged += 1;
        let due = self.last_logged.is_none_or(|at| at.elapsed() >= LOG_EVERY);
        if due {
            let others = match self.unlogged - 1 {
                0 => String::new(),
                n => format!(" ({n} more since the last line)"),
            };
            eprintln!(
                "accept failed: {}{others}; retrying in {} ms, serving the open connections meanwhile",
                why(err),
                self.pause.as_millis()
            );
            self.last_logged = Some(Instant::now());
            self.unlogged = 0;
        }
        tokio::time::sleep(self.pause).await;
        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
    }
}

/// An accept error in plain words.
fn why(err: &std::io::Error) -> String {
    // EMFILE (this process) and ENFILE (the whole system) on Linux and macOS.
    match err.raw_os_error() {
        Some(24) => "too many open files".to_string(),
        Some(23) => "too many open files in the system".to_string(),
        _ => crate::io_problem(err),
    }
}
