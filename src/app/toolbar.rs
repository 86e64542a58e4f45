//! The page header: the title, the mode switch, the theme, and the toolbar (the scenario
//! picker, Run / Step / Stop / Reset with the run's state, why Run cannot
//! start, and the live counters).

use harness::library::{BUILTIN, WITH_SERVER};
use leptos::prelude::*;

use super::modes::{ModeSwitch, Present};
use crate::browser::page;
use crate::editor::state::Editor;
use crate::editor::view::scenario_picker::ScenarioPicker;
use crate::lessons::state::Lessons;
use crate::mcp::state::{Mcp, McpStatus};
use crate::modes::state::{Mode, Modes};
use crate::protocol_check::state::ProtocolWatch;
use crate::run::controller::Controller;
use crate::run::view::counters::CounterBar;
use crate::run::view_model;
use crate::settings::state::ModelChoice;

#[component]
pub fn Toolbar(
    editor: Editor,
    controller: Controller,
    model_choice: ModelChoice,
    mcp: Mcp,
    lessons: Lessons,
    modes: Modes,
    presenting: ReadSignal<bool>,
    /// Set by "⇄ Run the pair side by side"; the Compare panel runs the pair.
    pair_wanted: RwSignal<bool>,
) -> impl IntoView {
    let events = controller.events();
    let running = controller.running();
    let pending = controller.pending();
    let paused = controller.paused();
    // The scenario's MCP servers gave no answer: a run would have none of
    // their tools, so Run waits, and says why here rather than only in the
    // MCP panel further down.
    let mcp_down = Memo::new(move |_| match mcp.status().get() {
        McpStatus::Failed(lines) => Some(lines),
        _ => None,
    });
    let blocker = Memo::new(move |_| {
        editor.run_blocker(|| model_choice.problem_lines()).or_else(|| {
            mcp_down.get().map(|lines| {
                format!(
                    "Run is disabled: the scenario's MCP tools did not load ({}). Start the server, then press “Load the tools again”.",
                    lines.join("; ")
                )
            })
        })
    });

    let paired = Memo::new(move |_| {
        editor
            .selected()
            .with(|id| harness::library::pair_containing(id).is_some())
    });

    let theme = RwSignal::new(page::saved_theme().unwrap_or_else(|| "system".to_string()));
    page::apply_theme(&theme.get_untracked());

    let can_start = move || blocker.with(Option::is_none);
    let is_paused = move || running.get() && paused.with(Option::is_some);
    let run_enabled = move || {
        if running.get() {
            paused.with(Option::is_some)
        } else {
            can_start()
        }
    };
    let step_enabled = move || {
        if running.get() {
            pending.with(Option::is_none)
        } else {
            can_start()
        }
    };
    // How the run ended, in the header: at the top of the screen while the
    // header is sticky, whatever is scrolled. Its line keeps its height
    // whether or not there is an outcome, so nothing below moves.
    let outcome = Memo::new(move |_| {
        events.with(|e| view_model::outcome_of(e).map(|o| (o.status, o.tone(), o.reason.clone())))
    });
    let protocol = use_context::<ProtocolWatch>();
    let ended = move || !running.get() && outcome.with(Option::is_some);
    let status_text = move || match (running.get(), paused.get()) {
        (true, Some(before)) => view_model::pause_text(&before),
        (true, None) if pending.with(Option::is_some) => "Waiting for your approval".to_string(),
        (true, None) => "Running…".to_string(),
        (false, _) => String::new(),
    };

    let blocker_text = move || if running.get() { None } else { blocker.get() };
    // The notice's ×: hidden until the next pick that replaces edits.
    let undo_dismissed = RwSignal::new(false);
    Effect::new(move |_| {
        if editor.can_undo_pick() {
            undo_dismissed.set(false);
        }
    });
    // Run and Step show the run: from another mode they go to the Run mode.
    let show_run = move || modes.open(Mode::Run);
    view! {
        <header class="page-header">
            <div class="header-inner">
                <h1>"Agent Loop Playground"</h1>
                <ModeSwitch modes />
                <Present presenting />
                <label class="theme">
                    "Theme"
                    <select on:change=move |ev| {
                        let value = event_target_value(&ev);
                        page::apply_theme(&value);
                        theme.set(value);
                    }>
                        {["system", "light", "dark"].map(|value| view! {
                            <option value=value prop:selected=move || theme.with(|t| t == value)>
                                {match value { "light" => "Light", "dark" => "Dark", _ => "System" }}
                            </option>
                        })}
                    </select>
                </label>
                // The Lessons mode; while it is open, "Goal" brings the
                // open lesson's goal into view in one tap, at any width.
                <div class="lessons-toggle">
                    <button type="button" class="lessons-button" aria-pressed=move || lessons.open().get().to_string()
                        on:click=move |_| {
                            let open = !lessons.open().get_untracked();
                            lessons.set_open(open);
                            // The lessons are shown beside the loop in the
                            // Run mode: opening them goes there.
                            if open {
                                show_run();
                            }
                        }>
                        "Lessons"
                    </button>
                    {move || lessons.open().get().then(|| view! {
                        <button type="button" class="goal-button" on:click=move |_| page::bring_into_view(
                            || web_sys::window()?.document()?.get_element_by_id("lesson-goal"),
                            web_sys::ScrollLogicalPosition::Start,
                        )>"Goal"</button>
                    })}
                </div>
                <p class="tagline">
                    "An LLM agent's tool-calling loop, run in your browser against a scripted model."
                </p>
            </div>
            <div class="toolbar">
                <div class="picker">
                    <ScenarioPicker
                        groups=view_model::scenario_groups(BUILTIN, WITH_SERVER)
                        selected=editor.selected()
                        custom_label=Signal::derive(move || editor.custom_label())
                        on_select=move |id: String| {
                            if id != view_model::CUSTOM {
                                controller.clear_for_another_scenario();
                            }
                            editor.select(id)
                        }
                    />
                    // Right where the picker marks a scenario "⇄ pair": it runs
                    // beside its counterpart, in the Compare mode. Hidden, not
                    // removed, for another scenario, so the header keeps its
                    // place.
                    <button type="button" class="pair-run"
                        style:visibility=move || if paired.get() { "visible" } else { "hidden" }
                        prop:disabled=move || running.get() || !paired.get()
                        on:click=move |_| {
                            pair_wanted.set(true);
                            modes.open(Mode::Compare);
                        }>
                        "⇄ Run the pair side by side"
                    </button>
                </div>
                <div class="actions" role="toolbar" aria-label="Run controls">
                    // While a run is paused, Run lets it go on: it says so,
                    // and whose run it is, since the picker may show another
                    // scenario by now.
                    <button
                        type="button"
                        class="run"
                        aria-describedby="run-blocker"
                        title=move || is_paused().then(|| controller.ran_scenario().with(|s| format!(
                            "Run the rest of this run{} without pausing; the scenario in the editor runs once it has ended",
                            s.as_ref().map(|s| format!(" of “{}”", s.name)).unwrap_or_default()
                        )))
                        prop:disabled=move || !run_enabled()
                        on:click=move |_| {
                            show_run();
                            controller.set_model(model_choice.current());
                            controller.run(&editor.text().get_untracked())
                        }
                    >
                        {move || if is_paused() { "Continue" } else { "Run" }}
                    </button>
                    // After a run has ended, Step starts another one (the run
                    // in view stays in the History): the button says so.
                    <button
                        type="button"
                        class="step"
                        title=move || if ended() {
                            "Start a new run, paused before its first model call; the run in view stays in the History"
                        } else {
                            "Run until the next model call or tool call, then pause"
                        }
                        aria-describedby="run-blocker"
                        prop:disabled=move || !step_enabled()
                        on:click=move |_| {
                            show_run();
                            controller.set_model(model_choice.current());
                            controller.step(&editor.text().get_untracked())
                        }
                    >
                        {move || if ended() { "Step a new run" } else { "Step" }}
                    </button>
                    <button
                        type="button"
                        class="stop"
                        prop:disabled=move || !running.get()
                        on:click=move |_| controller.stop()
                    >
                        "Stop"
                    </button>
                    <button
                        type="button"
                        class="reset"
                        prop:disabled=move || events.with(Vec::is_empty) && !running.get()
                        on:click=move |_| controller.reset()
                    >
                        "Reset"
                    </button>
                    <span class="run-state" aria-live="polite">{status_text}</span>
                </div>
                // One line whose place is fixed: the outcome, and why Run
                // cannot start; each is whole on hover and focus.
                <div class="run-status">
                <p class="run-outcome" aria-live="polite">
                    {move || outcome.get().map(|(status, tone, reason)| {
                        // A `done` a provider would have refused says so
                        // first (the banner's verdict); the title, whole
                        // where the line is cut short, adds the reason.
                        let refusal = protocol.and_then(|watch| watch.done_but_refused(status));
                        let title = match &refusal {
                            Some(refusal) => format!("{} — {refusal}; {reason}", status.as_str()),
                            None => reason.clone(),
                        };
                        let refused = refusal.is_some().then_some("true");
                        view! {
                        <span class=format!("outcome tone-{}", tone.as_str()) data-status=status.as_str() data-refused=refused title=title tabindex="0">
                            <span class="tone-icon" aria-hidden="true">{tone.icon()}</span>
                            " " <code>{status.as_str()}</code> " — " {refusal.unwrap_or(reason)}
                        </span>
                        }
                    })}
                </p>
                <p id="run-blocker" class="run-blocker" aria-live="polite" title=blocker_text>
                    {blocker_text}
                    {move || (!running.get() && mcp_down.with(Option::is_some)).then(|| view! {
                        " "
                        <a href=format!("#{}", crate::mcp::view::MCP_PANEL_ID)>"Go to the MCP servers panel"</a>
                    })}
                </p>
                </div>
                <CounterBar counters=controller.counters() elapsed_ms=controller.elapsed_ms()
                    clock_held=Signal::derive(move || controller.paused().with(Option::is_some)) />
            </div>
            // A pick that replaced the person's work: Undo, in view where
            // they picked (the Scenario panel has it too). A notice drawn
            // under the header, over the page, so the header keeps its
            // height and the counters their places.
            {move || (editor.can_undo_pick() && !undo_dismissed.get()).then(|| view! {
                <div class="undo-notice">
                    "The pick replaced your edited scenario. "
                    <button type="button" class="undo-pick" on:click=move |_| editor.undo_replacement()
                        title="Bring back the scenario this pick replaced (your edits)">
                        "↶ Undo pick"
                    </button>
                    <button type="button" class="undo-dismiss" aria-label="Dismiss: keep the pick"
                        on:click=move |_| undo_dismissed.set(true)>"×"</button>
                </div>
            })}
        </header>
    }
}
