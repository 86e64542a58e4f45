//! The timeline's shape: which card each event belongs to, and what each
//! event shows inside its card (the assistant's text, each tool call with its
//! pretty-printed arguments and validation, the approval decision, the
//! tool_result under its call), plus each turn's tokens, cost and latency.
//!
//! Invariants: pure functions of events, tested natively. A card is never
//! rebuilt: an event either opens a new card or is appended to the last one,
//! so a 1,000-turn run renders one new element per event.

use harness::approval::Decider;
use harness::event::{EventKind, ResultFate, RunEvent, Validation};
use harness::message::ContentBlock;
use harness::run::usd;

use crate::run::view_model::{clip, compact, format_ms, outcome_tone, plural, pretty, Tone};

/// What validation said about a call's arguments, as one line.
fn validation_line(validation: &Validation) -> String {
    match validation {
        Validation::Valid => "arguments valid".to_string(),
        Validation::UnknownTool { available } => {
            let available = if available.is_empty() {
                "none".to_string()
            } else {
                available.join(", ")
            };
            format!("unknown tool (available: {available})")
        }
        Validation::UnparseableArguments { message } => {
            format!("arguments are not JSON: {message}")
        }
        Validation::SchemaViolation { errors } => {
            format!("arguments break the schema: {}", errors.join("; "))
        }
    }
}

/// Results longer than this many characters (or lines) start collapsed.
pub const COLLAPSE_CHARS: usize = 400;
pub const COLLAPSE_LINES: usize = 8;

/// Arguments or results longer than this are clipped even when expanded; the
/// exported trace keeps them whole.
const MAX_BODY_CHARS: usize = 20_000;

/// Which card an event goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Open a new card: `Some(turn)` for a model turn, `None` for the run's
    /// start or end.
    NewCard(Option<u32>),
    /// Append to the newest card.
    Append,
}

/// `current` is the newest card's turn (`None` before the first turn or for a
/// run-level card).
pub fn placement(current: Option<u32>, event: &RunEvent) -> Placement {
    match &event.kind {
        EventKind::RunStarted { .. } | EventKind::RunFinished(_) => Placement::NewCard(None),
        // A retry of the same turn stays in its card.
        EventKind::ModelRequest { turn, .. } if current != Some(*turn) => {
            Placement::NewCard(Some(*turn))
        }
        // A strategy's edit shapes the request of the turn it comes before.
        EventKind::ContextEdited { turn, .. } if current != Some(*turn) => {
            Placement::NewCard(Some(*turn))
        }
        _ => Placement::Append,
    }
}

/// Which kind of event an item shows: the harness's `EventKind` without its
/// fields, so the timeline decides by variant and never by comparing words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    RunStarted,
    ModelRequest,
    ModelResponse,
    ModelError,
    ToolCall,
    ApprovalRequested,
    ApprovalDecided,
    ToolResult,
    ContextEdited,
    RunFinished,
}

impl EventType {
    /// An exhaustive match: an event the harness adds does not compile here
    /// until the page knows it.
    pub fn of(kind: &EventKind) -> Self {
        match kind {
            EventKind::RunStarted { .. } => EventType::RunStarted,
            EventKind::ModelRequest { .. } => EventType::ModelRequest,
            EventKind::ModelResponse { .. } => EventType::ModelResponse,
            EventKind::ModelError { .. } => EventType::ModelError,
            EventKind::ToolCall { .. } => EventType::ToolCall,
            EventKind::ApprovalRequested { .. } => EventType::ApprovalRequested,
            EventKind::ApprovalDecided { .. } => EventType::ApprovalDecided,
            EventKind::ToolResult { .. } => EventType::ToolResult,
            EventKind::ContextEdited { .. } => EventType::ContextEdited,
            EventKind::RunFinished(_) => EventType::RunFinished,
        }
    }

    /// The event's `type` in the trace, for `data-kind` (CSS and tests).
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::RunStarted => "run_started",
            EventType::ModelRequest => "model_request",
            EventType::ModelResponse => "model_response",
            EventType::ModelError => "model_error",
            EventType::ToolCall => "tool_call",
            EventType::ApprovalRequested => "approval_requested",
            EventType::ApprovalDecided => "approval_decided",
            EventType::ToolResult => "tool_result",
            EventType::ContextEdited => "context_edited",
            EventType::RunFinished => "run_finished",
        }
    }
}

/// One event inside a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub seq: u64,
    /// Which event it shows.
    pub kind: EventType,
    pub tone: Tone,
    pub title: String,
    /// Short lines under the title.
    pub lines: Vec<String>,
    /// A preformatted block: pretty arguments or a result's content.
    pub body: Option<String>,
    /// The body is long enough to start collapsed behind "Show all".
    pub collapsible: bool,
    /// Drawn indented under the call it belongs to.
    pub nested: bool,
    /// For a tool that writes to a store: the store after this call, pretty
    /// JSON, shown folded under the result.
    pub state: Option<String>,
    /// For a tool_result: what became of the call (counted as the header counts it).
    pub fate: Option<ResultFate>,
    /// For an approval request: the call it asks about, so the approval bar
    /// shows under this request only while that call waits.
    pub call_id: Option<String>,
    /// The `tool_use` ids it carries, shown on the card so the pairing can
    /// be seen: a call's own id and its result's `tool_use_id` (the same
    /// id), or the ids of the calls a response asks for, in order.
    pub ids: Vec<String>,
    /// For a tool_result: its id names no call of its turn, so it pairs
    /// with nothing (a harness that made up the id, an imported body).
    pub answers_no_call: bool,
    /// For a call of a turn that asked for several at once, and for its
    /// approval and result: its place among them (1-based) and how many.
    pub parallel: Option<(usize, usize)>,
    /// A person wrote it in step mode, in the model's or the tool's place.
    pub by_person: bool,
    /// For a tool_result: its images, audio and binary resources, drawn
    /// under its text.
    pub media: Vec<harness::message::Media>,
    /// For a context strategy's edit: the history's size before and after,
    /// against the window, drawn as two bars.
    pub context_gauge: Option<ContextGauge>,
}

/// What a context strategy's edit did to the size of the next request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextGauge {
    /// Estimated input tokens before and after the edit.
    pub before: u64,
    pub after: u64,
    /// The request's output allowance (`max_output_tokens`), which the
    /// window must hold too.
    pub output: u64,
    /// `window_tokens`, when the scenario sets one.
    pub window: Option<u64>,
}

impl ContextGauge {
    /// The gauge with the output allowance and the window of the run
    /// `events` belong to (its `run_started`).
    pub fn in_run(self, events: &[RunEvent]) -> ContextGauge {
        match events.first().map(|e| &e.kind) {
            Some(EventKind::RunStarted {
                limits, context, ..
            }) => ContextGauge {
                output: u64::from(limits.max_output_tokens),
                window: context.window_tokens,
                ..self
            },
            _ => self,
        }
    }

    /// The scale the bars are drawn to: the largest of the three.
    pub fn scale(&self) -> u64 {
        (self.before + self.output)
            .max(self.window.unwrap_or(0))
            .max(1)
    }

    /// A bar's width in percent of the scale, at least 1 so it shows.
    pub fn percent(&self, tokens: u64) -> f64 {
        (tokens as f64 * 100.0 / self.scale() as f64).clamp(1.0, 100.0)
    }
}

/// The line a person's turn or result carries, so the card says in words
/// who wrote it.
pub const WRITTEN_AS_MODEL: &str =
    "✍ Written by you, in the model's place: the model was not asked";
pub const WRITTEN_AS_TOOL: &str = "✍ Typed by you, in the tool's place: the tool did not run";

fn item(event: &RunEvent, tone: Tone, title: String) -> Item {
    Item {
        seq: event.seq,
        kind: EventType::of(&event.kind),
        tone,
        title,
        lines: Vec::new(),
        body: None,
        collapsible: false,
        nested: false,
        state: None,
        fate: None,
        call_id: None,
        ids: Vec::new(),
        answers_no_call: false,
        parallel: None,
        by_person: false,
        media: Vec::new(),
        context_gauge: None,
    }
}

pub fn is_long(text: &str) -> bool {
    text.chars().count() > COLLAPSE_CHARS || text.lines().count() > COLLAPSE_LINES
}

/// The first lines of a long body, as shown while collapsed.
pub fn collapsed(text: &str) -> String {
    let mut out: String = text
        .lines()
        .take(COLLAPSE_LINES)
        .collect::<Vec<_>>()
        .join("\n");
    if out.chars().count() > COLLAPSE_CHARS {
        out = out.chars().take(COLLAPSE_CHARS).collect();
    }
    out.push('…');
    out
}

/// What a card shows for an event, told without the events around it (see
/// `card_item_in`).
pub fn card_item(event: &RunEvent) -> Option<Item> {
    card_item_in(event, &[])
}

/// What a card shows for an event. `earlier` are the card's events before
/// it: a call's arguments, decision and result all fall in one card, and a
/// decision or a result is told against the call. Every event of the trace is
/// shown; the `Option` leaves room for events a card's header covers on its own.
pub fn card_item_in(event: &RunEvent, earlier: &[RunEvent]) -> Option<Item> {
    let mut it = item_of(event, earlier)?;
    it.parallel = parallel_place(event, earlier);
    Some(it)
}

/// Where `event`'s call stands among the calls its turn's response asked
/// for, when it asked for more than one. Counted by the call events, not by
/// id, so calls that share an id (a protocol lesson) still count apart.
fn parallel_place(event: &RunEvent, earlier: &[RunEvent]) -> Option<(usize, usize)> {
    let (since, asked) = earlier
        .iter()
        .enumerate()
        .rev()
        .find_map(|(at, e)| match &e.kind {
            EventKind::ModelResponse { content, .. } => {
                Some((at + 1, harness::message::tool_calls_of(content).count()))
            }
            _ => None,
        })?;
    if asked < 2 {
        return None;
    }
    let calls: Vec<&str> = earlier[since..]
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let at = match &event.kind {
        EventKind::ToolCall { .. } => calls.len(),
        EventKind::ApprovalRequested { id, .. }
        | EventKind::ApprovalDecided { id, .. }
        | EventKind::ToolResult { id, .. } => calls.iter().rposition(|c| c == id)?,
        _ => return None,
    };
    Some((at + 1, asked))
}

/// The card of one event. Each kind of event has its own function saying
/// how its card reads; each takes the whole event (its number and time go
/// on the card) and answers `None` for a kind that is not its own.
fn item_of(event: &RunEvent, earlier: &[RunEvent]) -> Option<Item> {
    match &event.kind {
        EventKind::RunStarted { .. } => run_started_card(event),
        EventKind::RunFinished(_) => run_finished_card(event),
        EventKind::ContextEdited { .. } => context_edited_card(event),
        EventKind::ModelRequest { .. } => model_request_card(event),
        EventKind::ModelResponse { .. } => model_response_card(event),
        EventKind::ModelError { .. } => model_error_card(event),
        EventKind::ToolCall { .. } => tool_call_card(event),
        EventKind::ApprovalRequested { .. } => approval_requested_card(event),
        EventKind::ApprovalDecided { .. } => approval_decided_card(event, earlier),
        EventKind::ToolResult { .. } => tool_result_card(event, earlier),
    }
}

fn run_started_card(event: &RunEvent) -> Option<Item> {
    let EventKind::RunStarted {
        scenario,
        model,
        approval,
        tools,
        limits,
        context,
        task,
    } = &event.kind
    else {
        return None;
    };
    let tools = if tools.is_empty() {
        "no tools".to_string()
    } else {
        format!("tools: {}", tools.join(", "))
    };
    let mut it = item(event, Tone::Normal, format!("Run started: {scenario}"));
    it.lines = vec![
        format!("task: {task}"),
        format!(
            "model {model} · {tools} · approval {} · at most {}",
            approval.as_str(),
            plural(u64::from(limits.max_turns), "turn")
        ),
    ];
    if let Some(summary) = context.summary(limits.max_output_tokens) {
        it.lines.push(format!("context: {summary}"));
    }
    Some(it)
}

/// The status alone: the reason is the stop banner's, right below the last
/// card, and saying it here too would show the same sentence twice.
fn run_finished_card(event: &RunEvent) -> Option<Item> {
    let EventKind::RunFinished(outcome) = &event.kind else {
        return None;
    };
    let tone = outcome_tone(outcome);
    let mark = match tone {
        Tone::Stop(stop) => stop.icon(),
        _ => "",
    };
    Some(item(
        event,
        tone,
        format!("{mark} Run finished: {}", outcome.status.as_str()),
    ))
}

/// The Context gate's edit: what the strategy did in its own words, and
/// the request's size before and after against the window.
fn context_edited_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ContextEdited {
        strategy,
        description,
        tokens_before,
        tokens_after,
        ..
    } = &event.kind
    else {
        return None;
    };
    let title = format!("✂ Context gate: {} made room", strategy.as_str());
    let mut it = item(event, Tone::Normal, title);
    it.lines.push(description.clone());
    // The window is the run's (`run_started`, in another card):
    // `ContextGauge::in_run` fills it in.
    it.context_gauge = Some(ContextGauge {
        before: *tokens_before,
        after: *tokens_after,
        output: 0,
        window: None,
    });
    Some(it)
}

fn model_request_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ModelRequest {
        attempt,
        messages,
        estimated_input_tokens,
        max_output_tokens,
        ..
    } = &event.kind
    else {
        return None;
    };
    let title = if *attempt > 1 {
        format!("Request to the model (attempt {attempt})")
    } else {
        "Request to the model".to_string()
    };
    let mut it = item(event, Tone::Normal, title);
    it.lines.push(format!(
            "{} · ~{estimated_input_tokens} input tokens (estimate) · up to {max_output_tokens} output tokens",
            plural(*messages as u64, "message")
        ));
    Some(it)
}

fn model_response_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ModelResponse {
        content,
        stop_reason,
        by_person,
        ..
    } = &event.kind
    else {
        return None;
    };
    let mut it = item(
        event,
        Tone::Normal,
        format!("Assistant · stop_reason {stop_reason}"),
    );
    if *by_person {
        it.by_person = true;
        it.lines.push(WRITTEN_AS_MODEL.to_string());
    }
    let calls = content
        .iter()
        .filter(|b| matches!(b, ContentBlock::ToolUse(_)))
        .count();
    for block in content {
        match block {
            ContentBlock::Thinking { thinking, .. } => {
                it.lines.push(format!("thinking: {thinking}"));
            }
            ContentBlock::Text { text } if !text.is_empty() => {
                it.body = Some(match it.body.take() {
                    Some(before) => format!("{before}\n\n{text}"),
                    None => text.clone(),
                });
            }
            _ => {}
        }
    }
    match calls {
            0 => {}
            1 => it.lines.push("asks for 1 tool call".to_string()),
            n => it.lines.push(format!(
                "asks for {n} tool calls at once: the harness runs them in turn, and all {n} results go back together in the next message"
            )),
        }
    it.ids = harness::message::tool_calls_of(content)
        .map(|call| call.id.clone())
        .collect();
    Some(it)
}

fn model_error_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ModelError {
        attempt,
        status,
        message,
        retry_in_ms,
        latency_ms,
        ..
    } = &event.kind
    else {
        return None;
    };
    let what = match status {
        Some(status) => format!("HTTP {status}: {message}"),
        None => message.clone(),
    };
    let (next, tone) = match retry_in_ms {
        Some(ms) => (format!("retrying in {}", format_ms(*ms)), Tone::Warn),
        None => ("not retried".to_string(), Tone::Error),
    };
    let mut it = item(event, tone, format!("Model error (attempt {attempt})"));
    it.lines = vec![what, format!("{next} · after {}", format_ms(*latency_ms))];
    Some(it)
}

fn tool_call_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ToolCall {
        id,
        name,
        args,
        args_raw,
        validation,
        unchecked,
        needs_approval,
        ..
    } = &event.kind
    else {
        return None;
    };
    let tone = if validation.is_valid() {
        Tone::Normal
    } else {
        Tone::Error
    };
    let approval = if *needs_approval {
        " (needs approval)"
    } else {
        ""
    };
    let mut it = item(event, tone, format!("Tool call {name}{approval}"));
    it.ids = vec![id.clone()];
    let body = match args_raw {
        Some(raw) => format!("(not JSON) {raw}"),
        None => pretty(args),
    };
    it.body = Some(clip(&body, MAX_BODY_CHARS));
    it.lines.push(match validation {
        // A pass says which checks it did not make.
        Validation::Valid if !unchecked.is_empty() => format!(
            "✓ arguments valid for the checks run here; left to the server: {}",
            unchecked.join("; ")
        ),
        Validation::Valid => "✓ arguments valid".to_string(),
        other => format!("✗ {}", validation_line(other)),
    });
    Some(it)
}

fn approval_requested_card(event: &RunEvent) -> Option<Item> {
    let EventKind::ApprovalRequested { id, name, .. } = &event.kind else {
        return None;
    };
    let mut it = item(event, Tone::Warn, format!("Approval requested for {name}"));
    it.call_id = Some(id.clone());
    it.nested = true;
    Some(it)
}

fn approval_decided_card(event: &RunEvent, earlier: &[RunEvent]) -> Option<Item> {
    let EventKind::ApprovalDecided {
        id,
        name,
        decision,
        by,
        reason,
        args,
    } = &event.kind
    else {
        return None;
    };
    let tone = if decision.is_denial() {
        Tone::Warn
    } else {
        Tone::Ok
    };
    let mut it = item(
        event,
        tone,
        format!(
            "Approval for {name}: {} (by {})",
            decision.as_str(),
            by.as_str()
        ),
    );
    if *by == Decider::Setting {
        it.lines
            .push("Nobody saw this call: a setting made before the run answered it.".to_string());
    }
    if let Some(reason) = reason {
        it.lines.push(format!("reason: {reason}"));
    }
    if let Some(edited) = args {
        // The edit changes what runs, not what the model asked for:
        // say both, so neither is mistaken for the other.
        it.lines.push(format!(
            "The tool runs with your edit: {}",
            clip(&compact(edited), 600)
        ));
        if let Some(asked) = call_args(earlier, id) {
            it.lines.push(format!(
                "The model's history keeps its own request: {}",
                clip(&compact(asked), 600)
            ));
        }
    }
    it.nested = true;
    Some(it)
}

fn tool_result_card(event: &RunEvent, earlier: &[RunEvent]) -> Option<Item> {
    let EventKind::ToolResult {
        id,
        name,
        content,
        is_error,
        latency_ms,
        state,
        by_person,
        fate,
        media,
    } = &event.kind
    else {
        return None;
    };
    let fate = fate.unwrap_or(ResultFate::Ran);
    // A result whose call is not in the trace (an imported body
    // that answers a call it never made) is for a call nobody knows.
    let known = !name.is_empty() || call_args(earlier, id).is_some();
    let title = match fate {
        _ if !known => format!("Result for an unknown call ({id})"),
        ResultFate::Ran if !*is_error => format!("Result from {name}"),
        // The content says it was stopped at its timeout.
        ResultFate::Ran | ResultFate::TimedOut => format!("Error result from {name}"),
        ResultFate::CutShort => format!("Cut short: {name}"),
        ResultFate::ByPerson => format!("Result typed for {name}"),
        ResultFate::Invalid
        | ResultFate::Denied
        | ResultFate::OverLimit
        | ResultFate::StoppedBeforeStart
        | ResultFate::NotReached => format!("Not run: {name}"),
    };
    let tone = if *is_error { Tone::Error } else { Tone::Normal };
    let mut it = item(event, tone, title);
    it.lines.push(format!(
        "{} characters · latency {}",
        content.chars().count(),
        format_ms(*latency_ms)
    ));
    it.collapsible = is_long(content);
    it.body = Some(clip(content, MAX_BODY_CHARS));
    if fate == ResultFate::Ran && edited_args(earlier, id).is_some() {
        it.lines
            .push("ran with your edited arguments, not the model's".to_string());
    }
    if *by_person {
        it.by_person = true;
        it.lines.push(WRITTEN_AS_TOOL.to_string());
    }
    it.state = state.as_ref().map(pretty);
    it.media = media.clone();
    it.fate = Some(fate);
    it.ids = vec![id.clone()];
    // The id the result went out under (the trace records the one sent):
    // when no call of the turn has it, the provider pairs it with nothing.
    it.answers_no_call = call_args(earlier, id).is_none();
    it.nested = true;
    Some(it)
}

/// The arguments the model sent for call `id`.
fn call_args<'a>(events: &'a [RunEvent], id: &str) -> Option<&'a serde_json::Value> {
    events.iter().find_map(|event| match &event.kind {
        EventKind::ToolCall { id: call, args, .. } if call == id => Some(args),
        _ => None,
    })
}

/// The arguments a person's edit gave call `id`, if they edited it.
fn edited_args<'a>(events: &'a [RunEvent], id: &str) -> Option<&'a serde_json::Value> {
    events.iter().find_map(|event| match &event.kind {
        EventKind::ApprovalDecided {
            id: call,
            args: Some(args),
            ..
        } if call == id => Some(args),
        _ => None,
    })
}

/// A turn's numbers for its card header: tokens, cost and latency of its
/// model response(s); `None` until the model answered.
pub fn turn_stats(events: &[RunEvent]) -> Option<String> {
    let mut seen = false;
    let (mut input, mut output, mut cost, mut latency) = (0, 0, 0.0, 0);
    for event in events {
        match &event.kind {
            EventKind::ModelResponse {
                usage,
                cost_usd,
                latency_ms,
                ..
            } => {
                seen = true;
                input += usage.input_tokens;
                output += usage.output_tokens;
                cost += cost_usd;
                latency += latency_ms;
            }
            EventKind::ModelError { latency_ms, .. } => latency += latency_ms,
            _ => {}
        }
    }
    seen.then(|| {
        format!(
            "{input} in / {output} out tokens · {} · {}",
            usd(cost),
            format_ms(latency)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::approval::{Decider, DecisionKind};
    use harness::event::StopTone;
    use harness::model::Usage;
    use serde_json::json;

    fn ev(seq: u64, kind: EventKind) -> RunEvent {
        RunEvent { seq, t_ms: 0, kind }
    }

    fn request(turn: u32, attempt: u32) -> EventKind {
        EventKind::ModelRequest {
            turn,
            attempt,
            messages: 1,
            estimated_input_tokens: 10,
            max_output_tokens: 1024,
        }
    }

    fn response(text: &str) -> EventKind {
        EventKind::ModelResponse {
            by_person: false,
            turn: 1,
            text: text.into(),
            content: vec![ContentBlock::Text { text: text.into() }],
            stop_reason: "end_turn".into(),
            usage: Usage {
                input_tokens: 100,
                output_tokens: 20,
            },
            cost_usd: 0.0001,
            latency_ms: 250,
        }
    }

    #[test]
    fn calls_asked_for_at_once_are_numbered_as_a_group_even_when_ids_repeat() {
        let lines = [
            r#"{"seq":0,"t_ms":0,"type":"model_response","turn":1,"text":"","content":[{"type":"tool_use","id":"dup","name":"n","input":{}},{"type":"tool_use","id":"dup","name":"n","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"cost_usd":0.0,"latency_ms":1}"#,
            r#"{"seq":1,"t_ms":0,"type":"tool_call","turn":1,"id":"dup","name":"n","args":{},"validation":{"outcome":"valid"},"needs_approval":false}"#,
            r#"{"seq":2,"t_ms":0,"type":"tool_result","id":"dup","name":"n","content":"1","is_error":false,"latency_ms":1}"#,
            r#"{"seq":3,"t_ms":0,"type":"tool_call","turn":1,"id":"dup","name":"n","args":{},"validation":{"outcome":"valid"},"needs_approval":false}"#,
            r#"{"seq":4,"t_ms":0,"type":"tool_result","id":"dup","name":"n","content":"2","is_error":false,"latency_ms":1}"#,
        ];
        let events: Vec<RunEvent> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let places: Vec<Option<(usize, usize)>> = (0..events.len())
            .map(|i| card_item_in(&events[i], &events[..i]).unwrap().parallel)
            .collect();
        assert_eq!(
            places,
            [None, Some((1, 2)), Some((1, 2)), Some((2, 2)), Some((2, 2))]
        );
        let response = card_item_in(&events[0], &[]).unwrap();
        assert!(response.lines[0].starts_with("asks for 2 tool calls at once"));
        // One call alone is no group.
        let single: RunEvent = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(card_item_in(&single, &[]).unwrap().parallel, None);
    }

    #[test]
    fn each_event_type_is_named_as_the_trace_names_it() {
        let lines = [
            r#"{"seq":0,"t_ms":0,"type":"run_started","scenario":"s","model":"scripted","approval":"ask","tools":[],"limits":{"max_turns":10},"task":"t"}"#,
            r#"{"seq":1,"t_ms":0,"type":"model_request","turn":1,"attempt":1,"messages":1,"estimated_input_tokens":1,"max_output_tokens":1}"#,
            r#"{"seq":2,"t_ms":0,"type":"model_error","turn":1,"attempt":1,"message":"m","latency_ms":1}"#,
            r#"{"seq":3,"t_ms":0,"type":"model_response","turn":1,"text":"","content":[],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"cost_usd":0.0,"latency_ms":1}"#,
            r#"{"seq":4,"t_ms":0,"type":"tool_call","turn":1,"id":"c","name":"n","args":{},"validation":{"outcome":"valid"},"needs_approval":true}"#,
            r#"{"seq":5,"t_ms":0,"type":"approval_requested","id":"c","name":"n","args":{}}"#,
            r#"{"seq":6,"t_ms":0,"type":"approval_decided","id":"c","name":"n","decision":"approve","by":"user"}"#,
            r#"{"seq":7,"t_ms":0,"type":"tool_result","id":"c","name":"n","content":"x","is_error":false,"latency_ms":1}"#,
            r#"{"seq":8,"t_ms":0,"type":"run_finished","status":"done","reason":"r","turns":1,"tool_calls":1,"input_tokens":1,"output_tokens":1,"cost_usd":0.0,"elapsed_ms":1,"answer":null}"#,
        ];
        for line in lines {
            let event: RunEvent =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let word = serde_json::to_value(&event).unwrap()["type"].clone();
            assert_eq!(EventType::of(&event.kind).as_str(), word, "{line}");
        }
    }

    #[test]
    fn calls_and_results_carry_the_tool_use_id_that_pairs_them() {
        let event = |line: &str| -> RunEvent { serde_json::from_str(line).unwrap() };
        let response = event(
            r#"{"seq":3,"t_ms":0,"type":"model_response","turn":1,"text":"","content":[{"type":"tool_use","id":"toolu_1","name":"n","input":{}},{"type":"tool_use","id":"toolu_2","name":"n","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"cost_usd":0.0,"latency_ms":1}"#,
        );
        assert_eq!(card_item(&response).unwrap().ids, ["toolu_1", "toolu_2"]);
        let call = event(
            r#"{"seq":4,"t_ms":0,"type":"tool_call","turn":1,"id":"toolu_2","name":"n","args":{},"validation":{"outcome":"valid"},"needs_approval":false}"#,
        );
        let result = event(
            r#"{"seq":7,"t_ms":0,"type":"tool_result","id":"toolu_2","name":"n","content":"x","is_error":false,"latency_ms":1}"#,
        );
        assert_eq!(card_item(&call).unwrap().ids, ["toolu_2"]);
        assert_eq!(card_item(&result).unwrap().ids, ["toolu_2"]);
        assert!(card_item(&event(r#"{"seq":1,"t_ms":0,"type":"model_request","turn":1,"attempt":1,"messages":1,"estimated_input_tokens":1,"max_output_tokens":1}"#)).unwrap().ids.is_empty());
    }

    #[test]
    fn a_result_under_an_id_no_call_of_its_turn_has_answers_no_call() {
        let event = |line: &str| -> RunEvent { serde_json::from_str(line).unwrap() };
        let call = event(
            r#"{"seq":3,"t_ms":0,"type":"tool_call","turn":1,"id":"toolu_0001","name":"get_time","args":{},"validation":{"outcome":"valid"},"needs_approval":false}"#,
        );
        let result = |id: &str| {
            event(&format!(
                r#"{{"seq":4,"t_ms":0,"type":"tool_result","id":"{id}","name":"get_time","content":"x","is_error":false,"latency_ms":1}}"#
            ))
        };
        let sent = card_item_in(&result("call_0"), std::slice::from_ref(&call)).unwrap();
        assert_eq!(sent.ids, ["call_0"]);
        assert!(sent.answers_no_call);
        let paired = card_item_in(&result("toolu_0001"), std::slice::from_ref(&call)).unwrap();
        assert!(!paired.answers_no_call);
    }

    #[test]
    fn a_model_request_for_a_new_turn_opens_a_card_and_retries_do_not() {
        assert_eq!(
            placement(None, &ev(1, request(1, 1))),
            Placement::NewCard(Some(1))
        );
        assert_eq!(placement(Some(1), &ev(2, request(1, 2))), Placement::Append);
        assert_eq!(
            placement(Some(1), &ev(3, request(2, 1))),
            Placement::NewCard(Some(2))
        );
        assert_eq!(
            placement(Some(2), &ev(4, response("hi"))),
            Placement::Append
        );
    }

    #[test]
    fn a_tool_call_shows_pretty_args_and_its_validation() {
        let call = ev(
            5,
            EventKind::ToolCall {
                turn: 1,
                id: "c1".into(),
                name: "book".into(),
                args: json!({"nights": "two"}),
                args_raw: None,
                validation: Validation::SchemaViolation {
                    errors: vec!["/nights: expected integer".into()],
                },
                unchecked: Vec::new(),
                needs_approval: true,
            },
        );
        let it = card_item(&call).unwrap();
        assert_eq!(it.title, "Tool call book (needs approval)");
        assert_eq!(it.body.as_deref(), Some("{\n  \"nights\": \"two\"\n}"));
        assert_eq!(
            it.lines,
            ["✗ arguments break the schema: /nights: expected integer"]
        );
        assert_eq!(it.tone, Tone::Error);
        assert!(!it.nested);
    }

    #[test]
    fn a_pass_names_the_checks_left_to_the_server() {
        let call = ev(
            5,
            EventKind::ToolCall {
                turn: 1,
                id: "c1".into(),
                name: "pick".into(),
                args: json!({}),
                args_raw: None,
                validation: Validation::Valid,
                unchecked: vec!["/unevaluatedProperties: not checked here".into()],
                needs_approval: false,
            },
        );
        assert_eq!(
            card_item(&call).unwrap().lines,
            ["✓ arguments valid for the checks run here; left to the server: /unevaluatedProperties: not checked here"]
        );
    }

    #[test]
    fn results_nest_under_their_call_are_marked_and_collapse_when_long() {
        let result = |content: String, is_error| {
            card_item(&ev(
                6,
                EventKind::ToolResult {
                    by_person: false,
                    id: "c1".into(),
                    name: "get_time".into(),
                    content,
                    is_error,
                    latency_ms: 3,
                    state: None,
                    fate: Some(ResultFate::Ran),
                    media: Vec::new(),
                },
            ))
            .unwrap()
        };
        let short = result("{\"ok\":true}".into(), false);
        assert!(short.nested && !short.collapsible);
        assert_eq!(short.tone, Tone::Normal);
        assert_eq!(short.lines, ["11 characters · latency 3 ms"]);
        let error = result("denied by the user".into(), true);
        assert_eq!(error.tone, Tone::Error);
        assert_eq!(error.title, "Error result from get_time");
        let long = result("x".repeat(COLLAPSE_CHARS + 1), false);
        assert!(long.collapsible);
        let many_lines = result("a\n".repeat(COLLAPSE_LINES + 1), false);
        assert!(many_lines.collapsible);
        let shown = collapsed(&"line\n".repeat(20));
        assert_eq!(shown.lines().count(), COLLAPSE_LINES);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn decisions_show_who_decided_and_why() {
        let it = card_item(&ev(
            7,
            EventKind::ApprovalDecided {
                id: "c1".into(),
                name: "issue_refund".into(),
                decision: DecisionKind::Deny,
                by: Decider::User,
                reason: Some("not today".into()),
                args: None,
            },
        ))
        .unwrap();
        assert_eq!(it.title, "Approval for issue_refund: deny (by user)");
        assert_eq!(it.lines, ["reason: not today"]);
        assert_eq!(it.tone, Tone::Warn);
    }

    #[test]
    fn a_decision_made_by_a_setting_says_nobody_saw_the_call() {
        let it = card_item(&ev(
            7,
            EventKind::ApprovalDecided {
                id: "c1".into(),
                name: "issue_refund".into(),
                decision: DecisionKind::Approve,
                by: Decider::Setting,
                reason: None,
                args: None,
            },
        ))
        .unwrap();
        assert_eq!(it.title, "Approval for issue_refund: approve (by setting)");
        assert_eq!(
            it.lines,
            ["Nobody saw this call: a setting made before the run answered it."]
        );
    }

    #[test]
    fn the_assistant_text_is_the_body_and_the_header_has_the_turn_numbers() {
        let events = [ev(1, request(1, 1)), ev(2, response("It is noon."))];
        assert_eq!(turn_stats(&events[..1]), None);
        assert_eq!(
            turn_stats(&events).as_deref(),
            Some("100 in / 20 out tokens · $0.000100 · 250 ms")
        );
        let it = card_item(&events[1]).unwrap();
        assert_eq!(it.body.as_deref(), Some("It is noon."));
        assert_eq!(it.title, "Assistant · stop_reason end_turn");
    }

    #[test]
    fn the_run_level_events_name_the_setup_and_the_status() {
        let started = card_item(&ev(
            0,
            EventKind::RunStarted {
                scenario: "Get time".into(),
                model: "scripted".into(),
                approval: harness::approval::ApprovalPolicy::Ask,
                tools: vec!["get_time".into()],
                limits: harness::limits::Limits::default(),
                context: Default::default(),
                task: "What time is it?".into(),
            },
        ))
        .unwrap();
        assert_eq!(started.title, "Run started: Get time");
        assert_eq!(
            started.lines,
            [
                "task: What time is it?",
                "model scripted · tools: get_time · approval ask · at most 10 turns"
            ]
        );
        let finished = |status| {
            card_item(&ev(
                9,
                EventKind::RunFinished(harness::event::Outcome {
                    status,
                    reason: "why".into(),
                    cause: None,
                    turns: 1,
                    tool_calls: 0,
                    calls: None,
                    input_tokens: 0,
                    output_tokens: 0,
                    cost_usd: 0.0,
                    elapsed_ms: 0,
                    answer: None,
                }),
            ))
            .unwrap()
        };
        let done = finished(harness::event::Status::Done);
        assert_eq!(
            (done.kind, done.title.as_str(), done.tone),
            (
                EventType::RunFinished,
                "■ Run finished: done",
                Tone::Stop(StopTone::ModelStop)
            )
        );
        assert!(done.lines.is_empty(), "the banner says why, once");
        // The banner's tone and mark, whoever ended the run.
        for (status, tone) in [
            (harness::event::Status::TurnLimit, StopTone::Guard),
            (
                harness::event::Status::FailedVerification,
                StopTone::Failure,
            ),
            (harness::event::Status::ModelError, StopTone::Failure),
            (harness::event::Status::Cancelled, StopTone::Person),
        ] {
            let card = finished(status);
            assert_eq!(card.tone, Tone::Stop(tone), "{}", status.as_str());
            assert!(card.title.starts_with(tone.icon()), "{}", card.title);
        }
    }

    #[test]
    fn model_errors_say_whether_they_are_retried() {
        let error = |retry_in_ms| {
            card_item(&ev(
                4,
                EventKind::ModelError {
                    turn: 1,
                    attempt: 1,
                    status: Some(429),
                    message: "rate_limit_error".into(),
                    retry_in_ms,
                    latency_ms: 12,
                },
            ))
            .unwrap()
        };
        let retried = error(Some(500));
        assert_eq!(retried.title, "Model error (attempt 1)");
        assert_eq!(retried.lines[0], "HTTP 429: rate_limit_error");
        assert!(
            retried.lines[1].starts_with("retrying in"),
            "{:?}",
            retried.lines
        );
        assert_eq!(retried.tone, Tone::Warn);
        let last = error(None);
        assert!(last.lines[1].starts_with("not retried"));
        assert_eq!(last.tone, Tone::Error);
    }

    fn call_of(id: &str, order: &str) -> EventKind {
        EventKind::ToolCall {
            turn: 2,
            id: id.into(),
            name: "issue_refund".into(),
            args: json!({"order_id": order}),
            args_raw: None,
            validation: Validation::Valid,
            unchecked: Vec::new(),
            needs_approval: true,
        }
    }

    fn result_of(id: &str, content: &str, is_error: bool, fate: ResultFate) -> EventKind {
        EventKind::ToolResult {
            by_person: false,
            id: id.into(),
            name: "issue_refund".into(),
            content: content.into(),
            is_error,
            latency_ms: 0,
            state: None,
            fate: Some(fate),
            media: Vec::new(),
        }
    }

    #[test]
    fn an_edited_approval_says_what_ran_and_what_the_model_asked_for() {
        let card = [
            ev(1, call_of("c1", "ord_f6g7h8i9j0")),
            ev(
                2,
                EventKind::ApprovalRequested {
                    id: "c1".into(),
                    name: "issue_refund".into(),
                    args: json!({"order_id": "ord_f6g7h8i9j0"}),
                },
            ),
            ev(
                3,
                EventKind::ApprovalDecided {
                    id: "c1".into(),
                    name: "issue_refund".into(),
                    decision: DecisionKind::ApproveEdited,
                    by: Decider::User,
                    reason: None,
                    args: Some(json!({"order_id": "ord_k1l2m3n4o5"})),
                },
            ),
            ev(
                4,
                result_of(
                    "c1",
                    r#"{"ok":true,"order_id":"ord_k1l2m3n4o5"}"#,
                    false,
                    ResultFate::Ran,
                ),
            ),
        ];
        let decision = card_item_in(&card[2], &card[..2]).unwrap();
        assert_eq!(
            decision.title,
            "Approval for issue_refund: approve_edited (by user)"
        );
        assert_eq!(
            decision.lines,
            [
                r#"The tool runs with your edit: {"order_id":"ord_k1l2m3n4o5"}"#,
                r#"The model's history keeps its own request: {"order_id":"ord_f6g7h8i9j0"}"#,
            ]
        );
        let result = card_item_in(&card[3], &card[..3]).unwrap();
        assert_eq!(result.fate, Some(ResultFate::Ran));
        assert_eq!(result.title, "Result from issue_refund");
        assert_eq!(
            result.lines[1],
            "ran with your edited arguments, not the model's"
        );
        // A plain approval adds neither line.
        let plain = card_item_in(&card[3], &card[..2]).unwrap();
        assert_eq!(plain.lines.len(), 1);
    }

    #[test]
    fn results_say_whether_the_tool_ran() {
        let denied = [
            ev(1, call_of("c1", "ord_f6g7h8i9j0")),
            ev(
                2,
                EventKind::ApprovalDecided {
                    id: "c1".into(),
                    name: "issue_refund".into(),
                    decision: DecisionKind::DenyAndStop,
                    by: Decider::Policy,
                    reason: None,
                    args: None,
                },
            ),
            ev(
                3,
                result_of(
                    "c1",
                    "denied: the policy is deny_all",
                    true,
                    ResultFate::Denied,
                ),
            ),
        ];
        let it = card_item_in(&denied[2], &denied[..2]).unwrap();
        assert_eq!(
            (it.title.as_str(), it.fate, it.tone),
            (
                "Not run: issue_refund",
                Some(ResultFate::Denied),
                Tone::Error
            )
        );
        let cases = [
            (ResultFate::OverLimit, "Not run: issue_refund"),
            (ResultFate::StoppedBeforeStart, "Not run: issue_refund"),
            (ResultFate::CutShort, "Cut short: issue_refund"),
            (ResultFate::TimedOut, "Error result from issue_refund"),
            (ResultFate::Ran, "Error result from issue_refund"),
            (ResultFate::ByPerson, "Result typed for issue_refund"),
        ];
        for (fate, title) in cases {
            let it = card_item(&ev(8, result_of("c7", "tool error: no", true, fate))).unwrap();
            assert_eq!((it.title.as_str(), it.fate), (title, Some(fate)));
        }
    }

    #[test]
    fn a_result_for_a_call_the_trace_never_made_says_so() {
        let orphan = EventKind::ToolResult {
            by_person: false,
            id: "toolu_orphan".into(),
            name: String::new(),
            content: "42".into(),
            is_error: false,
            latency_ms: 0,
            state: None,
            fate: Some(ResultFate::Ran),
            media: Vec::new(),
        };
        let it = card_item(&ev(3, orphan)).unwrap();
        assert_eq!(it.title, "Result for an unknown call (toolu_orphan)");
    }
}
