//! A run's trace as steps, and two runs' steps aligned side by side.
//!
//! A step is what a learner reads as one thing the agent did: the run's
//! start; a model call (its request, any failed attempts and retries, and
//! the response); a tool call (its validation, the approval asked and
//! decided, and its result); the run's end. Grouped this way, an approval
//! one run asks for and the other does not stays inside its call's step
//! instead of shifting every later row.
//!
//! Steps are aligned by their place in the run: the turn, then the position
//! within the turn (the model call first, then its tool calls in order).
//! Every step carries its turn, so the key is exact and two runs' rows
//! always say "what each run did in turn t". An alignment that searches for
//! the longest common run of steps (LCS) was the alternative; it would pair
//! a turn-3 call of one run with a turn-5 call of the other whenever they
//! happened to match, and hide that the runs had taken different paths,
//! which is what a comparison is for.

use harness::event::{EventKind, RunEvent};
use harness::fork::step_key;

/// Where a step sits in its run; steps of two runs with the same key are
/// side by side. The order of the variants is the order of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StepKey {
    Start,
    /// Position 0 is the turn's model call, 1.. its tool calls in order.
    Turn {
        turn: u32,
        position: u32,
    },
    End,
}

impl StepKey {
    pub fn turn(self) -> Option<u32> {
        match self {
            StepKey::Turn { turn, .. } => Some(turn),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Start,
    ModelCall,
    ToolCall,
    End,
}

impl StepKind {
    /// For `data-kind` on the step's cell: the trace's own word for the start,
    /// the end and a tool call, "model_call" for a request with its response.
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Start => "run_started",
            StepKind::ModelCall => "model_call",
            StepKind::ToolCall => "tool_call",
            StepKind::End => "run_finished",
        }
    }
}

/// One step of one run: its key and the positions of its events in the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub key: StepKey,
    pub kind: StepKind,
    /// Indices into the run's events, in trace order.
    pub events: Vec<usize>,
    /// The tool_use id of a tool call's step.
    call_id: Option<String>,
}

impl Step {
    fn new(key: StepKey, kind: StepKind, index: usize) -> Self {
        Step {
            key,
            kind,
            events: vec![index],
            call_id: None,
        }
    }

    /// What the step did, without timings or token counts
    /// (`harness::fork::step_key` of each event): two steps with the same
    /// signature were taken the same way.
    pub fn signature(&self, events: &[RunEvent]) -> Vec<String> {
        self.events.iter().map(|&i| step_key(&events[i])).collect()
    }
}

/// A run's events grouped into steps, in run order.
pub fn steps(events: &[RunEvent]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    // The turn the latest model call or tool call belongs to.
    let mut turn = 0;
    for (index, event) in events.iter().enumerate() {
        let by_call = |steps: &mut Vec<Step>, id: &str| {
            steps
                .iter_mut()
                .rev()
                .find(|s| s.call_id.as_deref() == Some(id))
                .map(|s| s.events.push(index))
                .is_some()
        };
        match &event.kind {
            EventKind::RunStarted { .. } => {
                steps.push(Step::new(StepKey::Start, StepKind::Start, index))
            }
            EventKind::RunFinished(_) => steps.push(Step::new(StepKey::End, StepKind::End, index)),
            // A context strategy's edit shapes the request of the turn it precedes.
            EventKind::ModelRequest { turn: t, .. }
            | EventKind::ModelResponse { turn: t, .. }
            | EventKind::ModelError { turn: t, .. }
            | EventKind::ContextEdited { turn: t, .. } => {
                turn = *t;
                let key = StepKey::Turn { turn, position: 0 };
                // A retry's request, a failed attempt and the response all
                // belong to the turn's one model call.
                match steps.iter_mut().rev().find(|s| s.key == key) {
                    Some(step) => step.events.push(index),
                    None => steps.push(Step::new(key, StepKind::ModelCall, index)),
                }
            }
            EventKind::ToolCall { turn: t, id, .. } => {
                turn = *t;
                push_call(&mut steps, turn, id, index);
            }
            EventKind::ApprovalRequested { id, .. }
            | EventKind::ApprovalDecided { id, .. }
            | EventKind::ToolResult { id, .. } => {
                if !by_call(&mut steps, id) {
                    // A result with no call before it (a trace cut short, or
                    // made by hand) is a step of its own in the current turn.
                    push_call(&mut steps, turn, id, index);
                }
            }
        }
    }
    steps.sort_by_key(|s| s.key);
    steps
}

/// The two runs' steps side by side, in run order: each pair has the same
/// key, and a step only one run took has an empty other side.
pub fn align(left: Vec<Step>, right: Vec<Step>) -> Vec<(Option<Step>, Option<Step>)> {
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    let mut rows = Vec::new();
    loop {
        let row = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => (left.next(), None),
            (None, Some(_)) => (None, right.next()),
            (Some(l), Some(r)) => match l.key.cmp(&r.key) {
                std::cmp::Ordering::Less => (left.next(), None),
                std::cmp::Ordering::Greater => (None, right.next()),
                std::cmp::Ordering::Equal => (left.next(), right.next()),
            },
        };
        rows.push(row);
    }
    rows
}

/// The first aligned row whose steps differ: one run did not take it, or
/// took it another way.
pub fn first_divergent(
    rows: &[(Option<Step>, Option<Step>)],
    left: &[RunEvent],
    right: &[RunEvent],
) -> Option<usize> {
    rows.iter().position(|row| match row {
        (Some(l), Some(r)) => l.signature(left) != r.signature(right),
        _ => true,
    })
}

/// Starts the step of call `id`, the next call of `turn`, at event `index`.
fn push_call(steps: &mut Vec<Step>, turn: u32, id: &str, index: usize) {
    let position = 1 + steps
        .iter()
        .filter(|s| s.kind == StepKind::ToolCall && s.key.turn() == Some(turn))
        .count() as u32;
    let mut step = Step::new(StepKey::Turn { turn, position }, StepKind::ToolCall, index);
    step.call_id = Some(id.to_string());
    steps.push(step);
}
