//! Pure functions from the harness's data (built-in scenarios, `RunEvent`s,
//! `Outcome`s, load problems) to what the page shows: picker options, one
//! display row per event, the stop banner's text and CSS classes.
//!
//! Invariant: nothing here touches signals or the DOM, so all of it is tested
//! natively (`cargo test`); components only render these values.

use harness::event::{EventKind, Outcome, RunEvent, Status, StopTone};
use harness::library::BuiltinScenario;
use harness::numbers::thousands;
use harness::run::usd;
use harness::scenario::Problem;
use serde_json::Value;

/// The picker's value for "paste your own JSON" (never a built-in id: ids are file names).
pub const CUSTOM: &str = "custom";

/// The lesson shown under the picker when the scenario is the user's own.
pub const CUSTOM_LESSON: &str = "Your own scenario: paste or edit the JSON below, then press Run.";

/// The lesson line while a picked built-in's file is on its way.
pub const LOADING_LESSON: &str = "Loading the scenario…";

/// Why Run waits while a picked built-in's file is on its way.
pub const LOADING_BLOCKER: &str = "Run is disabled: the picked scenario is still loading.";

/// What a trace or history row means, as a CSS class: colour carries
/// meaning only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Normal,
    /// An answer the model gave, an approval granted.
    Ok,
    /// A retry, a pending or refused approval.
    Warn,
    /// An error result, an invalid call, a failed model request.
    Error,
    /// A run's end, in the tone of who ended it: the one the stop banner,
    /// the header's outcome and the loop's exit are drawn in.
    Stop(StopTone),
}

impl Tone {
    pub fn class(self) -> &'static str {
        match self {
            Tone::Normal => "tone-normal",
            Tone::Ok => "tone-ok",
            Tone::Warn => "tone-warn",
            Tone::Error => "tone-error",
            Tone::Stop(StopTone::Guard) => "tone-guard",
            Tone::Stop(StopTone::ModelStop) => "tone-model",
            Tone::Stop(StopTone::Failure) => "tone-failure",
            Tone::Stop(StopTone::Person) => "tone-person",
        }
    }
}

/// A run's end in the tone of who ended it, the same everywhere a status is
/// drawn: from its cause where the run recorded one (a policy's `blocked` is
/// the harness's, not a person's), else from its status.
pub fn outcome_tone(outcome: &Outcome) -> Tone {
    Tone::Stop(
        outcome
            .cause
            .as_ref()
            .map_or(outcome.status.tone(), |cause| cause.tone()),
    )
}

/// A status alone (a kept run's row) in its tone.
pub fn status_tone(status: Status) -> Tone {
    Tone::Stop(status.tone())
}

// ---------------------------------------------------------------------------
// The scenario picker

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioGroup {
    pub name: &'static str,
    pub options: Vec<ScenarioOption>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioOption {
    pub id: &'static str,
    /// The scenario's own `name`, or its id when the JSON has none.
    pub label: String,
    pub expected_status: &'static str,
    /// How long the page must have been open for that status (a shared
    /// deadline counts from page load); 0 for almost every scenario.
    pub clock_age_ms: u64,
    /// Its tools come from an MCP server that must be running (its lesson
    /// names the command): no status is promised without it.
    pub needs_server: bool,
}

/// What ends the label of a built-in whose tools come from an MCP server.
pub const SERVER_MARK: &str = " (needs its MCP server)";

/// What ends the label of a built-in that has a counterpart to run beside
/// it (`harness::library::pair_containing`): words, not only a colour, so
/// every reader of the picker sees it.
pub const PAIR_MARK: &str = " ⇄ pair";

/// Built-in scenarios grouped for `<optgroup>`s, groups and options in
/// library order, then those that need an MCP server running, marked.
pub fn scenario_groups(
    builtins: &[BuiltinScenario],
    with_server: &[harness::library::WithServer],
) -> Vec<ScenarioGroup> {
    let mut groups: Vec<ScenarioGroup> = Vec::new();
    for builtin in builtins {
        let mark = if harness::library::pair_of(builtin.id).is_some() {
            PAIR_MARK
        } else {
            ""
        };
        let option = ScenarioOption {
            id: builtin.id,
            label: format!("{}{mark}", builtin.name()),
            expected_status: builtin.expected_status,
            clock_age_ms: harness::library::clock_age_needed_ms(builtin),
            needs_server: false,
        };
        match groups.iter_mut().find(|g| g.name == builtin.group) {
            Some(group) => group.options.push(option),
            None => groups.push(ScenarioGroup {
                name: builtin.group,
                options: vec![option],
            }),
        }
    }
    for builtin in with_server.iter().map(|w| &w.scenario) {
        let option = ScenarioOption {
            id: builtin.id,
            label: format!("{}{SERVER_MARK}", builtin.name()),
            expected_status: builtin.expected_status,
            clock_age_ms: 0,
            needs_server: true,
        };
        match groups.iter_mut().find(|g| g.name == builtin.group) {
            Some(group) => group.options.push(option),
            None => groups.push(ScenarioGroup {
                name: builtin.group,
                options: vec![option],
            }),
        }
    }
    groups
}

pub fn find_builtin<'a>(builtins: &'a [BuiltinScenario], id: &str) -> Option<&'a BuiltinScenario> {
    builtins.iter().find(|b| b.id == id)
}

/// The lesson shown under the picker: the scenario's `description`.
pub fn scenario_description(json: &str) -> Option<String> {
    json_string_field(json, "description").filter(|d| !d.is_empty())
}

fn json_string_field(json: &str, field: &str) -> Option<String> {
    let value: Value = serde_json::from_str(json).ok()?;
    value.get(field)?.as_str().map(str::to_string)
}

/// Load problems as the alert lists them: `path: message`.
pub fn problem_lines(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

// ---------------------------------------------------------------------------
// The stop banner

/// The outcome of the run in `events`, once it has finished. `run_finished`
/// is always a run's last event, so only the last one is looked at: this
/// runs on every appended event.
pub fn outcome_of(events: &[RunEvent]) -> Option<&Outcome> {
    match &events.last()?.kind {
        EventKind::RunFinished(outcome) => Some(outcome),
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Banner {
    /// The snake_case status name, also the banner's `data-status`.
    pub status: &'static str,
    /// Who ended the run, shared with the header and the loop diagram: the
    /// banner's one tone (colour and mark).
    pub tone: harness::event::StopTone,
    /// Who ended the run, in words ("a person", "the harness's approval policy").
    pub ended_by: &'static str,
    pub reason: String,
    /// The number of turns, e.g. `2 turns`.
    turns: String,
    /// Tokens, cost and elapsed time, e.g. `420 in / 64 out tokens · $0.000233 · 1.50 s`.
    totals: String,
    pub answer: Option<String>,
}

pub fn banner(outcome: &Outcome) -> Banner {
    let totals = [
        format!(
            "{} in / {} out tokens",
            thousands(outcome.input_tokens),
            thousands(outcome.output_tokens)
        ),
        usd(outcome.cost_usd),
        format_ms(outcome.elapsed_ms),
    ]
    .join(" · ");
    Banner {
        status: outcome.status.as_str(),
        tone: outcome.tone(),
        ended_by: outcome.ended_by(),
        reason: outcome.reason.clone(),
        turns: plural(u64::from(outcome.turns), "turn"),
        totals,
        answer: outcome.answer.clone(),
    }
}

impl Banner {
    /// The run's numbers on one line. The tool calls are the tally the
    /// header keeps (`harness::tally`), which for a finished run equals the
    /// outcome's `calls`.
    pub fn facts(&self, tools: &ToolCallTally) -> String {
        format!(
            "{} · tool calls: {} · {}",
            self.turns,
            tools.summary(),
            self.totals
        )
    }
}

// ---------------------------------------------------------------------------
// The approval bar

/// Checks edited arguments before they are sent: the text must be a JSON
/// object that the tool's schema accepts. `Err` lists what is wrong, one line
/// each, with the instance path when there is one.
pub fn check_edited_args(text: &str, schema: Option<&Value>) -> Result<Value, Vec<String>> {
    // serde_json's own message already ends "at line 1 column 2"; the
    // harness's wording names the place once, in characters.
    let value: Value = serde_json::from_str(text)
        .map_err(|e| vec![harness::scenario::syntax::describe(&e, text)])?;
    if !value.is_object() {
        return Err(vec!["arguments must be a JSON object".to_string()]);
    }
    // No schema (a tool the scenario does not define): the run checks it.
    let Some(schema) = schema else {
        return Ok(value);
    };
    let compiled = tool_schema::Schema::compile(schema).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("tool schema: {e}"))
            .collect::<Vec<_>>()
    })?;
    compiled
        .validate(&value)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    Ok(value)
}

/// Arguments as the edit box starts: pretty JSON.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Whether a key press should act as an approval shortcut: only a bare
/// letter, and never while the person is typing in a field.
pub fn is_shortcut(key: &str, target_tag: &str, modified: bool) -> Option<char> {
    let typing = matches!(
        target_tag.to_ascii_lowercase().as_str(),
        "input" | "textarea" | "select"
    );
    if modified || typing {
        return None;
    }
    match key {
        "a" | "A" => Some('a'),
        "d" | "D" => Some('d'),
        _ => None,
    }
}

/// What a paused run will do when Step or Run is pressed, for the status line.
pub fn pause_text(before: &harness::run::PauseBefore) -> String {
    match before {
        harness::run::PauseBefore::ModelCall { turn } => {
            format!("Paused before model call (turn {turn})")
        }
        harness::run::PauseBefore::ToolCall { name, .. } => {
            format!("Paused before tool call {name}")
        }
    }
}

// ---------------------------------------------------------------------------
// The counters

/// The live numbers in the top bar, derived from the log alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    pub turn: u32,
    pub max_turns: u32,
    pub cost_usd: f64,
    pub max_cost_usd: Option<f64>,
    pub deadline_ms: Option<u64>,
    pub tool_calls: ToolCallTally,
    pub max_tool_calls: Option<u32>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub max_total_tokens: Option<u64>,
    /// How the run ended, once it has: which counter (if any) stopped it.
    pub stopped: Option<Status>,
}

impl Counters {
    /// The cost gauge's fill, 0 to 1; `None` without a budget.
    pub fn cost_fraction(&self) -> Option<f64> {
        self.max_cost_usd
            .filter(|max| *max > 0.0)
            .map(|max| (self.cost_usd / max).clamp(0.0, 1.0))
    }

    pub fn turn_text(&self) -> String {
        if self.max_turns == 0 {
            format!("{}", self.turn)
        } else {
            format!("{} / {}", self.turn, self.max_turns)
        }
    }

    pub fn cost_text(&self) -> String {
        match self.max_cost_usd {
            Some(max) => format!("{} / {}", usd(self.cost_usd), usd(max)),
            None => format!("{} (no budget)", usd(self.cost_usd)),
        }
    }

    /// The tool calls as the stop banner counts them, plus what the limit
    /// counted against it: `8 requested (6 ran, 2 not run) · 7 checked, limit 6`.
    pub fn tool_calls_text(&self) -> String {
        let summary = self.tool_calls.summary();
        match self.max_tool_calls {
            Some(max) => format!(
                "{summary} · {} checked, limit {max}",
                self.tool_calls.counts().checked
            ),
            None => summary,
        }
    }

    /// Grouped (`1,234,567 in / 8,000 out`), so a large count stays readable
    /// and the header never grows wider than its field.
    pub fn tokens_text(&self) -> String {
        let split = format!(
            "{} in / {} out",
            thousands(self.input_tokens),
            thousands(self.output_tokens)
        );
        match self.max_total_tokens {
            Some(max) => format!(
                "{} / {} ({split})",
                thousands(self.input_tokens.saturating_add(self.output_tokens)),
                thousands(max)
            ),
            None => split,
        }
    }

    /// The header counter (its `data-counter`) whose limit stopped the run.
    pub fn tripped_counter(&self) -> Option<&'static str> {
        match self.stopped? {
            Status::TurnLimit => Some("turn"),
            Status::CostLimit => Some("cost"),
            Status::Deadline => Some("elapsed"),
            Status::ToolCallLimit => Some("tool-calls"),
            Status::TokenLimit => Some("tokens"),
            _ => None,
        }
    }
}

/// Elapsed time against the deadline, e.g. `1.20 s / 45.00 s`.
pub fn elapsed_text(elapsed_ms: u64, deadline_ms: Option<u64>) -> String {
    match deadline_ms {
        Some(deadline) => format!("{} / {}", format_ms(elapsed_ms), format_ms(deadline)),
        None => format!("{} (no deadline)", format_ms(elapsed_ms)),
    }
}

pub fn counters(events: &[RunEvent]) -> Counters {
    let mut c = Counters::default();
    for event in events {
        c.apply(event);
    }
    c
}

impl Counters {
    /// Adds one event, so the page can keep the counters up to date in
    /// constant time per event instead of rescanning a long log.
    pub fn apply(&mut self, event: &RunEvent) {
        match &event.kind {
            EventKind::RunStarted { limits, .. } => {
                *self = Counters {
                    max_turns: limits.max_turns,
                    max_cost_usd: limits.max_cost_usd,
                    deadline_ms: limits.deadline_ms,
                    max_tool_calls: limits.max_tool_calls,
                    max_total_tokens: limits.max_total_tokens,
                    ..Counters::default()
                };
            }
            EventKind::ModelRequest { turn, .. } => self.turn = self.turn.max(*turn),
            EventKind::ModelResponse {
                usage, cost_usd, ..
            } => {
                self.cost_usd += cost_usd;
                self.input_tokens += usage.input_tokens;
                self.output_tokens += usage.output_tokens;
            }
            // A compaction's summary is a model call of its own: the run
            // counts its tokens and cost, so the header does too.
            EventKind::ContextEdited {
                edit:
                    harness::context::ContextEdit::Compacted {
                        usage, cost_usd, ..
                    },
                ..
            } => {
                self.cost_usd += cost_usd;
                self.input_tokens += usage.input_tokens;
                self.output_tokens += usage.output_tokens;
            }
            EventKind::RunFinished(outcome) => {
                // The outcome's totals are authoritative once the run is over;
                // its tool-call count is not the one shown (see `Banner::facts`).
                self.cost_usd = outcome.cost_usd;
                self.input_tokens = outcome.input_tokens;
                self.output_tokens = outcome.output_tokens;
                self.turn = outcome.turns;
                self.stopped = Some(outcome.status);
            }
            _ => {}
        }
        self.tool_calls.apply(event);
    }
}

// ---------------------------------------------------------------------------
// Tool calls: what became of each call the model asked for

/// The counts and their words are the harness's (`harness::tally`), so the
/// header, the loop diagram, the banner, the CLI and `run_finished` agree.
pub use harness::tally::{ToolCallTally, CALL_COUNT_WORDS as TOOL_CALLS_MEANING};

/// A result row's `data-fate`: the count its call adds to.
pub fn fate_word(fate: harness::event::ResultFate) -> &'static str {
    use harness::event::ResultFate;
    match fate {
        ResultFate::Ran => "ran",
        // Stopped at its time limit: it never finished, as the tally says.
        ResultFate::TimedOut | ResultFate::CutShort => "cut-short",
        ResultFate::ByPerson => "by-person",
        ResultFate::Invalid
        | ResultFate::Denied
        | ResultFate::OverLimit
        | ResultFate::StoppedBeforeStart
        | ResultFate::NotReached => "not-run",
    }
}

// ---------------------------------------------------------------------------
// Formatting

/// Milliseconds for people: `850 ms` below a second, `1.50 s` above.
pub fn format_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.2} s", ms as f64 / 1000.0)
    }
}

pub(crate) fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub(crate) fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// At most `max` characters, saying how many were left out.
pub(crate) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) => {
            let left_out = text[cut..].chars().count();
            format!("{}… ({left_out} more characters)", &text[..cut])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::approval::ApprovalPolicy;
    use harness::library::BUILTIN;
    use harness::limits::Limits;
    use harness::model::Usage;
    use serde_json::json;

    fn event(kind: EventKind) -> RunEvent {
        RunEvent {
            seq: 7,
            t_ms: 1234,
            kind,
        }
    }

    fn outcome(status: Status) -> Outcome {
        Outcome {
            status,
            reason: "the model ended its turn with a final answer".to_string(),
            cause: None,
            turns: 2,
            tool_calls: 1,
            calls: None,
            input_tokens: 420,
            output_tokens: 64,
            cost_usd: 0.000233,
            elapsed_ms: 1500,
            answer: Some("It is noon.".to_string()),
        }
    }

    #[test]
    fn a_status_is_drawn_in_the_tone_of_who_ended_the_run() {
        for status in Status::ALL {
            let expected = format!("tone-{}", status.tone().as_str());
            assert_eq!(status_tone(status).class(), expected, "{status}");
        }
        assert_eq!(status_tone(Status::Done).class(), "tone-model");
        assert_eq!(
            status_tone(Status::FailedVerification).class(),
            "tone-failure"
        );
        assert_eq!(status_tone(Status::Cancelled).class(), "tone-person");
        assert_eq!(status_tone(Status::TurnLimit).class(), "tone-guard");
    }

    #[test]
    fn the_banner_names_status_reason_and_numbers() {
        let banner = banner(&outcome(Status::Cancelled));
        assert_eq!(banner.status, "cancelled");
        assert_eq!(banner.tone, harness::event::StopTone::Person);
        assert_eq!(
            banner.reason,
            "the model ended its turn with a final answer"
        );
        let mut tools = ToolCallTally::default();
        assert_eq!(
            banner.facts(&tools),
            "2 turns · tool calls: none requested · 420 in / 64 out tokens · $0.000233 · 1.50 s"
        );
        for kind in [
            EventKind::ModelResponse {
                by_person: false,
                turn: 1,
                text: String::new(),
                content: vec![harness::message::ContentBlock::ToolUse(
                    harness::message::ToolCall {
                        id: "c1".into(),
                        name: "get_time".into(),
                        input: json!({}),
                        input_raw: None,
                    },
                )],
                stop_reason: "tool_use".into(),
                usage: Usage::default(),
                cost_usd: 0.0,
                latency_ms: 0,
            },
            EventKind::ToolResult {
                by_person: false,
                id: "c1".into(),
                name: "get_time".into(),
                content: "12:00".into(),
                is_error: false,
                latency_ms: 0,
                state: None,
                fate: Some(harness::event::ResultFate::Ran),
                media: Vec::new(),
            },
        ] {
            tools.apply(&event(kind));
        }
        assert_eq!(
            banner.facts(&tools),
            "2 turns · tool calls: 1 requested (1 ran) · 420 in / 64 out tokens · $0.000233 · 1.50 s"
        );
        assert_eq!(banner.answer.as_deref(), Some("It is noon."));
    }

    // The banner's reason (written by the harness) said "$0.0300"
    // while the facts line said "$0.03". Both, and the counter, now use
    // `harness::run::usd`.
    #[test]
    fn the_facts_and_the_counter_write_money_as_the_stop_reason_does() {
        let cause = harness::run::StopCause::CostSpent {
            spent: 0.03,
            budget: 0.025,
            turn: 2,
        };
        let mut spent = outcome(Status::CostLimit);
        spent.cost_usd = 0.03;
        spent.reason = cause.to_string();
        let banner = banner(&spent);
        assert!(
            banner.reason.starts_with("spent $0.0300 of $0.0250 budget"),
            "{}",
            banner.reason
        );
        let facts = banner.facts(&ToolCallTally::default());
        assert!(facts.contains(" · $0.0300 · "), "{facts}");
        let counters = Counters {
            cost_usd: 0.03,
            max_cost_usd: Some(0.025),
            ..Counters::default()
        };
        assert_eq!(counters.cost_text(), "$0.0300 / $0.0250");
    }

    #[test]
    fn the_outcome_is_the_last_run_finished_event() {
        let started = event(EventKind::ModelRequest {
            turn: 1,
            attempt: 1,
            messages: 1,
            estimated_input_tokens: 1,
            max_output_tokens: 1,
        });
        assert_eq!(outcome_of(std::slice::from_ref(&started)), None);
        let finished = event(EventKind::RunFinished(outcome(Status::Deadline)));
        assert_eq!(
            outcome_of(&[started, finished]).map(|o| o.status),
            Some(Status::Deadline)
        );
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(format_ms(0), "0 ms");
        assert_eq!(format_ms(999), "999 ms");
        assert_eq!(format_ms(1500), "1.50 s");
    }

    #[test]
    fn built_ins_are_grouped_in_library_order() {
        let with_server = harness::library::WITH_SERVER;
        let groups = scenario_groups(BUILTIN, with_server);
        let names: Vec<&str> = groups.iter().map(|g| g.name).collect();
        let mut expected: Vec<&str> = Vec::new();
        for builtin in BUILTIN
            .iter()
            .chain(with_server.iter().map(|w| &w.scenario))
        {
            if !expected.contains(&builtin.group) {
                expected.push(builtin.group);
            }
        }
        assert_eq!(names, expected);
        let count: usize = groups.iter().map(|g| g.options.len()).sum();
        assert_eq!(count, BUILTIN.len() + with_server.len());
        let marked: Vec<&str> = groups
            .iter()
            .flat_map(|g| &g.options)
            .filter(|o| o.needs_server)
            .map(|o| o.id)
            .collect();
        assert_eq!(marked, ["mcp-tools"]);
        assert!(groups
            .iter()
            .flat_map(|g| &g.options)
            .filter(|o| o.needs_server)
            .all(|o| o.label.ends_with(SERVER_MARK)));
        assert!(groups
            .iter()
            .flat_map(|g| &g.options)
            .all(|o| o.id != CUSTOM));
        let get_time = groups
            .iter()
            .flat_map(|g| &g.options)
            .find(|o| o.id == "get-time")
            .expect("get-time is built in");
        // get-time is the fixed half of a pitfall pair.
        assert_eq!(get_time.label, "What time is it? (seed 001) ⇄ pair");
        assert_eq!(get_time.expected_status, "done");
        for option in groups.iter().flat_map(|g| &g.options) {
            assert_eq!(
                option.label.ends_with(PAIR_MARK),
                harness::library::pair_of(option.id).is_some(),
                "{}",
                option.id
            );
        }
        let turn_limit = groups
            .iter()
            .flat_map(|g| &g.options)
            .find(|o| o.id == "turn-limit");
        assert_eq!(turn_limit.unwrap().label, "Turn limit");
    }

    #[test]
    fn labels_and_descriptions_fall_back_on_missing_facts_and_bad_json() {
        // No file named `odd`: build.rs read no name for it.
        let odd = [BuiltinScenario {
            id: "odd",
            group: "G",
            expected_status: "done",
        }];
        assert_eq!(scenario_groups(&odd, &[])[0].options[0].label, "odd");
        assert_eq!(scenario_description("not json"), None);
        assert_eq!(
            scenario_description(r#"{"description": "A lesson."}"#).as_deref(),
            Some("A lesson.")
        );
        assert!(find_builtin(BUILTIN, "get-time").is_some());
        assert!(find_builtin(BUILTIN, CUSTOM).is_none());
    }

    #[test]
    fn every_load_problem_is_listed_with_its_path() {
        let problems = match harness::scenario::Scenario::load("{\"name\": 1}") {
            Ok(_) => panic!("a scenario without a task or model must not load"),
            Err(problems) => problems,
        };
        let lines = problem_lines(&problems);
        assert_eq!(lines.len(), problems.len());
        assert!(!lines.is_empty());
        let broken = match harness::scenario::Scenario::load("{ not json") {
            Ok(_) => panic!("broken JSON must not load"),
            Err(problems) => problem_lines(&problems),
        };
        assert_eq!(broken.len(), 1);
        assert!(broken[0].starts_with("not valid JSON"), "{broken:?}");
    }

    #[test]
    fn edited_arguments_that_are_not_json_name_the_place_once() {
        assert_eq!(
            check_edited_args("{\"order_id\": }", None),
            Err(vec![
                "not valid JSON at line 1, column 14: expected a value: text in double quotes, a number, `true`, `false`, `null`, an object or an array".to_string()
            ])
        );
    }

    #[test]
    fn edited_args_must_be_an_object_the_schema_accepts() {
        let schema = json!({"type": "object", "properties": {"order_id": {"type": "string", "pattern": "^ord_"}}, "required": ["order_id"]});
        assert_eq!(
            check_edited_args(r#"{"order_id": "ord_1"}"#, Some(&schema)),
            Ok(json!({"order_id": "ord_1"}))
        );
        let errors = check_edited_args(r#"{"order_id": "x"}"#, Some(&schema)).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/order_id: "), "{errors:?}");
        let errors = check_edited_args("{", Some(&schema)).unwrap_err();
        assert!(errors[0].starts_with("not valid JSON"), "{errors:?}");
        assert_eq!(
            check_edited_args("[1]", None),
            Err(vec!["arguments must be a JSON object".to_string()])
        );
        assert_eq!(check_edited_args("{}", None), Ok(json!({})));
    }

    #[test]
    fn shortcuts_only_fire_outside_text_fields() {
        assert_eq!(is_shortcut("a", "BODY", false), Some('a'));
        assert_eq!(is_shortcut("D", "button", false), Some('d'));
        assert_eq!(is_shortcut("a", "TEXTAREA", false), None);
        assert_eq!(is_shortcut("d", "input", false), None);
        assert_eq!(is_shortcut("a", "BODY", true), None);
        assert_eq!(is_shortcut("x", "BODY", false), None);
    }

    #[test]
    fn pause_text_names_the_next_call() {
        use harness::run::PauseBefore;
        assert_eq!(
            pause_text(&PauseBefore::ModelCall { turn: 2 }),
            "Paused before model call (turn 2)"
        );
        assert_eq!(
            pause_text(&PauseBefore::ToolCall {
                id: "c1".into(),
                name: "get_time".into()
            }),
            "Paused before tool call get_time"
        );
    }

    #[test]
    fn counters_follow_the_log_and_end_on_the_outcome() {
        let limits = Limits {
            max_cost_usd: Some(0.5),
            deadline_ms: Some(45_000),
            ..Limits::default()
        };
        let mut events = vec![
            event(EventKind::RunStarted {
                scenario: "s".into(),
                model: "scripted".into(),
                approval: ApprovalPolicy::Ask,
                tools: vec![],
                limits,
                context: Default::default(),
                task: "t".into(),
            }),
            event(EventKind::ModelRequest {
                turn: 1,
                attempt: 1,
                messages: 1,
                estimated_input_tokens: 10,
                max_output_tokens: 1024,
            }),
            event(EventKind::ModelResponse {
                by_person: false,
                turn: 1,
                text: String::new(),
                content: vec![],
                stop_reason: "tool_use".into(),
                usage: Usage {
                    input_tokens: 100,
                    output_tokens: 20,
                },
                cost_usd: 0.25,
                latency_ms: 5,
            }),
            event(EventKind::ToolCall {
                turn: 1,
                id: "c1".into(),
                name: "get_time".into(),
                args: json!({}),
                args_raw: None,
                validation: harness::event::Validation::Valid,
                unchecked: Vec::new(),
                needs_approval: false,
            }),
        ];
        let c = counters(&events);
        assert_eq!(c.turn_text(), "1 / 10");
        assert_eq!(c.cost_text(), "$0.25 / $0.50");
        assert_eq!(c.cost_fraction(), Some(0.5));
        // The response above asked for no call: the tool_call row alone is not a request.
        assert_eq!(c.tool_calls_text(), "none requested");
        assert_eq!(c.tokens_text(), "100 in / 20 out");
        events.push(event(EventKind::RunFinished(outcome(Status::Done))));
        let c = counters(&events);
        assert_eq!((c.turn, c.input_tokens), (2, 420));
        assert_eq!(elapsed_text(1200, c.deadline_ms), "1.20 s / 45.00 s");
        assert_eq!(elapsed_text(850, None), "850 ms (no deadline)");
        assert_eq!(Counters::default().cost_fraction(), None);
    }

    #[test]
    fn the_built_in_tool_call_limit_run_counts_eight_requested_six_ran_two_not_run() {
        use futures::FutureExt;
        let scenario = harness::scenario::Scenario::load(
            harness::library::json_of("tool-call-limit").expect("tool-call-limit is built in"),
        )
        .expect("it loads");
        let mut events = Vec::new();
        // Its model and tools answer at once, so the run ends on the first poll.
        let finished = harness::run_scenario(
            &scenario,
            std::rc::Rc::new(harness::instant::StillClock),
            harness::RunOptions::default(),
            &mut |e: &RunEvent| events.push(e.clone()),
        )
        .now_or_never();
        assert!(
            matches!(finished, Some(Ok(_))),
            "the run did not end at once"
        );
        let c = counters(&events);
        let counts = c.tool_calls.counts();
        assert_eq!(
            (counts.requested, counts.checked, counts.ran, counts.not_run),
            (8, 7, 6, 2)
        );
        assert_eq!(
            c.tool_calls_text(),
            "8 requested (6 ran, 2 not run) · 7 checked, limit 6"
        );
        let outcome = outcome_of(&events).expect("finished");
        assert_eq!(outcome.calls, Some(counts));
        assert!(banner(outcome)
            .facts(&c.tool_calls)
            .starts_with("2 turns · tool calls: 8 requested (6 ran, 2 not run) · "));
    }
}
