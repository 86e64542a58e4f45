//! The run history's panel: the run files (export the run in view, import
//! a record; behind the trace heading's "Run files" menu) and, under the stop banner, the replay
//! list, the kept runs with Open and Delete, and "Replay all against the
//! current scenario" with its table. What they show and do is
//! `history::state::History`'s.
//!
//! The list sits below the trace, so it is a split module of its own
//! (`history_panel`, a `#[lazy]` function like those in `lazy`), painted
//! right after the page; the run files are one too (`run_files`).

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::browser::files;
use crate::history::replay_all::{Batch, Row};
use crate::history::state::History;
use crate::history::{self, Entry};
use crate::run::view_model::{self, Tone};

/// What the notices call text imported from the paste box.
const PASTED: &str = "the pasted text";

/// The History mode's kept runs: fetched the first time that mode opens.
/// `show_run` goes to the Trace (the Run mode's) when a kept run opens.
#[cfg_attr(feature = "split", lazy)]
pub async fn history_panel(history: History, show_run: Callback<()>) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("modes.css").await;
    view! { <HistoryPanel history show_run /> }.into_any()
}

/// The replay of the run in view, under its stop banner: fetched when a
/// run has ended in view, the first time.
#[cfg_attr(feature = "split", lazy)]
pub async fn run_replay(history: History) -> AnyView {
    view! { <RunReplay history /> }.into_any()
}

/// The run files (the Import/Export mode's, and the Trace heading's "Run
/// files" menu's): a split module, fetched when that menu first opens or
/// that mode first shows.
#[cfg_attr(feature = "split", lazy)]
pub async fn run_files(history: History, show_run: Callback<()>) -> AnyView {
    view! { <RunFiles history show_run /> }.into_any()
}

/// The run files: export the run in view as a record,
/// import a record (or a bare trace) to view and keep it: picked, dropped,
/// or pasted. `show_run` goes to the Trace (the Run mode's) as an import
/// starts, where the run imported, or why it was refused, shows.
#[component]
pub fn RunFiles(history: History, show_run: Callback<()>) -> impl IntoView {
    let events = history.controller().events();
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = files::picked_input(&ev) else {
            return;
        };
        show_run.run(());
        crate::browser::runner::start(async move {
            match files::take_picked(&input).await {
                Some((name, Ok(text))) => history.import(name, text),
                Some((name, Err(why))) => history.import_unreadable(&name, &why),
                None => {}
            }
        });
    };
    // A file dropped on the buttons imports as if picked.
    let drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let Some(file) = files::dropped_file(&ev) else {
            return;
        };
        show_run.run(());
        crate::browser::runner::start(async move {
            match files::read_file(&file).await {
                Ok(text) => history.import(file.name(), text),
                Err(why) => history.import_unreadable(&file.name(), &why),
            }
        });
    };
    view! {
        <div
            class="run-files"
            title="Drop a run file here: a record (.jsonl), an OpenTelemetry trace, or a provider's request body (.json)"
            on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
            on:drop=drop
        >
            <button
                type="button"
                title="Save the run in view with its scenario as run.jsonl (agent-loop show reads it)"
                prop:disabled=move || events.with(Vec::is_empty)
                on:click=move |_| history.export()
            >
                "Export trace (JSONL)"
            </button>
            <button
                type="button"
                title="Save the run in view as OpenTelemetry GenAI spans (OTLP/JSON): an invoke_agent span, a chat span per model call, an execute_tool span per call; agent-loop import and Import run read it back"
                prop:disabled=move || events.with(Vec::is_empty)
                on:click=move |_| history.export_otel()
            >
                "Export as OpenTelemetry"
            </button>
            <label class="file-button run-import">
                "Import run…"
                <input type="file" accept=".jsonl,.ndjson,.json,application/x-ndjson,application/json" on:change=import />
            </label>
            <span class="drop-hint">"or drop a file here"</span>
        </div>
        // Each box's contents are a split module fetched the first time the
        // box opens, so a first run does not wait for what it does not show.
        {
            let opened = RwSignal::new(false);
            view! {
                <details class="run-paste" on:toggle=move |_| opened.set(true)>
                    <summary>"Paste a request body or a trace…"</summary>
                    <Show when=move || opened.get()>{Suspend::new(run_paste(history, show_run))}</Show>
                </details>
            }
        }
        {
            let opened = RwSignal::new(false);
            view! {
                <details class="run-send" on:toggle=move |_| opened.set(true)>
                    <summary>"Send to an OpenTelemetry endpoint…"</summary>
                    <Show when=move || opened.get()>{Suspend::new(otel_send(history))}</Show>
                </details>
            }
        }
    }
}

/// What "Paste a request body or a trace…" holds: a split module, fetched
/// when the box first opens (see `lazy`).
#[cfg_attr(feature = "split", lazy)]
pub async fn run_paste(history: History, show_run: Callback<()>) -> AnyView {
    let pasted = RwSignal::new(String::new());
    let import_pasted = move |_| {
        let text = pasted.get_untracked();
        show_run.run(());
        history.import(PASTED.to_string(), text);
    };
    view! {
            <label for="run-paste-text">
                "A request body for Anthropic Messages, OpenAI Chat Completions or OpenAI Responses; then, if you have it, its response (the body, or the SSE stream as saved); an OpenTelemetry trace (OTLP/JSON: GenAI or OpenInference spans); or a record (JSON Lines)"
            </label>
            <textarea
                id="run-paste-text"
                rows="6"
                spellcheck="false"
                prop:value=pasted
                on:input=move |ev| pasted.set(event_target_value(&ev))
            ></textarea>
            <button
                type="button"
                prop:disabled=move || pasted.with(|t| t.trim().is_empty())
                on:click=import_pasted
            >
                "Import pasted text"
            </button>
    }
    .into_any()
}

/// What "Send to an OpenTelemetry endpoint…" holds: the run in view POSTed as
/// OTLP/JSON to a collector the person names. A split module, like the paste
/// box's.
#[cfg_attr(feature = "split", lazy)]
pub async fn otel_send(history: History) -> AnyView {
    let events = history.controller().events();
    let endpoint = RwSignal::new(harness::otel::send::DEFAULT_ENDPOINT.to_string());
    view! {
            <label for="otlp-endpoint">"OTLP/HTTP traces endpoint (a collector, Jaeger, Phoenix, Langfuse)"</label>
            <input
                id="otlp-endpoint"
                type="url"
                spellcheck="false"
                autocomplete="off"
                prop:value=endpoint
                on:input=move |ev| endpoint.set(event_target_value(&ev))
            />
            <button
                type="button"
                prop:disabled=move || events.with(Vec::is_empty)
                on:click=move |_| history.send_otel(endpoint.get_untracked())
            >
                "Send the run"
            </button>
    }
    .into_any()
}

/// "Replay against current tools" for the run in view, with its verdict,
/// and which kept run is in view (read-only) when it was opened.
#[component]
fn RunReplay(history: History) -> impl IntoView {
    let entries = history.entries();
    let now_ms = history.now_ms();
    let opened_entry = move || {
        let id = history.opened_id()?;
        entries.with(|entries| entries.iter().find(|e| e.id == id).cloned())
    };
    let verdict = move || history.verdict();
    let editor_text = history.editor_text();
    view! {
        <div class="replay">
            // Said here too, under the run it is about: the History mode's
            // panel may never have been opened.
            <p class="keep-notice" role="status">{move || history.notice().get()}</p>
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
            <Show when=move || editor_text.with(|t| crate::mcp::text::servers_key(t, &[]).is_some())>
                <label class="check replay-mcp">
                    <input
                        type="checkbox"
                        prop:checked=move || history.call_mcp()
                        on:change=move |ev| history.set_call_mcp(event_target_checked(&ev))
                    />
                    "Call the MCP servers again (else their tools answer with this run's results, offline)"
                </label>
            </Show>
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
    }
}

/// The kept runs, a row each, with "Replay all" above them.
#[component]
pub fn HistoryPanel(history: History, show_run: Callback<()>) -> impl IntoView {
    let entries = history.entries();
    let now_ms = history.now_ms();
    let opened = move || history.opened_id();
    let count = move || entries.with(Vec::len);
    view! {
        <div class="history" role="region" aria-labelledby="history-heading">
            <h2 id="history-heading">"Run history"</h2>
            {crate::ui::guide_link::guide_link("traces/history.html", "run history and replay")}
            <p class="history-notice" role="status">{move || history.notice().get()}</p>
            <Show
                when=move || { count() > 0 }
                fallback=|| view! {
                    <p class="empty">"No kept runs yet. Every run that finishes is kept here, also after a reload."</p>
                }
            >
                <ReplayAll history show_run />
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
                                            on:click=move |_| {
                                                show_run.run(());
                                                history.open(open_id.clone());
                                            }
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

/// The facts' colour: the stop banner's tone for the status, so a status
/// looks the same here as on the banner, the header and the loop; a run cut
/// off before its end is worth a look.
fn facts_tone(entry: &Entry) -> Tone {
    entry.status.map_or(Tone::Warn, view_model::status_tone)
}

/// "Replay all against the current scenario": the button, a hint naming the
/// CLI's equivalent, and the last batch's table, or why it replayed nothing.
#[component]
fn ReplayAll(history: History, show_run: Callback<()>) -> impl IntoView {
    let running = move || history.batch_running();
    view! {
        <section class="replay-all" aria-label="Replay all kept runs of the scenario in the editor">
            <div class="replay-all-controls">
                <button
                    type="button"
                    class="replay-all-button"
                    title="Play the recorded model turns of every kept run of the editor's scenario against its tools as they are now"
                    prop:disabled=running
                    on:click=move |_| history.replay_all()
                >
                    "Replay all against the current scenario"
                </button>
                <Show when=running>
                    <button type="button" class="replay-all-stop" on:click=move |_| history.stop_replay_all()>
                        "Stop replaying"
                    </button>
                </Show>
            </div>
            <p class="hint">
                "Kept runs of the scenario in the editor (matched by its name) replay their recorded model turns against its tools as they are now. In CI: "
                <code>"agent-loop replay runs/ --scenario edited.json"</code>
            </p>
            {move || history.batch().get().map(|batch| match batch {
                Ok(batch) => view! { <BatchTable history batch show_run /> }.into_any(),
                Err(why) => view! { <p class="replay-all-none" role="status">{why}</p> }.into_any(),
            })}
        </section>
    }
}

/// One batch: what it matched, its progress or summary, a row per kept run.
#[component]
fn BatchTable(history: History, batch: Batch, show_run: Callback<()>) -> impl IntoView {
    let done = !batch.running;
    let failed = batch.rows.iter().any(|r| r.verdict.key() != "pass");
    view! {
        <p class="replay-all-found">{batch.found()}</p>
        <p
            class="replay-all-status"
            role="status"
            data-running=batch.running.to_string()
            data-passed=done.then(|| (!failed).to_string())
        >
            {batch.status_line()}
        </p>
        <table class="replay-all-table">
            <thead>
                <tr>
                    <th scope="col">"Kept"</th>
                    <th scope="col">"Ended"</th>
                    <th scope="col">"Replay"</th>
                    <th scope="col">"First difference"</th>
                    <th scope="col">"Trace"</th>
                </tr>
            </thead>
            <tbody>
                {batch.rows.into_iter().map(|row| view! { <BatchRow history row show_run /> }).collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn BatchRow(history: History, row: Row, show_run: Callback<()>) -> impl IntoView {
    let now_ms = history.now_ms();
    let saved_at = row.saved_at_ms;
    let when = move || history::when_text(saved_at, now_ms.get());
    let original = row.original;
    let readable = !matches!(row.verdict, history::replay_all::Verdict::NotReplayed(_));
    let open_id = row.id.clone();
    let label = move || format!("Open the run kept {} ({original}) in the Trace", when());
    view! {
        <tr class="replay-all-row" data-verdict=row.verdict.key() data-id=row.id.clone()>
            <td class="replay-all-when">{when}</td>
            <td class="replay-all-original">{original}</td>
            <td class="replay-all-verdict">
                <span class="mark" aria-hidden="true">{row.verdict.mark()}</span>
                " "
                {row.verdict.word()}
            </td>
            <td class="replay-all-detail">{row.verdict.detail().to_string()}</td>
            <td>
                {readable.then(|| view! {
                    <button
                        type="button"
                        class="replay-all-open"
                        aria-label=label
                        title="Show this run in the Trace; the editor keeps the scenario it was replayed against"
                        on:click=move |_| {
                            show_run.run(());
                            history.open_in_trace(open_id.clone());
                        }
                    >
                        "Open"
                    </button>
                })}
            </td>
        </tr>
    }
}
