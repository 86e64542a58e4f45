//! The header's mode switch and its Present toggle; the modes
//! themselves, and what each shows, are `modes::state`.

use leptos::prelude::*;

use crate::modes::state::{Mode, Modes, PREFIX, PRESENT};

/// The header's mode switch: one link a mode, the open one marked.
#[component]
pub fn ModeSwitch(modes: Modes) -> impl IntoView {
    let mode = modes.now();
    let links = Mode::ALL.map(|m| {
        view! {
            <li>
                <a href=format!("{PREFIX}{}", m.key())
                    aria-current=move || (mode.get() == m).then_some("page")>
                    {m.label()}
                </a>
            </li>
        }
    });
    view! {
        <nav class="modes" aria-label="Modes">
            <ul>{links}</ul>
        </nav>
    }
}

/// The header's "Present" toggle: on, the page goes to the
/// `#present` link (so the back button ends it) and asks for full screen;
/// off, back to the Run mode's link, out of full screen. Leaving full screen
/// with Esc keeps the layout until the button is pressed again.
#[component]
pub fn Present(presenting: ReadSignal<bool>) -> impl IntoView {
    view! {
        <button type="button" class="present-button"
            aria-pressed=move || presenting.get().to_string()
            title=move || if presenting.get() {
                "End the presentation: back to the Run mode with its panels"
            } else {
                "Show the loop at projector size with the trace beside it, full screen"
            }
            on:click=move |_| {
                if presenting.get_untracked() {
                    crate::browser::page::leave_full_screen();
                    crate::browser::page::go_to_fragment(&format!("{PREFIX}{}", Mode::Run.key()));
                } else {
                    crate::browser::page::go_to_fragment(PRESENT);
                    crate::browser::page::enter_full_screen();
                }
            }>
            "Present"
        </button>
    }
}
