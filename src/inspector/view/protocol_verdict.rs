//! The banner's protocol verdict: a scripted run never meets a provider, so a
//! history that breaks the protocol still ends `done`. This line says which
//! providers would have refused the run's requests, from which turn, with
//! their own HTTP 400 text and where, in plain words; or that the checker
//! found nothing any of them would refuse. The status stays the loop's.
//!
//! It shows what `protocol_check` found on the whole run: the same check
//! whose per-turn findings the turn cards show.

use harness::event::StopTone;
use harness::wire::rejections::{first_per_provider, sentence, why};
use leptos::prelude::*;

use crate::protocol_check::model::{BannerVerdict, CHECKED_UP_TO_REQUESTS};
use crate::protocol_check::state::ProtocolWatch;

#[component]
pub fn ProtocolVerdict() -> impl IntoView {
    let watch = expect_context::<ProtocolWatch>();
    move || {
        match watch.banner_verdict() {
        BannerVerdict::Pending => None,
        BannerVerdict::TooLong { requests } => Some(
            view! {
                <p class="stop-verdict" data-verdict="unchecked">
                    {format!(
                        "The protocol checker was not run: this run sent {requests} requests, and the page checks runs of up to {CHECKED_UP_TO_REQUESTS}. Export it and run `agent-loop check` on its scenario."
                    )}
                </p>
            }
            .into_any(),
        ),
        BannerVerdict::Checked(found) => Some(verdict_view(&found)),
    }
    }
}

fn verdict_view(found: &[harness::wire::Rejection]) -> AnyView {
    let first = first_per_provider(found);
    if first.is_empty() {
        return view! {
            <p class="stop-verdict" data-verdict="accepted">
                "✓ The protocol checker finds nothing Anthropic Messages, OpenAI Chat Completions or OpenAI Responses would refuse in this run's requests."
            </p>
        }
        .into_any();
    }
    let tone = StopTone::Failure;
    let lines = first
        .into_iter()
        .map(|r| {
            let place = r
                .place
                .as_ref()
                .map(|p| format!(" — in the run's history, at {p}"));
            view! {
                <li data-provider=r.violation.provider.label() data-turn=r.turn
                    data-documented=r.violation.rule.documented().to_string()>
                    {sentence(r)} {place}
                    <span class="verdict-why">{why(r)}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class=format!("stop-verdict tone-{}", tone.as_str()) data-verdict="rejected" data-tone=tone.as_str()>
            <p>
                <span class="tone-icon" aria-hidden="true">{tone.icon()}</span>
                " But a real provider would have refused this run:"
            </p>
            <ul>{lines}</ul>
        </div>
    }
    .into_any()
}
