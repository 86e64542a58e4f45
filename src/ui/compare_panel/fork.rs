//! The third way in: a fork of the run in the Trace from one of its steps,
//! under the scenario as now edited, beside the run it forked from.

use gloo_timers::future::TimeoutFuture;
use harness::event::RunEvent;
use harness::fork::ForkPoint;
use harness::replay::Record;
use harness::scenario::Scenario;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::compare::{self, prefixed, Compared, Side};
use crate::state::comparison::ForkPicker;
use crate::state::editor::Editor;
use crate::view_model;

use super::settings::show_in_field;
use super::Launcher;

pub(super) fn fork_way(
    launcher: Launcher,
    editor: Editor,
    events: ReadSignal<Vec<RunEvent>>,
    ran: ReadSignal<Option<Scenario>>,
    running: ReadSignal<bool>,
    paused: Signal<bool>,
) -> impl IntoView {
    let picker = ForkPicker::new();
    list_steps_when_forkable(picker, events, running, paused);
    let fork = move |_| {
        if let Some(point) = picker.shown() {
            let parent = Record {
                scenario: ran.get_untracked(),
                events: events.get_untracked(),
                forked_at: None,
            };
            run(launcher, editor, parent, point);
        }
    };
    view! {
        <div class="compare-way">
            <h3>"Fork the run in the Trace"</h3>
            <p class="hint">
                "Edit the scenario in the editor (a description, a limit, a scripted response), pick a step, and the fork continues from there without re-running what came before."
            </p>
            <Show when=move || picker.by_turn()>
                <label>
                    "Fork from turn"
                    <input
                        type="number"
                        id="fork-turn"
                        min="1"
                        max=move || picker.last_turn()
                        prop:value=move || picker.chosen_turn().to_string()
                        on:change=move |ev| {
                            picker.choose_turn(&event_target_value(&ev));
                            show_in_field(&ev, untrack(|| picker.chosen_turn()));
                        }
                    />
                    {move || format!(" of {}", picker.last_turn())}
                </label>
            </Show>
            <label>
                "Fork from"
                <select
                    id="fork-point"
                    prop:disabled=move || picker.is_empty()
                    on:change=move |ev| picker.pick(&event_target_value(&ev))
                >
                    {move || {
                        picker
                            .listed()
                            .into_iter()
                            .map(|p| view! { <option value=p.seq.to_string()>{p.label}</option> })
                            .collect_view()
                    }}
                </select>
            </label>
            <button
                type="button"
                class="compare-fork"
                prop:disabled=move || launcher.comparison.busy() || picker.is_empty()
                on:click=fork
            >
                "Fork and compare"
            </button>
            <Show when=move || picker.is_empty()>
                <p class="hint">"Run or open a run first; a run in progress can be forked once it pauses or ends."</p>
            </Show>
        </div>
    }
}

/// Lists the steps the run in the Trace can be forked from once it ends or
/// pauses, in a task of their own: a 10,000-turn run has 20,000 of them,
/// and the task that paints the run's end should not list them too.
fn list_steps_when_forkable(
    picker: ForkPicker,
    events: ReadSignal<Vec<RunEvent>>,
    running: ReadSignal<bool>,
    paused: Signal<bool>,
) {
    let forkable = move || !running.get() || paused.get();
    Effect::new(move |_| {
        events.track();
        if !forkable() {
            picker.clear();
            return;
        }
        spawn_local(async move {
            TimeoutFuture::new(0).await;
            // A run may have started meanwhile: its steps are not forkable yet.
            if untrack(forkable) {
                picker.set_points(events.with_untracked(|e| compare::fork_points_by_turn(e)));
            }
        });
    });
}

/// Forks `parent` at `point` under the editor's scenario: the fork replays
/// the parent's steps and continues once, with the provider in the Model
/// settings if one is chosen, else the scenario's own model.
fn run(launcher: Launcher, editor: Editor, parent: Record, point: ForkPoint) {
    let ForkPoint { seq, label } = point;
    let text = editor.text().get_untracked();
    let choice = launcher.decide.get_untracked();
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
