//! The banner that ends a run: its status, the reason it fired, and the run's numbers.

use leptos::prelude::*;

use crate::view_model::Banner;

#[component]
pub fn StopBanner(banner: Banner) -> impl IntoView {
    view! {
        <div role="status" class=format!("stop-banner {}", banner.class) data-status=banner.status>
            <p class="stop-status">"Stopped: " <code>{banner.status}</code></p>
            <p class="stop-reason">{banner.reason}</p>
            <p class="stop-facts">{banner.facts}</p>
            {banner.answer.map(|answer| view! { <p class="stop-answer">"Answer: " {answer}</p> })}
        </div>
    }
}
