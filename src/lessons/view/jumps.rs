//! Loop and Trace: where the lesson, the loop and the trace are one column
//! (a phone), each is one tap away: these two float at the screen's foot
//! beside the header's Goal (lessons.css), which goes to the lesson. On a
//! wide screen all three are in view side by side, and these are hidden.

use leptos::prelude::*;

use crate::browser::page;

/// The Loop and Trace buttons.
pub(super) fn jump_bar() -> impl IntoView {
    view! {
        <nav class="lesson-jumps" aria-label="Go to the loop or the trace">
            <button type="button" on:click=move |_| go_to(".stage-loop")>"Loop"</button>
            <button type="button" on:click=move |_| go_to("section.trace")>"Trace"</button>
        </nav>
    }
}

/// Brings the first element matching `selector` to the top of the view.
fn go_to(selector: &'static str) {
    page::bring_into_view(
        || {
            web_sys::window()?
                .document()?
                .query_selector(selector)
                .ok()?
        },
        web_sys::ScrollLogicalPosition::Start,
    );
}
