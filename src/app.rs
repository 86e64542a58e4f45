//! The page: the scenario editor on top, the run's trace below, and the
//! wiring between the editor, the controller and the components.
//!
//! State lives here, at the root, so it outlives every component and every
//! spawned run: the editor (picked scenario, JSON text) and the controller
//! (the run log and the run in flight). Everything else is derived.

use harness::library::BUILTIN;
use leptos::prelude::*;

use crate::controller::Controller;
use crate::editor::Editor;
use crate::ui::event_list::EventList;
use crate::ui::problem_list::ProblemList;
use crate::ui::scenario_picker::ScenarioPicker;
use crate::ui::stop_banner::StopBanner;
use crate::view_model;

#[component]
pub fn App() -> impl IntoView {
    let editor = Editor::new();
    let controller = Controller::new();
    let events = controller.events();
    let running = controller.running();

    let lesson = Memo::new(move |_| {
        editor.selected().with(|id| {
            view_model::find_builtin(BUILTIN, id)
                .and_then(|b| view_model::scenario_description(b.json))
                .unwrap_or_else(|| view_model::CUSTOM_LESSON.to_string())
        })
    });
    let banner =
        Memo::new(move |_| events.with(|e| view_model::outcome_of(e).map(view_model::banner)));
    let idle = move || events.with(Vec::is_empty) && controller.problems().with(Vec::is_empty);

    view! {
        <header class="page-header">
            <div class="container">
                <h1>"Agent Loop Playground"</h1>
                <p class="tagline">
                    "An LLM agent's tool-calling loop, run in your browser against a scripted model."
                </p>
            </div>
        </header>
        <main class="container">
            <section class="panel scenario" aria-label="Scenario">
                <ScenarioPicker
                    groups=view_model::scenario_groups(BUILTIN)
                    selected=editor.selected()
                    on_select=move |id| editor.select(id)
                />
                <p class="lesson">{lesson}</p>
                <label for="scenario-json">"Scenario JSON"</label>
                <textarea
                    id="scenario-json"
                    aria-label="Scenario JSON"
                    spellcheck="false"
                    autocomplete="off"
                    rows="16"
                    prop:value=editor.text()
                    on:input=move |ev| editor.edit(event_target_value(&ev))
                ></textarea>
                <div class="actions">
                    <button
                        type="button"
                        class="run"
                        prop:disabled=running
                        on:click=move |_| controller.start(&editor.text().get_untracked())
                    >
                        "Run"
                    </button>
                    <button
                        type="button"
                        class="stop"
                        prop:disabled=move || !running.get()
                        on:click=move |_| controller.stop()
                    >
                        "Stop"
                    </button>
                    <span class="run-state" aria-live="polite">
                        {move || if running.get() { "Running…" } else { "" }}
                    </span>
                </div>
                <ProblemList problems=controller.problems() />
            </section>
            <section class="panel trace" aria-labelledby="trace-heading">
                <h2 id="trace-heading">"Trace"</h2>
                <Show when=idle>
                    <p class="empty">"No run yet. Pick a scenario and press Run."</p>
                </Show>
                <EventList events=events run_id=controller.run_id() />
                {move || banner.get().map(|banner| view! { <StopBanner banner=banner /> })}
            </section>
        </main>
    }
}
