//! A person's Stop, read from a recording, pressed again at the same point
//! of its replay, so a run someone stopped replays `cancelled` with the
//! recorded reason. Where a replay cannot meet that moment (a tool cut off
//! while it ran, a wait before a retry), `why_not` says so in plain words.

use std::cell::Cell;
use std::collections::HashSet;
use std::future::Future;

use futures::future::{self, Either};
use futures::pin_mut;

use crate::cancel::CancelToken;
use crate::event::{EventKind, ResultFate, RunEvent};
use crate::run::{Activity, PauseBefore, StopCause};

use super::Record;

/// Where the recording's Stop was pressed, as a replay can meet it again.
#[derive(Clone, Debug, PartialEq)]
enum StopPoint {
    /// At step mode's pause before this turn's model call.
    PausedBeforeModel { turn: u32 },
    /// At step mode's pause before the tool call with this id.
    PausedBeforeTool { id: String },
    /// While the model was answering: the answer the recording never got.
    WaitingForModel,
    /// While the call with this id waited for a person's decision.
    WaitingForApproval { id: String },
    /// Between two steps (a command-line run stopped by a signal, or the
    /// page's Stop taken in while it yields), once the run had handed out
    /// this many events.
    BetweenSteps { after: usize },
}

/// The replay's own Stop button, and where the recording says to press it.
pub(super) struct RecordedStop {
    point: Option<StopPoint>,
    /// The signal that stopped the recorded run ("SIGTERM"), pressed again
    /// so the replay's reason names it too.
    signal: Option<String>,
    token: CancelToken,
    /// The replay's events so far, to meet a `BetweenSteps` point.
    seen: Cell<usize>,
}

impl RecordedStop {
    pub fn of(record: &Record) -> Self {
        let signal = match record.outcome().and_then(|o| o.cause.as_ref()) {
            Some(StopCause::Cancelled { signal, .. }) => signal.clone(),
            _ => None,
        };
        RecordedStop {
            point: stop_point(record),
            signal,
            token: CancelToken::new(),
            seen: Cell::new(0),
        }
    }

    /// The token the replay's run is driven with.
    pub fn token(&self) -> CancelToken {
        self.token.clone()
    }

    /// The recording was stopped at a step mode pause: the replay steps.
    pub fn needs_step_mode(&self) -> bool {
        matches!(
            self.point,
            Some(StopPoint::PausedBeforeModel { .. } | StopPoint::PausedBeforeTool { .. })
        )
    }

    /// Presses Stop if the recording was stopped at this pause.
    pub fn at_pause(&self, before: &PauseBefore) -> bool {
        let here = match (&self.point, before) {
            (Some(StopPoint::PausedBeforeModel { turn }), PauseBefore::ModelCall { turn: now }) => {
                turn == now
            }
            (Some(StopPoint::PausedBeforeTool { id }), PauseBefore::ToolCall { id: now, .. }) => {
                id == now
            }
            _ => false,
        };
        self.press_if(here)
    }

    /// Presses Stop if the recording was stopped while the model answered
    /// the turn the replay has just run out of.
    pub fn at_missing_turn(&self) -> bool {
        self.press_if(self.point == Some(StopPoint::WaitingForModel))
    }

    /// Presses Stop if the recording was stopped while the call `call_id`
    /// waited for the decision it never recorded.
    pub fn at_undecided_call(&self, call_id: &str) -> bool {
        let here =
            matches!(&self.point, Some(StopPoint::WaitingForApproval { id }) if id == call_id);
        self.press_if(here)
    }

    /// Counts one event the replay handed out.
    pub fn saw_event(&self) {
        self.seen.set(self.seen.get() + 1);
    }

    /// Presses Stop if the recording was stopped between steps once it had
    /// handed out as many events as the replay has now.
    pub fn between_steps(&self) -> bool {
        let here = self.point
            == Some(StopPoint::BetweenSteps {
                after: self.seen.get(),
            });
        self.press_if(here)
    }

    fn press_if(&self, here: bool) -> bool {
        match (&self.signal, here) {
            (Some(signal), true) => self.token.cancel_by_signal(signal),
            (None, true) => self.token.cancel(),
            (_, false) => {}
        }
        here
    }

    /// Awaits `run`, passing a Stop pressed on `outer` (whoever started the
    /// replay) on to the replay's own token.
    pub async fn forwarding<T>(&self, outer: CancelToken, run: impl Future<Output = T>) -> T {
        let token = self.token.clone();
        let forward = async move {
            outer.cancelled().await;
            token.cancel();
            future::pending::<()>().await
        };
        pin_mut!(run, forward);
        match future::select(run, forward).await {
            Either::Left((value, _)) => value,
            Either::Right(((), run)) => run.await,
        }
    }
}

/// The point of the recording's Stop, when it was a person's and a replay
/// can meet it.
fn stop_point(record: &Record) -> Option<StopPoint> {
    let Some(StopCause::Cancelled { during, .. }) = record.outcome()?.cause.as_ref() else {
        return None;
    };
    match during {
        Activity::PausedBeforeModel { turn } => Some(StopPoint::PausedBeforeModel { turn: *turn }),
        Activity::PausedBeforeTool { .. } => Some(StopPoint::PausedBeforeTool {
            id: stopped_before_start(&record.events)?,
        }),
        Activity::WaitingForModel { .. } => Some(StopPoint::WaitingForModel),
        Activity::WaitingForApproval { .. } => Some(StopPoint::WaitingForApproval {
            id: stopped_before_start(&record.events)?,
        }),
        Activity::BetweenTurns { .. } => Some(StopPoint::BetweenSteps {
            after: written_before_stop(&record.events)?,
        }),
        Activity::WaitingToRetry { .. } | Activity::ToolRunning { .. } => None,
    }
}

/// How many events the run had handed out when Stop was pressed: those
/// before `run_finished`, less what the stop itself wrote (a result for
/// each call it left unrun, and that call's `tool_call` when it was logged
/// only then). `None` when the stop came before the run's first step.
fn written_before_stop(events: &[RunEvent]) -> Option<usize> {
    let finished = events
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::RunFinished(_)))?;
    let mut unrun: HashSet<&str> = HashSet::new();
    let mut start = finished;
    while start > 0 {
        match &events[start - 1].kind {
            EventKind::ToolResult {
                id,
                fate: Some(ResultFate::NotReached | ResultFate::StoppedBeforeStart),
                ..
            } => {
                unrun.insert(id);
            }
            EventKind::ToolCall { id, .. } if unrun.contains(id.as_str()) => {}
            _ => break,
        }
        start -= 1;
    }
    (start > 0).then_some(start)
}

/// The call the Stop caught before it started: the run writes it one
/// result, `stopped_before_start`.
fn stopped_before_start(events: &[RunEvent]) -> Option<String> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::ToolResult {
            id,
            fate: Some(ResultFate::StoppedBeforeStart),
            ..
        } => Some(id.clone()),
        _ => None,
    })
}

/// Why a replay of `record` cannot end as the recording did, when a person
/// (or a signal) stopped it at a moment a replay cannot press Stop at.
pub(super) fn why_not(record: &Record) -> Option<String> {
    let Some(StopCause::Cancelled { during, signal, .. }) = record.outcome()?.cause.as_ref() else {
        return None;
    };
    // A command-line run is stopped by a signal, not by a person.
    let who = signal.as_deref().unwrap_or("a person");
    stop_point(record).is_none().then(|| {
        format!("{who} stopped the recorded run {during}, a moment a replay cannot press Stop at")
    })
}
