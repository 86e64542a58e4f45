//! "Present" (issue 24): the loop at projector size for a class, with the
//! step in view and the trace beside it. The header's button enters it and
//! asks for the browser's full screen; a `#present` link opens the page in
//! it (a link cannot ask for full screen: browsers allow that only on a
//! click). Leaving full screen (Esc) leaves the presentation too. The mode
//! is `<html data-present>`, and static/app.css draws it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::page;

/// The link that opens the page presenting.
pub const FRAGMENT: &str = "#present";

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

fn mark(on: bool) {
    if let Some(root) = document().and_then(|d| d.document_element()) {
        let _ = if on {
            root.set_attribute("data-present", "")
        } else {
            root.remove_attribute("data-present")
        };
    }
}

/// Asks for full screen; `true` once the browser gave it. A refusal (no
/// click behind it, a browser that forbids it) leaves the presentation in
/// the window, which is still readable.
async fn full_screen() -> bool {
    let Some(root) = document().and_then(|d| d.document_element()) else {
        return false;
    };
    // Through Reflect: web-sys's binding drops the promise, whose refusal
    // would then be an uncaught error in the console.
    let promise = js_sys::Reflect::get(&root, &"requestFullscreen".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&root).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    match promise {
        Some(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
        None => false,
    }
}

#[component]
pub fn PresentButton() -> impl IntoView {
    let on = RwSignal::new(page::fragment() == FRAGMENT);
    // Whether this presentation holds the browser's full screen.
    let full = StoredValue::new(false);
    Effect::new(move |_| mark(on.get()));
    page::on_fragment_change(move |fragment| {
        if fragment == FRAGMENT {
            on.set(true);
        }
    });
    let listener = window_event_listener_untyped("fullscreenchange", move |_| {
        let now_full = document().is_some_and(|d| d.fullscreen_element().is_some());
        if !now_full && full.get_value() {
            full.set_value(false);
            on.set(false);
        }
    });
    on_cleanup(move || listener.remove());
    let leave = move || {
        on.set(false);
        if full.get_value() {
            full.set_value(false);
            if let Some(d) = document() {
                d.exit_fullscreen();
            }
        }
        // The address bar no longer says "present" once it is left.
        if page::fragment() == FRAGMENT {
            page::set_fragment("");
        }
    };
    let toggle = move |_| {
        if on.get_untracked() {
            leave();
        } else {
            on.set(true);
            leptos::task::spawn_local(async move {
                if full_screen().await {
                    let _ = full.try_set_value(true);
                }
            });
        }
    };
    view! {
        <button
            type="button"
            class="present"
            aria-pressed=move || if on.get() { "true" } else { "false" }
            title="Show the loop at projector size, the trace beside it (link: #present)"
            on:click=toggle
        >
            {move || if on.get() { "Leave presentation" } else { "Present" }}
        </button>
    }
}
