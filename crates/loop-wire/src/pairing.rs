//! The conversation as a provider sees it, laid out for drawing: one row per
//! message and per content block, and one link per `tool_use` id joining the
//! call to its result, each in its own lane so links never overlap.
//!
//! Job: make the `tool_use` ↔ `tool_result` pairing something a learner sees
//! rather than reads. A link that is not a clean pair (a call never answered,
//! a result with no call, an id used twice, a result that comes too late) is
//! said to be broken, with why in plain words, so a view draws it broken.
//!
//! Whether a call and a result pair is Anthropic's rule, judged once in
//! `wire/anthropic/pairs.rs` for the checker and for this drawing: a link is
//! those verdicts summed for one id, so a link is drawn broken exactly when
//! the checker finds a pairing rule broken for it.
//!
//! This is about pairing only. Other rules (a `tool_result` after text in its
//! message, empty text) are the checker's (`wire::check`), which a view shows
//! beside it.

use std::collections::BTreeMap;

use crate::limits::ordinal;
use crate::message::{ContentBlock, Message, Role};
use crate::wire::anthropic::pairs::{self, Answers, Said, Speaker};

/// What a row shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// The start of message `index` (0-based), and its role.
    Message { index: usize, role: Role },
    /// Block `block` of message `message`.
    Block {
        message: usize,
        block: usize,
        kind: BlockKind,
        /// One line to read: the text, `name(arguments)`, the result.
        summary: String,
        /// The `tool_use` id (a call) or `tool_use_id` (a result).
        id: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Text,
    Thinking,
    ToolUse,
    ToolResult { is_error: bool },
}

impl BlockKind {
    /// As the Anthropic wire names the block.
    pub fn wire_name(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Thinking => "thinking",
            BlockKind::ToolUse => "tool_use",
            BlockKind::ToolResult { .. } => "tool_result",
        }
    }
}

/// How a link's call and results stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// One call, answered once in the very next message.
    Paired,
    /// A call no result answers.
    Unanswered,
    /// A result no earlier call asked for.
    NoCall,
    /// Two or more calls share the id.
    DuplicateId,
    /// One call, answered more than once.
    AnsweredTwice,
    /// One call, answered once, but not in the very next message.
    AnsweredLate,
    /// One call, answered once, but not as Anthropic takes it: in the same
    /// message, or a call that is not the assistant's, or a result that is
    /// not in a user message.
    Misplaced,
}

impl LinkState {
    pub fn is_broken(self) -> bool {
        self != LinkState::Paired
    }

    /// The word used in CSS classes and `data-` attributes.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkState::Paired => "paired",
            LinkState::Unanswered => "unanswered",
            LinkState::NoCall => "no-call",
            LinkState::DuplicateId => "duplicate-id",
            LinkState::AnsweredTwice => "answered-twice",
            LinkState::AnsweredLate => "answered-late",
            LinkState::Misplaced => "misplaced",
        }
    }
}

/// One id's calls and results, joined.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub id: String,
    /// 0-based; links whose rows overlap never share a lane.
    pub lane: usize,
    /// Indices into `Conversation::rows`, in order.
    pub call_rows: Vec<usize>,
    pub result_rows: Vec<usize>,
    pub state: LinkState,
    /// What the link says, in plain words: "answered in the next message",
    /// "never answered: no tool_result has this id".
    pub words: String,
}

impl Link {
    /// The first and last row the link spans.
    pub fn span(&self) -> (usize, usize) {
        let rows = self.call_rows.iter().chain(&self.result_rows);
        let first = rows.clone().min().copied().unwrap_or(0);
        let last = rows.max().copied().unwrap_or(0);
        (first, last)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conversation {
    pub rows: Vec<Row>,
    pub links: Vec<Link>,
    /// How many lanes the links need.
    pub lanes: usize,
}

impl Conversation {
    pub fn broken(&self) -> impl Iterator<Item = &Link> {
        self.links.iter().filter(|l| l.state.is_broken())
    }
}

/// The longest summary a row carries, in characters.
const SUMMARY_CHARS: usize = 90;

/// A row, the message it is in, and whether the judge found it in place (a
/// call answered, a result answering the call before it).
#[derive(Clone, Copy)]
struct At {
    row: usize,
    message: usize,
    in_place: bool,
}

/// One id's call rows and result rows.
#[derive(Default)]
struct Ends {
    calls: Vec<At>,
    results: Vec<At>,
}

/// `history` laid out: its rows and its links.
pub fn conversation(history: &[Message]) -> Conversation {
    let mut rows = Vec::new();
    // The row of each message's first block: block `b` is at `first + b`.
    let mut first_block_row = Vec::with_capacity(history.len());
    for (m, message) in history.iter().enumerate() {
        rows.push(Row::Message {
            index: m,
            role: message.role,
        });
        first_block_row.push(rows.len());
        for (b, block) in message.content.iter().enumerate() {
            let (kind, summary, id) = describe(block);
            rows.push(Row::Block {
                message: m,
                block: b,
                kind,
                summary,
                id: id.map(str::to_string),
            });
        }
    }
    let said: Vec<Said<'_>> = history.iter().map(said).collect();
    let mut by_id: BTreeMap<&str, Ends> = BTreeMap::new();
    let mut first_seen: Vec<&str> = Vec::new();
    for (m, judged) in pairs::judge(&said).iter().enumerate() {
        // Calls and results in block order, so ids are first seen as drawn.
        let calls = judged
            .calls
            .iter()
            .map(|c| (c.block, c.id, true, c.answered));
        let results = judged.results.iter().map(|r| {
            let in_place = r.answers == Answers::TheCallBefore;
            (r.block, r.id, false, in_place)
        });
        let mut mentions: Vec<_> = calls.chain(results).collect();
        mentions.sort_by_key(|mention| mention.0);
        for (block, id, is_call, in_place) in mentions {
            let at = At {
                row: first_block_row[m] + block,
                message: m,
                in_place,
            };
            let ends = by_id.entry(id).or_insert_with(|| {
                first_seen.push(id);
                Ends::default()
            });
            if is_call {
                ends.calls.push(at);
            } else {
                ends.results.push(at);
            }
        }
    }
    let mut links: Vec<Link> = first_seen
        .iter()
        .map(|id| {
            let Ends { calls, results } = &by_id[id];
            let (state, words) = judge(calls, results);
            Link {
                id: id.to_string(),
                lane: 0,
                call_rows: calls.iter().map(|c| c.row).collect(),
                result_rows: results.iter().map(|r| r.row).collect(),
                state,
                words,
            }
        })
        .collect();
    let lanes = assign_lanes(&mut links);
    Conversation { rows, links, lanes }
}

/// A message's calls and results, for the judge.
fn said(message: &Message) -> Said<'_> {
    let mut said = Said {
        speaker: match message.role {
            Role::Assistant => Speaker::Assistant,
            Role::User => Speaker::User,
        },
        calls: Vec::new(),
        results: Vec::new(),
    };
    for (b, block) in message.content.iter().enumerate() {
        match block {
            ContentBlock::ToolUse(call) => said.calls.push((b, call.id.as_str())),
            ContentBlock::ToolResult(result) => said.results.push((b, result.tool_use_id.as_str())),
            ContentBlock::Text { .. } | ContentBlock::Thinking { .. } => {}
        }
    }
    said
}

fn describe(block: &ContentBlock) -> (BlockKind, String, Option<&str>) {
    match block {
        ContentBlock::Text { text } => (BlockKind::Text, shorten(text), None),
        ContentBlock::Thinking { thinking, .. } => (BlockKind::Thinking, shorten(thinking), None),
        ContentBlock::ToolUse(call) => {
            let args = call
                .input_raw
                .clone()
                .unwrap_or_else(|| call.input.to_string());
            (
                BlockKind::ToolUse,
                shorten(&format!("{}({args})", call.name)),
                Some(call.id.as_str()),
            )
        }
        ContentBlock::ToolResult(result) => (
            BlockKind::ToolResult {
                is_error: result.is_error,
            },
            shorten(&result.content),
            Some(result.tool_use_id.as_str()),
        ),
    }
}

fn shorten(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= SUMMARY_CHARS {
        return line;
    }
    let cut: String = line.chars().take(SUMMARY_CHARS - 1).collect();
    format!("{cut}…")
}

/// A link's state and words: the judge's verdicts on one id's calls and
/// results, summed. A link is `Paired` only when its one call and its one
/// result are both in place, which is when the checker finds nothing.
fn judge(calls: &[At], results: &[At]) -> (LinkState, String) {
    match (calls, results) {
        ([], _) => (
            LinkState::NoCall,
            "no tool_use has this id: the result answers a call that was never made".into(),
        ),
        ([_, _, ..], _) => (
            LinkState::DuplicateId,
            format!(
                "{} tool_use blocks share this id, so its result cannot say which call it answers",
                calls.len()
            ),
        ),
        ([_], []) => (
            LinkState::Unanswered,
            "never answered: no tool_result has this id".into(),
        ),
        ([_], [_, _, ..]) => (
            LinkState::AnsweredTwice,
            format!("answered {} times; a call gets one result", results.len()),
        ),
        ([call], [result]) if call.in_place && result.in_place => {
            (LinkState::Paired, "answered in the next message".into())
        }
        ([call], [result]) if result.row < call.row => (
            LinkState::NoCall,
            "the result comes before the call it names".into(),
        ),
        ([call], [result]) if result.message == call.message => (
            LinkState::Misplaced,
            "answered in the same message; a result goes in the next message".into(),
        ),
        ([call], [result]) if result.message == call.message + 1 => (
            LinkState::Misplaced,
            "answered in the next message, but a call must be the assistant's and its result in a user message".into(),
        ),
        ([_], [result]) => (
            LinkState::AnsweredLate,
            format!(
                "answered in the {} message, not the very next one (Anthropic requires the next)",
                ordinal(result.message + 1)
            ),
        ),
    }
}

/// Gives each link the lowest lane free over its rows; returns the count.
fn assign_lanes(links: &mut [Link]) -> usize {
    // The last row each lane is busy up to.
    let mut busy_until: Vec<usize> = Vec::new();
    let mut order: Vec<usize> = (0..links.len()).collect();
    order.sort_by_key(|&i| links[i].span());
    for i in order {
        let (first, last) = links[i].span();
        let lane = match busy_until.iter().position(|&end| end < first) {
            Some(lane) => lane,
            None => {
                busy_until.push(0);
                busy_until.len() - 1
            }
        };
        busy_until[lane] = last;
        links[i].lane = lane;
    }
    busy_until.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{ToolCall, ToolResult};
    use serde_json::json;

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolUse(ToolCall {
            id: id.into(),
            name: "get_time".into(),
            input: json!({"zone": "UTC"}),
            input_raw: None,
        })
    }

    fn result(id: &str) -> ContentBlock {
        ContentBlock::ToolResult(ToolResult {
            tool_use_id: id.into(),
            content: "12:00".into(),
            is_error: false,
            media: Vec::new(),
        })
    }

    fn msg(role: Role, content: Vec<ContentBlock>) -> Message {
        Message { role, content }
    }

    fn states(c: &Conversation) -> Vec<(&str, LinkState)> {
        c.links.iter().map(|l| (l.id.as_str(), l.state)).collect()
    }

    #[test]
    fn parallel_calls_answered_next_are_paired_in_their_own_lanes() {
        let history = [
            Message::user_text("time?"),
            msg(Role::Assistant, vec![call("a"), call("b")]),
            msg(Role::User, vec![result("a"), result("b")]),
        ];
        let c = conversation(&history);
        assert_eq!(
            states(&c),
            [("a", LinkState::Paired), ("b", LinkState::Paired)]
        );
        // Rows: msg 0, its text, msg 1, a, b, msg 2, result a, result b.
        assert_eq!(c.links[0].call_rows, [3]);
        assert_eq!(c.links[0].result_rows, [6]);
        assert_eq!(c.lanes, 2);
        assert_ne!(c.links[0].lane, c.links[1].lane);
        assert_eq!(c.links[0].words, "answered in the next message");
    }

    #[test]
    fn a_lane_is_reused_once_the_link_before_it_has_ended() {
        let history = [
            msg(Role::Assistant, vec![call("a")]),
            msg(Role::User, vec![result("a")]),
            msg(Role::Assistant, vec![call("b")]),
            msg(Role::User, vec![result("b")]),
        ];
        let c = conversation(&history);
        assert_eq!(c.lanes, 1);
    }

    #[test]
    fn broken_pairs_say_why() {
        let history = [
            msg(
                Role::Assistant,
                vec![call("dup"), call("dup"), call("lost")],
            ),
            msg(Role::User, vec![result("dup"), result("ghost")]),
            msg(Role::Assistant, vec![call("late")]),
            msg(
                Role::User,
                vec![ContentBlock::Text {
                    text: "wait".into(),
                }],
            ),
            msg(
                Role::Assistant,
                vec![ContentBlock::Text { text: "…".into() }],
            ),
            msg(Role::User, vec![result("late")]),
        ];
        let c = conversation(&history);
        assert_eq!(
            states(&c),
            [
                ("dup", LinkState::DuplicateId),
                ("lost", LinkState::Unanswered),
                ("ghost", LinkState::NoCall),
                ("late", LinkState::AnsweredLate),
            ]
        );
        assert!(c.links[0]
            .words
            .starts_with("2 tool_use blocks share this id"));
        assert_eq!(
            c.links[3].words,
            "answered in the 6th message, not the very next one (Anthropic requires the next)"
        );
        assert_eq!(c.broken().count(), 4);
    }

    #[test]
    fn long_text_is_cut_to_one_line() {
        let long = "word ".repeat(100);
        let c = conversation(&[Message::user_text(long)]);
        let Row::Block { summary, .. } = &c.rows[1] else {
            panic!("no block row");
        };
        assert_eq!(summary.chars().count(), SUMMARY_CHARS);
        assert!(summary.ends_with('…'));
    }
}
