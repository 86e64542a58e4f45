//! The Time view beside the trace: the run as a waterfall (`crate::waterfall`
//! lays it out), a row for each model call, wait before a retry, wait for a
//! person and tool call, on one time axis with the deadline drawn across it.
//! Picking a row shows its event in the trace and lights its node on the
//! loop, as picking a trace row does; the event picked in the trace marks
//! its row here. Each row is a button; Up and Down move between them.
//!
//! Only the rows in or near the scrolled window are drawn, with padding for
//! the rest, so a 10,000-turn run keeps a few dozen rows in the page. The
//! layout is computed again at most once a frame while a run adds events.
//!
//! A split module of its own with its own stylesheet (waterfall.css): the
//! first paint carries neither; both are fetched the first time the view
//! is opened.

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::run::controller::Controller;
use crate::waterfall::{visible_rows, Bar, Waterfall};

/// A row's height in CSS pixels: waterfall.css gives `.wf-row` the same.
const ROW_PX: f64 = 44.0;
/// Rows drawn beyond each edge of the window, so a scroll or a Tab lands
/// on a drawn row.
const SPARE_ROWS: usize = 8;
/// The rows' box before it is measured: waterfall.css caps it at 22rem.
const VIEW_PX: f64 = 352.0;

/// The Time view, fetched with its stylesheet the first time it opens.
#[cfg_attr(feature = "split", lazy)]
pub async fn waterfall_panel(controller: Controller) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("waterfall.css").await;
    view! { <WaterfallView controller /> }.into_any()
}

#[component]
fn WaterfallView(controller: Controller) -> impl IntoView {
    let events = controller.events();
    let running = controller.running();
    let elapsed = controller.elapsed_ms();
    let run_id = controller.run_id();
    let picked = controller.picked_event();
    let layout = RwSignal::new(Waterfall::default());
    // At most one layout a frame, whatever asked for it (events, the clock).
    let frame_pending = StoredValue::new(false);
    Effect::new(move |_| {
        events.track();
        running.track();
        elapsed.track();
        if frame_pending.get_value() {
            return;
        }
        frame_pending.set_value(true);
        request_animation_frame(move || {
            frame_pending.set_value(false);
            let now = running.get_untracked().then(|| elapsed.get_untracked());
            layout.set(events.with_untracked(|e| Waterfall::of(e, now)));
        });
    });
    let scroll_px = RwSignal::new(0.0_f64);
    let view_px = RwSignal::new(VIEW_PX);
    let rows_box = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        run_id.track();
        scroll_px.set(0.0);
        if let Some(el) = rows_box.get_untracked() {
            el.set_scroll_top(0);
        }
    });
    let window = Memo::new(move |_| {
        let rows = layout.with(|w| w.bars.len());
        visible_rows(rows, ROW_PX, scroll_px.get(), view_px.get(), SPARE_ROWS)
    });
    let picked_row =
        Memo::new(move |_| picked.get().and_then(|seq| layout.with(|w| w.row_of(seq))));
    // A row picked in the trace and scrolled out of this box is brought to
    // its middle, as the trace brings a picked card to its own.
    Effect::new(move |_| {
        let Some(row) = picked_row.get() else {
            return;
        };
        let Some(el) = rows_box.get_untracked() else {
            return;
        };
        let (top, height) = (el.scroll_top() as f64, el.client_height() as f64);
        let at = row as f64 * ROW_PX;
        if at < top || at + ROW_PX > top + height {
            el.set_scroll_top((at - height / 2.0 + ROW_PX / 2.0).max(0.0) as i32);
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = rows_box.get_untracked() {
            scroll_px.set(el.scroll_top() as f64);
            view_px.set((el.client_height() as f64).max(ROW_PX));
        }
    };
    // Up and down move between the rows, as in a list; the window follows
    // the row focused, and the rows beyond its edge are drawn already.
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let down = match ev.key().as_str() {
            "ArrowDown" => true,
            "ArrowUp" => false,
            _ => return,
        };
        let row = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".wf-row").ok().flatten());
        let next = row.and_then(|row| {
            if down {
                row.next_element_sibling()
            } else {
                row.previous_element_sibling()
            }
        });
        let button = next
            .and_then(|row| row.query_selector("button").ok().flatten())
            .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(button) = button {
            ev.prevent_default();
            let _ = button.focus();
        }
    };
    let pick = move |seq: u64| {
        controller.pick_event(seq);
        controller.show_event(seq);
    };
    let padding = move || {
        let rows = layout.with(|w| w.bars.len());
        let shown = window.get();
        format!(
            "padding-top: {}px; padding-bottom: {}px",
            shown.start as f64 * ROW_PX,
            (rows - shown.end) as f64 * ROW_PX
        )
    };
    let deadline_at = move || {
        layout.with(|w| {
            w.deadline
                .as_ref()
                .map(|line| (w.percent(line.at_ms), line.label.clone()))
        })
    };
    let axis_end = move || layout.with(|w| crate::run::view_model::format_ms(w.span_ms));
    let row = move |index: usize| {
        let bar = move || layout.with(|w| w.bars.get(index).cloned());
        view! {
            {move || bar().map(|bar| bar_row(&layout.get_untracked(), bar, index, picked_row, deadline_at, pick))}
        }
    };
    view! {
        <section class="waterfall" aria-labelledby="waterfall-heading">
            <h3 id="waterfall-heading">"The run as time"</h3>
            <Show
                when=move || layout.with(|w| !w.bars.is_empty())
                fallback=|| view! { <p class="wf-empty">"No model call or tool call yet: run a scenario to see its time."</p> }
            >
                <ul class="wf-legend" aria-label="What the rows show">
                    <li><span class="wf-swatch" data-kind="model"></span>" model call"</li>
                    <li><span class="wf-swatch" data-kind="tool"></span>" tool call"</li>
                    <li><span class="wf-swatch" data-kind="backoff"></span>" wait before a retry"</li>
                    <li><span class="wf-swatch" data-kind="approval"></span>" wait for a person"</li>
                    {move || deadline_at().map(|_| view! {
                        <li><span class="wf-swatch" data-kind="deadline"></span>" deadline"</li>
                    })}
                </ul>
                <div class="wf-axis" aria-hidden="true">
                    <span class="wf-axis-start">"0 s"</span>
                    <span class="wf-axis-end">{axis_end}</span>
                </div>
                {move || deadline_at().map(|(at, label)| view! {
                    <p class="wf-deadline-label" prop:style=format!("--at: {at:.2}%")
                        data-right=(at > 50.0).then_some("")>
                        {label}
                    </p>
                })}
                {move || layout.with(|w| w.deadline_note.clone()).map(|note| view! {
                    <p class="wf-note">{note}</p>
                })}
                <div class="wf-scroll" node_ref=rows_box on:scroll=on_scroll>
                    <ol class="wf-rows" aria-label="The run's calls and waits, in order" prop:style=padding
                        on:keydown=on_key>
                        <For
                            each=move || {
                                let run = run_id.get();
                                window.get().map(move |i| (run, i)).collect::<Vec<_>>()
                            }
                            key=|key| *key
                            children=move |(_, index)| row(index)
                        />
                    </ol>
                </div>
            </Show>
        </section>
    }
}

/// One row: its words, then its bar on the shared axis, and the deadline's
/// mark across it. The whole row is the button that shows its event.
fn bar_row(
    layout: &Waterfall,
    bar: Bar,
    index: usize,
    picked_row: Memo<Option<usize>>,
    deadline_at: impl Fn() -> Option<(f64, String)> + Send + Sync + Copy + 'static,
    pick: impl Fn(u64) + Copy + 'static,
) -> impl IntoView {
    let left = layout.percent(bar.start_ms);
    let width = layout.percent(bar.end_ms) - left;
    let seq = bar.seq();
    let picked = move || (picked_row.get() == Some(index)).then_some("true");
    view! {
        <li class="wf-row" data-kind=bar.kind.key() data-seq=seq
            data-cut=bar.cut.map(|_| "")>
            <button type="button" class="wf-pick" aria-current=picked on:click=move |_| pick(seq)>
                <span class="wf-label">{bar.label}</span>
                <span class="wf-track" aria-hidden="true">
                    <span class="wf-bar" prop:style=format!("left: {left:.2}%; width: {width:.2}%")></span>
                    {move || deadline_at().map(|(at, _)| view! {
                        <span class="wf-deadline" prop:style=format!("left: {at:.2}%")></span>
                    })}
                </span>
            </button>
        </li>
    }
}
