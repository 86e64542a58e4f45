//! The context window: how much a request may hold, and the strategies that
//! keep a growing history inside it.
//!
//! Every turn resends the whole history, and tool results pile up in it.
//! Before each model call `Run` estimates the request's input tokens (the
//! meter's estimate) and, past `trigger_tokens`, lets the scenario's
//! strategy edit the history; a request that still cannot fit
//! `window_tokens` (input plus `max_output_tokens`) is not sent, and the run
//! ends `context_limit`.
//!
//! What a strategy did is a `ContextEdit`, carried whole by the trace's
//! `context_edited` event. `ContextEdit::apply` is the one place an edit
//! changes a history: the run applies it to the history it sends, and the
//! wire rebuild (`wire::history`) applies it to the history it rebuilds from
//! a trace, so the inspector and the checker see the requests as sent.
//!
//! The strategies mirror what providers and frameworks ship: Anthropic's
//! context editing clears old tool results (`clear_tool_uses_20250919`),
//! sliding windows drop the oldest turns (LangGraph's `trim_messages`), and
//! compaction summarises. `drop_oldest_turns` with `keep_pairs: false` is
//! the naive window that keeps a `tool_result` whose `tool_use` it dropped.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::field::FieldKind::{Bool, Choice, Integer, Names};
use crate::field::{count, Field, MAX_TOKENS_PER_TURN};
use crate::message::{ContentBlock, Message, Role};
use crate::model::Usage;
use crate::numbers::thousands;

/// What a cleared tool result says instead, as Anthropic's context editing does.
pub const CLEARED_PLACEHOLDER: &str = "[tool result cleared to save context]";

/// The fixed instruction `compact` sends (after the history) to get a summary.
pub const COMPACT_INSTRUCTION: &str = "Summarise the conversation so far for yourself: what the task is, what you have done, every id, number and name you will still need, and what is left to do. Reply with the summary only.";

/// How the summary is introduced in the history that continues after compaction.
pub const SUMMARY_HEADING: &str = "Summary of the work so far:";

/// A scenario's `context` object. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextConfig {
    /// The model's window: input plus output tokens a request may need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_tokens: Option<u64>,
    #[serde(default)]
    pub strategy: Strategy,
    /// The estimated input above which the strategy acts; absent, it acts
    /// when the request would not fit the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_tokens: Option<u64>,
    /// `clear_tool_results`: the newest results kept as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_tool_results: Option<u32>,
    /// `clear_tool_results`: the tools whose results are never cleared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_tools: Vec<String>,
    /// `drop_oldest_turns`: drop a `tool_use` and its `tool_result` together
    /// (true, the default); false drops single messages, the naive window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_pairs: Option<bool>,
    /// What the harness does when the provider stops a turn with
    /// `model_context_window_exceeded`: `stop` (the default), or `retry`,
    /// resending the same history (the pitfall). With `compact` the run
    /// compacts and continues whatever this says.
    #[serde(default)]
    pub on_window_exceeded: OnWindowExceeded,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    #[default]
    None,
    ClearToolResults,
    DropOldestTurns,
    Compact,
}

impl Strategy {
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::ClearToolResults => "clear_tool_results",
            Strategy::DropOldestTurns => "drop_oldest_turns",
            Strategy::Compact => "compact",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnWindowExceeded {
    #[default]
    Stop,
    Retry,
}

impl ContextConfig {
    /// Every key of a scenario's `context` object, in the order of the
    /// fields above, with its form field and its schema (see `field.rs`).
    pub const FIELDS: &'static [Field] = &[
        Field {
            key: "window_tokens",
            label: "Context window",
            unit: "tokens",
            kind: Integer {
                min: 1,
                max: count(MAX_TOKENS_PER_TURN as f64, "a context window", "tokens"),
            },
            absent: "none",
            about: "The model's window: the input and output tokens one request may need together.",
        },
        Field {
            key: "strategy",
            label: "Strategy",
            unit: "",
            kind: Choice(&["none", "clear_tool_results", "drop_oldest_turns", "compact"]),
            absent: "none",
            about: "none (the default); clear_tool_results: old results become a placeholder; drop_oldest_turns: the oldest turns leave the history; compact: the model summarises, and the run continues from the task and the summary.",
        },
        Field {
            key: "trigger_tokens",
            label: "Acts past",
            unit: "input tokens",
            kind: Integer {
                min: 1,
                max: count(MAX_TOKENS_PER_TURN as f64, "a context trigger", "tokens"),
            },
            absent: "the window minus max output tokens",
            about: "The estimated input above which the strategy acts; absent, it acts when the request would not fit the window.",
        },
        Field {
            key: "keep_tool_results",
            label: "Results kept",
            unit: "newest, clear_tool_results",
            kind: Integer {
                min: 0,
                max: count(10_000.0, "the results kept", "results"),
            },
            absent: "0",
            about: "clear_tool_results: the newest results kept as they are.",
        },
        Field {
            key: "exclude_tools",
            label: "Never cleared",
            unit: "tools, comma-separated",
            kind: Names,
            absent: "none",
            about: "clear_tool_results: tools whose results are never cleared.",
        },
        Field {
            key: "keep_pairs",
            label: "Keep call and result together",
            unit: "drop_oldest_turns",
            kind: Bool,
            absent: "true",
            about: "drop_oldest_turns: drop a tool_use with its tool_result (true, the default); false drops single messages, and can keep a tool_result whose tool_use is gone, which providers refuse.",
        },
        Field {
            key: "on_window_exceeded",
            label: "When the provider says the window is full",
            unit: "",
            kind: Choice(&["stop", "retry"]),
            absent: "stop",
            about: "When the provider stops a turn with model_context_window_exceeded: stop (the default) ends the run context_limit; retry resends the same history, up to max_retries (the pitfall). The compact strategy compacts and continues instead.",
        },
    ];

    /// Nothing set: no window, no strategy (a trace leaves it out).
    pub fn is_unset(&self) -> bool {
        *self == ContextConfig::default()
    }

    /// The window and the strategy in a line, e.g. "window 8,000 tokens;
    /// clear_tool_results past 6,000"; `None` when nothing is set.
    pub fn summary(&self, max_output_tokens: u32) -> Option<String> {
        if self.is_unset() {
            return None;
        }
        let window = match self.window_tokens {
            Some(w) => format!("window {} tokens", thousands(w)),
            None => "no window".to_string(),
        };
        Some(match (self.strategy, self.trigger(max_output_tokens)) {
            (Strategy::None, _) => format!("{window}; no strategy"),
            (strategy, Some(t)) => format!("{window}; {} past {}", strategy.as_str(), thousands(t)),
            (strategy, None) => format!(
                "{window}; {} (no trigger: it never acts)",
                strategy.as_str()
            ),
        })
    }

    /// Keeps tool_use and tool_result pairs together unless told not to.
    pub fn keeps_pairs(&self) -> bool {
        self.keep_pairs.unwrap_or(true)
    }

    /// The estimate above which the strategy acts: `trigger_tokens`, else
    /// what still leaves room for the output in the window.
    pub fn trigger(&self, max_output_tokens: u32) -> Option<u64> {
        self.trigger_tokens.or_else(|| {
            self.window_tokens
                .map(|w| w.saturating_sub(u64::from(max_output_tokens)))
        })
    }

    /// Problems only the combination of fields shows, as (path, message).
    pub fn problems(&self, max_output_tokens: u32) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut only_for = |field: &str, set: bool, strategy: Strategy| {
            if set && self.strategy != strategy {
                out.push((
                    format!("context.{field}"),
                    format!(
                        "{field} applies only to the {} strategy, but strategy is {}",
                        strategy.as_str(),
                        self.strategy.as_str()
                    ),
                ));
            }
        };
        only_for(
            "keep_tool_results",
            self.keep_tool_results.is_some(),
            Strategy::ClearToolResults,
        );
        only_for(
            "exclude_tools",
            !self.exclude_tools.is_empty(),
            Strategy::ClearToolResults,
        );
        only_for(
            "keep_pairs",
            self.keep_pairs.is_some(),
            Strategy::DropOldestTurns,
        );
        if let (Some(trigger), Some(window)) = (self.trigger_tokens, self.window_tokens) {
            let output = u64::from(max_output_tokens);
            if trigger.saturating_add(output) > window {
                out.push((
                    "context.trigger_tokens".to_string(),
                    format!(
                        "{} plus max_output_tokens ({}) is more than window_tokens ({}): the strategy would act only after the request no longer fits; at most {} leaves room for the output",
                        thousands(trigger),
                        thousands(output),
                        thousands(window),
                        thousands(window.saturating_sub(output))
                    ),
                ));
            }
        }
        let acts_on_its_own = matches!(
            self.strategy,
            Strategy::ClearToolResults | Strategy::DropOldestTurns
        );
        if acts_on_its_own && self.trigger_tokens.is_none() && self.window_tokens.is_none() {
            out.push((
                "context.strategy".to_string(),
                format!(
                    "{} needs trigger_tokens or window_tokens to know when to act",
                    self.strategy.as_str()
                ),
            ));
        }
        out
    }
}

/// A tool result a strategy cleared: its call's id and tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClearedResult {
    pub id: String,
    pub name: String,
}

/// What a strategy did to the history, exactly enough to do it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ContextEdit {
    /// These results' content became `CLEARED_PLACEHOLDER`.
    Cleared { results: Vec<ClearedResult> },
    /// The `messages` messages after the task were dropped.
    Dropped { messages: usize },
    /// Everything after the task became the summary the model wrote,
    /// appended to the task's message; the summary call's usage and cost.
    Compacted {
        messages: usize,
        summary: String,
        usage: Usage,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        cost_usd: f64,
    },
}

impl ContextEdit {
    /// Makes the edit on `history`, whose first message is the task.
    pub fn apply(&self, history: &mut Vec<Message>, task: &str) {
        match self {
            ContextEdit::Cleared { results } => {
                let ids: HashSet<&str> = results.iter().map(|r| r.id.as_str()).collect();
                for block in history.iter_mut().flat_map(|m| m.content.iter_mut()) {
                    if let ContentBlock::ToolResult(result) = block {
                        if ids.contains(result.tool_use_id.as_str()) {
                            result.content = CLEARED_PLACEHOLDER.to_string();
                            // An image is the heaviest part of a result: a
                            // cleared result keeps none of it.
                            result.media.clear();
                        }
                    }
                }
            }
            ContextEdit::Dropped { messages } => {
                let end = (1 + messages).min(history.len());
                history.drain(1.min(end)..end);
            }
            ContextEdit::Compacted { summary, .. } => {
                history.clear();
                history.push(Message {
                    role: Role::User,
                    content: vec![
                        ContentBlock::Text {
                            text: task.to_string(),
                        },
                        ContentBlock::Text {
                            text: format!("{SUMMARY_HEADING}\n{summary}"),
                        },
                    ],
                });
            }
        }
    }
}

/// The tool name of every call in `history`, by id.
fn tool_names(history: &[Message]) -> HashMap<&str, &str> {
    history
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|block| match block {
            ContentBlock::ToolUse(call) => Some((call.id.as_str(), call.name.as_str())),
            _ => None,
        })
        .collect()
}

/// `clear_tool_results`: every result not yet cleared, except the newest
/// `keep` and those of `exclude_tools`. `None` when there is nothing to clear.
pub fn plan_clear(history: &[Message], config: &ContextConfig) -> Option<ContextEdit> {
    let names = tool_names(history);
    let results: Vec<ClearedResult> = history
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|block| match block {
            ContentBlock::ToolResult(r) if r.content != CLEARED_PLACEHOLDER => {
                let name = names.get(r.tool_use_id.as_str()).copied().unwrap_or("");
                Some(ClearedResult {
                    id: r.tool_use_id.clone(),
                    name: name.to_string(),
                })
            }
            _ => None,
        })
        .filter(|r| !config.exclude_tools.contains(&r.name))
        .collect();
    let keep = config.keep_tool_results.unwrap_or(0) as usize;
    let cleared: Vec<ClearedResult> = results[..results.len().saturating_sub(keep)].to_vec();
    (!cleared.is_empty()).then_some(ContextEdit::Cleared { results: cleared })
}

/// `drop_oldest_turns`: how many messages after the task to drop, oldest
/// first, until `fits` says the rest is small enough. With pairs kept, an
/// assistant turn and the results that answer it go together, and the
/// newest turn always stays; naively, single messages go, whatever they
/// hold. `None` when nothing can be dropped.
pub fn plan_drop(
    history: &[Message],
    keep_pairs: bool,
    fits: impl Fn(&[Message]) -> bool,
) -> Option<ContextEdit> {
    // Units of messages that go together, oldest first.
    let mut units: Vec<usize> = Vec::new();
    let mut i = 1;
    while i < history.len() {
        let answered_next = history[i].role == Role::Assistant
            && history
                .get(i + 1)
                .is_some_and(|next| next.role == Role::User);
        let size = if keep_pairs && answered_next { 2 } else { 1 };
        units.push(size);
        i += size;
    }
    // The newest unit (what the model must answer now) is never dropped.
    let droppable = units.len().saturating_sub(1);
    let mut dropped = 0;
    for &size in &units[..droppable] {
        dropped += size;
        let mut rest = vec![history[0].clone()];
        rest.extend_from_slice(&history[1 + dropped..]);
        if fits(&rest) {
            break;
        }
    }
    (dropped > 0).then_some(ContextEdit::Dropped { messages: dropped })
}

/// "turn 3" or "turns 1–4": the model turns among `messages` messages of
/// `history` after the task, numbered from `first_turn`.
pub fn turns_in(history: &[Message], messages: usize, first_turn: u32) -> (String, u32) {
    let end = (1 + messages).min(history.len());
    let count = history[1.min(end)..end]
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .count() as u32;
    let words = match count {
        0 => format!("{messages} message{}", if messages == 1 { "" } else { "s" }),
        1 => format!("turn {first_turn}"),
        n => format!("turns {first_turn}–{}", first_turn + n - 1),
    };
    (words, count)
}

/// The sentence of a `clear_tool_results` edit: "cleared 3 tool results
/// (get_logs ×3), 5,120 → 1,840 tokens; kept the newest 2 and get_policy".
pub fn cleared_sentence(
    results: &[ClearedResult],
    config: &ContextConfig,
    before: u64,
    after: u64,
) -> String {
    let mut by_tool: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        *by_tool.entry(r.name.as_str()).or_default() += 1;
    }
    let tools: Vec<String> = by_tool
        .iter()
        .map(|(name, n)| {
            if *n == 1 {
                name.to_string()
            } else {
                format!("{name} ×{n}")
            }
        })
        .collect();
    let n = results.len();
    let mut kept = Vec::new();
    match config.keep_tool_results.unwrap_or(0) {
        0 => {}
        1 => kept.push("the newest 1".to_string()),
        k => kept.push(format!("the newest {k}")),
    }
    kept.extend(config.exclude_tools.iter().cloned());
    let mut sentence = format!(
        "cleared {n} tool result{} ({}), {} → {} tokens",
        if n == 1 { "" } else { "s" },
        tools.join(", "),
        thousands(before),
        thousands(after)
    );
    if !kept.is_empty() {
        sentence.push_str("; kept ");
        sentence.push_str(&join_and(&kept));
    }
    sentence
}

/// "a", "a and b", "a, b and c".
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The sentence of a `drop_oldest_turns` edit.
pub fn dropped_sentence(turns: &str, keep_pairs: bool, before: u64, after: u64) -> String {
    let how = if keep_pairs {
        ""
    } else {
        " (keep_pairs false: messages dropped one by one, whatever they hold)"
    };
    format!(
        "dropped {turns}{how}, {} → {} tokens",
        thousands(before),
        thousands(after)
    )
}

/// The sentence of a `compact` edit.
pub fn compacted_sentence(turns: &str, before: u64, after: u64) -> String {
    format!(
        "compacted {turns} into a summary, {} → {} tokens",
        thousands(before),
        thousands(after)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{ToolCall, ToolResult};

    fn call(id: &str, name: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolCall {
                id: id.to_string(),
                name: name.to_string(),
                input: serde_json::json!({}),
                input_raw: None,
            })],
        }
    }

    fn result(id: &str, text: &str) -> Message {
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResult {
                tool_use_id: id.to_string(),
                content: text.to_string(),
                is_error: false,
                media: Vec::new(),
            })],
        }
    }

    fn history() -> Vec<Message> {
        vec![
            Message::user_text("task"),
            call("a", "get_policy"),
            result("a", "policy"),
            call("b", "get_logs"),
            result("b", "logs 1"),
            call("c", "get_logs"),
            result("c", "logs 2"),
            call("d", "get_logs"),
            result("d", "logs 3"),
        ]
    }

    #[test]
    fn clearing_keeps_the_newest_and_the_excluded_and_says_so() {
        let config = ContextConfig {
            strategy: Strategy::ClearToolResults,
            keep_tool_results: Some(1),
            exclude_tools: vec!["get_policy".to_string()],
            ..ContextConfig::default()
        };
        let mut h = history();
        let edit = plan_clear(&h, &config).expect("something to clear");
        let ContextEdit::Cleared { results } = &edit else {
            panic!("{edit:?}")
        };
        let ids: Vec<&str> = results.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["b", "c"]);
        edit.apply(&mut h, "task");
        assert_eq!(h[4], result("b", CLEARED_PLACEHOLDER));
        assert_eq!(h[2], result("a", "policy"));
        assert_eq!(h[8], result("d", "logs 3"));
        assert_eq!(
            cleared_sentence(results, &config, 5120, 1840),
            "cleared 2 tool results (get_logs ×2), 5,120 → 1,840 tokens; kept the newest 1 and get_policy"
        );
        assert_eq!(plan_clear(&h, &config), None, "nothing left to clear");
    }

    #[test]
    fn dropping_pairs_keeps_every_result_with_its_call() {
        let h = history();
        // Fits once three messages or fewer follow the task.
        let fits = |rest: &[Message]| rest.len() <= 4;
        let paired = plan_drop(&h, true, fits).unwrap();
        assert_eq!(paired, ContextEdit::Dropped { messages: 6 });
        let naive = plan_drop(&h, false, fits).unwrap();
        assert_eq!(naive, ContextEdit::Dropped { messages: 5 });
        let mut cut = h.clone();
        naive.apply(&mut cut, "task");
        assert_eq!(cut[1], result("c", "logs 2"), "an orphaned result leads");
        assert_eq!(turns_in(&h, 6, 1).0, "turns 1–3");
        assert_eq!(turns_in(&h, 1, 1).0, "turn 1");
    }
}
