//! The few words that say a run ended `done` with requests a provider
//! would refuse: "done — but Anthropic Messages would refuse turn 2".
//!
//! Job: a scripted run never meets a provider, so a history that breaks the
//! protocol still ends `done`. The page's header, its loop diagram's exit
//! and the CLI's closing line say so in these words, from the same check
//! whose findings the stop banner lists in full (`wire::rejections`), so no
//! view says a plain "done" that another contradicts.

use crate::event::Status;
use crate::wire::rejections::{first_per_provider, Rejection};

/// "but Anthropic Messages would refuse turn 2", for a run that ended
/// `status` with these rejections; `None` unless it ended `done` and some
/// provider would refuse one of its requests. Other statuses already say
/// the run did not go well; the banner lists their rejections.
pub fn done_but_refused(status: Status, rejections: &[Rejection]) -> Option<String> {
    if status != Status::Done {
        return None;
    }
    would_refuse(rejections).map(|words| format!("but {words}"))
}

/// "Anthropic Messages and OpenAI Chat Completions would refuse turn 2;
/// OpenAI Responses is reported to refuse turn 2": each provider that would
/// refuse a request, at the first turn it would, in provider order. A
/// refusal known only from public issue threads is said to be reported,
/// as the checker's own report says. `None` when no provider would refuse.
pub fn would_refuse(rejections: &[Rejection]) -> Option<String> {
    // (documented, turn, providers), in the order the providers first come.
    let mut groups: Vec<(bool, u32, Vec<&'static str>)> = Vec::new();
    for first in first_per_provider(rejections) {
        let documented = first.violation.rule.documented();
        let label = first.violation.provider.label();
        match groups
            .iter_mut()
            .find(|(d, turn, _)| *d == documented && *turn == first.turn)
        {
            Some((_, _, providers)) => providers.push(label),
            None => groups.push((documented, first.turn, vec![label])),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let clauses: Vec<String> = groups
        .into_iter()
        .map(|(documented, turn, providers)| {
            let verb = match (documented, providers.len()) {
                (true, _) => "would refuse",
                (false, 1) => "is reported to refuse",
                (false, _) => "are reported to refuse",
            };
            format!("{} {verb} turn {turn}", listed(&providers))
        })
        .collect();
    Some(clauses.join("; "))
}

/// "A", "A and B", "A, B and C".
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::verdict::{Rule, Violation};
    use crate::wire::Provider;

    fn rejection(provider: Provider, rule: Rule, turn: u32) -> Rejection {
        Rejection {
            turn,
            violation: Violation {
                provider,
                rule,
                message: String::new(),
                explanation: String::new(),
                path: String::new(),
                place: String::new(),
                message_index: None,
                block_index: None,
            },
            place: None,
        }
    }

    #[test]
    fn names_each_provider_at_its_first_turn_and_says_which_are_only_reported() {
        let found = [
            rejection(Provider::Anthropic, Rule::AnthropicDuplicateToolUseId, 2),
            rejection(Provider::OpenaiChat, Rule::ChatDuplicateToolCallId, 3),
            rejection(Provider::OpenaiChat, Rule::ChatUnansweredToolCalls, 2),
            rejection(Provider::OpenaiResponses, Rule::ResponsesDuplicateCallId, 2),
        ];
        assert_eq!(
            would_refuse(&found).as_deref(),
            Some(
                "Anthropic Messages and OpenAI Chat Completions would refuse turn 2; \
                 OpenAI Responses is reported to refuse turn 2"
            )
        );
    }

    #[test]
    fn only_a_done_run_with_a_refusal_says_but() {
        let found = [rejection(
            Provider::Anthropic,
            Rule::AnthropicUnexpectedToolResult,
            2,
        )];
        assert_eq!(
            done_but_refused(Status::Done, &found).as_deref(),
            Some("but Anthropic Messages would refuse turn 2")
        );
        assert_eq!(done_but_refused(Status::TurnLimit, &found), None);
        assert_eq!(done_but_refused(Status::Done, &[]), None);
    }
}
