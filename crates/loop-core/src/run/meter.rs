//! What a run has spent and what its next call may cost.
//!
//! The meter adds up the tokens and dollars each response reports, estimates
//! the next request's input from the characters sent so far, and makes the
//! token and cost checks. The turn count and every other decision stay with
//! `Run`; the meter only answers "has a limit been reached, and by how much".

use crate::event::stop_cause::StopCause;
use crate::limits::{CostMode, Limits};
use crate::model::{estimate_tokens, finite_usd, Pricing, Usage};
use crate::tool::ToolRegistry;

pub(super) struct Meter {
    /// A copy of the run's prices: they never change during a run.
    pricing: Pricing,
    input_tokens: u64,
    output_tokens: u64,
    cost_usd: f64,
    /// Characters of the system prompt and tool definitions, counted once.
    fixed_chars: usize,
    history_chars: usize,
    /// The last response's usage and the characters added since: calibrates
    /// the input estimate with what the provider actually counted.
    last_usage_total: Option<u64>,
    chars_since_usage: usize,
}

impl Meter {
    pub(super) fn new(pricing: Pricing, system: &str, tools: &ToolRegistry) -> Meter {
        let fixed_chars = system.len()
            + tools
                .specs()
                .iter()
                .map(|s| s.name.len() + s.description.len() + s.input_schema.to_string().len())
                .sum::<usize>();
        Meter {
            pricing,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            fixed_chars,
            history_chars: 0,
            last_usage_total: None,
            chars_since_usage: 0,
        }
    }

    pub(super) fn input_tokens(&self) -> u64 {
        self.input_tokens
    }

    pub(super) fn output_tokens(&self) -> u64 {
        self.output_tokens
    }

    pub(super) fn cost_usd(&self) -> f64 {
        self.cost_usd
    }

    /// Adds a response's usage at this run's prices; returns what it cost.
    pub(super) fn charge(&mut self, usage: Usage) -> f64 {
        let cost = self.pricing.cost(usage.input_tokens, usage.output_tokens);
        self.add(usage, cost);
        cost
    }

    /// Adds a recorded response as it was charged then: a fork keeps its
    /// parent's spending even when the fork's prices are edited.
    pub(super) fn add_recorded(&mut self, usage: Usage, cost_usd: f64) {
        self.add(usage, cost_usd);
    }

    fn add(&mut self, usage: Usage, cost_usd: f64) {
        // Saturating and clamped: a provider (or an edited record) can report
        // any count, and a run's totals must stay numbers JSON can hold.
        self.input_tokens = self.input_tokens.saturating_add(usage.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(usage.output_tokens);
        self.cost_usd = finite_usd(self.cost_usd + cost_usd);
    }

    /// Counts a message appended to the history.
    pub(super) fn add_history_chars(&mut self, chars: usize) {
        self.history_chars += chars;
        self.chars_since_usage += chars;
    }

    /// The provider's count of the turn just recorded replaces the guess
    /// for everything said up to it.
    pub(super) fn calibrate(&mut self, usage_total: u64) {
        self.last_usage_total = Some(usage_total);
        self.chars_since_usage = 0;
    }

    /// A context strategy rewrote the history, now `chars` characters: the
    /// provider's last count no longer describes it, so the estimate goes
    /// back to counting characters until the next response.
    pub(super) fn reset_history(&mut self, chars: usize) {
        self.history_chars = chars;
        self.last_usage_total = None;
        self.chars_since_usage = 0;
    }

    /// The estimate of a request whose history holds `history_chars` characters.
    pub(super) fn estimate_for(&self, history_chars: usize) -> u64 {
        estimate_tokens(self.fixed_chars + history_chars)
    }

    pub(super) fn estimated_input_tokens(&self) -> u64 {
        let by_chars = estimate_tokens(self.fixed_chars + self.history_chars);
        match self.last_usage_total {
            // Input grows by at least what was said since the provider last counted.
            Some(total) => {
                // Nothing said since (a turn that brought nothing back): the
                // same request, the same count.
                let since = match self.chars_since_usage {
                    0 => 0,
                    chars => estimate_tokens(chars),
                };
                by_chars.max(total.saturating_add(since))
            }
            None => by_chars,
        }
    }

    /// The token and cost checks made before a model call, tokens first.
    pub(super) fn stop_before_call(&self, limits: &Limits, turn: u32) -> Option<StopCause> {
        if let Some(max) = limits.max_total_tokens {
            let used = self.input_tokens.saturating_add(self.output_tokens);
            if used >= max {
                return Some(StopCause::TokenLimit { used, max, turn });
            }
        }
        let budget = limits.max_cost_usd?;
        match limits.cost_mode {
            CostMode::Naive => (self.cost_usd > budget).then_some(StopCause::CostSpent {
                spent: self.cost_usd,
                budget,
                turn,
            }),
            CostMode::Strict => {
                let input_tokens = self.estimated_input_tokens();
                let output_tokens = u64::from(limits.max_output_tokens);
                let worst_case = self.pricing.cost(input_tokens, output_tokens);
                (finite_usd(self.cost_usd + worst_case) > budget).then_some(
                    StopCause::CostWouldExceed {
                        spent: self.cost_usd,
                        budget,
                        turn,
                        worst_case,
                        input_tokens,
                        output_tokens,
                    },
                )
            }
        }
    }

    /// Strict mode only: a response can still cost more than its pre-flight
    /// estimate allowed for, and the run stops at once rather than next turn.
    pub(super) fn stop_after_response(&self, limits: &Limits, turn: u32) -> Option<StopCause> {
        match (limits.cost_mode, limits.max_cost_usd) {
            (CostMode::Strict, Some(budget)) if self.cost_usd > budget => {
                Some(StopCause::CostOvershot {
                    spent: self.cost_usd,
                    budget,
                    turn,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ToolRegistry;

    /// Defence in depth: whatever a provider reports and whatever the
    /// prices, the totals stay numbers JSON can hold.
    #[test]
    fn huge_counts_and_prices_give_finite_totals() {
        let pricing = Pricing {
            input_usd_per_mtok: f64::MAX,
            output_usd_per_mtok: f64::INFINITY,
        };
        let mut meter = Meter::new(pricing, "", &ToolRegistry::new(Vec::new()));
        let huge = Usage {
            input_tokens: u64::MAX,
            output_tokens: u64::MAX,
        };
        for _ in 0..3 {
            assert!(meter.charge(huge).is_finite());
            meter.calibrate(huge.total());
        }
        assert_eq!(meter.input_tokens(), u64::MAX);
        assert_eq!(meter.output_tokens(), u64::MAX);
        assert_eq!(meter.cost_usd(), crate::model::COST_CEILING_USD);
        meter.add_recorded(huge, f64::NAN);
        assert!(meter.cost_usd().is_finite());
        assert_eq!(meter.estimated_input_tokens(), u64::MAX);
        let limits = Limits {
            max_cost_usd: Some(1.0),
            max_total_tokens: Some(u64::MAX),
            ..Limits::default()
        };
        match meter.stop_before_call(&limits, 4) {
            Some(StopCause::TokenLimit { used, .. }) => assert_eq!(used, u64::MAX),
            other => panic!("{other:?}"),
        }
    }
}
