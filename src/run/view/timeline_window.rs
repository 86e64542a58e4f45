//! The browser half of drawing only the cards near the window
//! (`card_window` holds the arithmetic): where the window is over the list,
//! read at most once a frame after a scroll (of the page, or of the trace's
//! own column on the wide stage), a resize, a new run or a height that
//! changed; each drawn card's height, measured by one
//! `ResizeObserver`; and the cards that stay drawn wherever the window is:
//! the card holding focus (so Tab, Show all and the approval bar's fields
//! never lose it), the card waiting for an approval, and the card of the
//! event last shown (`Controller::show_event`).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::run::card_window::{self, CardHeights, Row};
use crate::run::controller::Card;

/// One row of the list as drawn: a card, or a spacer standing for the cards
/// `from..to` at their height (between a kept card and the window).
#[derive(Clone)]
pub enum Drawn {
    Card(Card),
    Gap { from: usize, to: usize, px: i64 },
}

/// The list as drawn: a spacer for the cards above the first drawn, the
/// rows, and a spacer for the cards below the last. The two spacers stay
/// in place and only change height, so a new card far below the window
/// costs one style change.
#[derive(Clone)]
pub struct Plan {
    /// The run it was drawn for: a new run's cards have the same keys.
    run: u64,
    pub above_px: i64,
    pub rows: Vec<Drawn>,
    pub below_px: i64,
}

/// Equal plans draw the same: the same run, spacers and row keys.
impl PartialEq for Plan {
    fn eq(&self, other: &Self) -> bool {
        self.run == other.run
            && self.above_px == other.above_px
            && self.below_px == other.below_px
            && self.rows.len() == other.rows.len()
            && self
                .rows
                .iter()
                .zip(&other.rows)
                .all(|(a, b)| a.key() == b.key())
    }
}

/// A row's key: a spacer whose cards or height changed is a new element
/// (one empty `li`), so its height never needs updating in place.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawnKey {
    Card(usize),
    Gap(usize, usize, i64),
}

impl Drawn {
    pub fn key(&self) -> DrawnKey {
        match self {
            Drawn::Card(card) => DrawnKey::Card(card.key),
            Drawn::Gap { from, to, px } => DrawnKey::Gap(*from, *to, *px),
        }
    }
}

/// The attribute that carries a drawn card's index, for the measurer and
/// for finding which card holds focus.
pub const CARD_INDEX_ATTR: &str = "data-card";

/// What the rows are drawn from, besides the cards and the window.
#[derive(Default)]
struct Layout {
    /// The run the rest belongs to: a new run starts from nothing.
    run: u64,
    heights: CardHeights,
    focused: Option<usize>,
    shown: Option<usize>,
    /// The cards the last plan drew, in order: a plan draws only a few more
    /// (`card_window::paced`).
    drawn: Vec<usize>,
}

#[derive(Clone, Copy)]
pub struct Windowing {
    /// The list's element id.
    list_id: &'static str,
    layout: StoredValue<Layout>,
    /// The window's top and bottom, in px from the top of the list.
    view: RwSignal<(f64, f64)>,
    /// Bumped when a height, the focused card or the shown card changed.
    changed: RwSignal<u64>,
    frame_pending: StoredValue<bool>,
    observer: StoredValue<Option<web_sys::ResizeObserver>, LocalStorage>,
    /// The element in a card that has focus, to give it back (see `focus_out`).
    focus_element: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
    /// Set while the rows are drawn again (until the next microtask).
    redrawing: StoredValue<bool>,
    /// A plan left cards for the next frame, which plans again.
    pace_pending: StoredValue<bool>,
}

impl Windowing {
    /// Call once, in the timeline's component: it follows the window's
    /// scrolling and resizing for as long as the timeline is mounted.
    pub fn new(list_id: &'static str) -> Self {
        let windowing = Windowing {
            list_id,
            layout: StoredValue::new(Layout::default()),
            view: RwSignal::new((0.0, 0.0)),
            changed: RwSignal::new(0),
            frame_pending: StoredValue::new(false),
            observer: StoredValue::new_local(None),
            focus_element: StoredValue::new_local(None),
            redrawing: StoredValue::new(false),
            pace_pending: StoredValue::new(false),
        };
        windowing.observer.set_value(windowing.size_observer());
        // Scroll events do not bubble: caught on their way down, one
        // listener hears the page and the trace's column alike.
        let on_scroll = Closure::<dyn Fn()>::new(move || windowing.refresh()).into_js_value();
        let _ = window().add_event_listener_with_callback_and_bool(
            "scroll",
            on_scroll.unchecked_ref(),
            true,
        );
        let on_scroll = send_wrapper::SendWrapper::new(on_scroll);
        let resize = window_event_listener(leptos::ev::resize, move |_| windowing.refresh());
        on_cleanup(move || {
            let _ = window().remove_event_listener_with_callback_and_bool(
                "scroll",
                on_scroll.unchecked_ref(),
                true,
            );
            resize.remove();
            if let Some(observer) = windowing.observer.try_get_value().flatten() {
                observer.disconnect();
            }
        });
        windowing.refresh();
        windowing
    }

    /// What to draw for run `run` with its `cards`. `keep_last` keeps the
    /// newest card drawn (it holds the call waiting for approval). Costs
    /// O(log n) plus the rows drawn, so a new card costs the same at turn
    /// 10,000 as at turn 10. A few new cards a frame (`card_window::paced`):
    /// the rest are drawn in the frames after, so no frame holds the page
    /// for long.
    pub fn plan(self, cards: ReadSignal<Vec<Card>>, run: u64, keep_last: bool) -> Plan {
        let len = cards.with(Vec::len);
        let (top, bottom) = self.view.get();
        self.changed.track();
        // The list is drawn from this plan right after (see `focus_out`).
        if !self.redrawing.get_value() {
            self.redrawing.set_value(true);
            crate::browser::runner::start(async move {
                self.redrawing.try_set_value(false);
            });
        }
        let new_run = self
            .layout
            .with_value(|l| l.run != run || l.heights.len() > len);
        if new_run {
            self.layout.set_value(Layout {
                run,
                ..Layout::default()
            });
            // The list may have moved (what sits above it changes with a run).
            self.refresh();
        }
        self.layout.update_value(|layout| {
            while layout.heights.len() < len {
                layout.heights.push();
            }
        });
        let pacing = self.pace_pending.get_value();
        let (plan, drawn, waiting) = self.layout.with_value(|layout| {
            // The cards either side of the focused one too, so Tab and
            // Shift+Tab always find the next card drawn.
            let around_focus = layout
                .focused
                .into_iter()
                .flat_map(|card| [card.saturating_sub(1), card, card + 1]);
            let mut kept: Vec<usize> = around_focus.chain(layout.shown).collect();
            if keep_last && len > 0 {
                kept.push(len - 1);
            }
            let heights = &layout.heights;
            let px = |from, to| (heights.offset(to) - heights.offset(from)).round() as i64;
            let window = card_window::in_window(heights, top, bottom);
            let wanted = card_window::wanted(len, window, &kept);
            // One share of new cards a frame: a plan made again in a frame
            // that drew its share (the cards and the window both changed)
            // adds none, and the frame after, planned again, takes the next.
            let share = if pacing {
                0
            } else {
                card_window::NEW_PER_FRAME
            };
            let (drawn, waiting) = card_window::paced(&wanted, &layout.drawn, &kept, share);
            let mut plan = Plan {
                run,
                above_px: 0,
                rows: Vec::new(),
                below_px: 0,
            };
            for row in card_window::rows_of(len, &drawn) {
                match row {
                    Row::Gap { from: 0, to } => plan.above_px = px(0, to),
                    Row::Gap { from, to } if to == len => plan.below_px = px(from, to),
                    Row::Gap { from, to } => plan.rows.push(Drawn::Gap {
                        from,
                        to,
                        px: px(from, to),
                    }),
                    Row::Card(index) => plan
                        .rows
                        .push(Drawn::Card(cards.with_untracked(|c| c[index].clone()))),
                }
            }
            (plan, drawn, waiting)
        });
        self.layout.update_value(|layout| layout.drawn = drawn);
        if waiting && !self.pace_pending.get_value() {
            self.pace_pending.set_value(true);
            request_animation_frame(move || {
                if self.pace_pending.try_set_value(false).is_none() {
                    self.changed.update(|c| *c += 1);
                }
            });
        }
        plan
    }

    /// Keeps card `index` drawn (and measured) until another is shown.
    pub fn keep_shown(self, index: usize) {
        self.change(|layout| layout.shown.replace(index) != Some(index));
    }

    /// Focus moved to `target`, in card `index` (`None`: not in a card).
    pub fn focus_in(self, index: Option<usize>, target: Option<web_sys::EventTarget>) {
        self.focus_element
            .set_value(target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()));
        self.focus_moved(index);
    }

    /// Focus left the cards. When that is the list being drawn again (Leptos
    /// moves a kept card by taking it out and putting it back, and focus
    /// does not survive that), the element gets focus back once it is back;
    /// otherwise the card is no longer kept for focus.
    pub fn focus_out(self) {
        if !self.redrawing.get_value() {
            self.focus_element.set_value(None);
            self.focus_moved(None);
            return;
        }
        crate::browser::runner::start(async move {
            let Some(element) = self.focus_element.try_get_value().flatten() else {
                return;
            };
            let body: Option<web_sys::Element> = document().body().map(Into::into);
            let focus_lost = document()
                .active_element()
                .is_none_or(|active| Some(active) == body);
            if element.is_connected() && focus_lost {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = element.focus_with_options(&options);
            } else if !element.is_connected() {
                self.focus_moved(None);
            }
        });
    }

    fn focus_moved(self, index: Option<usize>) {
        self.change(|layout| std::mem::replace(&mut layout.focused, index) != index);
    }

    /// Applies `edit`; when it says it changed something, the rows are drawn again.
    fn change(self, edit: impl FnOnce(&mut Layout) -> bool) {
        if self.layout.try_update_value(edit) == Some(true) {
            self.changed.update(|c| *c += 1);
        }
    }

    /// Reads where the window is over the list in the next frame (once,
    /// however often it is asked before then), when the layout is done.
    pub fn refresh(self) {
        if self.frame_pending.try_get_value() != Some(false) {
            return;
        }
        self.frame_pending.set_value(true);
        request_animation_frame(move || {
            if self.frame_pending.try_set_value(false).is_some() {
                return;
            }
            let Some(view) = view_now(self.list_id) else {
                return;
            };
            let moved = self.view.with_untracked(|(old_top, old_bottom)| {
                (old_top - view.0).abs() >= 1.0 || (old_bottom - view.1).abs() >= 1.0
            });
            if moved {
                self.view.set(view);
            }
        });
    }

    fn size_observer(self) -> Option<web_sys::ResizeObserver> {
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // The card at the window's top stays where it is on screen: a
            // height measured above it (or a new average for the cards not
            // drawn) moves it, and the list's scroller follows by as much.
            // Two scrollers, two ways (both tested in tests/e2e/long_runs and
            // loop): the trace's own column on the wide stage has the
            // browser's scroll anchoring off (static/app.css), so this is
            // its only anchoring. It anchors where the column is now (a jump,
            // Show step N or the history's Open, scrolls in this very frame)
            // and scrolls to a place once the spacers have their new heights
            // (scrolled before, a list that grows is cut at its old end, and
            // one that shrinks is cut by the browser). The page, on a phone,
            // keeps the browser's anchoring and the window last read.
            let column = document()
                .get_element_by_id(self.list_id)
                .and_then(|list| scroller(&list));
            let (view_top, _) = match column {
                Some(_) => view_now(self.list_id).unwrap_or_else(|| self.view.get_untracked()),
                None => self.view.get_untracked(),
            };
            let anchor = self.layout.with_value(|layout| {
                let index = layout.heights.index_at(view_top);
                (view_top > 0.0).then(|| (index, layout.heights.offset(index)))
            });
            let mut changed = false;
            // Every card has the same margin: read it once per batch.
            let mut margin = None;
            for entry in entries.iter() {
                let card = entry
                    .unchecked_into::<web_sys::ResizeObserverEntry>()
                    .target();
                // A card being removed reports no box: its last height stands.
                if !card.is_connected() {
                    continue;
                }
                let Some(index) = card
                    .get_attribute(CARD_INDEX_ATTR)
                    .and_then(|i| i.parse::<usize>().ok())
                else {
                    continue;
                };
                let margin = *margin.get_or_insert_with(|| margin_below(&card));
                let px = card.get_bounding_client_rect().height() + margin;
                changed |= self
                    .layout
                    .try_update_value(|layout| layout.heights.measure(index, px))
                    .unwrap_or(false);
            }
            if !changed {
                return;
            }
            let moved = anchor
                .map(|(index, before)| self.layout.with_value(|l| l.heights.offset(index)) - before)
                .filter(|moved| moved.abs() >= 1.0);
            if let Some(moved) = moved {
                self.view.update(|(top, bottom)| {
                    *top += moved;
                    *bottom += moved;
                });
            }
            match (moved, column) {
                (Some(moved), Some(column)) => {
                    let top = f64::from(column.scroll_top());
                    self.changed.update(|c| *c += 1);
                    // The redraw that `changed` wakes runs first, and this
                    // before the next paint, so the scroll and the spacers'
                    // new heights show together.
                    crate::browser::runner::start(async move {
                        column.set_scroll_top((top + moved).round() as i32);
                    });
                }
                (Some(moved), None) => {
                    window().scroll_by_with_x_and_y(0.0, moved);
                    self.changed.update(|c| *c += 1);
                }
                (None, _) => self.changed.update(|c| *c += 1),
            }
            self.refresh();
        });
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        // The observer calls it for as long as the page lives.
        on_resize.forget();
        observer
    }
}

/// A directive for a drawn card's element (`use:measured=windowing`): its
/// height is measured whenever it changes, until the card is removed.
pub fn measured(card: web_sys::Element, windowing: Windowing) {
    let Some(observer) = windowing.observer.get_value() else {
        return;
    };
    observer.observe(&card);
    on_cleanup(move || observer.unobserve(&card));
}

/// Where the window is over the list now (its top and bottom, in the list's
/// own pixels): the window, cut to the trace's own column where that column
/// scrolls. `None` while the list is not in the page.
fn view_now(list_id: &str) -> Option<(f64, f64)> {
    let list = document().get_element_by_id(list_id)?;
    let list_top = list.get_bounding_client_rect().top();
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let (clip_top, clip_bottom) = match scroller(&list) {
        Some(column) => {
            let r = column.get_bounding_client_rect();
            (r.top().max(0.0), r.bottom().min(height))
        }
        None => (0.0, height),
    };
    Some((clip_top - list_top, clip_bottom - list_top))
}

/// The trace's column, when it scrolls on its own (the wide stage); `None`
/// where the page scrolls instead (a phone).
fn scroller(list: &web_sys::Element) -> Option<web_sys::Element> {
    let column = list.closest(".trace").ok()??;
    let overflow = window()
        .get_computed_style(&column)
        .ok()??
        .get_property_value("overflow-y")
        .ok()?;
    matches!(overflow.as_str(), "auto" | "scroll").then_some(column)
}

/// The space under a card before the next one (its `margin-bottom`).
fn margin_below(card: &web_sys::Element) -> f64 {
    window()
        .get_computed_style(card)
        .ok()
        .flatten()
        .and_then(|style| style.get_property_value("margin-bottom").ok())
        // JavaScript's parseFloat reads "12px" as 12, and weighs nothing
        // in the bundle, where Rust's float parser weighs kilobytes.
        .map(|margin| js_sys::parse_float(&margin))
        .filter(|margin| margin.is_finite())
        .unwrap_or(0.0)
}
