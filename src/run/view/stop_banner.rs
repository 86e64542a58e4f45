//! The banner that ends a run: its status with who ended it (one of four
//! tones, each with its own shape), the reason it fired, and the run's numbers.
//!
//! Its colours come from that tone alone (`StopTone`, the one the header's
//! outcome and the loop's exit are drawn in), so a status looks the same
//! in all three places.

use leptos::prelude::*;

use crate::run::controller::Controller;
use crate::run::view_model::Banner;

#[component]
pub fn StopBanner(
    banner: Banner,
    /// Said after the run's numbers: the protocol verdict.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    // The tool calls are the header's counts (the controller's counters, kept
    // per event), so the banner, the header and the cards agree. The banner
    // shows once the run has finished, so they are final by then.
    let facts = expect_context::<Controller>()
        .counters()
        .with_untracked(|c| banner.facts(&c.tool_calls));
    view! {
        <div role="status" class=format!("stop-banner tone-{}", banner.tone.as_str())
            data-status=banner.status data-tone=banner.tone.as_str()>
            <p class="stop-status">
                <span class="tone-icon" aria-hidden="true">{banner.tone.icon()}</span>
                " " <code>{banner.status}</code>
                <span class="stop-who">{format!(" · ended by {}", banner.ended_by)}</span>
            </p>
            <p class="stop-reason">{banner.reason}</p>
            <p class="stop-facts">{facts}</p>
            {banner.answer.map(|answer| view! { <p class="stop-answer">"Answer: " {answer}</p> })}
            {children.map(|children| children())}
        </div>
    }
}
