//! Performs the IO a `Run` asks for, racing every await against the user's
//! cancel, the run's deadline and the per-call timeout.
//!
//! A hung model call or tool is interrupted when its time is up, not waited
//! out: the pending future is dropped and the run is told why. The driver
//! makes no decisions of its own; it only translates "what happened" into the
//! run's `feed_*` calls, so every driver yields the same trace.
//!
//! In step mode a person may take the next step's part (`Resume`): a turn
//! written in the model's place is fed after the run has made its request,
//! instead of asking the model; a result typed in a tool's place is fed
//! instead of running the handler. An answer that does not fit the pause is
//! refused and the stepper asked again with the reason (`Pause::refused`).
//!
//! Step mode stops the run's clock while a person holds it: the time spent
//! at a pause is not the run's, so it counts toward no deadline and no
//! event time, and nothing is said to have run or been cut short meanwhile.
//! Waiting for an approval is the run's own time, as it would be for an
//! agent that asks a person.

use std::future::Future;

use futures::future::{self, Either, LocalBoxFuture};
use futures::pin_mut;
use serde_json::Value;

use crate::approval::Approver;
use crate::cancel::CancelToken;
use crate::event::{Outcome, RunEvent};
use crate::model::{ModelClient, ModelResponse};
use crate::run::{PauseBefore, Run, Step};
use crate::runtime::Runtime;

/// How a person lets a paused run go on.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume {
    /// Take the step: call the model, or run the tool.
    Go,
    /// Paused before a model call: the request is made as usual (its
    /// `model_request` event), but this turn, written by a person, is the
    /// answer; the model is not asked.
    AnswerAsModel(ModelResponse),
    /// Paused before a tool call: the tool does not run, and this is its
    /// result (`Err`: an error result, worded as a tool's error).
    AnswerAsTool(Result<Value, String>),
}

/// A paused run, as its stepper is asked about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Pause {
    pub before: PauseBefore,
    /// Why the last answer was refused: it did not fit this pause (a
    /// model's turn offered before a tool call, or the other way round).
    /// The run stays paused and asks again.
    pub refused: Option<String>,
}

/// Step mode: whether to pause, and a future that resolves when the person
/// says how to go on.
pub trait Stepper {
    fn step_mode(&self) -> bool;
    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume>;

    /// Awaited between steps: once a step's events are handed out and its
    /// call has answered, before Stop is checked and the next step taken.
    /// A scripted run's futures are all ready at once, so a host that shares
    /// its thread (a browser page: rendering, input, Stop) returns a future
    /// here to let its own work in; `None` goes straight on. Emits no event.
    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        None
    }
}

/// The IO a run needs.
pub struct Env<'a> {
    pub runtime: &'a dyn Runtime,
    pub model: &'a dyn ModelClient,
    /// `None`: a call that needs a human decision ends the run `blocked`.
    pub approver: Option<&'a dyn Approver>,
    pub cancel: CancelToken,
    pub stepper: Option<&'a dyn Stepper>,
}

enum Raced<T> {
    Done(T),
    TimedOut,
    Deadline,
    Cancelled,
}

/// Drives `run` to the end, handing each event to `on_event` as it happens.
pub async fn drive(run: &mut Run, env: &Env<'_>, on_event: &mut dyn FnMut(&RunEvent)) -> Outcome {
    let origin = env.runtime.now_ms();
    // Milliseconds step mode held the run for a person: not the run's time.
    let paused_ms = std::cell::Cell::new(0.0);
    let now = || env.runtime.now_ms() - origin - paused_ms.get();
    run.set_clock_origin(origin);
    // A person's answer, taken at a pause, for the step right after it.
    let mut person: Option<PersonAnswer> = None;
    let mut first_step = true;
    loop {
        // What the last step's answer produced is handed out first, so the
        // host's turn sees every event so far (a recorder has written them
        // all), and a Stop taken in then comes after the last of them.
        for event in run.drain_events() {
            on_event(&event);
        }
        // The host's turn comes after each step, before Stop is checked: a
        // Stop it takes in then ends the run before its next request, with
        // no call made after the click. A step that ended the run has
        // nothing after it to stop.
        if !std::mem::take(&mut first_step) && run.outcome().is_none() {
            if let Some(host) = env.stepper.and_then(|s| s.yield_to_host()) {
                host.await;
            }
        }
        if env.cancel.is_cancelled() {
            run.cancel_by_signal(env.cancel.signal(), now());
        }
        if let Some(stepper) = env.stepper {
            run.set_step_mode(stepper.step_mode());
        }
        let step = run.next_step(now());
        for event in run.drain_events() {
            on_event(&event);
        }
        // A `between_steps` deadline is only checked by `next_step`, never raced.
        let deadline_in = run
            .deadline_remaining(now())
            .filter(|_| run.deadline_interrupts());
        match step {
            Step::Finished(outcome) => return outcome,
            Step::CallModel => {
                if let Some(PersonAnswer::Model(response)) = person.take() {
                    env.model.turn_answered_by_person();
                    run.feed_person_model_response(response, now());
                    continue;
                }
                let timeout = run.limits().model_timeout_ms;
                let raced = {
                    let request = run.model_request();
                    race(env.model.complete(request), timeout, deadline_in, env).await
                };
                match raced {
                    Raced::Done(Ok(response)) => run.feed_model_response(response, now()),
                    Raced::Done(Err(error)) => run.feed_model_error(error, now()),
                    Raced::TimedOut => run.feed_model_timeout(now()),
                    Raced::Deadline => run.feed_deadline(now()),
                    Raced::Cancelled => run.cancel_by_signal(env.cancel.signal(), now()),
                }
            }
            Step::RunTool(invocation) => {
                if let Some(PersonAnswer::Tool(result)) = person.take() {
                    run.feed_person_tool_result(result, now());
                    continue;
                }
                let handler = run.tools().get(&invocation.name).map(|t| t.handler.clone());
                let Some(handler) = handler else {
                    let message = format!("no handler for tool {}", invocation.name);
                    run.feed_tool_result(Err(message), now());
                    continue;
                };
                let timeout = run.limits().tool_timeout_ms;
                match race(handler.answer(invocation.args), timeout, deadline_in, env).await {
                    Raced::Done(result) => run.feed_tool_output(result, now()),
                    Raced::TimedOut => run.feed_tool_timeout(now()),
                    Raced::Deadline => run.feed_deadline(now()),
                    Raced::Cancelled => run.cancel_by_signal(env.cancel.signal(), now()),
                }
            }
            Step::AwaitApproval(mut request) => {
                let Some(approver) = env.approver else {
                    run.feed_no_approver(now());
                    continue;
                };
                // Edited arguments that break the schema are refused and the
                // approver is asked again, told why.
                loop {
                    let by = approver.decider(&request);
                    let decided = race(approver.decide(&request), None, deadline_in, env).await;
                    match decided {
                        Raced::Done(decision) => match run.feed_decision(decision, by, now()) {
                            Ok(()) => break,
                            Err(why) => request.edit_error = Some(why.to_string()),
                        },
                        Raced::TimedOut | Raced::Deadline => {
                            run.feed_deadline(now());
                            break;
                        }
                        Raced::Cancelled => {
                            run.cancel_by_signal(env.cancel.signal(), now());
                            break;
                        }
                    }
                }
            }
            Step::Sleep { ms } => match race(env.runtime.sleep(ms), None, deadline_in, env).await {
                Raced::Done(()) => run.feed_slept(now()),
                Raced::TimedOut | Raced::Deadline => run.feed_deadline(now()),
                Raced::Cancelled => run.cancel_by_signal(env.cancel.signal(), now()),
            },
            Step::Paused(before) => {
                let Some(stepper) = env.stepper else {
                    run.resume();
                    continue;
                };
                let mut pause = Pause {
                    before,
                    refused: None,
                };
                // An answer that does not fit the pause is refused, and the
                // stepper is asked again, told why. The run's clock stands
                // still meanwhile, so no deadline is raced; Stop still is.
                loop {
                    let held_since = env.runtime.now_ms();
                    let answered = until_cancelled(stepper.wait(&pause), env).await;
                    paused_ms.set(paused_ms.get() + (env.runtime.now_ms() - held_since).max(0.0));
                    let Some(resume) = answered else {
                        run.cancel_by_signal(env.cancel.signal(), now());
                        break;
                    };
                    match PersonAnswer::fitting(&pause.before, resume) {
                        Ok(answer) => {
                            person = answer;
                            run.resume();
                            break;
                        }
                        Err(why) => pause.refused = Some(why),
                    }
                }
            }
        }
    }
}

/// What a person answered at a pause, kept for the step it answers.
enum PersonAnswer {
    Model(ModelResponse),
    Tool(Result<Value, String>),
}

impl PersonAnswer {
    /// The answer `resume` gives at a pause `before` (`None` for Go), or why
    /// it does not fit there.
    fn fitting(before: &PauseBefore, resume: Resume) -> Result<Option<PersonAnswer>, String> {
        match (before, resume) {
            (_, Resume::Go) => Ok(None),
            (PauseBefore::ModelCall { .. }, Resume::AnswerAsModel(response)) => {
                Ok(Some(PersonAnswer::Model(response)))
            }
            (PauseBefore::ToolCall { .. }, Resume::AnswerAsTool(result)) => {
                Ok(Some(PersonAnswer::Tool(result)))
            }
            (PauseBefore::ToolCall { id, name }, Resume::AnswerAsModel(_)) => Err(format!(
                "a model's turn was offered, but the run is paused before tool call {name} ({id}): answer as the tool, or let it run"
            )),
            (PauseBefore::ModelCall { turn }, Resume::AnswerAsTool(_)) => Err(format!(
                "a tool's result was offered, but the run is paused before model call (turn {turn}): answer as the model, or let it call the model"
            )),
        }
    }
}

/// Awaits `op` unless Stop comes first (`None`).
async fn until_cancelled<T>(op: impl Future<Output = T>, env: &Env<'_>) -> Option<T> {
    let cancelled = env.cancel.cancelled();
    pin_mut!(op, cancelled);
    match future::select(op, cancelled).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(((), _)) => None,
    }
}

/// Awaits `op` unless the timeout, the deadline or a cancel comes first; the
/// loser is dropped, which is what interrupts a hung call.
async fn race<T>(
    op: impl Future<Output = T>,
    timeout_ms: Option<u64>,
    deadline_in_ms: Option<f64>,
    env: &Env<'_>,
) -> Raced<T> {
    let timeout = timeout_ms.map(|t| t as f64);
    let timer = async {
        let (ms, which) = match (timeout, deadline_in_ms) {
            (Some(t), Some(d)) if d <= t => (d, Raced::Deadline),
            (Some(t), _) => (t, Raced::TimedOut),
            (None, Some(d)) => (d, Raced::Deadline),
            (None, None) => return future::pending().await,
        };
        env.runtime.sleep(ms.max(0.0).ceil() as u64).await;
        which
    };
    let cancelled = env.cancel.cancelled();
    pin_mut!(op, timer, cancelled);
    match future::select(op, future::select(timer, cancelled)).await {
        Either::Left((value, _)) => Raced::Done(value),
        Either::Right((Either::Left((which, _)), _)) => which,
        Either::Right((Either::Right(((), _)), _)) => Raced::Cancelled,
    }
}
