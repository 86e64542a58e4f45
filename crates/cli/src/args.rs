//! The command line's shape: every command, its arguments and flags, and the
//! words `--help` prints for each. clap parses it; `usage.rs` turns clap's
//! errors into one line.
//!
//! The help texts are the command line's reference, so each one says what
//! the argument is, what happens without it, and the exit codes.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use harness::approval::ApprovalPolicy;
use harness::wire::Provider;

const EXIT_CODES: &str = "\
Exit codes: 0 when a run ends `done` (or a file is valid, or a replay passes),
3 when a run ends with any other status, or `done` with requests a provider
would refuse (or a check or a replay fails),
2 for a bad file or bad usage (the message goes to stderr).";

#[derive(Parser)]
#[command(
    name = "agent-loop",
    version,
    about = "Runs, checks and replays agent-loop scenarios natively, with the same harness the browser playground runs.",
    long_about = None,
    subcommand_required = true,
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario and print its trace
    #[command(after_help = RUN_APPROVALS)]
    Run(RunArgs),
    /// List the built-in scenarios, with the status each ends with and what it needs to get there
    List,
    /// List every problem in a scenario file, with its path; exit 2 if there is any
    Validate(ValidateArgs),
    /// Print a recorded run's trace
    Show(ShowArgs),
    /// Replay recorded runs against the current tools and check that the outcomes still hold
    #[command(after_long_help = REPLAY_DETAILS)]
    Replay(ReplayArgs),
    /// Continue a recorded run from one of its steps, under an edited scenario
    Fork(ForkArgs),
    /// Print the request body of each model call of a run, in one provider's format
    Wire(WireArgs),
    /// Check a run's history against each provider's tool-call rules
    Check(CheckArgs),
    /// Serve a scenario's model as an HTTP API on 127.0.0.1, in all three providers' formats
    Serve(ServeArgs),
    /// Talk to an MCP server: list its tools as scenario tool JSON
    Mcp(McpArgs),
    /// Print the scenario file format as a JSON Schema
    Schema,
    /// Write a recorded run as an OpenTelemetry trace (OTLP/JSON, GenAI conventions)
    Export(ExportArgs),
    /// Read an OpenTelemetry trace, or a provider's request body, as a record
    Import(ImportArgs),
    /// Lessons that check themselves: list the built-in course, check a lesson, verify a course
    Lesson(LessonArgs),
}

/// Every command's name, in the order `--help` lists them (for "did you mean").
pub const COMMAND_NAMES: &[&str] = &[
    "run", "list", "validate", "show", "replay", "fork", "wire", "check", "serve", "mcp", "schema",
    "export", "import", "lesson", "help",
];

const RUN_APPROVALS: &str = "\
Approvals: without --approve, the scenario's own `approval` policy decides.
Under \"ask\" (the default) nobody is asked at the command line, so the first
call to a tool that needs approval ends the run `blocked` (and a hint on stderr
names --approve). `agent-loop list` says which built-ins need --approve all to
reach the status they are listed with.

Exit codes: 0 when the run ends `done`, 3 for any other status or for a `done`
run whose requests a provider would refuse (HTTP 400; `agent-loop check` says
why, and --allow-refused makes such a run exit 0), 2 for a bad file or bad
usage.";

const REPLAY_DETAILS: &str = "\
One record: every check is printed with its detail; exit 0 when all pass, 3 with
the first difference otherwise.

Several records, or a folder (every *.jsonl in it, sorted by name): one line
per record (pass or FAIL, its path, and the first difference), then a summary
such as \"40 records: 39 passed, 1 failed\". A record that cannot be read or
replayed is reported on its line and the others still run.

Exit codes: 0 when every record passes, 3 when any fails, 2 when any record
(or --scenario, or --assert) cannot be read.";

/// `--approve`: how the command line decides calls that need approval.
#[derive(Args)]
pub struct ApprovalArg {
    /// Decide every call that needs approval: `all` approves them, `none`
    /// refuses them (the run ends `blocked`)
    ///
    /// Without it the scenario's own `approval` policy decides, and under
    /// "ask" (the default) nobody is asked at the command line, so the first
    /// such call ends the run `blocked`.
    #[arg(long, value_enum, value_name = "all|none")]
    pub approve: Option<Approve>,
}

impl ApprovalArg {
    pub fn policy(&self) -> Option<ApprovalPolicy> {
        self.approve.map(|approve| match approve {
            Approve::All => ApprovalPolicy::ApproveAll,
            Approve::Refuse => ApprovalPolicy::DenyAll,
        })
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Approve {
    /// approve every call that needs approval
    All,
    /// refuse every call that needs approval (the run ends blocked)
    #[value(name = "none")]
    Refuse,
}

/// The three wire formats, as the command line spells them.
#[derive(Clone, Copy, ValueEnum)]
pub enum ProviderName {
    /// Anthropic Messages
    Anthropic,
    /// OpenAI Chat Completions
    #[value(alias = "openai_chat")]
    OpenaiChat,
    /// OpenAI Responses
    #[value(alias = "openai_responses")]
    OpenaiResponses,
}

impl From<ProviderName> for Provider {
    fn from(name: ProviderName) -> Provider {
        match name {
            ProviderName::Anthropic => Provider::Anthropic,
            ProviderName::OpenaiChat => Provider::OpenaiChat,
            ProviderName::OpenaiResponses => Provider::OpenaiResponses,
        }
    }
}

#[derive(Args)]
pub struct RunArgs {
    /// A scenario file, or the name of a built-in scenario; `agent-loop list` names them
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    #[command(flatten)]
    pub approval: ApprovalArg,
    /// Print one JSON event a line, `run_finished` last, instead of the readable trace
    #[arg(long)]
    pub jsonl: bool,
    /// Also write the scenario and the trace to this file, which `show`, `replay` and `fork` read;
    /// each event is written as it happens, and Ctrl+C or SIGTERM ends the run `cancelled` with the file complete
    #[arg(long, value_name = "OUT.jsonl")]
    pub record: Option<PathBuf>,
    /// Exit 0 for a run that ends `done` even though a provider would refuse
    /// one of its requests (its history breaks that provider's tool-call
    /// rules); without it such a run exits 3
    #[arg(long)]
    pub allow_refused: bool,
    /// Drive the run with a model behind this provider's HTTP API instead of
    /// the scenario's own model. The API key is read from AGENT_LOOP_API_KEY,
    /// else ANTHROPIC_API_KEY (anthropic) or OPENAI_API_KEY (openai-*)
    #[arg(
        long,
        value_enum,
        value_name = "PROVIDER",
        help_heading = "A model behind an HTTP API"
    )]
    pub provider: Option<ProviderName>,
    /// The API's address, http or https, e.g. http://127.0.0.1:8787 for
    /// `agent-loop serve` [default: the provider's hosted API,
    /// https://api.anthropic.com or https://api.openai.com]. https trusts the
    /// system's CA certificates, or those in the file SSL_CERT_FILE names;
    /// HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured
    #[arg(long, value_name = "URL", help_heading = "A model behind an HTTP API")]
    pub base_url: Option<String>,
    /// The model name sent in each request, e.g. claude-sonnet-4-0 or gpt-4.1
    /// for a hosted API [default: default]
    #[arg(long, value_name = "NAME", help_heading = "A model behind an HTTP API")]
    pub model: Option<String>,
    /// Ask for whole responses instead of streamed ones
    #[arg(long, help_heading = "A model behind an HTTP API")]
    pub no_stream: bool,
}

#[derive(Args)]
pub struct ValidateArgs {
    /// A scenario file, or the name of a built-in scenario
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
}

#[derive(Args)]
pub struct ShowArgs {
    /// A recorded run: a file from `run --record` or `fork --record`, or a JSON Lines trace from `run --jsonl`
    #[arg(value_name = "RECORD.jsonl")]
    pub record: PathBuf,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// Recorded runs, as `run --record` writes them, or folders of them: a
    /// folder means every *.jsonl file in it, sorted by name
    #[arg(value_name = "RECORD.jsonl|FOLDER", required = true)]
    pub records: Vec<PathBuf>,
    /// Replay against this scenario (a file, or a built-in's name) instead of
    /// the one each record holds; a bare trace needs it
    #[arg(long, value_name = "SCENARIO")]
    pub scenario: Option<String>,
    /// A JSON file of expectations that replace the recorded ones, e.g.
    /// {"status": "done", "tool_sequence": ["get_order"], "no_repeated_calls": true, "ids_exist": true}
    #[arg(long = "assert", value_name = "ASSERT.json")]
    pub assertions: Option<PathBuf>,
    /// Print one JSON object a line per record (record, passed, status, checks), for CI;
    /// the summary goes to stderr
    #[arg(long)]
    pub jsonl: bool,
    /// Call the scenario's MCP servers again, instead of answering their tools
    /// from the results the record holds (the default, which needs no server)
    #[arg(long)]
    pub call_mcp_servers: bool,
}

#[derive(Args)]
pub struct ForkArgs {
    /// The recorded run to continue (a file from `run --record`)
    #[arg(value_name = "RECORD.jsonl")]
    pub record: PathBuf,
    /// List the steps the run can be forked from (the events before a model or tool call)
    #[arg(long, conflicts_with_all = ["at", "scenario", "out"])]
    pub list: bool,
    /// The step to continue from: an event number that `--list` shows
    #[arg(long, value_name = "EVENT", value_parser = event_number)]
    pub at: Option<u64>,
    /// The edited scenario to continue under (a file, or a built-in's name);
    /// without it, the scenario the record holds
    #[arg(long, value_name = "SCENARIO")]
    pub scenario: Option<String>,
    /// Write the fork (the parent's events before the step, then the new ones) to this file
    #[arg(long = "record", id = "out", value_name = "OUT.jsonl")]
    pub out: Option<PathBuf>,
    /// Call the scenario's MCP servers again, instead of answering their tools
    /// from the parent's results (the default, which needs no server)
    #[arg(long)]
    pub call_mcp_servers: bool,
}

#[derive(Args)]
pub struct WireArgs {
    /// The format to print the request bodies in
    #[arg(long, value_enum, value_name = "PROVIDER")]
    pub provider: ProviderName,
    /// A scenario file, or the name of a built-in scenario
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    #[command(flatten)]
    pub approval: ApprovalArg,
}

#[derive(Args)]
#[command(
    after_help = "A scenario is run, then its history checked; a run record (JSON Lines, from
`run --record` or `run --jsonl`) is checked as recorded; a provider request
body (JSON) is checked as the provider it is written for would check it.

Exit codes: 0 when no provider would reject it, 3 when one would, 2 for a
file that cannot be read as any of these."
)]
pub struct CheckArgs {
    /// A scenario file, a built-in scenario's name, a run record (JSON Lines) or a provider request body
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    #[command(flatten)]
    pub approval: ApprovalArg,
}

#[derive(Args)]
#[command(after_long_help = "\
Routes: POST /v1/messages (Anthropic), /v1/chat/completions and /v1/responses
(OpenAI), streamed when the body has \"stream\": true. Each request plays the
script's next response; a request with no assistant message, or POST /reset,
starts the script over. GET /v1/models lists the scenario's model (OpenAI's
shape). A scripted call to a tool the request did not declare is sent, with a
warning on the request's log line.

With --mcp: POST /mcp speaks MCP's Streamable HTTP (2026-07-28, and 2025-03-26
… 2025-11-25 with sessions), answering tools/call as SSE when the client
accepts it (with a priming event and retry for 2025-11-25 clients). A Host
that is not a loopback name, or a page on another machine's origin, gets 403
(DNS rebinding); pages on http://127.0.0.1:*, http://localhost:* and
http://[::1]:* are allowed (CORS included). A primed stream's events are kept
for 5 minutes: GET with Last-Event-ID replays those after that id.")]
pub struct ServeArgs {
    /// A scenario file, or the name of a built-in scenario, whose model
    /// answers; without it, the --mcp scenario's model answers
    #[arg(value_name = "SCENARIO", required_unless_present = "mcp")]
    pub scenario: Option<String>,
    /// Also serve this scenario's tools (built-in and fixed-result, with
    /// their stores) over MCP at POST /mcp, in both protocol generations
    #[arg(long, value_name = "FILE|BUILTIN")]
    pub mcp: Option<String>,
    /// Close each tools/call SSE stream of a 2025-11-25 session after its
    /// priming event and hold the answer until the client reconnects (GET
    /// with Last-Event-ID), as the spec's SSE polling allows: tests a
    /// client's resumption
    #[arg(long, requires = "mcp")]
    pub mcp_close_streams: bool,
    /// The port to listen on, on 127.0.0.1 only; 0 picks a free one
    #[arg(long, value_name = "PORT", default_value_t = 8787, value_parser = port_number)]
    pub port: u16,
    /// Send a streamed answer's events this many milliseconds apart
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = milliseconds)]
    pub pace_ms: u64,
}

#[derive(Args)]
pub struct LessonArgs {
    #[command(subcommand)]
    pub command: LessonCommand,
}

#[derive(Subcommand)]
pub enum LessonCommand {
    /// List the built-in course's lessons by chapter, each with what it teaches and how it is solved
    List,
    /// Run a lesson and say, part by part, whether its goal holds
    #[command(after_long_help = "\
Without --solution the lesson is checked as given: the file's scenario and
what it says the learner did (turns, decisions, stop_after_ms, prediction,
steps). That is how a student checks the file they edited; `agent-loop
lesson show NAME` writes a built-in lesson as such a file. A file's
scenario edited outside the lesson's `editable` paths is named on stderr
(the check still runs). When the goal holds, the lesson's explanation is
printed with the run's own numbers; a lesson that asks a question prints
what was predicted next to what the run did.

Delays, timeouts and deadlines run on a simulated clock, so a lesson whose
call hangs for an hour is checked at once.

Exit codes: 0 when every part of the goal holds, 3 when one does not, 2 when
the lesson cannot be read.")]
    Check(LessonCheckArgs),
    /// Check that each lesson is true: its start does not meet its goal, its solution does, and none of its misses does
    #[command(after_long_help = "\
Each argument is a lesson file, a course file (every lesson in it), or a
built-in lesson's name; without one, the built-in course. One line per
lesson: ok, or FAIL with its name and what is wrong: a start that already
meets the goal, a solution that does not, a miss that does (named by its
index and why), a stepping lesson's walk with more or fewer lines than
the stepped run has pauses, a question whose true answer is not among its
choices. A built-in lesson also needs a miss and a takeaway; the built-in
course's own problems (a lesson file in no chapter, an undefined [[term]])
are listed first, and its lessons are still verified. CI runs it on the
built-in course.

Exit codes: 0 when every lesson is true, 3 when one is not (or the course
has problems of its own), 2 when a file cannot be read.")]
    Verify(LessonVerifyArgs),
    /// Print a lesson as one self-contained file, its scenario inline, to edit and check
    Show(LessonShowArgs),
    /// Print the lesson and course file formats as a JSON Schema
    Schema,
}

#[derive(Args)]
pub struct LessonCheckArgs {
    /// A lesson file, or a built-in lesson's name (`agent-loop lesson list`)
    #[arg(value_name = "FILE|NAME")]
    pub lesson: String,
    /// Check the lesson with its solution applied
    #[arg(long)]
    pub solution: bool,
}

#[derive(Args)]
pub struct LessonVerifyArgs {
    /// Lesson files, course files or built-in lesson names; none: the built-in course
    #[arg(value_name = "COURSE|LESSON")]
    pub lessons: Vec<String>,
}

#[derive(Args)]
pub struct LessonShowArgs {
    /// A lesson file, or a built-in lesson's name
    #[arg(value_name = "FILE|NAME")]
    pub lesson: String,
}

#[derive(Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: McpCommand,
}

#[derive(Subcommand)]
pub enum McpCommand {
    /// Print an MCP server's tools as scenario tool JSON, ready to paste into "tools"
    #[command(after_long_help = "\
Reaches the server at URL (Streamable HTTP), or starts CMD with ARGS and
speaks to it over stdio (one JSON-RPC message per line; the process is
stopped when the command ends). Either generation: 2026-07-28 (stateless)
or 2025-03-26 … 2025-11-25 (initialize and a session), as the spec's
fallback rule finds. A URL whose server refuses the POST as servers of the
old HTTP+SSE transport do (a plain 400, 404 or 405) is reached over that
transport (2024-11-05: GET the stream, POST to its endpoint). The JSON goes
to stdout; on stderr: who answered, in which protocol version (and over
HTTP+SSE, when so), and each schema check the harness leaves to the server.
A tool needs approval unless the server marks it read-only or not
destructive.

Examples:
  agent-loop mcp tools http://127.0.0.1:3001/mcp
  agent-loop mcp tools -- uvx mcp-server-time
  agent-loop mcp tools -- npx -y @modelcontextprotocol/server-filesystem /tmp

Exit codes: 0 when the tools were listed, 2 when the server cannot be reached,
started or refuses (the message says which and why; a started server's
stderr is quoted).")]
    Tools(McpToolsArgs),
    /// Call one tool of an MCP server and print its result
    #[command(after_long_help = "\
Connects as `mcp tools` does (either generation; at URL, or CMD with ARGS
started and spoken to over stdio), calls TOOL with ARGUMENTS (a JSON
object; {} when left out) and prints the result as the model would read it.
With a command, the URL is left out: TOOL [ARGUMENTS] -- CMD [ARGS…]. A
result streamed over SSE that the server closes early is resumed (GET with
Last-Event-ID, after the server's retry), as in a run.

Examples:
  agent-loop mcp call http://127.0.0.1:3001/mcp add '{\"a\": 2, \"b\": 3}'
  agent-loop mcp call get_current_time '{\"timezone\": \"UTC\"}' -- uvx mcp-server-time
  agent-loop mcp call list_directory '{\"path\": \"/tmp\"}' -- npx -y @modelcontextprotocol/server-filesystem /tmp

Exit codes: 0 for a result, 1 for an error result (isError: the tool ran and
failed, or refused the arguments), 2 when the server cannot be reached,
started or refuses the call (the message says which and why; a started
server's stderr is quoted).")]
    Call(McpCallArgs),
    /// Serve a stdio MCP server over Streamable HTTP on 127.0.0.1, for the playground page
    #[command(after_long_help = "\
Starts CMD with ARGS as an MCP server over stdio and serves it at
http://127.0.0.1:PORT/mcp (Streamable HTTP, the session generation:
2025-03-26 … 2025-11-25), on this machine's loopback interface only. A page
cannot start processes; this lets the playground use the stdio servers
most people have.

On start it prints one line on stdout:
  listening on http://127.0.0.1:PORT/mcp — token: TOKEN
Every request must carry \"Authorization: Bearer TOKEN\" (else 401): the
bridge runs a program for whoever reaches it. In the playground, add the URL
to the scenario's \"mcp_servers\" and paste the token into the server's
Token field under \"MCP servers\". Pages from http://127.0.0.1:8080 and
http://localhost:8080 are allowed (CORS); other pages are refused (403)
unless named with --allow-origin.

Example:
  agent-loop mcp bridge --port 3001 -- uvx mcp-server-time
  agent-loop mcp tools http://127.0.0.1:3001/mcp --header \"Authorization: Bearer TOKEN\"

Exit codes: 1 when the server exits (the message names it and quotes its
stderr), 2 when it cannot be started or the port is taken, 130 on Ctrl-C
(which stops the server too).")]
    Bridge(McpBridgeArgs),
}

#[derive(Args)]
pub struct McpBridgeArgs {
    /// The port to listen on, on 127.0.0.1 (0 picks a free one)
    #[arg(long, default_value_t = 0, value_parser = port_number)]
    pub port: u16,
    /// Another page origin allowed to use the bridge, e.g. http://127.0.0.1:5173; repeatable
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// The server's command and its arguments, after --
    #[arg(value_name = "CMD", required = true, last = true, num_args = 1..)]
    pub command: Vec<String>,
}

#[derive(Args)]
pub struct McpCallArgs {
    /// The server's MCP endpoint, http or https, e.g. http://127.0.0.1:3001/mcp; with a command after --, the tool's name
    #[arg(value_name = "URL|TOOL")]
    pub first: String,
    /// The tool's name, as `mcp tools` lists it; with a command after --, the arguments
    #[arg(value_name = "TOOL|ARGUMENTS")]
    pub second: Option<String>,
    /// The arguments, a JSON object, e.g. '{"a": 2, "b": 3}'; {} when left out
    #[arg(value_name = "ARGUMENTS")]
    pub third: Option<String>,
    /// A header sent with every request, e.g. "Authorization: Bearer …"; repeatable
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    #[command(flatten)]
    pub oauth: crate::oauth::OAuthArgs,
    /// A stdio server to start instead of a URL: its command and arguments, after --
    #[arg(value_name = "CMD", last = true)]
    pub command: Vec<String>,
}

#[derive(Args)]
pub struct McpToolsArgs {
    /// The server's MCP endpoint, http or https, e.g. http://127.0.0.1:3001/mcp
    #[arg(
        value_name = "URL",
        required_unless_present = "command",
        conflicts_with = "command"
    )]
    pub url: Option<String>,
    /// A header sent with every request, e.g. "Authorization: Bearer …"; repeatable
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    #[command(flatten)]
    pub oauth: crate::oauth::OAuthArgs,
    /// A stdio server to start instead of a URL: its command and arguments, after --
    #[arg(value_name = "CMD", last = true)]
    pub command: Vec<String>,
}

// clap's own parsers would say "invalid digit found in string"; these say
// what the flag expects.

fn port_number(text: &str) -> Result<u16, String> {
    text.parse()
        .map_err(|_| "expected a port number from 0 to 65535 (0 picks a free one)".to_string())
}

fn milliseconds(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| "expected a whole number of milliseconds".to_string())
}

fn event_number(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| "expected an event number (`fork RECORD --list` shows them)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_is_named_for_suggestions() {
        let command = Cli::command();
        let mut defined: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        defined.push("help");
        assert_eq!(defined, COMMAND_NAMES);
    }
}

#[derive(Args)]
#[command(after_help = "\
The output is OTLP/JSON (the protobuf JSON mapping of opentelemetry-proto's
TracesData): POST it to a collector's /v1/traces with content-type
application/json. One invoke_agent span per run, a chat span per model call,
an execute_tool span per call; approvals and validation are span events.
Message content is included. `agent-loop import` reads it back as the same run.")]
pub struct ExportArgs {
    /// Write OpenTelemetry (the only export format so far; required so a later one can be added)
    #[arg(long, required = true)]
    pub otel: bool,
    /// The recorded run (a file from `run --record`, or the page's export)
    #[arg(value_name = "RECORD.jsonl")]
    pub record: PathBuf,
    /// When the run started, in Unix milliseconds (a trace keeps only times
    /// relative to its start); default: now
    #[arg(long, value_name = "UNIX_MS")]
    pub started_at_ms: Option<u64>,
    /// Write to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
#[command(after_help = "\
An OTLP/JSON trace: the first trace in the file. An agent-loop export comes
back event for event with its scenario. Another tool's GenAI spans (chat,
execute_tool, invoke_agent), or OpenInference spans (LLM, TOOL, AGENT, as
Arize Phoenix's instrumentations write them), become model turns, calls and
results; what the trace does not hold (message content is opt-in in every
instrumentation) is said on stderr.

A request body (Anthropic Messages, OpenAI Chat Completions or OpenAI
Responses, detected): the system prompt, tools and first user message become
the scenario, each assistant turn a recorded model turn, each tool result its
call's recorded result (the tools answer with them, so the record replays
offline). What the scenario cannot hold is listed, and the provider's verdict
on the body is printed: the HTTP 400 it would answer, at its path.

The file is recognised the way the playground's \"Import run…\" recognises
it (harness::import). A run record is written back out as it is; a
provider's response is refused here, since it answers the request of a run
in view: paste it in the playground after its request body.

Exit codes: 0 when read, 3 when the provider would refuse the body (the
record is still written), 2 for a file that is neither.")]
pub struct ImportArgs {
    /// An OTLP/JSON trace, or a provider request body (JSON)
    #[arg(value_name = "FILE.json")]
    pub trace: PathBuf,
    /// Write the record to this file instead of standard output
    #[arg(long, value_name = "RECORD.jsonl")]
    pub out: Option<PathBuf>,
}
