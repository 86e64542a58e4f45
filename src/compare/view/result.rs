//! What the panel shows under its controls: a comparison going with its
//! progress and Stop, why it could not run, or the two runs (with N runs a
//! side, first how they went, counted).

use harness::event::RunEvent;
use leptos::prelude::*;

use crate::compare::state::{Comparison, Shown};
use crate::compare::{repeats, Compared, Side};

use super::steps_table::comparison_table;

/// The result area: progress with Stop, problems, or the two columns.
#[component]
pub(super) fn ComparisonView(
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
        Shown::Failed(problems) => {
            // Said at the foot of a long panel, under the button pressed:
            // brought into view, or the refusal goes unseen below the fold.
            crate::browser::page::bring_into_view(
                || {
                    document()
                        .query_selector(".compare-problems")
                        .ok()
                        .flatten()
                },
                web_sys::ScrollLogicalPosition::Nearest,
            );
            view! {
                <div class="compare-problems" role="alert">
                    <p>"The comparison could not run:"</p>
                    <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                </div>
            }
            .into_any()
        }
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
