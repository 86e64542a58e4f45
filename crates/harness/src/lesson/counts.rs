//! What a lesson counts in a run: the model calls, and the tool calls that
//! ran. The goal's parts, the prediction's true value and the explanation's
//! numbers all read them here, so they agree.

use crate::event::{EventKind, ResultFate, RunEvent};
use crate::replay::tool_steps;

/// The events without the results of calls that did not run.
pub(super) fn ran_only(events: &[RunEvent]) -> Vec<RunEvent> {
    events
        .iter()
        .filter(|e| match &e.kind {
            EventKind::ToolResult { fate, .. } => fate_ran(*fate),
            _ => true,
        })
        .cloned()
        .collect()
}

/// The names of the tool calls that ran, in order.
pub(super) fn tool_calls_that_ran(events: &[RunEvent]) -> Vec<String> {
    tool_steps(&ran_only(events))
        .into_iter()
        .map(|(name, _, _)| name)
        .collect()
}

/// Model calls: each turn's request, retries not counted again.
pub(super) fn model_calls(events: &[RunEvent]) -> u32 {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { attempt: 1, .. }))
        .count() as u32
}

/// Whether a result says its tool ran (or started: a cut-short or
/// timed-out call has done whatever it did). A person typing the result
/// counts: the call was answered as if it ran.
pub(super) fn fate_ran(fate: Option<ResultFate>) -> bool {
    matches!(
        fate,
        None | Some(
            ResultFate::Ran | ResultFate::TimedOut | ResultFate::CutShort | ResultFate::ByPerson
        )
    )
}
