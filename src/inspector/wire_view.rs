//! The inspector's logic: for a turn of a run, the request body each
//! provider would receive for that turn's model call (cut into segments a
//! verdict can mark), the checker's verdict on it per provider, what each
//! provider would have answered (whole, and as its SSE events), and the
//! request as a `curl` command with the key left out.
//!
//! Pure: it reads the run log (the controller's events) and the scenario's
//! request shape, and never touches the browser. The request itself is
//! rebuilt by `harness::wire::request_at_turn`, the same code the CLI's
//! `wire` and `check` use, so the page and the CLI show the same bodies; the
//! answers are written by the encoders `agent-loop serve` answers with.

use harness::event::{EventKind, RunEvent};
use harness::model::ModelResponse;
use harness::pairing::{conversation, Conversation};
use harness::wire::encode::{error_body, response_body, stream_events, Meta};
use harness::wire::{
    check_request, request_at_turn, thinking_of_trace, Provider, RequestShape, WireRequest,
};

use crate::inspector::marked_json::{mark_of, segments, Segment};

/// One line of a provider's verdict: the provider's error text (its HTTP 400
/// message), what it means, where on the wire it points, and the mark of
/// the message or block there (see `marked_json`).
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictLine {
    pub message: String,
    pub explanation: String,
    pub path: String,
    /// The path in plain words: "the 3rd message (user), its 1st block, a
    /// tool_result".
    pub place: String,
    pub mark: Option<String>,
    /// The provider documents this refusal; `false` for one known only from
    /// public issue threads (`Rule::documented`).
    pub documented: bool,
}

/// What the run in the log spoke, from its `run_started` model label:
/// `None` for the scripted model, which speaks no wire format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFormat {
    pub provider: Option<Provider>,
    /// The model name the bodies carry (`scripted` for the scripted model).
    pub model: String,
    pub streamed: bool,
}

/// The label the provider adapter gives a streamed run's model (see
/// `harness::provider`): "OpenAI Chat Completions (streamed) gpt-4o".
const STREAMED: &str = "(streamed) ";

pub fn run_format(events: &[RunEvent]) -> RunFormat {
    let label = events.iter().find_map(|e| match &e.kind {
        EventKind::RunStarted { model, .. } => Some(model.as_str()),
        _ => None,
    });
    let Some(label) = label else {
        return RunFormat::default();
    };
    for provider in Provider::ALL {
        if let Some(rest) = label
            .strip_prefix(provider.label())
            .and_then(|r| r.strip_prefix(' '))
        {
            let (streamed, model) = match rest.strip_prefix(STREAMED) {
                Some(model) => (true, model),
                None => (false, rest),
            };
            return RunFormat {
                provider: Some(provider),
                model: model.to_string(),
                streamed,
            };
        }
    }
    RunFormat {
        provider: None,
        model: label.to_string(),
        streamed: false,
    }
}

/// The conversation's id links in a line: how many, and how many broken,
/// in numbers that agree with their nouns ("1 id link is broken").
pub fn links_summary(links: usize, broken: usize) -> String {
    let plural = |n: usize, one: &str, many: &str| if n == 1 { one } else { many }.to_string();
    match (links, broken) {
        (0, _) => "No tool_use or tool_result in this request yet.".to_string(),
        (1, 0) => {
            "✓ The tool_use id is answered by one tool_result, in the next message.".to_string()
        }
        (n, 0) => format!(
            "✓ All {n} tool_use ids are answered by one tool_result each, in the next message."
        ),
        (n, b) if b >= n => format!("✗ {n} id {} broken:", plural(n, "link is", "links are")),
        (n, b) => format!(
            "✗ {b} of the {n} id links {} broken:",
            plural(b, "is", "are")
        ),
    }
}

/// The model of a run that spoke no provider's format, in words: "the
/// scripted model", "the rules model (a teaching model)", or its label.
pub fn model_in_words(label: &str) -> String {
    match label {
        "scripted" | "" => "the scripted model".to_string(),
        rules if rules.starts_with("rules") => {
            "the rules model (a teaching model that picks tools by rule)".to_string()
        }
        other => format!("the model “{other}”"),
    }
}

/// One answer to a turn's request, as a provider would send it.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerWire {
    /// "Attempt 1: HTTP 429", "The response".
    pub title: String,
    /// The body, pretty-printed; for a call that got no answer at all (a
    /// timeout, a broken connection), what happened.
    pub body: String,
    /// The SSE events a streamed response arrives as; empty for an error.
    pub events: Vec<String>,
}

/// One provider's view of a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderWire {
    pub provider: Provider,
    pub label: &'static str,
    /// The request body, pretty-printed and cut for marking.
    pub request: Vec<Segment>,
    /// The same, whole, for Copy.
    pub request_json: String,
    pub curl: String,
    /// Empty when the provider would accept the request.
    pub violations: Vec<VerdictLine>,
    /// What came back, in order: errors first (each retried), then the
    /// response; empty while the turn waits.
    pub answers: Vec<AnswerWire>,
}

impl ProviderWire {
    pub fn accepted(&self) -> bool {
        self.violations.is_empty()
    }
}

/// A turn, as the inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnWire {
    pub turn: u32,
    pub format: RunFormat,
    pub providers: Vec<ProviderWire>,
    /// The request's messages, laid out with their id links.
    pub conversation: Conversation,
    /// How many messages the turn before sent: the rows after them are new.
    pub earlier_messages: usize,
}

/// The turns that sent a model request, in order, each once (retries share a turn).
pub fn request_turns(events: &[RunEvent]) -> Vec<u32> {
    let mut turns: Vec<u32> = Vec::new();
    for event in events {
        if let EventKind::ModelRequest { turn, .. } = event.kind {
            if !turns.contains(&turn) {
                turns.push(turn);
            }
        }
    }
    turns
}

/// The turn of the first model request after event `seq`: the request that
/// carries a tool call or result logged at `seq` to the model, if one was
/// sent (a run that ends after a result never sends it).
pub fn first_request_after(events: &[RunEvent], seq: u64) -> Option<u32> {
    let from = events.partition_point(|e| e.seq <= seq);
    events[from..].iter().find_map(|e| match e.kind {
        EventKind::ModelRequest { turn, .. } => Some(turn),
        _ => None,
    })
}

/// How many requests, responses and errors of turn `turn` the log holds:
/// what changes the inspector's view of that turn.
pub fn events_of_turn(events: &[RunEvent], turn: u32) -> usize {
    events
        .iter()
        .filter(|e| match e.kind {
            EventKind::ModelRequest { turn: t, .. }
            | EventKind::ModelResponse { turn: t, .. }
            | EventKind::ModelError { turn: t, .. } => t == turn,
            _ => false,
        })
        .count()
}

/// What the Context gate did to the history turn `turn`'s request carries,
/// in words, oldest first: each strategy edit made before that request
/// (an edit stays in every later request). Empty for a run no strategy
/// touched.
pub fn context_edits_up_to(events: &[RunEvent], turn: u32) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ContextEdited {
                turn: t,
                strategy,
                description,
                ..
            } if *t <= turn => Some(format!(
                "before turn {t}, {}: {description}",
                strategy.as_str()
            )),
            _ => None,
        })
        .collect()
}

/// `selected` when that turn sent a request, else the latest turn that did.
pub fn effective_turn(events: &[RunEvent], selected: Option<u32>) -> Option<u32> {
    let turns = request_turns(events);
    selected
        .filter(|t| turns.contains(t))
        .or_else(|| turns.last().copied())
}

/// Turn `turn` as each provider would see it, with the history as it stood
/// when its request was sent. `None` when the turn sent no request.
pub fn turn_wire(events: &[RunEvent], shape: &RequestShape, turn: u32) -> Option<TurnWire> {
    let request = request_at_turn(events, turn)?;
    let format = run_format(events);
    let wire = WireRequest {
        model: &format.model,
        system: &shape.system,
        messages: &request.messages,
        tools: &shape.tools,
        tool_choice: &shape.tool_choice,
        max_output_tokens: request.max_output_tokens,
        stream: format.streamed,
    };
    // Checked with the run's thinking setting, as the banner and the cards
    // are (`wire::rejections`), so the three never disagree on a turn.
    let thinking = thinking_of_trace(events);
    let providers = Provider::ALL
        .iter()
        .map(|&provider| {
            let body = provider.request_body(&wire);
            let request_json = pretty(&body);
            let violations = check_request(provider, &wire, thinking)
                .into_iter()
                .map(|v| VerdictLine {
                    mark: mark_of(&v.path),
                    documented: v.rule.documented(),
                    message: v.message,
                    explanation: v.explanation,
                    path: v.path,
                    place: v.place,
                })
                .collect();
            ProviderWire {
                provider,
                label: provider.label(),
                request: segments(&body),
                curl: curl(provider, &request_json),
                request_json,
                violations,
                answers: answers(events, turn, provider, &format),
            }
        })
        .collect();
    let earlier_messages = turn
        .checked_sub(1)
        .and_then(|before| request_at_turn(events, before))
        .map_or(0, |r| r.messages.len());
    Some(TurnWire {
        turn,
        conversation: conversation(&request.messages),
        earlier_messages,
        format,
        providers,
    })
}

/// What `turn`'s request got back, as `provider` sends it.
fn answers(
    events: &[RunEvent],
    turn: u32,
    provider: Provider,
    format: &RunFormat,
) -> Vec<AnswerWire> {
    let meta = Meta {
        model: &format.model,
        id_seed: u64::from(turn),
        created: 0,
    };
    events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ModelError {
                turn: t,
                attempt,
                status,
                message,
                ..
            } if *t == turn => Some(match status {
                Some(status) => AnswerWire {
                    title: format!("Attempt {attempt}: HTTP {status}"),
                    body: pretty(&error_body(provider, *status, message)),
                    events: Vec::new(),
                },
                None => AnswerWire {
                    title: format!("Attempt {attempt}: no answer"),
                    body: message.clone(),
                    events: Vec::new(),
                },
            }),
            EventKind::ModelResponse {
                turn: t,
                content,
                stop_reason,
                usage,
                ..
            } if *t == turn => {
                let response = ModelResponse {
                    content: content.clone(),
                    stop_reason: stop_reason.clone(),
                    usage: *usage,
                };
                Some(AnswerWire {
                    title: "The response".to_string(),
                    body: pretty(&response_body(provider, &response, &meta)),
                    events: stream_events(provider, &response, &meta),
                })
            }
            _ => None,
        })
        .collect()
}

fn pretty(body: &serde_json::Value) -> String {
    serde_json::to_string_pretty(body).unwrap_or_else(|e| e.to_string())
}

/// The environment variable a `curl` command reads the key from.
fn key_variable(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "$ANTHROPIC_API_KEY",
        Provider::OpenaiChat | Provider::OpenaiResponses => "$OPENAI_API_KEY",
    }
}

/// The request as a `curl` command to the provider's official API. The key
/// is read from the environment when the command runs, so it is never in
/// the text copied.
pub fn curl(provider: Provider, body_json: &str) -> String {
    let variable = key_variable(provider);
    let mut lines = vec![format!(
        "curl {}{}",
        provider.default_base_url(),
        provider.path()
    )];
    lines.push("  -H 'content-type: application/json'".to_string());
    for (name, value) in provider.headers(Some(variable)) {
        // A header the browser needs is no business of a shell.
        if name == "anthropic-dangerous-direct-browser-access" {
            continue;
        }
        // The key's header is double-quoted so the shell reads the variable.
        let quote = if value.contains(variable) { '"' } else { '\'' };
        lines.push(format!("  -H {quote}{name}: {value}{quote}"));
    }
    lines.push("  --data-binary @- <<'JSON'".to_string());
    format!("{}\n{}\nJSON", lines.join(" \\\n"), body_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::limits::Limits;
    use harness::message::{ContentBlock, ToolCall};
    use harness::model::{ToolSpec, Usage};
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
            max_output_tokens: 512,
        }
    }

    fn response(turn: u32, content: Vec<ContentBlock>) -> EventKind {
        EventKind::ModelResponse {
            by_person: false,
            turn,
            text: String::new(),
            content,
            stop_reason: "tool_use".into(),
            usage: Usage {
                input_tokens: 1,
                output_tokens: 1,
            },
            cost_usd: 0.0,
            latency_ms: 1,
        }
    }

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolUse(ToolCall {
            id: id.into(),
            name: "get_time".into(),
            input: json!({}),
            input_raw: None,
        })
    }

    fn result(id: &str) -> EventKind {
        EventKind::ToolResult {
            by_person: false,
            id: id.into(),
            name: "get_time".into(),
            content: "12:00".into(),
            is_error: false,
            latency_ms: 1,
            state: None,
            fate: None,
            media: Vec::new(),
        }
    }

    fn run(ids: &[&str]) -> Vec<RunEvent> {
        let started = EventKind::RunStarted {
            scenario: "t".into(),
            model: "scripted".into(),
            approval: Default::default(),
            tools: vec!["get_time".into()],
            limits: Limits::default(),
            context: Default::default(),
            task: "What time is it?".into(),
        };
        let mut events = vec![
            ev(0, started),
            ev(1, request(1, 1)),
            ev(2, request(1, 2)),
            ev(3, response(1, ids.iter().map(|id| call(id)).collect())),
        ];
        for id in ids {
            events.push(ev(events.len() as u64, result(id)));
        }
        events.push(ev(events.len() as u64, request(2, 1)));
        events
    }

    fn shape() -> RequestShape {
        RequestShape {
            system: "Be brief.".into(),
            tools: vec![ToolSpec {
                name: "get_time".into(),
                description: "The time".into(),
                input_schema: json!({"type": "object"}),
            }],
            ..RequestShape::default()
        }
    }

    #[test]
    fn turns_are_listed_once_and_the_latest_is_the_default() {
        let events = run(&["toolu_1"]);
        assert_eq!(request_turns(&events), vec![1, 2]);
        assert_eq!(effective_turn(&events, None), Some(2));
        assert_eq!(effective_turn(&events, Some(1)), Some(1));
        assert_eq!(effective_turn(&events, Some(9)), Some(2));
        assert_eq!(effective_turn(&[], None), None);
        assert_eq!(turn_wire(&events, &shape(), 7), None);
    }

    #[test]
    fn a_call_and_its_result_reach_the_model_in_the_next_request() {
        // seq 3: turn 1's response with the call; 4: its result; 5: turn 2.
        let events = run(&["toolu_1"]);
        assert_eq!(first_request_after(&events, 3), Some(2));
        assert_eq!(first_request_after(&events, 4), Some(2));
        // The last request carries nothing after it: none follows.
        assert_eq!(first_request_after(&events, 5), None);
        let ended = &events[..5];
        assert_eq!(first_request_after(ended, 4), None);
    }

    fn joined(wire: &ProviderWire) -> String {
        wire.request.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn turn_two_carries_the_result_and_every_provider_accepts() {
        let events = run(&["toolu_1"]);
        let turn = turn_wire(&events, &shape(), 2).unwrap();
        let wires = &turn.providers;
        assert_eq!(wires.len(), 3);
        let anthropic = &wires[0];
        assert_eq!(anthropic.label, "Anthropic Messages");
        assert_eq!(joined(anthropic), anthropic.request_json);
        let body = &anthropic.request_json;
        assert!(body.contains("\"tool_result\""), "{body}");
        assert!(body.contains("\"tool_use_id\": \"toolu_1\""), "{body}");
        assert!(body.contains("\"model\": \"scripted\""));
        assert!(body.contains("512"));
        assert!(wires[1].request_json.contains("\"role\": \"tool\""));
        assert!(wires.iter().all(ProviderWire::accepted), "{wires:?}");
        // Turn 1 sent the task alone: the rows after it are new.
        assert_eq!(turn.earlier_messages, 1);
        assert_eq!(turn.conversation.links.len(), 1);
        assert!(!turn.conversation.links[0].state.is_broken());
    }

    /// A run whose model thought asked for thinking; a history that dropped
    /// the thinking (`text_only`) is refused at turn 2, in the inspector as
    /// on the banner.
    #[test]
    fn a_dropped_thinking_block_is_refused_in_the_inspector() {
        let mut events = run(&["toolu_1"]);
        let EventKind::RunStarted { limits, .. } = &mut events[0].kind else {
            unreachable!()
        };
        limits.history_mode = harness::limits::HistoryMode::TextOnly;
        let EventKind::ModelResponse { content, .. } = &mut events[3].kind else {
            unreachable!()
        };
        content.insert(
            0,
            ContentBlock::Thinking {
                thinking: "I have get_time.".into(),
                signature: None,
            },
        );
        let turn = turn_wire(&events, &shape(), 2).unwrap();
        let anthropic = &turn.providers[0];
        assert!(!anthropic.request_json.contains("\"thinking\""));
        let said: Vec<&str> = anthropic
            .violations
            .iter()
            .map(|v| v.message.as_str())
            .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`."),
            "{said:?}"
        );
        assert!(
            anthropic.violations[0]
                .explanation
                .ends_with("the body shown here leaves the `thinking` setting out."),
            "{}",
            anthropic.violations[0].explanation
        );
        assert!(turn.providers[1..].iter().all(ProviderWire::accepted));
        // The whole history sent back (seed 001's way) is accepted.
        let EventKind::RunStarted { limits, .. } = &mut events[0].kind else {
            unreachable!()
        };
        limits.history_mode = harness::limits::HistoryMode::Whole;
        let turn = turn_wire(&events, &shape(), 2).unwrap();
        assert!(turn.providers.iter().all(ProviderWire::accepted));
    }

    /// The response view shows what each provider sends: OpenAI Chat
    /// Completions returns no reasoning text, so a turn that thought shows
    /// none there (no `reasoning_content`, which is DeepSeek's and vLLM's),
    /// while Anthropic's shows the thinking block.
    #[test]
    fn the_chat_response_view_shows_only_openais_fields() {
        let mut events = run(&["toolu_1"]);
        let EventKind::ModelResponse { content, .. } = &mut events[3].kind else {
            unreachable!()
        };
        content.insert(
            0,
            ContentBlock::Thinking {
                thinking: "I have get_time.".into(),
                signature: None,
            },
        );
        let turn = turn_wire(&events, &shape(), 1).unwrap();
        let answer = |provider: usize| turn.providers[provider].answers[0].clone();
        assert!(answer(0).body.contains("I have get_time."));
        let chat = answer(1);
        assert_eq!(chat.title, "The response");
        for shown in std::iter::once(&chat.body).chain(&chat.events) {
            assert!(!shown.contains("reasoning_content"), "{shown}");
            assert!(!shown.contains("I have get_time."), "{shown}");
        }
        assert!(chat.body.contains("\"tool_calls\""), "{}", chat.body);
    }

    #[test]
    fn turn_one_is_only_the_task_and_its_answer_is_the_response() {
        let events = run(&["toolu_1"]);
        let turn = turn_wire(&events, &shape(), 1).unwrap();
        let anthropic = &turn.providers[0];
        assert!(anthropic.request_json.contains("What time is it?"));
        assert!(!anthropic.request_json.contains("tool_result"));
        assert_eq!(anthropic.answers.len(), 1);
        let answer = &anthropic.answers[0];
        assert_eq!(answer.title, "The response");
        assert!(
            answer.body.contains("\"stop_reason\": \"tool_use\""),
            "{}",
            answer.body
        );
        assert!(answer
            .events
            .iter()
            .any(|e| e.starts_with("event: message_start")));
        let chat = &turn.providers[1].answers[0];
        assert!(
            chat.body.contains("\"finish_reason\": \"tool_calls\""),
            "{}",
            chat.body
        );
        assert!(chat.events.last().unwrap().contains("[DONE]"));
    }

    #[test]
    fn an_error_is_answered_with_the_providers_error_body() {
        let mut events = run(&["toolu_1"]);
        events.insert(
            2,
            ev(
                99,
                EventKind::ModelError {
                    turn: 1,
                    attempt: 1,
                    status: Some(429),
                    message: "slow down".into(),
                    retry_in_ms: Some(10),
                    latency_ms: 1,
                },
            ),
        );
        let turn = turn_wire(&events, &shape(), 1).unwrap();
        let answers = &turn.providers[0].answers;
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0].title, "Attempt 1: HTTP 429");
        assert!(
            answers[0].body.contains("rate_limit_error"),
            "{}",
            answers[0].body
        );
        assert!(answers[0].events.is_empty());
        assert_eq!(answers[1].title, "The response");
    }

    #[test]
    fn duplicate_ids_are_refused_with_the_provider_text_and_marked() {
        let events = run(&["toolu_1", "toolu_1"]);
        let turn = turn_wire(&events, &shape(), 2).unwrap();
        let anthropic = &turn.providers[0];
        assert!(!anthropic.accepted());
        let line = anthropic
            .violations
            .iter()
            .find(|v| v.message.contains("`tool_use` ids must be unique"))
            .expect("no duplicate-id verdict");
        assert!(!line.explanation.is_empty());
        // messages.1.content.1: the second call of the assistant message.
        assert_eq!(line.mark.as_deref(), Some("1.1"));
        let marked: String = anthropic
            .request
            .iter()
            .filter(|s| s.mark.as_deref() == Some("1.1"))
            .map(|s| s.text.as_str())
            .collect();
        assert!(marked.contains("\"toolu_1\""), "{marked}");
    }

    #[test]
    fn the_format_follows_the_model_label() {
        let mut events = run(&["toolu_1"]);
        assert_eq!(run_format(&events).provider, None);
        if let EventKind::RunStarted { model, .. } = &mut events[0].kind {
            *model = "OpenAI Chat Completions (streamed) gpt-4o".into();
        }
        let format = run_format(&events);
        assert_eq!(format.provider, Some(Provider::OpenaiChat));
        assert_eq!(format.model, "gpt-4o");
        assert!(format.streamed);
        let turn = turn_wire(&events, &shape(), 1).unwrap();
        assert!(turn.providers[1].request_json.contains("\"stream\": true"));
        assert!(turn.providers[1]
            .request_json
            .contains("\"model\": \"gpt-4o\""));
    }

    #[test]
    fn the_links_summary_counts_agree_with_their_nouns() {
        assert_eq!(links_summary(1, 1), "✗ 1 id link is broken:");
        assert_eq!(links_summary(3, 3), "✗ 3 id links are broken:");
        assert_eq!(links_summary(3, 1), "✗ 1 of the 3 id links is broken:");
        assert_eq!(links_summary(3, 2), "✗ 2 of the 3 id links are broken:");
        assert!(links_summary(1, 0).starts_with("✓ The tool_use id is answered"));
        assert!(links_summary(2, 0).starts_with("✓ All 2 tool_use ids"));
    }

    #[test]
    fn a_run_without_a_wire_format_names_the_model_it_used() {
        assert_eq!(model_in_words("scripted"), "the scripted model");
        assert_eq!(
            model_in_words("rules (teaching model)"),
            "the rules model (a teaching model that picks tools by rule)"
        );
        // An imported body names its provider, so it is not "no format".
        let body = serde_json::json!({
            "model": "claude-sonnet-4-5",
            "system": "Be brief.",
            "messages": [{"role": "user", "content": "Hi"}]
        });
        let imported = harness::transcript::import_request(&body).unwrap();
        let format = run_format(&imported.record.events);
        assert_eq!(format.provider, Some(Provider::Anthropic));
        assert_eq!(format.model, "claude-sonnet-4-5");
    }

    #[test]
    fn curl_reads_the_key_from_the_environment() {
        let body = "{\n  \"model\": \"m\"\n}";
        let anthropic = curl(Provider::Anthropic, body);
        assert!(anthropic.starts_with("curl https://api.anthropic.com/v1/messages \\\n"));
        assert!(
            anthropic.contains("-H \"x-api-key: $ANTHROPIC_API_KEY\""),
            "{anthropic}"
        );
        assert!(anthropic.contains("-H 'anthropic-version: 2023-06-01'"));
        assert!(!anthropic.contains("dangerous"));
        assert!(
            anthropic.ends_with("<<'JSON'\n{\n  \"model\": \"m\"\n}\nJSON"),
            "{anthropic}"
        );
        let chat = curl(Provider::OpenaiChat, body);
        assert!(
            chat.contains("-H \"authorization: Bearer $OPENAI_API_KEY\""),
            "{chat}"
        );
        assert!(chat.starts_with("curl https://api.openai.com/v1/chat/completions"));
    }
}
