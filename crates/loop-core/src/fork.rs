//! Forks: continue a recorded run from one of its steps under an edited
//! scenario (a tool description, a limit, a scripted response), without
//! calling the model again for what came before.
//!
//! A fork point is the moment just before a model call (a `model_request`,
//! first attempt) or a tool call (a `tool_call`). The fork copies the parent's
//! events before that point unchanged, restores the run's state from them
//! (`Run::restore`), and drives the rest with the edited scenario; a scripted
//! model continues at the response the parent would have used next.
//!
//! Built-in tools keep state (refunds, policy checks). To put that state back
//! without re-running anything the model sees, the earlier successful calls
//! are applied to the fresh tools silently: their results are discarded and
//! no event is emitted. A result a person typed in a tool's place is not
//! applied: that tool never ran. A turn a person wrote is a recorded turn
//! like any other: it is in the copied prefix, and the script continues
//! after it (the person's turn took the script's place). The fork's deadline counts from the fork's start;
//! its event times continue the parent's timeline.

use std::rc::Rc;

use serde_json::Value;

use crate::error::ForkError;
use crate::event::{EventKind, RunEvent};
use crate::replay::Record;
use crate::run::Run;
use crate::runtime::Runtime;
use crate::scenario::Scenario;
use crate::RunOptions;

/// A step a run can be forked from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForkPoint {
    /// The `seq` of the event the fork starts at (it is not copied).
    pub seq: u64,
    /// "before turn 2" or "before tool call get_time (toolu_0001)".
    pub label: String,
}

pub fn fork_points(events: &[RunEvent]) -> Vec<ForkPoint> {
    events
        .iter()
        .filter_map(|event| {
            let label = match &event.kind {
                EventKind::ModelRequest {
                    turn, attempt: 1, ..
                } => format!("before turn {turn}"),
                EventKind::ToolCall { name, id, .. } => format!("before tool call {name} ({id})"),
                _ => return None,
            };
            Some(ForkPoint {
                seq: event.seq,
                label,
            })
        })
        .collect()
}

/// Where two traces first part ways, by their steps' keys (see `step_key`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Index of the first event that differs (or that only one trace has).
    pub index: usize,
    pub left: Option<String>,
    pub right: Option<String>,
}

pub fn first_divergence(left: &[RunEvent], right: &[RunEvent]) -> Option<Divergence> {
    let (a, b): (Vec<String>, Vec<String>) = (
        left.iter().map(step_key).collect(),
        right.iter().map(step_key).collect(),
    );
    let index = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))?;
    Some(Divergence {
        index,
        left: a.get(index).cloned(),
        right: b.get(index).cloned(),
    })
}

/// What a step did, without its timing: the event's outline line, plus the
/// arguments of a tool call, the content of a tool result and the text and
/// calls of a model response (and, for the start, the task and tools, not
/// the scenario's name). Two runs whose tools were described
/// differently often make the same call with different arguments, and that
/// is the difference to find, so the outline alone is not enough. Token
/// counts and costs are left out: a longer description changes them on every
/// turn without changing what the agent does.
pub fn step_key(event: &RunEvent) -> String {
    let line = crate::event::outline(std::slice::from_ref(event))
        .pop()
        .unwrap_or_default();
    match &event.kind {
        // The scenario's name is not a step; its task and tools are.
        EventKind::RunStarted { tools, task, .. } => {
            format!("run_started tools=[{}] task={task:?}", tools.join(","))
        }
        EventKind::ToolCall { args, .. } => {
            format!("{line} {args}")
        }
        EventKind::ToolResult { content, .. } => format!("{line} {content}"),
        EventKind::ModelResponse { content, .. } => {
            let mut parts = vec![line];
            for block in content {
                match block {
                    crate::message::ContentBlock::Text { text } if !text.trim().is_empty() => {
                        parts.push(format!("text {:?}", text.trim()))
                    }
                    crate::message::ContentBlock::ToolUse(call) => {
                        parts.push(format!("{}({})", call.name, call.input))
                    }
                    _ => {}
                }
            }
            parts.join(" ")
        }
        _ => line,
    }
}

/// Continues `parent` from the event with `seq` under `scenario`.
pub async fn fork(
    parent: &Record,
    seq: u64,
    scenario: &Scenario,
    runtime: Rc<dyn Runtime>,
    options: RunOptions<'_>,
    on_event: &mut dyn FnMut(&RunEvent),
) -> Result<Record, ForkError> {
    fork_with_model(parent, seq, scenario, None, runtime, options, on_event).await
}

/// `fork`, with `model` (a real provider, say) answering the turns after
/// the fork point instead of the scenario's own model.
pub async fn fork_with_model(
    parent: &Record,
    seq: u64,
    scenario: &Scenario,
    model: Option<&dyn crate::model::ModelClient>,
    runtime: Rc<dyn Runtime>,
    options: RunOptions<'_>,
    on_event: &mut dyn FnMut(&RunEvent),
) -> Result<Record, ForkError> {
    if !fork_points(&parent.events).iter().any(|p| p.seq == seq) {
        let points: Vec<String> = fork_points(&parent.events)
            .iter()
            .map(|p| format!("{} ({})", p.seq, p.label))
            .collect();
        return Err(ForkError::NotAForkPoint { seq, points });
    }
    // A fork point is one of the record's events.
    let at = parent
        .events
        .iter()
        .position(|e| e.seq == seq)
        .unwrap_or(parent.events.len());
    let prefix = &parent.events[..at];
    let model_calls_done = prefix.iter().filter(|e| e.kind.answered_by_model()).count();
    let (config, own_model) = scenario
        .build_continuing_with_scripts(runtime.clone(), model_calls_done, options.scripts.clone())
        .map_err(ForkError::Scenario)?;
    let mut run = Run::new(config);
    restore_tool_state(&run, prefix);
    run.restore(prefix)?;
    let env = crate::driver::Env {
        runtime: runtime.as_ref(),
        model: model.unwrap_or(own_model.as_ref()),
        approver: options.approver,
        cancel: options.cancel,
        stepper: options.stepper,
    };
    let mut events = prefix.to_vec();
    crate::driver::drive(&mut run, &env, &mut |event| {
        on_event(event);
        events.push(event.clone());
    })
    .await;
    Ok(Record {
        scenario: Some(scenario.clone()),
        events,
        forked_at: Some(seq),
    })
}

/// Applies the prefix's successful calls to the run's fresh tools, silently.
fn restore_tool_state(run: &Run, prefix: &[RunEvent]) {
    let mut args_by_id: Vec<(&str, &Value)> = Vec::new();
    for event in prefix {
        match &event.kind {
            EventKind::ToolCall { id, args, .. } => args_by_id.push((id, args)),
            EventKind::ApprovalDecided {
                id,
                args: Some(edited),
                ..
            } => args_by_id.push((id, edited)),
            // A result a person typed in the tool's place: the tool never
            // ran, so its store was not touched.
            EventKind::ToolResult {
                id,
                name,
                is_error: false,
                by_person: false,
                ..
            } => {
                let args = args_by_id
                    .iter()
                    .rev()
                    .find(|(i, _)| i == id)
                    .map(|(_, a)| (*a).clone());
                if let (Some(tool), Some(args)) = (run.tools().get(name), args) {
                    // Built-in tools act when called; the future only carries
                    // the result, which is not wanted here.
                    drop(tool.handler.call(args));
                }
            }
            _ => {}
        }
    }
}
