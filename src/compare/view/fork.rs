//! The third way in: a fork of the run in the Trace from one of its steps,
//! under the scenario as now edited, beside the run it forked from. Asked
//! from a card or the drawn loop ("Go on from here with an edit"), it opens
//! the scenario that ran in a form of its own, to edit and run from there.

use harness::fork::ForkPoint;
use harness::replay::Record;
use leptos::prelude::*;

use crate::compare::state::{fork_wanted, take_fork_wanted, Comparison};
use crate::compare::{prefixed, Compared, Side};
use crate::editor::state::Editor;
use crate::editor::view::scenario_form::ScenarioForm;
use crate::run::view_model;
use crate::state::form_doc::FormDoc;
use crate::ui::field::Field;

use super::settings::show_in_field;
use super::Launcher;

pub(super) fn fork_way(
    launcher: Launcher,
    editor: Editor,
    running: ReadSignal<bool>,
    paused: Signal<bool>,
) -> impl IntoView {
    let picker = launcher.comparison;
    list_steps_when_forkable(picker, running, paused);
    let fork = move |_| {
        if let Some(point) = picker.fork_from() {
            run(
                launcher,
                editor.text().get_untracked(),
                parent(picker),
                point,
            );
        }
    };
    let from_here = from_here(launcher);
    view! {
        {from_here}
        <div class="compare-way">
            <h3>"Fork the run in the Trace"</h3>
            <p class="hint">
                "Edit the scenario in the editor (a description, a limit, a scripted response), pick a step, and the fork continues from there without re-running what came before."
            </p>
            <Show when=move || picker.by_turn()>
                <Field id="fork-turn" label=|| "Fork from turn" wraps=true hint=Signal::derive(move || format!("The run has {}.", view_model::plural(picker.last_turn().into(), "turn")))>
                    <input
                        type="number"
                        min="1"
                        max=move || picker.last_turn()
                        prop:value=move || picker.chosen_turn().to_string()
                        on:change=move |ev| {
                            picker.type_turn(event_target_value(&ev));
                            show_in_field(&ev, untrack(|| picker.chosen_turn()));
                        }
                    />
                </Field>
            </Show>
            <Field id="fork-point" label=|| "Fork from" wraps=true>
                <select
                    prop:disabled=move || picker.no_steps()
                    on:change=move |ev| picker.pick_step(event_target_value(&ev))
                >
                    {move || {
                        picker
                            .listed()
                            .get()
                            .into_iter()
                            .map(|p| view! { <option value=p.seq.to_string()>{p.label}</option> })
                            .collect_view()
                    }}
                </select>
            </Field>
            <button
                type="button"
                class="compare-fork"
                prop:disabled=move || picker.busy() || picker.no_steps()
                on:click=fork
            >
                "Fork and compare"
            </button>
            <Show when=move || picker.no_steps()>
                <p class="hint">"Run or open a run first; a run in progress can be forked once it pauses or ends."</p>
            </Show>
        </div>
    }
}

/// The run in the Trace, as a fork's parent.
fn parent(comparison: Comparison) -> Record {
    let (events, scenario) = comparison.trace();
    Record {
        scenario,
        events,
        forked_at: None,
    }
}

/// Tells the panel's state when the run in the Trace changes: its steps
/// can be forked from once it ends or pauses.
fn list_steps_when_forkable(
    comparison: Comparison,
    running: ReadSignal<bool>,
    paused: Signal<bool>,
) {
    let events = comparison.events();
    Effect::new(move |_| {
        events.track();
        comparison.trace_changed(!running.get() || paused.get());
    });
}

/// "Go on from here with an edit": the step asked for (from a card or the
/// drawn loop), once the run can be forked, and the scenario that ran in a
/// form, to edit; its button runs the fork beside the original.
fn from_here(launcher: Launcher) -> impl IntoView {
    let comparison = launcher.comparison;
    // The scenario the fork goes on under, edited beside the step with the
    // same form as A and B; seeded with the scenario that ran.
    let draft = comparison.fork_draft();
    let point = comparison.fork_here();
    Effect::new(move |_| {
        let Some(seq) = fork_wanted() else {
            return;
        };
        // Listed once the run ends or pauses: the request waits till then.
        if comparison.no_steps() {
            return;
        }
        take_fork_wanted();
        comparison.ask_fork(seq);
    });
    let go = move |_| {
        if let Some((_, at)) = point.get_untracked() {
            run(
                launcher,
                draft.text().get_untracked(),
                parent(comparison),
                at,
            );
        }
    };
    move || {
        point.get().map(|(_, at)| {
            bring_into_view();
            let heading = format!("Go on from {} with an edit", at.label);
            view! {
                <section class="compare-way fork-here-editor" aria-labelledby="fork-here-heading">
                    <h3 id="fork-here-heading" tabindex="-1">{heading}</h3>
                    <p class="hint">{format!(
                        "The run's steps before {} are replayed as they were; from there it goes on under this scenario. Edit it (a description, a limit, a scripted response), then run the fork beside the original.",
                        at.label
                    )}</p>
                    <details class="fork-draft-form" open>
                        <summary>"The scenario that ran, to edit"</summary>
                        <ScenarioForm editor=draft problems=Signal::derive(Vec::new) />
                    </details>
                    <button type="button" class="fork-here-run"
                        prop:disabled=move || launcher.cannot_start()
                        on:click=go>
                        "Run the fork beside the original"
                    </button>
                    " "
                    <button type="button" on:click=move |_| comparison.close_fork_here()>"Close this fork's editor"</button>
                </section>
            }
        })
    }
}

/// Brings the fork's editor into view once drawn, its heading focused, so
/// a keyboard user is where the button sent them.
fn bring_into_view() {
    request_animation_frame(|| {
        let heading = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("fork-here-heading"));
        if let Some(heading) = heading {
            heading.scroll_into_view();
            if let Ok(heading) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(heading) {
                let _ = heading.focus();
            }
        }
    });
}

/// Forks `parent` at `point` under the scenario `text`: the fork replays
/// the parent's steps and continues once, with the provider in the Model
/// settings if one is chosen, else the scenario's own model.
fn run(launcher: Launcher, text: String, parent: Record, point: ForkPoint) {
    let ForkPoint { seq, label } = point;
    let choice = launcher.comparison.decide();
    launcher.start(
        format!("Forking {label}…"),
        Box::new(move |token, rounds| {
            Box::pin(async move {
                let scenario =
                    crate::lazy::engine().await.load(&text).await.map_err(|p| {
                        prefixed("the edited scenario", &view_model::problem_lines(&p))
                    })?;
                let child = crate::lazy::offstage()
                    .await
                    .fork_to_end(parent.clone(), seq, scenario, choice, token, rounds.model)
                    .await
                    .map_err(|why| vec![format!("the fork could not start: {why}")])?;
                Ok(Compared {
                    left: vec![Side::of_trace("parent (the run in the Trace)", parent)],
                    right: vec![Side::new(format!("fork {label}"), child)],
                })
            })
        }),
    );
}
