//! A run as time: the trace's events laid out as bars on one time axis, a
//! row for each model call, each wait before a retry, each wait for a person
//! (approval) and each tool call, with the run's deadline where it falls.
//! Plain data, no Leptos: `waterfall::view` draws it, windowed by
//! [`visible_rows`] so a 10,000-turn run keeps a few dozen rows in the page.
//!
//! Times come from the events themselves: every event carries `t_ms` since
//! the run started, a model response and a tool result their `latency_ms`,
//! a failed model call its `retry_in_ms`. A call that never ended (the run
//! stopped while it was pending) ends where the run did, marked cut.

pub mod view;

use std::ops::Range;

use harness::event::stop_cause::StopCause;
use harness::event::{EventKind, Outcome, ResultFate, RunEvent, Status};
use harness::limits::DeadlineScope;

use crate::run::view_model::format_ms;

/// What a row stands for; the page draws each with its own shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// One request to the model, from request to its answer or error.
    ModelCall,
    /// The wait a failed call asked for before the next try.
    Backoff,
    /// A call that waited for a person to approve or deny it.
    Approval,
    /// A tool's run, from start to result.
    ToolCall,
}

impl BarKind {
    /// The word the page's classes use.
    pub fn key(self) -> &'static str {
        match self {
            BarKind::ModelCall => "model",
            BarKind::Backoff => "backoff",
            BarKind::Approval => "approval",
            BarKind::ToolCall => "tool",
        }
    }
}

/// Why a bar ends before its work did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The run's deadline passed while it was pending.
    Deadline,
    /// The tool ran past `tool_timeout_ms`.
    ToolTimeout,
    /// The run stopped for another reason (a person pressed Stop, a limit).
    RunStopped,
}

impl Cut {
    fn words(self) -> &'static str {
        match self {
            Cut::Deadline => "cut off at the deadline",
            Cut::ToolTimeout => "stopped at tool_timeout_ms",
            Cut::RunStopped => "cut off when the run stopped",
        }
    }
}

/// One row: a span of the run's time.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub kind: BarKind,
    pub start_ms: u64,
    pub end_ms: u64,
    /// What the row says, with its length: "model call 2 · 1.20 s".
    pub label: String,
    /// The events the bar stands for, first the one the trace shows for it.
    pub seqs: Vec<u64>,
    /// Set when the bar ends before its work did.
    pub cut: Option<Cut>,
    /// Still going: the run has not reached its end.
    pub open: bool,
}

impl Bar {
    /// The event the trace shows when the bar is picked.
    pub fn seq(&self) -> u64 {
        self.seqs[0]
    }

    pub fn holds(&self, seq: u64) -> bool {
        self.seqs.contains(&seq)
    }
}

/// Where the deadline is drawn, and what its label says.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadlineLine {
    /// Milliseconds since this run started.
    pub at_ms: u64,
    pub label: String,
}

/// The run as time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Waterfall {
    pub bars: Vec<Bar>,
    pub deadline: Option<DeadlineLine>,
    /// A deadline this run has but whose place on its axis is not known (a
    /// shared deadline counted from before the run): said, not drawn.
    pub deadline_note: Option<String>,
    /// The axis runs from 0 to this: the run's end, or the deadline if later.
    pub span_ms: u64,
}

impl Waterfall {
    /// Lays out `events` (one run's trace, in order). `now_ms`, while the run
    /// is live, is how long it has run: open bars reach it.
    pub fn of(events: &[RunEvent], now_ms: Option<u64>) -> Waterfall {
        let mut layout = Layout::default();
        for event in events {
            layout.observe(event);
        }
        layout.finish(now_ms)
    }

    /// Where `ms` falls on the axis, from 0 to 100.
    pub fn percent(&self, ms: u64) -> f64 {
        if self.span_ms == 0 {
            return 0.0;
        }
        (ms.min(self.span_ms) as f64 / self.span_ms as f64) * 100.0
    }

    /// The row holding event `seq`, if any.
    pub fn row_of(&self, seq: u64) -> Option<usize> {
        self.bars.iter().position(|bar| bar.holds(seq))
    }
}

/// The rows to draw for a list `rows` long whose rows are `row_px` tall,
/// scrolled to `scroll_px` in a box `view_px` tall: those on screen and
/// `spare` more on each side, so a scroll or a Tab lands on drawn rows.
pub fn visible_rows(
    rows: usize,
    row_px: f64,
    scroll_px: f64,
    view_px: f64,
    spare: usize,
) -> Range<usize> {
    if rows == 0 || row_px <= 0.0 {
        return 0..0;
    }
    let first = (scroll_px.max(0.0) / row_px).floor() as usize;
    let shown = (view_px.max(0.0) / row_px).ceil() as usize + 1;
    let start = first.saturating_sub(spare).min(rows);
    let end = first.saturating_add(shown).saturating_add(spare).min(rows);
    start..end.max(start)
}

/// Bars being built, event by event.
#[derive(Default)]
struct Layout {
    bars: Vec<Bar>,
    /// Model calls so far, for their numbers.
    model_calls: u32,
    /// The model call waiting for its answer: its row.
    pending_model: Option<usize>,
    /// The backoff waiting for the next try: its row.
    pending_backoff: Option<usize>,
    /// Approvals asked and not yet decided: call id and row.
    pending_approvals: Vec<(String, usize)>,
    /// Calls the model asked for and not yet answered: id, seq of the call.
    asked_calls: Vec<(String, u64)>,
    deadline_ms: Option<u64>,
    shared_deadline: bool,
    tool_timeout_ms: Option<u64>,
    finished: Option<(u64, Outcome)>,
    last_ms: u64,
}

impl Layout {
    fn observe(&mut self, event: &RunEvent) {
        let t = event.t_ms;
        self.last_ms = self.last_ms.max(t);
        match &event.kind {
            EventKind::RunStarted { limits, .. } => {
                self.deadline_ms = limits.deadline_ms;
                self.shared_deadline = limits.deadline_scope == DeadlineScope::Shared;
                self.tool_timeout_ms = limits.tool_timeout_ms;
            }
            EventKind::ModelRequest { turn, attempt, .. } => {
                if let Some(row) = self.pending_backoff.take() {
                    let wait = &mut self.bars[row];
                    wait.end_ms = t.max(wait.start_ms);
                    wait.open = false;
                }
                self.model_calls += 1;
                let label = if *attempt > 1 {
                    format!(
                        "model call {} (turn {turn}, try {attempt})",
                        self.model_calls
                    )
                } else {
                    format!("model call {} (turn {turn})", self.model_calls)
                };
                self.pending_model = Some(self.push(BarKind::ModelCall, t, label, event.seq));
            }
            EventKind::ModelResponse { latency_ms, .. } => {
                self.end_model(t, *latency_ms, event.seq, None);
            }
            EventKind::ModelError {
                latency_ms,
                retry_in_ms,
                status,
                ..
            } => {
                let failed = match status {
                    Some(code) => format!("failed ({code})"),
                    None => "failed".to_string(),
                };
                self.end_model(t, *latency_ms, event.seq, Some(failed));
                if let Some(wait) = retry_in_ms {
                    let row = self.push(
                        BarKind::Backoff,
                        t,
                        "wait before retrying".to_string(),
                        event.seq,
                    );
                    self.bars[row].end_ms = t + wait;
                    self.pending_backoff = Some(row);
                }
            }
            EventKind::ToolCall { id, .. } => {
                self.asked_calls.push((id.clone(), event.seq));
            }
            EventKind::ApprovalRequested { id, name, .. } => {
                let label = format!("waiting for a person: {name}");
                let row = self.push(BarKind::Approval, t, label, event.seq);
                if let Some(call) = self.call_seq(id) {
                    self.bars[row].seqs.push(call);
                }
                self.pending_approvals.push((id.clone(), row));
            }
            EventKind::ApprovalDecided { id, decision, .. } => {
                if let Some(at) = self.pending_approvals.iter().position(|(i, _)| i == id) {
                    let (_, row) = self.pending_approvals.remove(at);
                    let bar = &mut self.bars[row];
                    bar.end_ms = t.max(bar.start_ms);
                    bar.seqs.push(event.seq);
                    bar.label = format!("{} ({})", bar.label, decision.as_str());
                    bar.open = false;
                }
            }
            EventKind::ToolResult {
                id,
                name,
                latency_ms,
                fate,
                ..
            } => {
                let call = self.call_seq(id);
                self.asked_calls.retain(|(i, _)| i != id);
                let mut seqs: Vec<u64> = call.into_iter().collect();
                seqs.push(event.seq);
                let ran = fate.is_none_or(ResultFate::tool_ran);
                let cut = match fate {
                    Some(ResultFate::TimedOut) => Some(Cut::ToolTimeout),
                    Some(ResultFate::CutShort) => Some(Cut::RunStopped),
                    _ => None,
                };
                let mut label = format!("tool {name}");
                if !ran {
                    if let Some(fate) = fate {
                        label = format!("{label}, not run ({})", fate.as_str().replace('_', " "));
                    }
                }
                self.bars.push(Bar {
                    kind: BarKind::ToolCall,
                    start_ms: t.saturating_sub(*latency_ms),
                    end_ms: t,
                    label,
                    seqs,
                    cut,
                    open: false,
                });
            }
            EventKind::RunFinished(outcome) => {
                self.finished = Some((t, outcome.clone()));
            }
            EventKind::ContextEdited { .. } => {}
        }
    }

    fn push(&mut self, kind: BarKind, start_ms: u64, label: String, seq: u64) -> usize {
        self.bars.push(Bar {
            kind,
            start_ms,
            end_ms: start_ms,
            label,
            seqs: vec![seq],
            cut: None,
            open: true,
        });
        self.bars.len() - 1
    }

    fn call_seq(&self, id: &str) -> Option<u64> {
        self.asked_calls
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, seq)| *seq)
    }

    /// Ends the pending model call at `t` (its start moved back to `t -
    /// latency` if the request event came later, as in a replayed trace).
    fn end_model(&mut self, t: u64, latency_ms: u64, seq: u64, failed: Option<String>) {
        let Some(row) = self.pending_model.take() else {
            return;
        };
        let bar = &mut self.bars[row];
        bar.start_ms = bar.start_ms.min(t.saturating_sub(latency_ms));
        bar.end_ms = t;
        bar.seqs.push(seq);
        bar.open = false;
        if let Some(failed) = failed {
            bar.label = format!("{}, {failed}", bar.label);
        }
    }

    fn finish(mut self, now_ms: Option<u64>) -> Waterfall {
        let end_ms = match (&self.finished, now_ms) {
            (Some((t, outcome)), _) => (*t).max(outcome.elapsed_ms),
            (None, Some(now)) => now.max(self.last_ms),
            (None, None) => self.last_ms,
        };
        let stopped_by_deadline = self
            .finished
            .as_ref()
            .is_some_and(|(_, o)| o.status == Status::Deadline);
        // Bars still open end where the run did; once it has ended, they
        // were cut off by what ended it.
        for bar in &mut self.bars {
            if bar.open {
                bar.end_ms = bar.end_ms.max(end_ms);
                if self.finished.is_some() {
                    bar.open = false;
                    if bar.kind != BarKind::Backoff || stopped_by_deadline {
                        bar.cut = Some(Cut::RunStopped);
                    }
                }
            }
            // A backoff the run ended during is cut where the run ended.
            if bar.kind == BarKind::Backoff && self.finished.is_some() {
                bar.end_ms = bar.end_ms.min(end_ms);
            }
            if bar.cut == Some(Cut::RunStopped) && stopped_by_deadline {
                bar.cut = Some(Cut::Deadline);
            }
        }
        let (deadline, deadline_note) = self.deadline();
        let span_ms = self
            .bars
            .iter()
            .map(|b| b.end_ms)
            .chain([end_ms])
            .chain(deadline.as_ref().map(|d| d.at_ms))
            .max()
            .unwrap_or(0);
        for bar in &mut self.bars {
            bar.label = labelled(bar);
        }
        Waterfall {
            bars: self.bars,
            deadline,
            deadline_note,
            span_ms,
        }
    }

    /// The deadline on this run's axis. A shared deadline is counted from
    /// before the run; only a run it ended says how long before.
    fn deadline(&self) -> (Option<DeadlineLine>, Option<String>) {
        let Some(ms) = self.deadline_ms else {
            return (None, None);
        };
        if !self.shared_deadline {
            let label = format!("deadline {}", format_ms(ms));
            return (Some(DeadlineLine { at_ms: ms, label }), None);
        }
        let since = self.finished.as_ref().and_then(|(_, o)| match &o.cause {
            Some(StopCause::Deadline {
                shared_since_ms: Some(since),
                ..
            }) => Some(*since),
            _ => None,
        });
        match since {
            Some(since) => {
                let at_ms = ms.saturating_sub(since);
                let label = format!(
                    "deadline {} (shared: it started {} before this run)",
                    format_ms(ms),
                    format_ms(since)
                );
                (Some(DeadlineLine { at_ms, label }), None)
            }
            None => (
                None,
                Some(format!(
                    "The {} deadline is shared, counted from the page's start rather than this run's, so its place on this run's time is not known.",
                    format_ms(ms)
                )),
            ),
        }
    }
}

/// A bar's words: what it is, how long it took, and why it was cut.
fn labelled(bar: &Bar) -> String {
    let took = format_ms(bar.end_ms - bar.start_ms);
    let mut label = format!("{} · {took}", bar.label);
    if let Some(cut) = bar.cut {
        label = format!("{label}, {}", cut.words());
    } else if bar.open {
        label.push_str(", still going");
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::approval::{Decider, DecisionKind};
    use harness::event::stop_cause::Activity;
    use harness::limits::Limits;
    use harness::model::Usage;

    fn at(seq: u64, t_ms: u64, kind: EventKind) -> RunEvent {
        RunEvent { seq, t_ms, kind }
    }

    fn started(limits: Limits) -> RunEvent {
        at(
            0,
            0,
            EventKind::RunStarted {
                scenario: "s".into(),
                model: "scripted".into(),
                approval: Default::default(),
                tools: vec![],
                limits,
                context: Default::default(),
                task: "t".into(),
            },
        )
    }

    fn request(seq: u64, t: u64, turn: u32, attempt: u32) -> RunEvent {
        at(
            seq,
            t,
            EventKind::ModelRequest {
                turn,
                attempt,
                messages: 1,
                estimated_input_tokens: 10,
                max_output_tokens: 100,
            },
        )
    }

    fn response(seq: u64, t: u64, turn: u32, latency_ms: u64) -> RunEvent {
        at(
            seq,
            t,
            EventKind::ModelResponse {
                turn,
                text: String::new(),
                content: vec![],
                stop_reason: "tool_use".into(),
                usage: Usage::default(),
                cost_usd: 0.0,
                latency_ms,
                by_person: false,
            },
        )
    }

    fn call(seq: u64, t: u64, id: &str) -> RunEvent {
        at(
            seq,
            t,
            EventKind::ToolCall {
                turn: 1,
                id: id.into(),
                name: "slow_lookup".into(),
                args: serde_json::json!({}),
                args_raw: None,
                validation: harness::event::Validation::Valid,
                unchecked: vec![],
                needs_approval: false,
            },
        )
    }

    fn result(seq: u64, t: u64, id: &str, latency_ms: u64, fate: ResultFate) -> RunEvent {
        at(
            seq,
            t,
            EventKind::ToolResult {
                id: id.into(),
                name: "slow_lookup".into(),
                content: String::new(),
                is_error: false,
                latency_ms,
                state: None,
                by_person: false,
                fate: Some(fate),
                media: vec![],
            },
        )
    }

    fn finished(seq: u64, t: u64, status: Status, cause: Option<StopCause>) -> RunEvent {
        at(
            seq,
            t,
            EventKind::RunFinished(Outcome {
                status,
                reason: "r".into(),
                cause,
                turns: 1,
                tool_calls: 1,
                calls: None,
                input_tokens: 0,
                output_tokens: 0,
                cost_usd: 0.0,
                elapsed_ms: t,
                answer: None,
            }),
        )
    }

    fn deadline_cause(deadline_ms: u64, shared_since_ms: Option<u64>) -> StopCause {
        StopCause::Deadline {
            deadline_ms,
            at_ms: deadline_ms,
            during: Activity::ToolRunning {
                tool: "slow_lookup".into(),
            },
            shared_since_ms,
            checked_between_steps: false,
        }
    }

    /// The hung-tool run: a 3 s lookup under a 1.5 s deadline that cuts it.
    fn hung_tool() -> Vec<RunEvent> {
        vec![
            started(Limits {
                deadline_ms: Some(1500),
                ..Limits::default()
            }),
            request(1, 0, 1, 1),
            response(2, 200, 1, 200),
            call(3, 200, "c1"),
            result(4, 1500, "c1", 1300, ResultFate::CutShort),
            finished(5, 1500, Status::Deadline, Some(deadline_cause(1500, None))),
        ]
    }

    #[test]
    fn the_deadline_is_a_line_at_its_value_and_the_axis_reaches_it() {
        let w = Waterfall::of(&hung_tool(), None);
        let line = w.deadline.clone().expect("a deadline line");
        assert_eq!(line.at_ms, 1500);
        assert_eq!(line.label, "deadline 1.50 s");
        assert_eq!(w.percent(line.at_ms), 100.0);
        // A run that ends early still shows where its deadline was.
        let mut quick = hung_tool();
        quick.truncate(3);
        quick.push(finished(3, 300, Status::Done, None));
        let w = Waterfall::of(&quick, None);
        assert_eq!(w.span_ms, 1500);
        assert_eq!(w.percent(300), 20.0);
    }

    #[test]
    fn a_call_the_deadline_cut_ends_at_the_deadline_and_says_so() {
        let w = Waterfall::of(&hung_tool(), None);
        let tool = &w.bars[1];
        assert_eq!(tool.kind, BarKind::ToolCall);
        assert_eq!((tool.start_ms, tool.end_ms), (200, 1500));
        assert_eq!(tool.cut, Some(Cut::Deadline));
        assert_eq!(
            tool.label,
            "tool slow_lookup · 1.30 s, cut off at the deadline"
        );
        assert_eq!(tool.seqs, vec![3, 4], "the call and its result");
        // A model call the deadline caught mid-request is cut there too.
        let mut waiting = hung_tool();
        waiting.truncate(2);
        waiting.push(finished(2, 1500, Status::Deadline, None));
        let w = Waterfall::of(&waiting, None);
        assert_eq!(
            (w.bars[0].end_ms, w.bars[0].cut),
            (1500, Some(Cut::Deadline))
        );
        assert_eq!(
            w.bars[0].label,
            "model call 1 (turn 1) · 1.50 s, cut off at the deadline"
        );
    }

    #[test]
    fn retries_and_their_backoff_are_rows_of_their_own() {
        let events = vec![
            started(Limits::default()),
            request(1, 0, 1, 1),
            at(
                2,
                100,
                EventKind::ModelError {
                    turn: 1,
                    attempt: 1,
                    status: Some(429),
                    message: "rate limited".into(),
                    retry_in_ms: Some(2000),
                    latency_ms: 100,
                },
            ),
            request(3, 2100, 1, 2),
            response(4, 2400, 1, 300),
            finished(5, 2400, Status::Done, None),
        ];
        let w = Waterfall::of(&events, None);
        let kinds: Vec<BarKind> = w.bars.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [BarKind::ModelCall, BarKind::Backoff, BarKind::ModelCall]
        );
        assert_eq!(
            w.bars[0].label,
            "model call 1 (turn 1), failed (429) · 100 ms"
        );
        assert_eq!((w.bars[1].start_ms, w.bars[1].end_ms), (100, 2100));
        assert_eq!(w.bars[1].label, "wait before retrying · 2.00 s");
        assert_eq!(w.bars[2].label, "model call 2 (turn 1, try 2) · 300 ms");
        assert!(w.deadline.is_none() && w.deadline_note.is_none());
    }

    #[test]
    fn a_wait_for_a_person_spans_the_request_to_the_decision() {
        let events = vec![
            started(Limits::default()),
            call(1, 100, "c1"),
            at(
                2,
                100,
                EventKind::ApprovalRequested {
                    id: "c1".into(),
                    name: "refund".into(),
                    args: serde_json::json!({}),
                },
            ),
            at(
                3,
                4200,
                EventKind::ApprovalDecided {
                    id: "c1".into(),
                    name: "refund".into(),
                    decision: DecisionKind::Approve,
                    by: Decider::User,
                    reason: None,
                    args: None,
                },
            ),
        ];
        let w = Waterfall::of(&events, Some(4300));
        let wait = &w.bars[0];
        assert_eq!(wait.kind, BarKind::Approval);
        assert_eq!((wait.start_ms, wait.end_ms), (100, 4200));
        assert_eq!(
            wait.label,
            "waiting for a person: refund (approve) · 4.10 s"
        );
        assert!(wait.holds(1) && wait.holds(2) && wait.holds(3));
        assert_eq!(w.row_of(3), Some(0));
        assert_eq!(w.span_ms, 4300, "a live run's axis reaches now");
    }

    #[test]
    fn a_live_call_reaches_now_and_says_it_is_still_going() {
        let mut events = hung_tool();
        events.truncate(2);
        let w = Waterfall::of(&events, Some(900));
        assert_eq!(w.bars[0].end_ms, 900);
        assert!(
            w.bars[0].label.ends_with("still going"),
            "{}",
            w.bars[0].label
        );
    }

    #[test]
    fn a_shared_deadline_is_drawn_only_where_the_run_says_it_fell() {
        let shared = Limits {
            deadline_ms: Some(1500),
            deadline_scope: DeadlineScope::Shared,
            ..Limits::default()
        };
        let mut events = hung_tool();
        events[0] = started(shared);
        events[5] = finished(
            5,
            500,
            Status::Deadline,
            Some(deadline_cause(1500, Some(1000))),
        );
        let w = Waterfall::of(&events, None);
        let line = w.deadline.expect("the line");
        assert_eq!(line.at_ms, 500);
        assert!(line.label.contains("shared"), "{}", line.label);
        events.truncate(3);
        let w = Waterfall::of(&events, Some(300));
        assert!(w.deadline.is_none());
        assert!(w.deadline_note.unwrap().contains("shared"));
    }

    #[test]
    fn ten_thousand_rows_draw_a_window_of_them() {
        let mut events = vec![started(Limits::default())];
        for turn in 0..10_000u64 {
            events.push(request(turn * 2 + 1, turn * 10, turn as u32 + 1, 1));
            events.push(response(turn * 2 + 2, turn * 10 + 5, turn as u32 + 1, 5));
        }
        let w = Waterfall::of(&events, None);
        assert_eq!(w.bars.len(), 10_000);
        let drawn = visible_rows(w.bars.len(), 28.0, 0.0, 320.0, 8);
        assert_eq!(drawn, 0..21);
        let drawn = visible_rows(w.bars.len(), 28.0, 28.0 * 5000.0, 320.0, 8);
        assert_eq!(drawn, 4992..5021);
        let drawn = visible_rows(w.bars.len(), 28.0, 28.0 * 10_000.0, 320.0, 8);
        assert_eq!(drawn.end, 10_000);
        assert!(drawn.len() <= 30);
        assert_eq!(visible_rows(0, 28.0, 0.0, 320.0, 8), 0..0);
    }
}
