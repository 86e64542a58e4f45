//! The run history's panel: the trace heading's file controls (export the
//! run in view, import a record) and, under the stop banner, the replay
//! list and the kept runs with Open and Delete. What they show and do is
//! `state::history::History`'s.
//!
//! The list sits below the trace, so it is a split module of its own
//! (`history_panel`, a `#[lazy]` function like those in `lazy`), painted
//! right after the page; the file controls are in the first paint.

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::browser::files;
use crate::history::{self, Entry};
use crate::state::history::History;
use crate::view_model::{self, Tone};

/// The run history's list, below the trace: painted right after the page.
#[cfg_attr(feature = "split", lazy)]
pub async fn history_panel(history: History) -> AnyView {
    view! { <HistoryPanel history /> }.into_any()
}

/// The trace heading's file controls: export the run in view as a record,
/// import a record (or a bare trace) to view and keep it.
#[component]
pub fn RunFiles(history: History) -> impl IntoView {
    let events = history.controller().events();
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let name = input
            .files()
            .and_then(|files| files.get(0))
            .map(|file| file.name())
            .unwrap_or_default();
        spawn_local(async move {
            match files::read_picked(&input).await {
                Some(Ok(text)) => history.import(name, text).await,
                Some(Err(why)) => history.import_unreadable(&name, &why),
                None => {}
            }
            // Picking the same file again must fire `change` again.
            input.set_value("");
        });
    };
    view! {
        <div class="run-files">
            <button
                type="button"
                title="Save the run in view with its scenario as run.jsonl (agent-loop show reads it)"
                prop:disabled=move || events.with(Vec::is_empty)
                on:click=move |_| history.export()
            >
                "Export trace (JSONL)"
            </button>
            <label class="file-button run-import">
                "Import run…"
                <input type="file" accept=".jsonl,.ndjson,.json,application/x-ndjson" on:change=import />
            </label>
        </div>
        <p class="run-file-notice" role="status">{move || history.file_notice().get()}</p>
    }
}

/// The replay list and the kept runs, shown under the stop banner.
#[component]
pub fn HistoryPanel(history: History) -> impl IntoView {
    let controller = history.controller();
    let events = controller.events();
    let running = controller.running();
    let entries = history.entries();
    let now_ms = history.now_ms();
    let finished = move || !running.get() && events.with(|e| view_model::outcome_of(e).is_some());
    let opened = move || history.opened_id();
    let opened_entry = move || {
        let id = opened()?;
        entries.with(|entries| entries.iter().find(|e| e.id == id).cloned())
    };
    let verdict = move || history.verdict();
    let count = move || entries.with(Vec::len);
    view! {
        <div class="history" role="region" aria-labelledby="history-heading">
            <Show when=finished>
                <div class="replay">
                    {move || opened_entry().map(|entry| view! {
                        <p class="opened-note">
                            "Showing a kept run (read-only): " {entry.scenario.clone()} ", "
                            {move || history::when_text(entry.saved_at_ms, now_ms.get())}
                            ". Run starts a fresh run."
                        </p>
                    })}
                    <button
                        type="button"
                        class="replay-button"
                        title="Play this run's recorded model turns against the scenario in the editor and check the outcomes"
                        prop:disabled=move || history.replaying().get()
                        on:click=move |_| history.replay()
                    >
                        "Replay against current tools"
                    </button>
                    {move || verdict().map(|verdict| match verdict {
                        Ok(view) => view! {
                            <div class="replay-verdict" data-passed=view.passed.to_string()>
                                <p class="replay-summary" role="status">{view.summary}</p>
                                <ul class="replay-results">
                                    {view.rows.into_iter().map(|row| { let name = row.name.clone(); let key = row.name.clone(); view! {
                                        <li
                                            class=if row.passed { "replay-row pass" } else { "replay-row fail" }
                                            data-assertion=key
                                            data-passed=row.passed.to_string()
                                        >
                                            <span class="mark" aria-hidden="true">{if row.passed { "✓" } else { "✗" }}</span>
                                            <strong>{name}</strong>
                                            {if row.passed { " passed: " } else { " failed: " }}
                                            {row.detail}
                                        </li>
                                    }}).collect_view()}
                                </ul>
                            </div>
                        }.into_any(),
                        Err(why) => view! {
                            <p class="replay-error" role="alert">{why}</p>
                        }.into_any(),
                    })}
                </div>
            </Show>
            <h3 id="history-heading">"Run history"</h3>
            <p class="history-notice" role="status">{move || history.notice().get()}</p>
            <Show
                when=move || { count() > 0 }
                fallback=|| view! {
                    <p class="empty">"No kept runs yet. Every run that finishes is kept here, also after a reload."</p>
                }
            >
                <ol class="history-list">
                    <For
                        each=move || entries.get()
                        key=|entry| (entry.id.clone(), entry.stored)
                        children=move |entry: Entry| {
                            let id = entry.id.clone();
                            let open_id = id.clone();
                            let delete_id = id.clone();
                            let current = {
                                let id = id.clone();
                                move || opened().as_deref() == Some(id.as_str())
                            };
                            let saved_at = entry.saved_at_ms;
                            let when = move || history::when_text(saved_at, now_ms.get());
                            let status = history::status_word(entry.status);
                            let label = format!("{} ({status})", entry.scenario);
                            view! {
                                <li
                                    class="history-entry"
                                    data-status=status
                                    data-id=id
                                    aria-current=move || current().then_some("true")
                                >
                                    <div class="history-summary">
                                        <span class="history-name">{entry.scenario.clone()}</span>
                                        <span class=format!("history-facts {}", facts_tone(&entry).class())>
                                            {history::facts(&entry)}
                                        </span>
                                        <span class="history-when">{when}</span>
                                    </div>
                                    <div class="history-actions">
                                        <button
                                            type="button"
                                            class="history-open"
                                            aria-label=format!("Open {label}")
                                            on:click=move |_| spawn_local(history.open(open_id.clone()))
                                        >
                                            "Open"
                                        </button>
                                        <button
                                            type="button"
                                            class="history-delete"
                                            aria-label=format!("Delete {label}")
                                            on:click=move |_| history.delete(&delete_id)
                                        >
                                            "Delete"
                                        </button>
                                    </div>
                                </li>
                            }
                        }
                    />
                </ol>
                <button type="button" class="history-clear" on:click=move |_| history.delete_all()>
                    {move || match count() {
                        1 => "Delete the kept run".to_string(),
                        n => format!("Delete all {n} kept runs"),
                    }}
                </button>
            </Show>
        </div>
    }
}

/// The facts' colour: the stop banner's tone for the status (`done` is
/// good, any other stop is worth a look), and a run cut off before its end
/// is worth a look too.
fn facts_tone(entry: &Entry) -> Tone {
    entry.status.map_or(Tone::Warn, view_model::status_tone)
}
