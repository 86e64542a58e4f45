//! The two runs step by step: each run's loop, a row per step with the
//! first divergence marked, and each column's header with its Export.

use harness::event::{RunEvent, Status};
use leptos::prelude::*;

use crate::browser::{files, page};
use crate::compare::{self, Side};
use crate::loop_diagram::view::LoopDiagramView;
use crate::loop_diagram::{EdgeKey, LoopDiagram, NodeId};

use super::changes::ChangePanel;

/// The two runs as a table, one row per step, the first divergence marked
/// and brought into view; when one side is the run in the Trace, a button
/// shows that step there.
pub(super) fn comparison_table(
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
    let show_in_trace = show_in_trace(&left, &right, events, show_event);
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

/// "Show step N in the Trace", on the divergence, when one side is the
/// run in the Trace.
fn show_in_trace(
    left: &Side,
    right: &Side,
    events: ReadSignal<Vec<RunEvent>>,
    show_event: Callback<u64>,
) -> impl IntoView {
    compare::divergence_in_trace(left, right).map(|(step, index, event)| {
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
    })
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
