//! How a run stops, in one place: its `Status` (the word the trace, the
//! CLI and the page show), the `StopTone` that says who ended it, and its
//! `StopCause`, one variant per way a run ends, carrying the numbers its
//! sentence names. A new way to stop is added here, and `Run` decides it.
//!
//! All the wording of `run_finished` reasons lives in this file's `Display`,
//! so a reason reads the same wherever it is decided. The trace carries both:
//! the sentence (`Outcome::reason`) for people, and the cause itself
//! (`Outcome::cause`, tagged by `kind`) for code that wants the numbers.
//!
//! Two sentences are written elsewhere and carried whole: the repeat
//! detector's (`limits.rs`, which alone knows the pattern it saw) and the
//! verifier's (`verify.rs`, which alone knows which check failed and why).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::ModelError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Done,
    FailedVerification,
    TurnLimit,
    CostLimit,
    TokenLimit,
    ToolCallLimit,
    Deadline,
    RepeatedCall,
    Blocked,
    MaxTokens,
    Refusal,
    ModelError,
    Cancelled,
    ContextLimit,
}

impl Status {
    pub const ALL: [Status; 14] = [
        Status::Done,
        Status::FailedVerification,
        Status::TurnLimit,
        Status::CostLimit,
        Status::TokenLimit,
        Status::ToolCallLimit,
        Status::Deadline,
        Status::RepeatedCall,
        Status::Blocked,
        Status::MaxTokens,
        Status::Refusal,
        Status::ModelError,
        Status::Cancelled,
        Status::ContextLimit,
    ];

    /// The snake_case name used in JSON, the CLI and the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::FailedVerification => "failed_verification",
            Status::TurnLimit => "turn_limit",
            Status::CostLimit => "cost_limit",
            Status::TokenLimit => "token_limit",
            Status::ToolCallLimit => "tool_call_limit",
            Status::Deadline => "deadline",
            Status::RepeatedCall => "repeated_call",
            Status::Blocked => "blocked",
            Status::MaxTokens => "max_tokens",
            Status::Refusal => "refusal",
            Status::ModelError => "model_error",
            Status::Cancelled => "cancelled",
            Status::ContextLimit => "context_limit",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who ended a run, in four groups that the stop banner, the header and the
/// loop diagram all show the same way. Each has an icon as well as a colour,
/// so the group reads without colour too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopTone {
    /// A limit the harness enforced: turns, tokens, cost, tool calls, the
    /// deadline, a repeated call.
    Guard,
    /// The model ended the run itself: a final answer, running out of
    /// output tokens, a refusal.
    ModelStop,
    /// Something failed: the model request, or the verifier's check.
    Failure,
    /// A person ended it: a denial that stopped the run, or Stop.
    Person,
}

impl StopTone {
    pub const ALL: [StopTone; 4] = [
        StopTone::Guard,
        StopTone::ModelStop,
        StopTone::Failure,
        StopTone::Person,
    ];

    /// The word used in CSS classes and `data-` attributes.
    pub fn as_str(self) -> &'static str {
        match self {
            StopTone::Guard => "guard",
            StopTone::ModelStop => "model",
            StopTone::Failure => "failure",
            StopTone::Person => "person",
        }
    }

    /// A short name for the group, for legends and accessible names.
    pub fn label(self) -> &'static str {
        match self {
            StopTone::Guard => "a limit the harness enforced",
            StopTone::ModelStop => "the model's own stop",
            StopTone::Failure => "a failure",
            StopTone::Person => "a person",
        }
    }

    /// One character per group, each a different shape: a barred circle,
    /// a stop square, a cross, a raised hand. All four are in common text
    /// fonts (DejaVu Sans has them), not only in emoji fonts.
    pub fn icon(self) -> &'static str {
        match self {
            StopTone::Guard => "⊘",
            StopTone::ModelStop => "■",
            StopTone::Failure => "✗",
            StopTone::Person => "☝",
        }
    }
}

impl Status {
    /// Which of the four groups this status belongs to.
    pub fn tone(self) -> StopTone {
        match self {
            Status::TurnLimit
            | Status::TokenLimit
            | Status::CostLimit
            | Status::ToolCallLimit
            | Status::Deadline
            | Status::RepeatedCall
            | Status::ContextLimit => StopTone::Guard,
            Status::Done | Status::MaxTokens | Status::Refusal => StopTone::ModelStop,
            Status::ModelError | Status::FailedVerification => StopTone::Failure,
            Status::Blocked | Status::Cancelled => StopTone::Person,
        }
    }

    /// When a run ends with this status, in a sentence: the guide's
    /// reference page is written from these.
    pub fn meaning(self) -> &'static str {
        match self {
            Status::Done => "the model ended its turn with a final answer and the verifier (if any) accepted it",
            Status::FailedVerification => "the verifier rejected the final answer; the reason names the check",
            Status::TurnLimit => "`max_turns` model calls were made and the model still wanted to continue",
            Status::CostLimit => "strict mode: what was spent plus the worst case of the next call would pass `max_cost_usd`; naive mode: the spend already passed it",
            Status::TokenLimit => "the run's input and output tokens reached `max_total_tokens`",
            Status::ToolCallLimit => "the model asked for more than `max_tool_calls` tool calls",
            Status::Deadline => "the run's own `deadline_ms` passed, interrupting whatever was pending (or, between steps, at the next step)",
            Status::RepeatedCall => "the same canonical call (tool and normalised arguments) occurred `repeat_threshold` times, in a row or in a cycle",
            Status::Blocked => "a call needing approval was denied with \"deny and stop\", the policy is `deny_all`, or no approver exists",
            Status::MaxTokens => "the model ran out of output tokens (`max_tokens`, `length`, `max_output_tokens`)",
            Status::Refusal => "the provider reported a refusal as the stop reason (`refusal`, `content_filter`)",
            Status::ModelError => "the request failed after retries, the model said something unusable (an empty final turn, an unknown stop reason), or the script ran out",
            Status::Cancelled => "a person pressed Stop (at the command line, Ctrl+C or SIGTERM; the reason names the signal)",
            Status::ContextLimit => "the next request would not fit the context window (`context.window_tokens`), so it was not sent; or the provider stopped a turn with `model_context_window_exceeded`",
        }
    }
}

/// One way a run ends. `Display` is the `reason` of its `run_finished` event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StopCause {
    /// A final answer that the verifier, if any, accepted.
    FinalAnswer {
        turn: u32,
        verified: bool,
        /// Set when `stop_mode: naive` took a turn that did not end normally
        /// as final; holds the stop_reason it overrode.
        taken_as_final: Option<String>,
    },
    /// The verifier's own sentence, naming the check that failed.
    VerifierRejected {
        why: String,
    },
    TurnLimit {
        turns: u32,
        max_turns: u32,
    },
    TokenLimit {
        used: u64,
        max: u64,
        turn: u32,
    },
    /// `cost_mode: naive`: the budget was checked only between turns.
    CostSpent {
        #[serde(serialize_with = "crate::model::serialize_usd")]
        spent: f64,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        budget: f64,
        turn: u32,
    },
    /// `cost_mode: strict`: the next call's worst case could exceed the budget.
    CostWouldExceed {
        #[serde(serialize_with = "crate::model::serialize_usd")]
        spent: f64,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        budget: f64,
        turn: u32,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        worst_case: f64,
        input_tokens: u64,
        output_tokens: u64,
    },
    /// `cost_mode: strict`: a response cost more than the pre-flight estimate.
    CostOvershot {
        #[serde(serialize_with = "crate::model::serialize_usd")]
        spent: f64,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        budget: f64,
        turn: u32,
    },
    ToolCallLimit {
        call: u32,
        tool: String,
        max: u32,
    },
    /// The repeat detector's sentence, naming the call or cycle it saw.
    RepeatedCall {
        pattern: String,
    },
    Deadline {
        deadline_ms: u64,
        at_ms: u64,
        during: Activity,
        /// A `shared` deadline: how long before this run its clock started.
        shared_since_ms: Option<u64>,
        /// `deadline_mode: between_steps`, so the pending call was not cut short.
        checked_between_steps: bool,
    },
    PolicyDenied {
        tool: String,
    },
    UserDeniedAndStopped {
        tool: String,
        why: Option<String>,
    },
    NoApprover {
        tool: String,
    },
    MaxTokens {
        turn: u32,
        stop_reason: String,
        max_output_tokens: u32,
    },
    Refusal {
        turn: u32,
        stop_reason: String,
    },
    UnknownStopReason {
        turn: u32,
        stop_reason: String,
    },
    ToolUseWithoutCalls {
        turn: u32,
        stop_reason: String,
    },
    EmptyAnswer {
        turn: u32,
        stop_reason: String,
    },
    ModelFailed {
        turn: u32,
        error: ModelError,
        retries: RetryEnd,
    },
    Cancelled {
        turns: u32,
        during: Activity,
        /// The signal that stopped a command-line run ("SIGTERM"); absent
        /// when a person pressed Stop.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<String>,
    },
    /// The harness's window check: the next request would not fit.
    ContextLimit {
        turn: u32,
        input_tokens: u64,
        output_tokens: u64,
        window_tokens: u64,
        /// The strategy that acted and could not free enough, if any.
        strategy: Option<crate::context::Strategy>,
    },
    /// The provider stopped the turn: the window was exceeded. `attempts`
    /// counts the requests that met it (more than one: retried, the pitfall).
    ContextWindowExceeded {
        turn: u32,
        stop_reason: String,
        attempts: u32,
    },
}

/// Why a failed model call was not retried again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RetryEnd {
    NotRetryable,
    /// The `compact` strategy's summary request failed; it is not retried.
    SummaryNotRetried,
    GaveUp {
        attempts: u32,
        max_retries: u32,
    },
}

/// What the run was doing when a deadline or the user stopped it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Activity {
    WaitingForModel {
        turn: u32,
    },
    WaitingToRetry {
        turn: u32,
    },
    ToolRunning {
        tool: String,
    },
    /// Step mode held the run for a person, before this tool's call: the
    /// tool had not started.
    PausedBeforeTool {
        tool: String,
    },
    /// Step mode held the run for a person, before this turn's model call.
    PausedBeforeModel {
        turn: u32,
    },
    WaitingForApproval {
        tool: String,
    },
    BetweenTurns {
        next_turn: u32,
    },
}

impl StopCause {
    pub fn status(&self) -> Status {
        match self {
            StopCause::FinalAnswer { .. } => Status::Done,
            StopCause::VerifierRejected { .. } => Status::FailedVerification,
            StopCause::TurnLimit { .. } => Status::TurnLimit,
            StopCause::TokenLimit { .. } => Status::TokenLimit,
            StopCause::CostSpent { .. }
            | StopCause::CostWouldExceed { .. }
            | StopCause::CostOvershot { .. } => Status::CostLimit,
            StopCause::ToolCallLimit { .. } => Status::ToolCallLimit,
            StopCause::RepeatedCall { .. } => Status::RepeatedCall,
            StopCause::Deadline { .. } => Status::Deadline,
            StopCause::PolicyDenied { .. }
            | StopCause::UserDeniedAndStopped { .. }
            | StopCause::NoApprover { .. } => Status::Blocked,
            StopCause::MaxTokens { .. } => Status::MaxTokens,
            StopCause::Refusal { .. } => Status::Refusal,
            StopCause::UnknownStopReason { .. }
            | StopCause::ToolUseWithoutCalls { .. }
            | StopCause::EmptyAnswer { .. }
            | StopCause::ModelFailed { .. } => Status::ModelError,
            StopCause::Cancelled { .. } => Status::Cancelled,
            StopCause::ContextLimit { .. } | StopCause::ContextWindowExceeded { .. } => {
                Status::ContextLimit
            }
        }
    }

    /// Who ended the run. A `blocked` run that no person decided (the
    /// approval policy, or no approver at all) was ended by the harness.
    pub fn tone(&self) -> StopTone {
        match self {
            StopCause::PolicyDenied { .. } | StopCause::NoApprover { .. } => StopTone::Guard,
            // The provider ended the turn itself: drawn as the model's own stop.
            StopCause::ContextWindowExceeded { .. } => StopTone::ModelStop,
            cause => cause.status().tone(),
        }
    }

    /// Who ended the run, in words, for "ended by …".
    pub fn ended_by(&self) -> &'static str {
        match self {
            StopCause::PolicyDenied { .. } => "the harness's approval policy",
            StopCause::NoApprover { .. } => "the harness: no one could approve",
            StopCause::ContextWindowExceeded { .. } => "the provider: the context window is full",
            cause => cause.tone().label(),
        }
    }
}

impl fmt::Display for StopCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopCause::FinalAnswer {
                turn,
                verified,
                taken_as_final,
            } => {
                write!(f, "the model gave a final answer in turn {turn}")?;
                if *verified {
                    f.write_str(" and the verifier accepted it")?;
                }
                if let Some(stop_reason) = taken_as_final {
                    write!(
                        f,
                        " (stop_reason {stop_reason} taken as final: stop_mode naive)"
                    )?;
                }
                Ok(())
            }
            StopCause::VerifierRejected { why } => f.write_str(why),
            StopCause::TurnLimit { turns, max_turns } => write!(
                f,
                "made {turns} of max {max_turns} model calls (max_turns) and the model still wanted to continue"
            ),
            StopCause::TokenLimit { used, max, turn } => write!(
                f,
                "used {used} tokens of max {max} (max_total_tokens) after turn {turn}"
            ),
            StopCause::CostSpent {
                spent,
                budget,
                turn,
            } => write!(
                f,
                "spent {} of {} budget after turn {turn} (naive mode: checked only between turns, so the last call overshot)",
                usd(*spent),
                usd(*budget)
            ),
            StopCause::CostWouldExceed {
                spent,
                budget,
                turn,
                worst_case,
                input_tokens,
                output_tokens,
            } => write!(
                f,
                "spent {} of {} budget after turn {turn}; the next call could cost up to {} (≈{input_tokens} input + {output_tokens} output tokens), which could exceed it",
                usd(*spent),
                usd(*budget),
                usd(*worst_case)
            ),
            StopCause::CostOvershot {
                spent,
                budget,
                turn,
            } => write!(
                f,
                "spent {} of {} budget in turn {turn}: the response used more tokens than the pre-flight estimate allowed for",
                usd(*spent),
                usd(*budget)
            ),
            StopCause::ToolCallLimit { call, tool, max } => write!(
                f,
                "the model asked for tool call #{call} ({tool}) but max_tool_calls is {max}"
            ),
            StopCause::RepeatedCall { pattern } => f.write_str(pattern),
            StopCause::Deadline {
                deadline_ms,
                at_ms,
                during,
                shared_since_ms,
                checked_between_steps,
            } => {
                write!(
                    f,
                    "the run's {deadline_ms} ms deadline passed at {at_ms} ms ({during})"
                )?;
                if let Some(since) = shared_since_ms {
                    write!(
                        f,
                        "; the deadline is shared, counted from {since} ms before this run started (seed 002's bug)"
                    )?;
                }
                if *checked_between_steps {
                    f.write_str(
                        "; it is checked only between steps, so the pending call ran to its end",
                    )?;
                }
                Ok(())
            }
            StopCause::PolicyDenied { tool } => write!(
                f,
                "{tool} needs approval and the approval policy is deny_all"
            ),
            StopCause::UserDeniedAndStopped { tool, why } => write!(
                f,
                "the user denied {tool} and stopped the run ({})",
                why.as_deref().unwrap_or(NO_REASON_GIVEN)
            ),
            StopCause::NoApprover { tool } => write!(
                f,
                "{tool} needs approval and no approver is available"
            ),
            StopCause::MaxTokens {
                turn,
                stop_reason,
                max_output_tokens,
            } => write!(
                f,
                "the model stopped in turn {turn} because it ran out of tokens (stop_reason {stop_reason}, max_output_tokens {max_output_tokens}); a truncated turn is not a final answer"
            ),
            StopCause::Refusal { turn, stop_reason } => write!(
                f,
                "the model refused in turn {turn} (stop_reason {stop_reason})"
            ),
            StopCause::UnknownStopReason { turn, stop_reason } => write!(
                f,
                "the model returned an unknown stop_reason {} in turn {turn}",
                crate::quote::quoted(stop_reason)
            ),
            StopCause::ToolUseWithoutCalls { turn, stop_reason } => write!(
                f,
                "the model said stop_reason {stop_reason} in turn {turn} but sent no tool calls"
            ),
            StopCause::EmptyAnswer { turn, stop_reason } => write!(
                f,
                "the model ended turn {turn} (stop_reason {stop_reason}) without any answer text"
            ),
            StopCause::ModelFailed {
                turn,
                error,
                retries,
            } => write!(
                f,
                "the model request for turn {turn} failed: {error} ({retries})"
            ),
            StopCause::Cancelled {
                turns,
                during,
                signal,
            } => write!(
                f,
                "stopped by {} after {turns} turn{} ({during})",
                match signal.as_deref() {
                    None => "the user".to_string(),
                    Some("SIGINT") => "SIGINT (Ctrl+C)".to_string(),
                    Some(other) => other.to_string(),
                },
                if *turns == 1 { "" } else { "s" }
            ),
            StopCause::ContextLimit {
                turn,
                input_tokens,
                output_tokens,
                window_tokens,
                strategy,
            } => {
                use crate::numbers::thousands;
                write!(
                    f,
                    "the next request needs ≈{} input tokens + {} output; the window is {} (window_tokens), so turn {turn} was not sent",
                    thousands(*input_tokens),
                    thousands(*output_tokens),
                    thousands(*window_tokens)
                )?;
                match strategy {
                    Some(s) => write!(f, "; {} could not free enough", s.as_str()),
                    None => f.write_str("; no context strategy is set"),
                }
            }
            StopCause::ContextWindowExceeded {
                turn,
                stop_reason,
                attempts,
            } => {
                write!(
                    f,
                    "the provider stopped turn {turn}: the request no longer fits the model's context window (stop_reason {stop_reason})"
                )?;
                if *attempts > 1 {
                    write!(
                        f,
                        "; it was sent {attempts} times, each retry resending the same history (on_window_exceeded retry)"
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for RetryEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryEnd::NotRetryable => f.write_str("not retried: retrying cannot fix it"),
            RetryEnd::SummaryNotRetried => {
                f.write_str("the compact strategy's summary request, not retried")
            }
            RetryEnd::GaveUp {
                attempts,
                max_retries,
            } => write!(
                f,
                "gave up after {attempts} attempts (max_retries {max_retries})"
            ),
        }
    }
}

impl fmt::Display for Activity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Activity::WaitingForModel { turn } => {
                write!(f, "while waiting for the model in turn {turn}")
            }
            Activity::WaitingToRetry { turn } => {
                write!(f, "while waiting to retry the model call of turn {turn}")
            }
            Activity::ToolRunning { tool } => write!(f, "while tool {tool} was running"),
            Activity::PausedBeforeTool { tool } => {
                write!(f, "while paused before tool call {tool}")
            }
            Activity::PausedBeforeModel { turn } => {
                write!(f, "while paused before the model call of turn {turn}")
            }
            Activity::WaitingForApproval { tool } => {
                write!(f, "while waiting for approval of {tool}")
            }
            Activity::BetweenTurns { next_turn } => {
                write!(f, "between turns, before turn {next_turn}")
            }
        }
    }
}

/// What a denial without a reason says, in the stop reason and to the model alike.
pub(crate) const NO_REASON_GIVEN: &str = "no reason given";

/// Dollars with enough digits to see small demo budgets: $0.52, $0.0041,
/// $0.000012; large ones grouped ($12,345.60), so no amount is wider than a
/// header field.
pub fn usd(amount: f64) -> String {
    use crate::model::COST_CEILING_USD;
    use crate::numbers::thousands;
    if amount.is_nan() || amount >= COST_CEILING_USD {
        // Counting stops there (see `model::finite_usd`): say so, not a wrong total.
        return "$1e16 or more".to_string();
    }
    let abs = amount.abs();
    let sign = if amount < 0.0 { "-" } else { "" };
    if abs >= 1e12 {
        format!("{sign}${}", thousands(abs.round() as u64))
    } else if abs >= 1000.0 {
        let cents = format!("{abs:.2}");
        let (whole, fraction) = cents.split_once('.').unwrap_or((&cents, "00"));
        let whole = thousands(whole.parse().unwrap_or(0));
        format!("{sign}${whole}.{fraction}")
    } else if abs == 0.0 || abs >= 0.1 {
        format!("${amount:.2}")
    } else if abs >= 0.001 {
        format!("${amount:.4}")
    } else {
        format!("${amount:.6}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelErrorKind;

    #[test]
    fn dollars_stay_short_however_large() {
        assert_eq!(usd(0.000012), "$0.000012");
        assert_eq!(usd(0.52), "$0.52");
        assert_eq!(usd(999.5), "$999.50");
        assert_eq!(usd(12_345.6), "$12,345.60");
        assert_eq!(usd(1_000_000.0), "$1,000,000.00");
        assert_eq!(usd(-2_500.0), "-$2,500.00");
        assert_eq!(usd(2.5e12), "$2,500,000,000,000");
        assert_eq!(usd(1e308), "$1e16 or more");
        assert_eq!(usd(f64::INFINITY), "$1e16 or more");
        assert_eq!(usd(f64::NAN), "$1e16 or more");
        assert!(usd(9.99e15).len() <= 24, "{}", usd(9.99e15));
    }

    // The golden traces pin most sentences; these pin the ones whose parts
    // are optional, each part on and off.
    #[test]
    fn final_answer_names_the_verifier_and_a_naive_stop_only_when_they_apply() {
        let plain = StopCause::FinalAnswer {
            turn: 2,
            verified: false,
            taken_as_final: None,
        };
        assert_eq!(plain.to_string(), "the model gave a final answer in turn 2");
        let both = StopCause::FinalAnswer {
            turn: 1,
            verified: true,
            taken_as_final: Some("length".to_string()),
        };
        assert_eq!(
            both.to_string(),
            "the model gave a final answer in turn 1 and the verifier accepted it (stop_reason length taken as final: stop_mode naive)"
        );
        assert_eq!(both.status(), Status::Done);
    }

    #[test]
    fn deadline_adds_its_shared_and_between_steps_clauses_in_order() {
        let cause = StopCause::Deadline {
            deadline_ms: 2000,
            at_ms: 2003,
            during: Activity::ToolRunning {
                tool: "slow".to_string(),
            },
            shared_since_ms: Some(1500),
            checked_between_steps: true,
        };
        assert_eq!(
            cause.to_string(),
            "the run's 2000 ms deadline passed at 2003 ms (while tool slow was running); the deadline is shared, counted from 1500 ms before this run started (seed 002's bug); it is checked only between steps, so the pending call ran to its end"
        );
        assert_eq!(cause.status(), Status::Deadline);
    }

    #[test]
    fn cancelled_counts_turns_in_words() {
        let one = StopCause::Cancelled {
            turns: 1,
            during: Activity::WaitingForModel { turn: 1 },
            signal: None,
        };
        assert_eq!(
            one.to_string(),
            "stopped by the user after 1 turn (while waiting for the model in turn 1)"
        );
        let none = StopCause::Cancelled {
            turns: 0,
            during: Activity::BetweenTurns { next_turn: 1 },
            signal: None,
        };
        assert_eq!(
            none.to_string(),
            "stopped by the user after 0 turns (between turns, before turn 1)"
        );
    }

    #[test]
    fn a_run_stopped_by_a_signal_names_it() {
        let stopped = |signal: &str| StopCause::Cancelled {
            turns: 2,
            during: Activity::BetweenTurns { next_turn: 3 },
            signal: Some(signal.to_string()),
        };
        assert_eq!(
            stopped("SIGTERM").to_string(),
            "stopped by SIGTERM after 2 turns (between turns, before turn 3)"
        );
        assert_eq!(
            stopped("SIGINT").to_string(),
            "stopped by SIGINT (Ctrl+C) after 2 turns (between turns, before turn 3)"
        );
        let json = serde_json::to_value(stopped("SIGTERM")).unwrap();
        assert_eq!(json["signal"], "SIGTERM");
        let by_person = StopCause::Cancelled {
            turns: 2,
            during: Activity::BetweenTurns { next_turn: 3 },
            signal: None,
        };
        assert!(serde_json::to_value(by_person)
            .unwrap()
            .get("signal")
            .is_none());
    }

    #[test]
    fn a_failed_model_call_says_why_it_was_not_retried() {
        let error = ModelError::new(ModelErrorKind::Timeout, "no response".to_string());
        let gave_up = StopCause::ModelFailed {
            turn: 3,
            error: error.clone(),
            retries: RetryEnd::GaveUp {
                attempts: 3,
                max_retries: 2,
            },
        };
        assert_eq!(
            gave_up.to_string(),
            "the model request for turn 3 failed: no response (gave up after 3 attempts (max_retries 2))"
        );
        let final_ = StopCause::ModelFailed {
            turn: 1,
            error,
            retries: RetryEnd::NotRetryable,
        };
        assert_eq!(
            final_.to_string(),
            "the model request for turn 1 failed: no response (not retried: retrying cannot fix it)"
        );
        assert_eq!(final_.status(), Status::ModelError);
    }

    #[test]
    fn a_user_denial_without_a_reason_says_so() {
        let cause = StopCause::UserDeniedAndStopped {
            tool: "issue_refund".to_string(),
            why: None,
        };
        assert_eq!(
            cause.to_string(),
            "the user denied issue_refund and stopped the run (no reason given)"
        );
        assert_eq!(cause.status(), Status::Blocked);
    }

    #[test]
    fn usd_keeps_small_amounts_visible() {
        assert_eq!(usd(0.0), "$0.00");
        assert_eq!(usd(0.52), "$0.52");
        assert_eq!(usd(0.0041), "$0.0041");
        assert_eq!(usd(0.000012), "$0.000012");
    }
}
