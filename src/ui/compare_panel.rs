//! The "Compare" panel: two runs side by side with the first step where they
//! part highlighted. Three ways in: a pair of built-ins (a pitfall's naive
//! and fixed scenarios, a tool-schema pair's A and B), in one click,
//! the scenario in the editor against a variant B (edit a tool's description
//! or schema in B), and a fork of the run in the Trace from one of its steps
//! under the scenario as now edited. The runs happen in the background
//! (the engine's, through `lazy::engine`); approvals are answered by the
//! panel's setting.
//!
//! The panel is the Compare mode's, so it is a split module of its own
//! (`compare_panel`, a `#[lazy]` function like those in `lazy`), fetched
//! the first time that mode opens. Its table of two runs is part of it.

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::cancel::CancelToken;
use harness::event::{RunEvent, Status};
use harness::fork::ForkPoint;
use harness::library;
use harness::replay::Record;
use harness::scenario::Scenario;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::{files, page};
use crate::compare::change::{Change, Words};
use crate::compare::repeats;
use crate::compare::{self, prefixed, Compared, Side};
use crate::lazy::{AutoDecision, Rounds};
use crate::loop_diagram::{EdgeKey, LoopDiagram, NodeId};
use crate::state::comparison::{Comparison, Shown};
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::form_doc::{FormDoc, Variant};
use crate::state::model_choice::ModelChoice;
use crate::ui::loop_diagram::LoopDiagramView;
use crate::ui::scenario_form::ScenarioForm;
use crate::view_model;

/// Past this many steps, the fork picker lists one turn's steps at a time,
/// picked with a turn field: a 10,000-turn run has 20,000 steps, too many
/// for one list (and for the page, as 20,000 options).
const LIST_EVERY_FORK_POINT_UP_TO: usize = 200;

/// A comparison's work: given its cancel token, the two finished sides.
type Work =
    Box<dyn FnOnce(CancelToken, Rounds) -> LocalBoxFuture<'static, Result<Compared, Vec<String>>>>;

/// The most runs a side may have with a provider: each is a paid request
/// or several, and ten already shows how often a description misleads.
const MOST_TIMES: u32 = 10;

/// The Compare panel, its view and its actions (see the module's doc).
#[cfg_attr(feature = "split", lazy)]
pub async fn compare_panel(
    editor: Editor,
    model_choice: ModelChoice,
    controller: Controller,
    show_event: Callback<u64>,
    pair_wanted: RwSignal<bool>,
) -> AnyView {
    let paused = controller.paused();
    view! {
        <ComparePanel editor model_choice
            events=controller.events()
            ran=controller.ran_scenario()
            running=controller.running()
            paused=Signal::derive(move || paused.with(Option::is_some))
            show_event pair_wanted />
    }
    .into_any()
}

#[component]
pub fn ComparePanel(
    editor: Editor,
    /// The Model settings: with a provider, the runs go to it, N times a side.
    model_choice: ModelChoice,
    /// The run in the Trace, and the scenario it ran: what a fork starts from.
    events: ReadSignal<Vec<RunEvent>>,
    ran: ReadSignal<Option<Scenario>>,
    running: ReadSignal<bool>,
    /// A run paused in step mode can be forked from the steps it has taken.
    paused: Signal<bool>,
    /// Shows an event of the run in the Trace (its card drawn first).
    show_event: Callback<u64>,
    /// Set by the header's "⇄ Run the pair side by side": run the pair of
    /// the scenario picked, as this panel's own button does.
    pair_wanted: RwSignal<bool>,
) -> impl IntoView {
    let comparison = Comparison::new();
    // B: a scenario text of its own, edited with the same form as A.
    let variant = Variant::new();
    let decide = RwSignal::new(AutoDecision::Approve);
    // Runs per side with a provider; the scenarios' own models run once.
    let times = RwSignal::new(1u32);
    let provider = move || model_choice.source.get();
    // A provider chosen with settings that cannot run: the comparison waits
    // for them, rather than quietly running the scripted model instead.
    let model_blocked = move || provider().is_some() && !model_choice.problem_lines().is_empty();
    let fork_at = RwSignal::new(None::<u64>);
    let busy = move || comparison.busy();
    let cannot_start = move || busy() || model_blocked();

    // The pair's A (or naive) half always goes on the left.
    let pair = Memo::new(move |_| editor.selected().with(|id| library::pair_containing(id)));
    // The steps the run in the Trace can be forked from, listed in a task of
    // their own once it ends or pauses: a 10,000-turn run has 20,000 of
    // them, and the task that paints the run's end should not list them too.
    let points = RwSignal::new(Vec::<(u32, ForkPoint)>::new());
    let forkable = move || !running.get() || paused.get();
    Effect::new(move |_| {
        events.track();
        if !forkable() {
            if points.with_untracked(|p| !p.is_empty()) {
                points.set(Vec::new());
            }
            return;
        }
        spawn_local(async move {
            TimeoutFuture::new(0).await;
            // A run may have started meanwhile: its steps are not forkable yet.
            if untrack(forkable) {
                points.set(events.with_untracked(|e| compare::fork_points_by_turn(e)));
            }
        });
    });
    let fork_turn = RwSignal::new(1u32);
    let by_turn = move || points.with(|p| p.len() > LIST_EVERY_FORK_POINT_UP_TO);
    let last_turn = move || points.with(|p| p.last().map_or(1, |(turn, _)| *turn));
    // The turn chosen, within the run in the Trace (a turn chosen for a
    // longer run before stands for this run's last).
    let chosen_turn = move || fork_turn.get().clamp(1, last_turn());
    // The steps the picker lists: all of them, or those of the turn chosen.
    let listed = move || -> Vec<ForkPoint> {
        let turn = chosen_turn();
        let by_turn = by_turn();
        points.with(|p| {
            p.iter()
                .filter(|(t, _)| !by_turn || *t == turn)
                .map(|(_, point)| point.clone())
                .collect()
        })
    };

    // Starts a comparison: `work` produces the two sides or the problems.
    let start = move |what: String, work: Work| {
        let (started, token) = comparison.start(what.clone());
        let model = model_choice.current();
        let times = if model.is_some() {
            times.get_untracked().clamp(1, MOST_TIMES)
        } else {
            1
        };
        let progress = Box::new(move |round: u32, rounds: u32| {
            if rounds > 1 {
                started.progress(format!("{what} Round {round} of {rounds}."));
            }
        });
        spawn_local(async move {
            let result = work(
                token,
                Rounds {
                    model,
                    times,
                    progress,
                },
            )
            .await;
            started.finish(result);
        });
    };

    let run_pair = move || {
        let Some(pair) = pair.get_untracked() else {
            return;
        };
        let choice = decide.get_untracked();
        let (a_label, b_label) = pair.labels();
        start(
            format!("Running {} and {}…", pair.a, pair.b),
            Box::new(move |token, rounds| {
                Box::pin(async move {
                    // The built-ins' files are a split module (`lazy::builtin_json`).
                    let a_json = crate::lazy::builtin_json(pair.a.to_string())
                        .await
                        .unwrap_or_default();
                    let b_json = crate::lazy::builtin_json(pair.b.to_string())
                        .await
                        .unwrap_or_default();
                    crate::lazy::engine()
                        .await
                        .run_both(
                            (a_label, a_json.to_string()),
                            (b_label, b_json.to_string()),
                            choice,
                            token,
                            rounds,
                        )
                        .await
                })
            }),
        );
    };
    // The header's request, taken once this panel is drawn (the Compare
    // mode's first opening fetches it) or at once when it already is. Taken
    // even when a comparison cannot start now, so it never fires later.
    Effect::new(move |_| {
        if pair_wanted.get() {
            pair_wanted.set(false);
            if !untrack(cannot_start) {
                run_pair();
            }
        }
    });
    let run_ab = move |_| {
        let a = editor.text().get_untracked();
        let b = variant.text().get_untracked();
        let choice = decide.get_untracked();
        start(
            "Running A and B…".to_string(),
            Box::new(move |token, rounds| {
                Box::pin(async move {
                    crate::lazy::engine()
                        .await
                        .run_both(
                            ("A".to_string(), a),
                            ("B".to_string(), b),
                            choice,
                            token,
                            rounds,
                        )
                        .await
                })
            }),
        );
    };
    let run_fork = move |_| {
        // The step the picker shows: the one picked if it is listed, else the first.
        let listed = untrack(listed);
        let picked = fork_at.get_untracked();
        let Some(point) = listed
            .iter()
            .find(|p| Some(p.seq) == picked)
            .or(listed.first())
        else {
            return;
        };
        let (seq, label) = (point.seq, point.label.clone());
        let parent = Record {
            scenario: ran.get_untracked(),
            events: events.get_untracked(),
            forked_at: None,
        };
        let text = editor.text().get_untracked();
        let choice = decide.get_untracked();
        start(
            format!("Forking {label}…"),
            // A fork replays the parent's steps and continues once, with the
            // provider in the Model settings if one is chosen, else the
            // scenario's own model.
            Box::new(move |token, rounds| {
                Box::pin(async move {
                    let scenario = crate::lazy::engine().await.load(&text).map_err(|p| {
                        prefixed("the edited scenario", &view_model::problem_lines(&p))
                    })?;
                    let child = crate::lazy::engine()
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
    };

    let fork_options = move || {
        listed()
            .into_iter()
            .map(|p| view! { <option value=p.seq.to_string()>{p.label}</option> })
            .collect_view()
    };

    view! {
        <section class="panel compare" aria-labelledby="compare-heading">
            <h2 id="compare-heading">"Compare runs side by side"</h2>
            <div class="compare-controls">
                <label>
                    "Approval requests in these runs"
                    <select
                        id="compare-approvals"
                        on:change=move |ev| decide.set(if event_target_value(&ev) == "deny" { AutoDecision::Deny } else { AutoDecision::Approve })
                    >
                        <option value="approve">"Approve each"</option>
                        <option value="deny">"Deny each"</option>
                    </select>
                </label>
                <div class="compare-times">
                    <label>
                        "Runs per side "
                        <input
                            type="number"
                            id="compare-times"
                            min="1"
                            max=MOST_TIMES.to_string()
                            prop:disabled=move || provider().is_none()
                            prop:value=move || if provider().is_some() { times.get().to_string() } else { "1".to_string() }
                            on:change=move |ev| {
                                // Out of range goes to the nearest count; not a number changes nothing.
                                if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                                    times.set(n.clamp(1, MOST_TIMES));
                                }
                            }
                        />
                    </label>
                    <p class="hint" id="compare-times-why">{move || match provider() {
                        None => "1: the scenario's own model (scripted or rules) answers the same way every time, so one run a side shows all it does. Choose a provider under Model settings to run each side up to 10 times and count what the real model did.".to_string(),
                        Some(_) if model_blocked() => "The Model settings have problems (listed there): fix them, and the runs go to the provider.".to_string(),
                        Some(p) => format!("Each side runs up to {MOST_TIMES} times with {} ({}); the result counts how each run went. A fork runs once, with this provider.", p.label(), model_choice.model.get().trim()),
                    }}</p>
                </div>
                <div class="compare-way">
                    <h3>"Pair"</h3>
                    {move || match pair.get() {
                        Some(pair) => view! {
                            <p>{
                                let (a, b) = pair.roles();
                                format!("This scenario is half of {}: {} ({a}) and {} ({b}).", pair.kind_words(), pair.a, pair.b)
                            }</p>
                            <button type="button" class="compare-pair" prop:disabled=cannot_start on:click=move |_| run_pair()>
                                "Run the pair side by side"
                            </button>
                        }.into_any(),
                        None => view! {
                            <p class="hint">"Pick a scenario marked “⇄ pair” in the picker (the pitfalls and the tool-schema effects) to run it beside its counterpart."</p>
                        }.into_any(),
                    }}
                </div>
                <div class="compare-way">
                    <h3>"A/B: the scenario in the editor (A) against a variant (B)"</h3>
                    <p class="hint">"Copy A into B, change a tool's description, schema or a limit in B, and run both."</p>
                    <button type="button" class="copy-a-into-b" on:click=move |_| variant.replace(editor.text().get_untracked())>
                        "Copy A into B"
                    </button>
                    <Show
                        when=move || variant.text().with(|t| !t.trim().is_empty())
                        fallback=|| view! { <p class="hint">"B is empty: copy A into it to start from A."</p> }
                    >
                        <details class="variant-form" open>
                            <summary>"Edit B with the form"</summary>
                            <ScenarioForm editor=variant problems=variant.problems() />
                        </details>
                    </Show>
                    <label for="variant-json">"Variant B (JSON)"</label>
                    <textarea
                        id="variant-json"
                        spellcheck="false"
                        autocomplete="off"
                        rows="8"
                        prop:value=move || variant.text().get()
                        on:input=move |ev| variant.replace(event_target_value(&ev))
                    ></textarea>
                    <ul class="field-problems" role="alert">
                        {move || variant.problems().get().into_iter().map(|p| view! { <li>{format!("B: {p}")}</li> }).collect_view()}
                    </ul>
                    <button
                        type="button"
                        class="compare-ab"
                        prop:disabled=move || cannot_start() || variant.text().with(|v| v.trim().is_empty())
                        on:click=run_ab
                    >
                        "Run A and B"
                    </button>
                </div>
                <div class="compare-way">
                    <h3>"Fork the run in the Trace"</h3>
                    <p class="hint">
                        "Edit the scenario in the editor (a description, a limit, a scripted response), pick a step, and the fork continues from there without re-running what came before."
                    </p>
                    <Show when=by_turn>
                        <label>
                            "Fork from turn"
                            <input
                                type="number"
                                id="fork-turn"
                                min="1"
                                max=last_turn
                                prop:value=move || chosen_turn().to_string()
                                on:change=move |ev| {
                                    // Out of range goes to the nearest turn; not a number changes nothing.
                                    if let Ok(turn) = event_target_value(&ev).trim().parse::<u32>() {
                                        fork_turn.set(turn.clamp(1, last_turn()));
                                        fork_at.set(None);
                                    }
                                }
                            />
                            {move || format!(" of {}", last_turn())}
                        </label>
                    </Show>
                    <label>
                        "Fork from"
                        <select
                            id="fork-point"
                            prop:disabled=move || points.with(Vec::is_empty)
                            on:change=move |ev| fork_at.set(event_target_value(&ev).parse().ok())
                        >
                            {fork_options}
                        </select>
                    </label>
                    <button
                        type="button"
                        class="compare-fork"
                        prop:disabled=move || busy() || points.with(Vec::is_empty)
                        on:click=run_fork
                    >
                        "Fork and compare"
                    </button>
                    <Show when=move || points.with(Vec::is_empty)>
                        <p class="hint">"Run or open a run first; a run in progress can be forked once it pauses or ends."</p>
                    </Show>
                </div>
            </div>
            <ComparisonView comparison events=events show_event=show_event />
        </section>
    }
}

/// The result area: progress with Stop, problems, or the two columns.
#[component]
fn ComparisonView(
    comparison: Comparison,
    events: ReadSignal<Vec<RunEvent>>,
    show_event: Callback<u64>,
) -> impl IntoView {
    let shown = comparison.shown();
    move || match shown.get() {
        Shown::Nothing => ().into_any(),
        Shown::Running(what) => view! {
            <p class="compare-status" role="status">
                {what}
                " "
                <button type="button" on:click=move |_| comparison.stop()>"Stop"</button>
            </p>
        }
        .into_any(),
        Shown::Failed(problems) => view! {
            <div class="compare-problems" role="alert">
                <p>"The comparison could not run:"</p>
                <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Shown::Compared(compared) => {
            let Compared { left, right } = *compared;
            let counts = (left.len() > 1 || right.len() > 1).then(|| repeats_table(&left, &right));
            let (Some(first_left), Some(first_right)) =
                (left.into_iter().next(), right.into_iter().next())
            else {
                return ().into_any();
            };
            view! {
                {counts}
                {comparison_table(first_left, first_right, events, show_event)}
            }
            .into_any()
        }
    }
}

/// The two runs as a table, one row per step, the first divergence marked
/// and brought into view; when one side is the run in the Trace, a button
/// shows that step there.
fn comparison_table(
    left: Side,
    right: Side,
    events: ReadSignal<Vec<RunEvent>>,
    show_event: Callback<u64>,
) -> AnyView {
    page::bring_into_view(
        || {
            web_sys::window()?
                .document()?
                .get_element_by_id("compare-divergence")
        },
        web_sys::ScrollLogicalPosition::Center,
    );
    let summary = compare::summary(&left, &right);
    let changes = compare::scenario_changes(&left, &right);
    let show_in_trace = compare::divergence_in_trace(&left, &right).map(|(step, index, event)| {
        let seq = event.seq;
        // Only while the Trace still holds that run.
        move || {
            events
                .with(|events| events.get(index) == Some(&event))
                .then(|| {
                    view! {
                        <button type="button" class="compare-show" data-seq=seq on:click=move |_| show_event.run(seq)>
                            {format!("Show step {step} in the Trace")}
                        </button>
                    }
                })
        }
    });
    let rows = compare::rows(left.events(), right.events());
    let (left_label, right_label) = (left.label.clone(), right.label.clone());
    let loops = view! {
        <div class="compare-loops">
            <SideLoop side=0 label=left.label.clone() events=left.events().to_vec() />
            <SideLoop side=1 label=right.label.clone() events=right.events().to_vec() />
        </div>
    };
    view! {
        <ChangePanel changes a=left.label.clone() b=right.label.clone() />
        <p class="compare-summary" role="status">{summary}</p>
        {show_in_trace}
        {loops}
        <table class="compare-table">
            <thead>
                <tr>
                    <th scope="col">"Step"</th>
                    <SideHeader side=left />
                    <SideHeader side=right />
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|row| {
                        let id = (row.place == compare::Place::Divergence).then_some("compare-divergence");
                        let turn = row.key.turn().map(|t| format!("turn {t}"));
                        view! {
                            <tr class=format!("compare-row {}", row.place.class()) id=id data-step=row.index>
                                <th scope="row" title=turn>{row.index + 1}</th>
                                <CellView side=0 label=left_label.clone() cell=row.left />
                                <CellView side=1 label=right_label.clone() cell=row.right />
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// What differs between the two scenarios, above the columns: each change
/// with its words or keywords, removed text struck through and marked "−",
/// added text underlined and marked "+", so the change reads without colour.
#[component]
fn ChangePanel(changes: Option<Vec<Change>>, a: String, b: String) -> impl IntoView {
    let body = match changes {
        None => view! {
            <p class="hint">"One of the runs carries no scenario (a bare trace), so what changed cannot be shown."</p>
        }
        .into_any(),
        Some(changes) if changes.is_empty() => view! {
            <p class="hint">"The two scenarios are the same apart from their names and lessons: any difference in the runs comes from the model or the tools' state."</p>
        }
        .into_any(),
        Some(changes) => view! {
            <ul class="change-list">
                {changes.into_iter().map(change_item).collect_view()}
            </ul>
        }
        .into_any(),
    };
    view! {
        <section class="compare-change" aria-labelledby="compare-change-heading">
            <h3 id="compare-change-heading">{format!("What changed from {a} to {b}")}</h3>
            {body}
        </section>
    }
}

fn change_item(change: Change) -> impl IntoView {
    let what = change.what();
    let detail = match change {
        Change::Text { words, .. } => view! {
            <p class="word-diff">
                {words.into_iter().map(|w| match w {
                    Words::Same(t) => view! { <span>{t}</span> }.into_any(),
                    Words::Removed(t) => view! { <del title="only in A">{t}</del> }.into_any(),
                    Words::Added(t) => view! { <ins title="only in B">{t}</ins> }.into_any(),
                }).collect_view()}
            </p>
        }
        .into_any(),
        Change::Keywords { keywords, .. } => view! {
            <ul class="keyword-diff">
                {keywords.into_iter().map(|k| view! {
                    <li><code>{k.path.clone()}</code>": "{k.words()}</li>
                }).collect_view()}
            </ul>
        }
        .into_any(),
        Change::Tool { .. } => ().into_any(),
    };
    view! {
        <li class="change">
            <span class="change-what">{what}</span>
            {detail}
        </li>
    }
}

/// With N runs a side: each way the runs went (the tools called in order,
/// and the status), with how many of A's and of B's runs went that way.
fn repeats_table(left: &[Side], right: &[Side]) -> AnyView {
    let ways = repeats::ways(left, right);
    let (a_runs, b_runs) = (left.len(), right.len());
    view! {
        <table class="compare-repeats">
            <caption>{format!("How the runs went: {a_runs} of A, {b_runs} of B. Below, run 1 of each side step by step.")}</caption>
            <thead>
                <tr>
                    <th scope="col">"Tools called, in order"</th>
                    <th scope="col">"Ended"</th>
                    <th scope="col">"A"</th>
                    <th scope="col">"B"</th>
                </tr>
            </thead>
            <tbody>
                {ways.into_iter().map(|way| view! {
                    <tr class="compare-way-row">
                        <th scope="row"><code>{way.tools}</code></th>
                        <td data-status=way.status.clone()>{way.status.clone()}</td>
                        <td>{repeats::share(way.a, a_runs)}</td>
                        <td>{repeats::share(way.b, b_runs)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// One run's own loop diagram, above its column. A node or an edge picked
/// on it brings the column's first step that passed there into view.
#[component]
fn SideLoop(side: usize, label: String, events: Vec<RunEvent>) -> impl IntoView {
    let diagram = Signal::stored(LoopDiagram::from_events(&events));
    let show_first = move |passed: Option<u64>| {
        if let Some(seq) = passed {
            page::show_compare_step(seq, side);
        }
    };
    let on_node = move |id: NodeId| {
        show_first(diagram.with_untracked(|d| d.node(id).and_then(|n| n.events.first().copied())))
    };
    let on_edge = move |key: EdgeKey| {
        show_first(diagram.with_untracked(|d| {
            d.edge(key.from, key.to)
                .and_then(|e| e.events.first().copied())
        }))
    };
    view! {
        <figure class="compare-loop" data-side=side>
            <figcaption>"The loop of " {label}</figcaption>
            <LoopDiagramView
                diagram=diagram
                on_select_node=Callback::new(on_node)
                on_select_edge=Callback::new(on_edge)
                also_drawn_as=if side == 0 { "compare-a" } else { "compare-b" }
            />
        </figure>
    }
}

#[component]
fn SideHeader(side: Side) -> impl IntoView {
    let status = compare::side_status(side.events()).map_or("", Status::as_str);
    let stats = compare::side_stats(side.events());
    let file = compare::file_name(&side.label);
    let failed = RwSignal::new(None::<String>);
    let Side { label, record, .. } = side;
    view! {
        <th scope="col" class="compare-side" data-status=status>
            <span class="compare-label">{label}</span>
            <span class="compare-stats">{stats}</span>
            <button
                type="button"
                class="compare-export"
                title="Save this run with its scenario as JSON Lines (agent-loop show, replay and fork read it)"
                on:click=move |_| {
                    failed.set(files::download(&file, "application/x-ndjson", &record.to_jsonl()).err())
                }
            >
                "Export"
            </button>
            <span class="field-error" role="alert">{failed}</span>
        </th>
    }
}

/// One side's step: each of its events, titled, with its detail.
#[component]
fn CellView(
    side: usize,
    /// The side's label: on a phone the columns stack and each cell says whose it is.
    label: String,
    cell: Option<compare::StepCell>,
) -> impl IntoView {
    match cell {
        None => view! { <td class="compare-cell empty" data-side=side data-label=label></td> }
            .into_any(),
        Some(step) => {
            let (kind, seqs) = (step.kind.as_str(), step.seqs());
            view! {
            <td class="compare-cell" data-side=side data-label=label data-kind=kind data-seqs=seqs>
                {step
                    .events
                    .into_iter()
                    .map(|cell| view! {
                        <div class=format!("compare-event {}", cell.tone.class()) data-kind=cell.kind.as_str() data-seq=cell.seq>
                            <span class="cell-title">{cell.title}</span>
                            {cell.detail.map(|d| view! { <code class="cell-detail">{d}</code> })}
                        </div>
                    })
                    .collect_view()}
            </td>
            }
            .into_any()
        }
    }
}
