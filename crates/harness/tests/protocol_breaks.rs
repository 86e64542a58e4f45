//! The scenarios that break the tool-call protocol on purpose (a model that
//! repeats ids, a harness that puts text first or invents result ids): the
//! checker catches each with the provider's own error text.

mod common;

use common::{load, run_with};
use harness::wire::{check, history_from_trace, Provider, Rule};

async fn rules_broken(id: &str, provider: Provider) -> Vec<Rule> {
    let scenario = load(harness::library::find(id).unwrap().json());
    let (_, events) = run_with(&scenario, None).await;
    let history = history_from_trace(&events);
    check(provider, "", &history, &[])
        .into_iter()
        .map(|v| v.rule)
        .collect()
}

#[tokio::test(start_paused = true)]
async fn each_broken_history_is_caught() {
    assert_eq!(
        rules_broken("protocol-duplicate-ids", Provider::Anthropic).await,
        vec![Rule::AnthropicDuplicateToolUseId]
    );
    assert_eq!(
        rules_broken("protocol-text-before-results", Provider::Anthropic).await,
        vec![Rule::AnthropicToolResultNotFirst]
    );
    let invented = rules_broken("protocol-invented-result-ids", Provider::Anthropic).await;
    assert!(
        invented.contains(&Rule::AnthropicUnexpectedToolResult),
        "{invented:?}"
    );
    assert!(
        invented.contains(&Rule::AnthropicUnansweredToolUse),
        "{invented:?}"
    );
    let responses = rules_broken("protocol-invented-result-ids", Provider::OpenaiResponses).await;
    assert!(
        responses.contains(&Rule::ResponsesOrphanOutput),
        "{responses:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_correct_history_passes_every_provider() {
    for provider in Provider::ALL {
        assert_eq!(
            rules_broken("get-time", provider).await,
            vec![],
            "{provider:?}"
        );
    }
}
