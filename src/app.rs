//! The page: a toolbar (scenario picker, Run / Step / Stop / Reset, live
//! counters), the scenario editor on the left, the run's trace in the centre,
//! the Wire panel (a turn's request body per provider) beside or below it,
//! and the wiring between the editor, the controller and the components.
//!
//! State lives here, at the root, so it outlives every component and every
//! spawned run: the editor (picked scenario, JSON text) and the controller
//! (the run log, the run in flight, what it waits for). Everything else is
//! derived.

use harness::approval::Decision;
use harness::library::BUILTIN;
use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::browser::page;
use crate::controller::Controller;
use crate::editor::Editor;
use crate::provenance::{self, Lesson, Source};
use crate::share;
use crate::ui::counters::CounterBar;
use crate::ui::history_panel::{History, RunFiles};
use crate::ui::json_editor::JsonEditor;
use crate::ui::model_settings::{ModelChoice, ModelSettings};
use crate::ui::problem_list::ProblemList;
use crate::ui::run_state_panel::RunStatePanel;
use crate::ui::scenario_form::ScenarioForm;
use crate::ui::scenario_picker::ScenarioPicker;
use crate::ui::share_bar::ShareBar;
use crate::ui::stop_banner::StopBanner;
use crate::ui::timeline::{ApprovalContext, Timeline};
use crate::ui::wire_panel::WirePanel;
use crate::{form, view_model};

#[component]
pub fn App() -> impl IntoView {
    let editor = Editor::new();
    let controller = Controller::new();
    let model_choice = ModelChoice::new();
    let history = History::new(controller, editor);
    // A panic's error panel offers the trace of the run in view.
    crate::browser::panic::keep_trace(controller.events());
    let events = controller.events();
    let running = controller.running();
    let pending = controller.pending();
    let paused = controller.paused();
    let deny_reason = RwSignal::new(String::new());

    // The lesson is the scenario's own `description`, whichever way it
    // arrived (a built-in, a link, a file, an edit). While the text is not
    // JSON the last lesson stays, rather than flickering to the generic one.
    let lesson = Memo::new(move |previous: Option<&String>| {
        if editor.loading().get() {
            return view_model::LOADING_LESSON.to_string();
        }
        match editor.text().with(|text| provenance::lesson_of(text)) {
            Lesson::Described(description) => description,
            Lesson::Undescribed => view_model::CUSTOM_LESSON.to_string(),
            Lesson::NotJson => previous
                .filter(|p| p.as_str() != view_model::LOADING_LESSON)
                .cloned()
                .unwrap_or_else(|| view_model::CUSTOM_LESSON.to_string()),
        }
    });
    let custom_label = Signal::derive(move || {
        editor.provenance().with(|p| {
            p.label(|id| view_model::find_builtin(BUILTIN, id).map(|b| b.name().to_string()))
        })
    });
    let banner =
        Memo::new(move |_| events.with(|e| view_model::outcome_of(e).map(view_model::banner)));
    // The scenario is checked as it is edited, so Run can say why it cannot
    // run. The check is the engine's (a split module): the first one fetches
    // it, right after the first paint. An answer about text that has changed
    // since is dropped; the newer text's check follows.
    let live_problems = RwSignal::new(Vec::<String>::new());
    // The built-ins' files (another split module) are fetched once the page
    // has painted (a spawned task runs after the mount), so a pick in the
    // picker rarely waits for them.
    spawn_local(crate::lazy::preload_builtins());
    Effect::new(move |_| {
        let text = editor.text().get();
        spawn_local(async move {
            let lines = match crate::lazy::engine().await.load(&text) {
                Ok(_) => Vec::new(),
                Err(problems) => view_model::problem_lines(&problems),
            };
            if editor.text().with_untracked(|now| *now == text) {
                live_problems.set(lines);
            }
        });
    });
    let shown_problems = Signal::derive(move || {
        let mut lines = live_problems.get();
        lines.extend(controller.problems().get());
        lines
    });
    let blocker = Memo::new(move |_| {
        if editor.loading().get() {
            return Some(view_model::LOADING_BLOCKER.to_string());
        }
        let mut field_errors: Vec<String> = editor
            .field_errors()
            .with(|errors| errors.iter().map(|(_, e)| e.clone()).collect());
        // The Model settings' problems block Run the same way (shown under their fields too).
        field_errors.extend(model_choice.problem_lines());
        live_problems.with(|p| form::run_blocker(p, &field_errors))
    });
    let idle = move || events.with(Vec::is_empty);

    // The trace, counters and exports belong to the run that made them: a
    // switch to another scenario clears them (the run stays in the history).
    // A run still going is left alone, and the trace's heading names its
    // scenario.
    let clear_trace_for_another_scenario = move || {
        if !running.get_untracked() {
            controller.reset();
        }
    };
    let decide = move |decision: Decision| {
        deny_reason.set(String::new());
        controller.decide(decision);
    };
    // `a` approves and `d` denies while the bar shows, unless focus is in a field.
    let keys = window_event_listener(ev::keydown, move |ev| {
        if pending.with_untracked(Option::is_none) {
            return;
        }
        let tag = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|el| el.tag_name())
            .unwrap_or_default();
        let modified = ev.ctrl_key() || ev.meta_key() || ev.alt_key();
        match view_model::is_shortcut(&ev.key(), &tag, modified) {
            Some('a') => {
                ev.prevent_default();
                decide(Decision::Approve);
            }
            Some('d') => {
                ev.prevent_default();
                let reason = deny_reason.get_untracked();
                let reason = (!reason.trim().is_empty()).then(|| reason.trim().to_string());
                decide(Decision::Deny { reason });
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());
    // A share link pasted into this tab changes only the fragment: load it.
    let links = window_event_listener(ev::hashchange, move |_| {
        if let Some(result) = share::scenario_from_fragment(&page::fragment()) {
            match result {
                Ok(text) => {
                    clear_trace_for_another_scenario();
                    editor.load(text, Source::Link);
                    editor.set_arrival(Some(share::LINK_LOADED.to_string()));
                }
                Err(why) => editor.set_arrival(Some(share::broken_link_notice(&why))),
            }
        }
    });
    on_cleanup(move || links.remove());

    let theme = RwSignal::new(page::saved_theme().unwrap_or_else(|| "system".to_string()));
    page::apply_theme(&theme.get_untracked());

    let can_start = move || blocker.with(Option::is_none);
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
    let status_text = move || match (running.get(), paused.get()) {
        (true, Some(before)) => view_model::pause_text(&before),
        (true, None) if pending.with(Option::is_some) => "Waiting for your approval".to_string(),
        (true, None) => "Running…".to_string(),
        (false, _) => String::new(),
    };

    view! {
        <header class="page-header">
            <div class="header-inner">
                <h1>"Agent Loop Playground"</h1>
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
                <p class="tagline">
                    "An LLM agent's tool-calling loop, run in your browser against a scripted model."
                </p>
            </div>
            <div class="toolbar">
                <div class="picker">
                    <ScenarioPicker
                        groups=view_model::scenario_groups(BUILTIN)
                        selected=editor.selected()
                        custom_label=custom_label
                        on_select=move |id: String| {
                            if id != view_model::CUSTOM {
                                clear_trace_for_another_scenario();
                            }
                            editor.select(id)
                        }
                    />
                </div>
                <div class="actions" role="toolbar" aria-label="Run controls">
                    <button
                        type="button"
                        class="run"
                        aria-describedby="run-blocker"
                        prop:disabled=move || !run_enabled()
                        on:click=move |_| {
                            controller.set_model(model_choice.current());
                            controller.run(&editor.text().get_untracked())
                        }
                    >
                        "Run"
                    </button>
                    <button
                        type="button"
                        class="step"
                        title="Run until the next model call or tool call, then pause"
                        aria-describedby="run-blocker"
                        prop:disabled=move || !step_enabled()
                        on:click=move |_| {
                            controller.set_model(model_choice.current());
                            controller.step(&editor.text().get_untracked())
                        }
                    >
                        "Step"
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
                <p id="run-blocker" class="run-blocker" aria-live="polite">
                    {move || if running.get() { None } else { blocker.get() }}
                </p>
                <CounterBar counters=controller.counters() elapsed_ms=controller.elapsed_ms() />
            </div>
        </header>
        <main class="layout">
            <section class="panel scenario" aria-label="Scenario">
                <h2>"Scenario"</h2>
                <p class="lesson">{lesson}</p>
                <p class="arrival" role="status">{move || editor.arrival().get()}</p>
                <ScenarioForm editor=editor problems=live_problems />
                <label for="scenario-json">"Scenario JSON"</label>
                <JsonEditor text=editor.text() on_input=move |text| editor.edit(text) />
                <ShareBar editor=editor on_arrival=move |()| clear_trace_for_another_scenario() />
                <ModelSettings choice=model_choice />
                <ProblemList problems=shown_problems />
            </section>
            <section class="panel trace" aria-labelledby="trace-heading">
                <div class="trace-heading">
                    <h2 id="trace-heading">
                        "Trace"
                        {move || controller.ran_scenario().with(|s| s.as_ref().map(|s| view! {
                            <span class="trace-of">{format!(" of “{}”", s.name)}</span>
                        }))}
                    </h2>
                    <RunFiles history=history />
                </div>
                <Show when=idle>
                    <p class="empty">"No run yet. Pick a scenario and press Run, or Step through it."</p>
                </Show>
                <Timeline
                    cards=controller.cards()
                    run_id=controller.run_id()
                    approval=ApprovalContext {
                        pending: pending.into(),
                        reason: deny_reason,
                        decide: Callback::new(decide),
                    }
                />
                {move || banner.get().map(|banner| view! { <StopBanner banner=banner /> })}
                {Suspend::new(crate::lazy::history_panel(history))}
            </section>
            <RunStatePanel book=controller.run_state() />
            <WirePanel events=events setup=controller.wire_setup() />
            {Suspend::new(crate::lazy::compare_panel(
                editor,
                events,
                controller.ran_scenario(),
                running,
                Signal::derive(move || paused.with(Option::is_some)),
            ))}
        </main>
    }
}
