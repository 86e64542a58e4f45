//! An OTLP/JSON trace read back as a run.
//!
//! Our own export carries every trace event (`agent_loop.event`) and the
//! scenario, so it comes back exactly. A trace from another tool's GenAI
//! instrumentation is rebuilt from its spans: each `chat` span a model turn
//! (its `gen_ai.output.messages`, `gen_ai.response.finish_reasons`,
//! `gen_ai.usage.*`), each `execute_tool` span a call with its result.
//! Where no `execute_tool` spans exist (a provider SDK's instrumentation
//! sees only the model calls), a call's result is read from the next chat's
//! `gen_ai.input.messages`. An `execute_tool` span without
//! `gen_ai.tool.call.id` is paired with its turn's calls by order, and a
//! turn without a finish reason is read from what it asked for (tools:
//! `tool_use`; none, in the last turn: the answer). A model call traced twice (an instrumentation's
//! span beside the SDK's own) is read once (`merge`), and the system prompt
//! and tool definitions become the record's scenario (`scenario`), so the
//! import replays and forks. Spans in the OpenInference conventions (Arize
//! Phoenix's) are first given the GenAI attributes they stand for
//! (`openinference`). What the trace does not hold is said in
//! `notes`, never made up: content capture is opt-in in every
//! instrumentation.

use crate::error::OtlpError;
use serde_json::{json, Value};

use super::attributes::attribute;
use super::{AGENT_LOOP_EVENT, AGENT_LOOP_SCENARIO, EVENT_JSON};
use crate::event::writer::TraceWriter;
use crate::event::{EventKind, Outcome, RunEvent, Status, Validation};
use crate::message::{ContentBlock, ToolCall};
use crate::model::Usage;
use crate::replay::Record;
use crate::scenario::Scenario;

/// A run read from a trace, and what could not be read from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub record: Record,
    /// Plain sentences: content missing, spans skipped, other traces left.
    pub notes: Vec<String>,
    /// The trace is an agent-loop export, read back event for event.
    pub ours: bool,
    /// The conventions another tool's spans were read from, in a few
    /// words: "GenAI spans", "OpenInference spans", or both.
    pub conventions: &'static str,
}

/// The conventions' operations that are a call to a model.
const CHAT_OPERATIONS: [&str; 3] = ["chat", "text_completion", "generate_content"];

const NOT_CAPTURED: &str = "(not in the trace: message content was not captured)";

/// Reads the first trace of an OTLP/JSON document as a run.
pub fn from_otlp(document: &Value) -> Result<Imported, OtlpError> {
    let mut spans = all_spans(document);
    // Events written as log records (resourceLogs beside resourceSpans) go
    // onto their spans as span events, the form `legacy` reads.
    super::legacy::attach_log_events(document, &mut spans);
    if spans.is_empty() {
        return Err(OtlpError::NoSpans);
    }
    let native_genai = spans
        .iter()
        .any(|s| attribute(s, "gen_ai.operation.name").is_some());
    // OpenInference spans (Arize Phoenix's conventions) read as GenAI ones.
    let openinference = super::openinference::read(&mut spans);
    let conventions = match (native_genai, openinference.spans > 0) {
        (true, true) => "GenAI and OpenInference spans",
        (false, true) => "OpenInference spans",
        _ => "GenAI spans",
    };
    let mut notes = Vec::new();
    let first_trace = string(&spans[0], "traceId");
    let traces = {
        let mut ids: Vec<String> = spans.iter().map(|s| string(s, "traceId")).collect();
        ids.sort();
        ids.dedup();
        ids.len()
    };
    if traces > 1 {
        let is_agent = |s: &Value| {
            attribute(s, "gen_ai.operation.name").and_then(|v| v.as_str().map(str::to_string))
                == Some("invoke_agent".to_string())
        };
        if spans.iter().any(is_agent) {
            notes.push(format!(
                "The file holds {traces} traces; the first, {first_trace}, was read."
            ));
            spans.retain(|s| string(s, "traceId") == first_trace);
        } else {
            // A provider SDK's instrumentation with no agent span around it
            // makes each model call a trace of its own.
            notes.push(format!(
                "The file holds {traces} traces and no invoke_agent span: each model call was its own trace, as an SDK's instrumentation writes them without an agent span around them. They were read as one run, in time order."
            ));
        }
    }
    if let Some(record) = ours(&spans)? {
        return Ok(Imported {
            record,
            notes,
            ours: true,
            conventions,
        });
    }
    notes.extend(openinference.notes);
    // Content in an older form of the conventions, read as the current one.
    let mut upgraded = 0;
    for span in spans.iter_mut() {
        if let Some(newer) = super::legacy::upgrade(span) {
            *span = newer;
            upgraded += 1;
        }
    }
    if upgraded > 0 {
        notes.push(format!(
            "Message content on {upgraded} span{} was read from an older form of the GenAI conventions (gen_ai.*.message / gen_ai.choice span events, gen_ai.content.prompt / completion, or gen_ai.prompt.N / gen_ai.completion.N attributes).",
            if upgraded == 1 { "" } else { "s" }
        ));
    }
    let (spans, merged) = super::merge::model_calls(spans, &CHAT_OPERATIONS);
    if merged > 0 {
        notes.push(format!(
            "{merged} model call{} traced by more than one span (two instrumentations, or one beside the SDK's own spans): each was read as one call, its spans matched by gen_ai.response.id or by nesting.",
            if merged == 1 { " was" } else { "s were" }
        ));
    }
    let record = foreign(&spans, &mut notes)?;
    Ok(Imported {
        record,
        notes,
        ours: false,
        conventions,
    })
}

fn all_spans(document: &Value) -> Vec<Value> {
    let list = |v: &Value, key: &str| {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut spans = Vec::new();
    for resource in list(document, "resourceSpans") {
        // Older exporters say instrumentationLibrarySpans.
        let scopes = [
            list(&resource, "scopeSpans"),
            list(&resource, "instrumentationLibrarySpans"),
        ]
        .concat();
        for scope in scopes {
            spans.extend(list(&scope, "spans"));
        }
    }
    spans
}

/// Our export: the events from `agent_loop.event`, in `seq` order.
fn ours(spans: &[Value]) -> Result<Option<Record>, OtlpError> {
    let mut events = Vec::new();
    let mut scenario = None;
    for span in spans {
        for event in span
            .get("events")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if event.get("name").and_then(Value::as_str) != Some(AGENT_LOOP_EVENT) {
                continue;
            }
            let text = attribute(event, EVENT_JSON)
                .and_then(|v| v.as_str().map(str::to_string))
                .ok_or(OtlpError::EventWithoutJson)?;
            let parsed: RunEvent =
                serde_json::from_str(&text).map_err(|e| OtlpError::NotAnEvent(e.to_string()))?;
            events.push(parsed);
        }
        if let Some(text) =
            attribute(span, AGENT_LOOP_SCENARIO).and_then(|v| v.as_str().map(str::to_string))
        {
            scenario = Some(Scenario::load(&text).map_err(|problems| {
                OtlpError::ScenarioDoesNotLoad(
                    problems
                        .first()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                )
            })?);
        }
    }
    if events.is_empty() {
        return Ok(None);
    }
    events.sort_by_key(|e| e.seq);
    Ok(Some(Record {
        scenario,
        events,
        forked_at: None,
    }))
}

/// A GenAI span of another tool, in start order.
struct GenaiSpan<'a> {
    span: &'a Value,
    operation: String,
    start_ns: u128,
    end_ns: u128,
}

/// Another tool's GenAI spans sorted into what a run is made of.
struct Layout<'s, 'a> {
    chats: Vec<&'s GenaiSpan<'a>>,
    tools: Vec<&'s GenaiSpan<'a>>,
    /// For each of `tools`, the chat it belongs to.
    owner: Vec<Option<usize>>,
    agent: Option<&'s GenaiSpan<'a>>,
    /// The earliest start: time zero of the run.
    t0: u128,
}

impl Layout<'_, '_> {
    /// Milliseconds since the run's start.
    fn ms(&self, ns: u128) -> u64 {
        ((ns.saturating_sub(self.t0)) / 1_000_000) as u64
    }
}

/// What the turns add up to, for the run's outcome.
#[derive(Default)]
struct Totals {
    input_tokens: u64,
    output_tokens: u64,
    calls: u32,
    last_finish: Option<String>,
    unknown_finishes: u32,
    /// Responses with no finish reason that asked for tools, read as `tool_use`.
    inferred_tool_use: u32,
    /// The last response gave no finish reason and asked for no tools: it
    /// was read as the run's answer (`end_turn`).
    inferred_answer: bool,
    /// Calls whose id the trace does not hold, given one here.
    assigned_ids: u32,
    last_text: Option<String>,
    /// The message of a failed model call.
    failed: Option<String>,
}

/// Another tool's trace, rebuilt from its GenAI spans: the run's start,
/// each chat span's turn with its calls and results, how it ended if the
/// trace says, and the scenario.
fn foreign(spans: &[Value], notes: &mut Vec<String>) -> Result<Record, OtlpError> {
    let genai = genai_spans(spans)?;
    let layout = lay_out(&genai, notes);
    let (started, scenario_name, model) = run_started(&layout, notes);
    let mut trace = TraceWriter::new();
    trace.push(0, started);
    let mut totals = Totals::default();
    for index in 0..layout.chats.len() {
        push_turn(&mut trace, &layout, index, &mut totals);
    }
    let end_ms = trace.last_ms();
    match imported_outcome(&totals, layout.chats.len() as u32, end_ms) {
        Some(outcome) => trace.push(end_ms, EventKind::RunFinished(outcome)),
        None => notes.push(format!(
            "The trace does not say how the run ended (its last response {}), so the run has no stop status.",
            match totals.last_finish.as_deref() {
                Some("tool_use" | "tool_calls") => "asked for tools".to_string(),
                Some("unknown") | None => "gave no finish reason".to_string(),
                Some(other) => format!("stopped with finish reason {other}"),
            }
        )),
    }
    notes.extend(finish_notes(&totals));
    let mut events = trace.into_events();
    crate::event::backfill(&mut events);
    let chat_spans: Vec<&Value> = layout.chats.iter().map(|c| c.span).collect();
    let scenario = super::scenario::rebuild(&chat_spans, &events, &scenario_name, &model, notes);
    if let Some(scenario) = &scenario {
        // The run offered the scenario's tools, not only those it called.
        if let Some(EventKind::RunStarted { tools, limits, .. }) =
            events.first_mut().map(|e| &mut e.kind)
        {
            *tools = scenario
                .tool_specs()
                .unwrap_or_default()
                .into_iter()
                .map(|s| s.name)
                .collect();
            *limits = scenario.limits.clone();
        }
    }
    Ok(Record {
        scenario,
        events,
        forked_at: None,
    })
}

/// The spans that follow the GenAI conventions, in start order (spans
/// with the same start keep the file's order).
fn genai_spans(spans: &[Value]) -> Result<Vec<GenaiSpan<'_>>, OtlpError> {
    let mut genai: Vec<GenaiSpan> = spans
        .iter()
        .filter_map(|span| {
            let operation = attribute(span, "gen_ai.operation.name")
                .and_then(|v| v.as_str().map(str::to_string))?;
            Some(GenaiSpan {
                span,
                operation,
                start_ns: nanos(span, "startTimeUnixNano"),
                end_ns: nanos(span, "endTimeUnixNano"),
            })
        })
        .collect();
    if genai.is_empty() {
        return Err(OtlpError::NoGenaiSpans { spans: spans.len() });
    }
    genai.sort_by_key(|s| s.start_ns);
    Ok(genai)
}

/// The chats, the tool spans and the chat each belongs to, and the agent;
/// a note for the spans of other operations, which are left out.
fn lay_out<'s, 'a>(genai: &'s [GenaiSpan<'a>], notes: &mut Vec<String>) -> Layout<'s, 'a> {
    let chats: Vec<&GenaiSpan> = genai
        .iter()
        .filter(|s| CHAT_OPERATIONS.contains(&s.operation.as_str()))
        .collect();
    let tools: Vec<&GenaiSpan> = genai
        .iter()
        .filter(|s| s.operation == "execute_tool")
        .collect();
    // The agent span that names the agent (an SDK's workflow span around
    // it may be an invoke_agent span without a name).
    let agents: Vec<&GenaiSpan> = genai
        .iter()
        .filter(|s| s.operation == "invoke_agent")
        .collect();
    let agent = agents
        .iter()
        .find(|s| attribute(s.span, "gen_ai.agent.name").is_some())
        .or(agents.first())
        .copied();
    // Each tool span belongs to the chat last started before it.
    let mut owner: Vec<Option<usize>> = Vec::new();
    let mut current = None;
    for span in genai {
        match span.operation.as_str() {
            "execute_tool" => owner.push(current),
            op if CHAT_OPERATIONS.contains(&op) => current = Some(current.map_or(0, |c| c + 1)),
            _ => {}
        }
    }
    if let Some(note) = left_out_note(genai, agents.len()) {
        notes.push(note);
    }
    Layout {
        chats,
        tools,
        owner,
        agent,
        t0: genai.iter().map(|s| s.start_ns).min().unwrap_or(0),
    }
}

/// The GenAI spans read as neither a turn, a call nor the agent, counted
/// by their operation as the trace names it.
fn left_out_note(genai: &[GenaiSpan], agents: usize) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for span in genai {
        let operation = span.operation.as_str();
        if CHAT_OPERATIONS.contains(&operation)
            || operation == "execute_tool"
            || operation == "invoke_agent"
        {
            continue;
        }
        match counts.iter_mut().find(|(op, _)| op == operation) {
            Some((_, n)) => *n += 1,
            None => counts.push((operation.to_string(), 1)),
        }
    }
    if agents > 1 {
        counts.push(("invoke_agent (beyond the one read)".to_string(), agents - 1));
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    if total == 0 {
        return None;
    }
    let listed: Vec<String> = counts.iter().map(|(op, n)| format!("{n} {op}")).collect();
    Some(format!(
        "{total} GenAI span{} neither a model call nor a tool call, so {} left out (by gen_ai.operation.name: {}).",
        if total == 1 { " is" } else { "s are" },
        if total == 1 { "it was" } else { "they were" },
        listed.join(", ")
    ))
}

fn text_attr(span: &Value, key: &str) -> Option<String> {
    attribute(span, key).and_then(|v| v.as_str().map(str::to_string))
}

fn json_attr(span: &Value, key: &str) -> Option<Value> {
    text_attr(span, key).and_then(|t| serde_json::from_str::<Value>(&t).ok())
}

/// The run's first event, the scenario's name and the model, from what the
/// spans say; a note when they carry no message content.
fn run_started(layout: &Layout, notes: &mut Vec<String>) -> (EventKind, String, String) {
    let chats = &layout.chats;
    let model = chats
        .iter()
        .find_map(|c| {
            text_attr(c.span, "gen_ai.request.model")
                .or_else(|| text_attr(c.span, "gen_ai.response.model"))
        })
        .unwrap_or_else(|| "unknown model".to_string());
    let first_input = chats
        .first()
        .and_then(|c| json_attr(c.span, "gen_ai.input.messages"));
    let task = first_input
        .as_ref()
        .and_then(|messages| first_text_of_role(messages, "user"))
        .unwrap_or_else(|| NOT_CAPTURED.to_string());
    if chats
        .iter()
        .all(|c| attribute(c.span, "gen_ai.output.messages").is_none())
    {
        notes.push("The trace has no message content (gen_ai.input.messages / gen_ai.output.messages): capture is opt-in in every instrumentation. Timing, tools and tokens are shown; texts are not.".to_string());
    }
    let name = layout
        .agent
        .and_then(|a| text_attr(a.span, "gen_ai.agent.name"))
        .unwrap_or_else(|| "Imported OpenTelemetry trace".to_string());
    let mut tool_names: Vec<String> = layout
        .tools
        .iter()
        .filter_map(|t| text_attr(t.span, "gen_ai.tool.name"))
        .collect();
    tool_names.dedup();
    let started = EventKind::RunStarted {
        scenario: name.clone(),
        model: model.clone(),
        approval: Default::default(),
        tools: tool_names,
        limits: Default::default(),
        context: Default::default(),
        task,
    };
    (started, name, model)
}

/// The events of the chat at `index`: its request, then its error, or its
/// response and each call it asked for with the call's result.
fn push_turn(trace: &mut TraceWriter, layout: &Layout, index: usize, totals: &mut Totals) {
    let chat = layout.chats[index];
    let turn = index as u32 + 1;
    let usage = Usage {
        input_tokens: int(chat.span, "gen_ai.usage.input_tokens"),
        output_tokens: int(chat.span, "gen_ai.usage.output_tokens"),
    };
    totals.input_tokens += usage.input_tokens;
    totals.output_tokens += usage.output_tokens;
    let latency_ms = ((chat.end_ns.saturating_sub(chat.start_ns)) / 1_000_000) as u64;
    trace.push(
        layout.ms(chat.start_ns),
        EventKind::ModelRequest {
            turn,
            attempt: 1,
            messages: json_attr(chat.span, "gen_ai.input.messages")
                .and_then(|m| m.as_array().map(Vec::len))
                .unwrap_or(0),
            estimated_input_tokens: usage.input_tokens,
            max_output_tokens: int(chat.span, "gen_ai.request.max_tokens") as u32,
        },
    );
    if status_code(chat.span) == 2 {
        let message = chat.span["status"]["message"]
            .as_str()
            .unwrap_or("the model call failed")
            .to_string();
        trace.push(
            layout.ms(chat.end_ns),
            EventKind::ModelError {
                turn,
                attempt: 1,
                status: None,
                message: message.clone(),
                retry_in_ms: None,
                latency_ms,
            },
        );
        totals.failed = Some(message);
        return;
    }
    let own_tools: Vec<&GenaiSpan> = layout
        .tools
        .iter()
        .zip(&layout.owner)
        .filter(|(_, owner)| **owner == Some(index))
        .map(|(tool, _)| *tool)
        .collect();
    let output = json_attr(chat.span, "gen_ai.output.messages");
    let mut content = output.as_ref().map(content_of).unwrap_or_default();
    if !content
        .iter()
        .any(|b| matches!(b, ContentBlock::ToolUse(_)))
    {
        // No calls in the captured output: they are known from their own
        // spans. A span without gen_ai.tool.call.id (the OpenAI Agents
        // SDK's instrumentation writes none) gets an id made here, and the
        // notes say so.
        content.extend(own_tools.iter().enumerate().map(|(k, t)| {
            let id = text_attr(t.span, "gen_ai.tool.call.id").unwrap_or_else(|| {
                totals.assigned_ids += 1;
                format!("call_{turn}_{k}")
            });
            ContentBlock::ToolUse(ToolCall {
                id,
                name: text_attr(t.span, "gen_ai.tool.name").unwrap_or_default(),
                input: json_attr(t.span, "gen_ai.tool.call.arguments").unwrap_or(json!({})),
                input_raw: None,
            })
        }));
    }
    let asks_for_tools = content
        .iter()
        .any(|b| matches!(b, ContentBlock::ToolUse(_)));
    let is_last = index + 1 == layout.chats.len();
    let finish = match finish_reason(chat.span, output.as_ref()) {
        Some(reason) => reason,
        // No finish reason in the trace: a response that asked for tools
        // is a tool_use turn, whatever the provider called it.
        None if asks_for_tools => {
            totals.inferred_tool_use += 1;
            "tool_use".to_string()
        }
        // The last response, with no calls: the loop stopped on it, so it
        // was the run's answer.
        None if is_last => {
            totals.inferred_answer = true;
            "end_turn".to_string()
        }
        None => {
            totals.unknown_finishes += 1;
            "unknown".to_string()
        }
    };
    totals.last_finish = Some(finish.clone());
    totals.last_text = Some(text_of(&content));
    let text = text_of(&content);
    let tool_uses: Vec<ToolCall> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolUse(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    trace.push(
        layout.ms(chat.end_ns),
        EventKind::ModelResponse {
            turn,
            text,
            content,
            stop_reason: finish,
            usage,
            cost_usd: 0.0,
            latency_ms,
            by_person: false,
        },
    );
    // Each call and its result: from its execute_tool span, else from the next chat's input.
    let next = layout.chats.get(index + 1);
    let next_start = next.map_or(u128::MAX, |c| c.start_ns);
    let next_input = next.and_then(|c| json_attr(c.span, "gen_ai.input.messages"));
    let mut paired = vec![false; own_tools.len()];
    for call in tool_uses {
        totals.calls += 1;
        let span = tool_span_of(&call, &own_tools, &mut paired).map(|k| own_tools[k]);
        let (start, end, result, is_error) = match span {
            Some(t) => (
                t.start_ns,
                t.end_ns,
                text_attr(t.span, "gen_ai.tool.call.result"),
                status_code(t.span) == 2,
            ),
            None => (
                chat.end_ns,
                next_start.min(chat.end_ns),
                next_input.as_ref().and_then(|m| tool_response(m, &call.id)),
                false,
            ),
        };
        push_call(trace, layout, turn, call, (start, end), result, is_error);
    }
}

/// The index in `own_tools` (the execute_tool spans of the call's turn) of
/// the call's span: the one with its id, else the first not yet paired that
/// has no id and the call's tool name (a trace whose execute_tool spans
/// carry no gen_ai.tool.call.id is paired by order within the turn).
fn tool_span_of(call: &ToolCall, own_tools: &[&GenaiSpan], paired: &mut [bool]) -> Option<usize> {
    let id_of = |k: usize| text_attr(own_tools[k].span, "gen_ai.tool.call.id");
    let by_id = (0..own_tools.len()).find(|&k| id_of(k).as_deref() == Some(call.id.as_str()));
    let found = by_id.or_else(|| {
        (0..own_tools.len()).find(|&k| {
            !paired[k]
                && id_of(k).is_none()
                && text_attr(own_tools[k].span, "gen_ai.tool.name")
                    .is_none_or(|name| name == call.name)
        })
    })?;
    paired[found] = true;
    Some(found)
}

/// What the notes say of the finish reasons and ids the trace did not hold.
fn finish_notes(totals: &Totals) -> Vec<String> {
    let plural = |n: u32, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let mut notes = Vec::new();
    let inferred = totals.inferred_tool_use + u32::from(totals.inferred_answer);
    if inferred > 0 {
        let mut read_as = Vec::new();
        if totals.inferred_tool_use > 0 {
            read_as.push(format!(
                "{} that asked for tools read as tool_use",
                totals.inferred_tool_use
            ));
        }
        if totals.inferred_answer {
            read_as.push(
                "the last, which asked for none, read as the run's answer (end_turn)".to_string(),
            );
        }
        notes.push(format!(
            "{inferred} model {} no finish reason in the trace (gen_ai.response.finish_reasons, the output message's finish_reason or the provider's stop reason): {}.",
            plural(inferred, "call has", "calls have"),
            read_as.join("; ")
        ));
    }
    let unknown = totals.unknown_finishes;
    if unknown > 0 {
        notes.push(format!(
            "{unknown} model {} no finish reason in the trace and asked for no tools before the last: shown as \"unknown\".",
            plural(unknown, "call has", "calls have")
        ));
    }
    let assigned = totals.assigned_ids;
    if assigned > 0 {
        notes.push(format!(
            "{assigned} tool {} no id in the trace (no gen_ai.tool.call.id on {}, and no tool_call part in the model's output messages): {} assigned here (call_<turn>_<n>), and each result was paired with its call by order within its turn.",
            plural(assigned, "call has", "calls have"),
            plural(assigned, "its execute_tool span", "their execute_tool spans"),
            plural(assigned, "its id was", "their ids were")
        ));
    }
    notes
}

/// A call and its result, as the trace timed them.
fn push_call(
    trace: &mut TraceWriter,
    layout: &Layout,
    turn: u32,
    call: ToolCall,
    (start, end): (u128, u128),
    result: Option<String>,
    is_error: bool,
) {
    trace.push(
        layout.ms(start),
        EventKind::ToolCall {
            turn,
            id: call.id.clone(),
            name: call.name.clone(),
            args: call.input.clone(),
            args_raw: None,
            validation: Validation::Valid,
            unchecked: Vec::new(),
            needs_approval: false,
        },
    );
    let content = result.unwrap_or_else(|| NOT_CAPTURED.to_string());
    trace.push(
        layout.ms(end),
        EventKind::ToolResult {
            id: call.id,
            name: call.name,
            content,
            is_error,
            latency_ms: ((end.saturating_sub(start)) / 1_000_000) as u64,
            state: None,
            by_person: false,
            fate: Some(crate::event::ResultFate::Ran),
            media: Vec::new(),
        },
    );
}

/// How the run ended, when the trace says: a failed model call, the
/// provider's context window, or a final answer (by its finish reason, or,
/// with none in the trace, by asking for no tools). `None` when its last
/// response asked for tools or stopped for another reason.
fn imported_outcome(totals: &Totals, turns: u32, end_ms: u64) -> Option<Outcome> {
    let finished = |status: Status, reason: String| Outcome {
        status,
        reason,
        cause: None,
        turns,
        tool_calls: totals.calls,
        calls: None,
        input_tokens: totals.input_tokens,
        output_tokens: totals.output_tokens,
        cost_usd: 0.0,
        elapsed_ms: end_ms,
        answer: None,
    };
    match (&totals.failed, totals.last_finish.as_deref()) {
        (Some(message), _) => Some(finished(
            Status::ModelError,
            format!("imported: the last model call failed: {message}"),
        )),
        (None, Some(reason @ "model_context_window_exceeded")) => Some(finished(
            Status::ContextLimit,
            format!("imported: the provider stopped: the request no longer fits the model's context window (finish reason {reason})"),
        )),
        (None, Some("end_turn")) if totals.inferred_answer => Some(Outcome {
            answer: totals.last_text.clone(),
            ..finished(
                Status::Done,
                "imported: the last response asked for no tools (the trace gives no finish reason), so it was the run's answer".to_string(),
            )
        }),
        (None, Some(reason @ ("stop" | "end_turn"))) => Some(Outcome {
            answer: totals.last_text.clone(),
            ..finished(
                Status::Done,
                format!("imported: the last response ended with finish reason {reason}"),
            )
        }),
        _ => None,
    }
}

fn text_of(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text and tool calls of the conventions' output messages.
fn content_of(messages: &Value) -> Vec<ContentBlock> {
    let mut content = Vec::new();
    for message in messages.as_array().into_iter().flatten() {
        for part in message
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match part.get("type").and_then(Value::as_str) {
                Some("text") => content.push(ContentBlock::Text {
                    text: part["content"].as_str().unwrap_or_default().to_string(),
                }),
                Some("reasoning") => content.push(ContentBlock::Thinking {
                    thinking: part["content"].as_str().unwrap_or_default().to_string(),
                    signature: None,
                }),
                Some("tool_call") => {
                    // Arguments are an object, or a JSON text in some instrumentations.
                    let arguments = match &part["arguments"] {
                        Value::String(text) => {
                            serde_json::from_str(text).unwrap_or(Value::String(text.clone()))
                        }
                        other => other.clone(),
                    };
                    content.push(ContentBlock::ToolUse(ToolCall {
                        id: part["id"].as_str().unwrap_or_default().to_string(),
                        name: part["name"].as_str().unwrap_or_default().to_string(),
                        input: arguments,
                        input_raw: None,
                    }))
                }
                _ => {}
            }
        }
    }
    content
}

fn first_text_of_role(messages: &Value, role: &str) -> Option<String> {
    messages
        .as_array()?
        .iter()
        .filter(|m| m["role"] == role)
        .find_map(|m| {
            m["parts"]
                .as_array()?
                .iter()
                .find(|p| p["type"] == "text")
                .and_then(|p| p["content"].as_str().map(str::to_string))
        })
}

/// The response a tool call got, from the input messages that carried it back.
fn tool_response(messages: &Value, id: &str) -> Option<String> {
    messages
        .as_array()?
        .iter()
        .flat_map(|m| m["parts"].as_array().into_iter().flatten())
        .find(|p| p["type"] == "tool_call_response" && p["id"] == id)
        .map(|p| match &p["response"] {
            Value::String(text) => text.clone(),
            // Content blocks, as the Anthropic SDK's spans write a result.
            Value::Array(blocks)
                if blocks.iter().all(|b| {
                    b.get("text")
                        .or_else(|| b.get("content"))
                        .is_some_and(Value::is_string)
                }) =>
            {
                blocks
                    .iter()
                    .filter_map(|b| {
                        b.get("text")
                            .or_else(|| b.get("content"))
                            .and_then(Value::as_str)
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            other => other.to_string(),
        })
}

/// The call's finish reason: the conventions' attribute, else the output
/// message's own `finish_reason`, else the provider's stop reason as its
/// SDK records it (`anthropic.message.stop_reason`).
fn finish_reason(span: &Value, output: Option<&Value>) -> Option<String> {
    attribute(span, "gen_ai.response.finish_reasons")
        .and_then(|v| v.as_array().and_then(|a| a.first().cloned()))
        .and_then(|v| v.as_str().map(str::to_string))
        .or_else(|| {
            output?
                .as_array()?
                .iter()
                .find_map(|m| m["finish_reason"].as_str().map(str::to_string))
        })
        .or_else(|| {
            attribute(span, "anthropic.message.stop_reason")
                .and_then(|v| v.as_str().map(str::to_string))
        })
        .filter(|r| !r.is_empty())
}

fn int(span: &Value, key: &str) -> u64 {
    attribute(span, key).and_then(|v| v.as_u64()).unwrap_or(0)
}

fn nanos(span: &Value, key: &str) -> u128 {
    match &span[key] {
        Value::String(text) => text.parse().unwrap_or(0),
        other => other.as_u64().map_or(0, u128::from),
    }
}

/// A span's status code: 2 is an error. OTLP/JSON writes the number, but
/// exporters that go through protobuf's JSON printer write the enum's name
/// (`"STATUS_CODE_ERROR"`), which protobuf's JSON mapping accepts too
/// (https://protobuf.dev/programming-guides/json/).
fn status_code(span: &Value) -> u64 {
    match &span["status"]["code"] {
        Value::String(name) => match name.as_str() {
            "STATUS_CODE_OK" => 1,
            "STATUS_CODE_ERROR" => 2,
            _ => 0,
        },
        code => code.as_u64().unwrap_or(0),
    }
}

fn string(span: &Value, key: &str) -> String {
    span[key].as_str().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_status_code_is_read_as_a_number_or_an_enum_name() {
        assert_eq!(status_code(&json!({"status": {"code": 2}})), 2);
        assert_eq!(
            status_code(&json!({"status": {"code": "STATUS_CODE_ERROR"}})),
            2
        );
        assert_eq!(
            status_code(&json!({"status": {"code": "STATUS_CODE_OK"}})),
            1
        );
        assert_eq!(status_code(&json!({"status": {}})), 0);
    }
}
