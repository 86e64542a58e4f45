//! An MCP server run as a child process and spoken to over its stdin and
//! stdout, one JSON-RPC message per line (the MCP "stdio" transport,
//! https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio).
//! Its stderr is kept (the last few KiB) so a failure can show why; the
//! process is killed when the server is dropped.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex as StdMutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};
use tokio::process::{Child, ChildStdout, Command};
use tokio::sync::{oneshot, Mutex};
use tokio::task::JoinHandle;

/// How much of the server's stderr is kept for messages.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// A line longer than this is refused rather than read into memory (the
/// same bound the HTTP client puts on a body).
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;
/// How much of a line that is not JSON-RPC a message quotes.
const QUOTED_LINE_CHARS: usize = 200;
/// How long a server that closed its stdout is given to exit (and to
/// finish writing its stderr) before the message is written without its
/// exit status.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long a server is given to exit on its own once its stdin is closed
/// before it is killed: the MCP spec's shutdown for stdio is to close the
/// server's input, wait for it to exit, and only then stop it
/// (https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#stdio).
/// Lines already sent (a cancellation notice, say) reach it first.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// A child process spoken to in newline-delimited JSON-RPC.
pub struct StdioServer {
    command_line: String,
    // Declared before `child`, so it is dropped (closed) first: a server
    // that waits on its stdin ends on its own even where the kill below
    // reaches only the launcher (`npx`, `uvx`) and not the server it runs.
    stdin: mpsc::Sender<Line>,
    stdout: Mutex<BufReader<ChildStdout>>,
    child: Mutex<Child>,
    stderr: Arc<StdMutex<Vec<u8>>>,
    stderr_reader: Mutex<Option<JoinHandle<()>>>,
}

impl StdioServer {
    /// Starts `command[0]` with `command[1..]`, `env` added to the inherited
    /// environment, in `cwd`. Err: plain message naming the command.
    pub fn spawn(
        command: &[String],
        env: &BTreeMap<String, String>,
        cwd: Option<&Path>,
    ) -> Result<StdioServer, String> {
        let command_line = harness::mcp::config::command_line(command);
        let Some((program, args)) = command.split_first() else {
            return Err("the server's command is empty: give the program to run and its arguments, e.g. [\"uvx\", \"mcp-server-time\"]".to_string());
        };
        if let Some(dir) = cwd {
            if !dir.is_dir() {
                return Err(format!(
                    "could not start `{command_line}`: its working directory {} does not exist",
                    dir.display()
                ));
            }
        }
        let (child_stdin, stdin) = stdin_pipe()
            .map_err(|e| format!("could not start `{command_line}`: no pipe for its input: {e}"))?;
        let mut process = Command::new(program);
        process
            .args(args)
            .envs(env)
            .stdin(Stdio::from(child_stdin))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(dir) = cwd {
            process.current_dir(dir);
        }
        let mut child = process
            .spawn()
            .map_err(|e| format!("could not start `{command_line}`: {}", spawn_error(&e)))?;
        // The child holds its own copy of the read end now.
        drop(process);
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(format!(
                "could not start `{command_line}`: its stdout or stderr could not be opened"
            ));
        };
        let tail = Arc::new(StdMutex::new(Vec::new()));
        let stderr_reader = tokio::spawn(keep_tail(stderr, tail.clone()));
        Ok(StdioServer {
            command_line,
            stdin: write_lines(stdin),
            stdout: Mutex::new(BufReader::new(stdout)),
            child: Mutex::new(child),
            stderr: tail,
            stderr_reader: Mutex::new(Some(stderr_reader)),
        })
    }

    /// Writes one message as one line.
    pub async fn send(&self, message: &Value) -> Result<(), String> {
        // serde_json writes no raw newline inside a value, so a message is
        // one line as the transport requires.
        let mut line = serde_json::to_vec(message).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let (done, written) = oneshot::channel();
        let sent = self.stdin.send((line, done)).is_ok();
        match written.await {
            Ok(Ok(())) if sent => Ok(()),
            _ => Err(self.ended("before reading its input").await),
        }
    }

    /// The next message the server wrote on stdout. Err (naming the command,
    /// with the stderr tail) when it exited or wrote a line that is not
    /// JSON-RPC.
    pub async fn next_message(&self) -> Result<Value, String> {
        let mut stdout = self.stdout.lock().await;
        loop {
            let mut line = Vec::new();
            let read = (&mut *stdout)
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut line)
                .await;
            match read {
                Ok(0) | Err(_) => return Err(self.ended("before answering").await),
                Ok(_) if !line.ends_with(b"\n") && line.len() as u64 >= MAX_LINE_BYTES => {
                    return Err(format!(
                        "`{}` wrote a line longer than {} MiB; agent-loop does not read it",
                        self.command_line,
                        MAX_LINE_BYTES / (1024 * 1024)
                    ))
                }
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            return match serde_json::from_str::<Value>(text) {
                Ok(message) if is_json_rpc(&message) => Ok(message),
                _ => Err(self.with_stderr(format!(
                    "`{}` wrote a line that is not JSON-RPC: {}",
                    self.command_line,
                    quoted(text)
                ))),
            };
        }
    }

    /// The last few KiB the server wrote on stderr.
    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        String::from_utf8_lossy(&tail).trim().to_string()
    }

    /// The command as a person would type it, for messages.
    pub fn command_line(&self) -> String {
        self.command_line.clone()
    }

    /// Why the server can no longer be spoken to, once its stdout closed or
    /// its stdin would not take a line: its exit status when it exited, and
    /// what it wrote on stderr.
    async fn ended(&self, when: &str) -> String {
        let status = {
            let mut child = self.child.lock().await;
            tokio::time::timeout(EXIT_GRACE, child.wait()).await
        };
        // The stderr pipe ends with the process: read it to its end so the
        // tail holds the server's last words.
        if let Some(reader) = self.stderr_reader.lock().await.take() {
            let _ = tokio::time::timeout(EXIT_GRACE, reader).await;
        }
        let what = match status {
            Ok(Ok(status)) => format!("exited {}", describe_exit(status)),
            _ => "closed its stdout".to_string(),
        };
        self.with_stderr(format!("`{}` {what} {when}", self.command_line))
    }

    /// `message` followed by the server's stderr tail, or a note that it
    /// wrote nothing there.
    fn with_stderr(&self, message: String) -> String {
        match self.stderr_tail() {
            tail if tail.is_empty() => format!("{message}; it wrote nothing on stderr"),
            tail => format!("{message}; its stderr:\n{tail}"),
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        // Closing the channel ends the writer thread once it has written
        // what was sent, and closes the server's stdin.
        drop(std::mem::replace(&mut self.stdin, mpsc::channel().0));
        let child = self.child.get_mut();
        let started = std::time::Instant::now();
        while started.elapsed() < SHUTDOWN_GRACE {
            match child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                // Exited, or cannot be asked: either way nothing to wait for.
                _ => return,
            }
        }
        // Still running: `kill_on_drop` stops it when `child` is dropped.
    }
}

/// A line for the server's stdin, and where to say whether it was written.
type Line = (Vec<u8>, oneshot::Sender<std::io::Result<()>>);

/// A pipe for the server's stdin: the end the child reads, and the end this
/// process writes. Both close on exec, so no other child (another server)
/// inherits the write end and keeps the server's input open.
fn stdin_pipe() -> std::io::Result<(OwnedFd, File)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both are open descriptors owned by no one else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) })
}

/// Writes the lines sent on the returned channel to `stdin`, in order, on
/// a thread of its own. The thread blocks SIGPIPE: writing to a server that
/// exited raises it, and its default action (restored in `main` for
/// stdout) would end agent-loop; blocked, the write fails with EPIPE
/// instead, the signal stays with the thread and is gone when it ends
/// (signals a write raises are the writing thread's own).
fn write_lines(mut stdin: File) -> mpsc::Sender<Line> {
    let (lines, incoming) = mpsc::channel::<Line>();
    std::thread::spawn(move || {
        block_sigpipe_on_this_thread();
        for (line, done) in incoming {
            let written = stdin.write_all(&line).and_then(|()| stdin.flush());
            let failed = written.is_err();
            let _ = done.send(written);
            if failed {
                break;
            }
        }
    });
    lines
}

fn block_sigpipe_on_this_thread() {
    // SAFETY: a signal set on the stack, filled by the libc calls that own
    // its layout; pthread_sigmask changes this thread's mask only.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// A message is JSON-RPC when it is an object saying `"jsonrpc": "2.0"`
/// (or a batch of them).
fn is_json_rpc(message: &Value) -> bool {
    match message {
        Value::Object(object) => object.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
        Value::Array(batch) => !batch.is_empty() && batch.iter().all(is_json_rpc),
        _ => false,
    }
}

/// Reads the server's stderr to its end, keeping its last
/// [`STDERR_TAIL_BYTES`].
async fn keep_tail(mut stderr: impl AsyncRead + Unpin, tail: Arc<StdMutex<Vec<u8>>>) {
    let mut chunk = [0u8; 1024];
    while let Ok(read) = stderr.read(&mut chunk).await {
        if read == 0 {
            break;
        }
        let Ok(mut tail) = tail.lock() else { break };
        tail.extend_from_slice(&chunk[..read]);
        let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
        tail.drain(..excess);
    }
}

/// "with status 1", or "on signal 9" for a process killed by a signal.
fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("with status {code}"),
        (None, Some(signal)) => format!("on signal {signal}"),
        (None, None) => "abnormally".to_string(),
    }
}

/// Why a program could not be started, in words a person acts on.
fn spawn_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            "no such program (is it installed? is it on PATH, or is the path to it right?)"
                .to_string()
        }
        std::io::ErrorKind::PermissionDenied => {
            "permission denied (is the file a program, and executable?)".to_string()
        }
        _ => error.to_string(),
    }
}

/// A line quoted in a message: at most [`QUOTED_LINE_CHARS`] characters.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_LINE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_jsonrpc_objects_count_as_messages() {
        assert!(is_json_rpc(
            &serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}})
        ));
        assert!(!is_json_rpc(&serde_json::json!({"id": 1})));
        assert!(!is_json_rpc(&serde_json::json!("hello")));
    }
}
