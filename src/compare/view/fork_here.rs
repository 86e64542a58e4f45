//! "Go on from here with an edit", on a turn card and on a step picked on
//! the drawn loop: it opens the Compare mode at that step, where the
//! scenario that ran can be edited and the fork run beside the original.
//!
//! This button is in the first paint (the cards are), so it only says
//! which step was asked for (`compare::state::want_fork`) and opens the
//! mode; the Compare panel, fetched then, does the rest (`fork`).

use leptos::prelude::*;

use crate::compare::state::want_fork;
use crate::modes::state::{Mode, PREFIX};

/// The button for the step whose event is `seq`.
pub fn fork_here(seq: u64) -> impl IntoView {
    view! {
        <button type="button" class="fork-here"
            title="Edit the scenario from this step on, and run the fork beside this run in Compare"
            on:click=move |_| {
                want_fork(seq);
                crate::browser::page::go_to_fragment(&format!("{PREFIX}{}", Mode::Compare.key()));
            }>
            "Go on from here with an edit"
        </button>
    }
}
