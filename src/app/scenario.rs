//! The scenario section, on the left: the lesson, what arrived in the
//! editor, the structured form, the JSON, the share bar, the Model settings
//! and every problem that keeps the scenario from running.

use leptos::prelude::*;

use crate::editor::state::Editor;
use crate::editor::view::scenario_form::editor_form;
use crate::editor::view::share_bar::ShareBar;
use crate::lazy;
use crate::mcp::state::{Mcp, McpStatus};
use crate::mcp::view::mcp_panel;
use crate::run::controller::Controller;
use crate::settings::state::ModelChoice;
use crate::settings::view::model_settings;
use crate::ui::json_editor::JsonEditor;
use crate::ui::problem_list::ProblemList;

#[component]
pub fn ScenarioSection(
    editor: Editor,
    controller: Controller,
    model_choice: ModelChoice,
    mcp: Mcp,
) -> impl IntoView {
    let live_problems = editor.live_problems();
    // The Model settings (below the editor) and the built-ins' files wait
    // until no run needs the network (see `Controller::quiet`): a first run
    // of the opening scenario needs neither. A pick before the
    // files arrive fetches them at once and holds Run meanwhile.
    let due = controller.quiet(Signal::stored(false));
    Effect::new(move |preloaded: Option<bool>| {
        if preloaded == Some(true) {
            return true;
        }
        let now = due.get();
        if now {
            crate::browser::runner::start(lazy::preload_builtins());
        }
        now
    });
    // The structured form waits the same way (a first run does not show
    // it: it is below the lesson), unless a lesson opens, whose parts in it
    // are then the only way to edit the text.
    let form_due = controller.quiet(Signal::derive(move || editor.lock().with(Option::is_some)));
    // Held header values are only read from `mcp_servers` (mcp_text::held_headers).
    let names_mcp_servers = Memo::new(move |_| editor.text().with(|t| t.contains("mcp_servers")));
    // The live check's problems, then why the last run could not start.
    let shown_problems = Signal::derive(move || {
        let mut lines = live_problems.get();
        lines.extend(controller.problems().get());
        lines
    });
    // What a share link brought (it loaded, or why not: cut off, broken)
    // is said as the page opens, below the loop on a phone: it is brought
    // into view, so a link that failed does not fail unseen. The loop's
    // list, drawn above it, arrives just after the paint and would push it
    // back down, so it waits for the loop (two seconds at most).
    Effect::new(move |_| {
        let from_link = editor
            .arrival()
            .with(|a| a.as_deref().is_some_and(|a| a.contains("share link")));
        if from_link {
            crate::browser::runner::start(async {
                for _ in 0..40 {
                    if document()
                        .query_selector(".loop-panel")
                        .ok()
                        .flatten()
                        .is_some()
                    {
                        break;
                    }
                    gloo_timers::future::TimeoutFuture::new(50).await;
                }
                crate::browser::page::bring_into_view(
                    || document().query_selector(".arrival").ok().flatten(),
                    web_sys::ScrollLogicalPosition::Nearest,
                );
            });
        }
    });
    view! {
        <section class="panel scenario" aria-label="Scenario">
            <h2>"Scenario"</h2>
            <p class="lesson">{editor.lesson()}</p>
            <p class="arrival" role="status">{move || editor.arrival().get()}</p>
            {move || editor.can_undo_replacement().then(|| view! {
                <button type="button" class="undo-replace" on:click=move |_| editor.undo_replacement()
                    title="The scenario that was in the editor before the last pick, import, opened run or link">
                    "↶ Undo: bring back the replaced scenario"
                </button>
            })}
            <Show when=move || form_due.get()>
                {Suspend::new(editor_form(editor, live_problems.into()))}
            </Show>
            <label for="scenario-json">
                "Scenario JSON"
                {move || editor.lock().with(Option::is_some).then_some(" (read-only in this lesson)")}
            </label>
            <JsonEditor text=editor.text() on_input=move |text| editor.edit(text)
                read_only=Signal::derive(move || editor.lock().with(Option::is_some)) />
            // Fetched once the scenario names a server: a run without one
            // does not wait for the panel's module.
            <Show when=move || mcp.status().with(|s| *s != McpStatus::None) || names_mcp_servers.get()>
                {Suspend::new(mcp_panel(mcp, editor))}
            </Show>
            <ShareBar editor=editor on_arrival=move |()| controller.clear_for_another_scenario() />
            <Show when=move || due.get()>
                {Suspend::new(model_settings(model_choice))}
            </Show>
            <ProblemList problems=shown_problems notes=editor.live_notes() />
        </section>
    }
}
