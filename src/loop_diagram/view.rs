//! The loop diagram: `loop_diagram::LoopDiagram` drawn as SVG,
//! and, in a narrow column, as a list of the gates and exits.
//!
//! It only renders. The drawing's structure (where each node sits, which
//! edges exist, their notes) is built again only when the run's limits
//! change; the rest (what is lit, the counts, the gates' numbers, where the
//! run is) are attributes that follow the model, so a keyboard user's focus
//! survives every event. The narrow list replaces the drawing below 560 px
//! of width (a container query in static/loop.css).
//! Each node and exit is a focusable button named by its accessible name;
//! the node where the run is, or the exit where it ended, carries
//! `aria-current="step"`.

mod full_screen;

use harness::event::{RunEvent, Status, StopTone};
use harness::limits::CostMode;
use harness::run::PauseBefore;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::loop_diagram::gates::{squeezed_length, LIMIT_CHAR_WIDTH, VALUE_CHAR_WIDTH};
use crate::loop_diagram::zoom::Zoom;
use crate::loop_diagram::{
    EdgeKey, EdgeStyle, Gate, LoopDiagram, NodeId, NodeKind, Passes, Pick, Row, Variant, MID_CALL,
};
use crate::protocol_check::state::ProtocolWatch;

/// The drawing's coordinate space; the SVG scales to its box.
const WIDTH: f64 = 1120.0;
const HEIGHT: f64 = 640.0;
/// Rows: the gates and the model call; the per-call checks; exits above and
/// below them.
const ROW_TURN: f64 = 230.0;
const ROW_CALLS: f64 = 490.0;
const ROW_TOP_EXITS: f64 = 100.0;
const ROW_BOTTOM_EXITS: f64 = 600.0;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Spot {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// The y of a row of the drawing.
fn row_y(row: Row) -> f64 {
    match row {
        Row::Turn => ROW_TURN,
        Row::Calls => ROW_CALLS,
        Row::TopExits => ROW_TOP_EXITS,
        Row::BottomExits => ROW_BOTTOM_EXITS,
    }
}

/// Where a node sits: a gate, and a gate's exit, where its row of
/// `GATES` says. The naive cost gate stands on the way back from the
/// results, below the deadline gate; the strict one before the model call.
fn spot(id: NodeId, variant: Variant) -> Spot {
    let at = |x, y, w, h| Spot { x, y, w, h };
    let gate = |x, y| at(x, y, 100.0, 64.0);
    let step = |x, y| at(x, y, 100.0, 56.0);
    match id {
        NodeId::Start => at(42.0, ROW_TURN, 64.0, 44.0),
        NodeId::GateCost if variant.cost == CostMode::Naive => gate(150.0, 360.0),
        NodeId::ModelCall => at(760.0, ROW_TURN, 110.0, 56.0),
        // Wide enough for the 16-unit names the stage draws.
        NodeId::Backoff => at(760.0, ROW_TOP_EXITS, 104.0, 40.0),
        NodeId::Response => at(895.0, ROW_TURN, 124.0, 56.0),
        NodeId::Verifier => at(1050.0, ROW_TURN, 84.0, 44.0),
        NodeId::Validate => step(535.0, ROW_CALLS),
        NodeId::Approval => step(415.0, ROW_CALLS),
        NodeId::RunTool => step(295.0, ROW_CALLS),
        NodeId::Results => step(150.0, ROW_CALLS),
        NodeId::StopButton => at(68.0, ROW_BOTTOM_EXITS, 124.0, 40.0),
        NodeId::Exit(status) => {
            let (x, y) = exit_at(status, variant);
            // Wide enough for the status word and its icon in the 13-unit
            // label (max_tokens was clipped at 6.8 per letter at 12).
            let w = (status.as_str().len() as f64 * 8.3 + 28.0).max(80.0);
            at(x, y, w, 36.0)
        }
        other => match Gate::of(other) {
            Some(Gate { at: (x, row), .. }) => gate(*x, row_y(*row)),
            None => step(0.0, 0.0),
        },
    }
}

fn exit_at(status: Status, variant: Variant) -> (f64, f64) {
    if status == Status::CostLimit && variant.cost == CostMode::Naive {
        return (50.0, 300.0);
    }
    if let Some(gate) = NodeId::gate_of(status).and_then(Gate::of) {
        let (x, row) = gate.exit_at;
        return (x, row_y(row));
    }
    match status {
        Status::ModelError => (895.0, ROW_TOP_EXITS),
        Status::MaxTokens => (1040.0, 50.0),
        Status::Refusal => (1040.0, 125.0),
        Status::Done => (1050.0, 320.0),
        Status::FailedVerification => (1020.0, 390.0),
        Status::Blocked => (415.0, ROW_BOTTOM_EXITS),
        Status::Cancelled => (188.0, ROW_BOTTOM_EXITS),
        // A gate's exit: its row of `GATES` placed it above.
        _ => (0.0, 0.0),
    }
}

/// Where a line from `s` toward `(tx, ty)` leaves `s`'s box.
fn border(s: Spot, tx: f64, ty: f64) -> (f64, f64) {
    let (dx, dy) = (tx - s.x, ty - s.y);
    let sx = if dx == 0.0 {
        f64::INFINITY
    } else {
        (s.w / 2.0) / dx.abs()
    };
    let sy = if dy == 0.0 {
        f64::INFINITY
    } else {
        (s.h / 2.0) / dy.abs()
    };
    let t = sx.min(sy).min(1.0);
    (s.x + dx * t, s.y + dy * t)
}

/// An edge's path and where its count goes.
struct Route {
    d: String,
    /// Where the count and the tag go; `None` on an edge too short for
    /// them (the gates' own numbers and the edge's name say it).
    label: Option<(f64, f64)>,
    /// A short stub instead of a line to a far exit (the deadline cutting
    /// a call off): the mark at its end says where it goes.
    stub: bool,
    /// Long enough for its tag ("next turn") under the count.
    room_for_tag: bool,
}

fn route(key: EdgeKey, variant: Variant) -> Route {
    use NodeId::*;
    let from = spot(key.from, variant);
    let to = spot(key.to, variant);
    let curve = |d: &str, lx: f64, ly: f64| Route {
        d: d.to_string(),
        label: Some((lx, ly)),
        stub: false,
        room_for_tag: true,
    };
    match (key.from, key.to) {
        (Results, GateToolCalls) => curve("M150,518 C150,562 895,562 895,522", 520.0, 574.0),
        (Validate, Results) => curve("M535,462 C535,405 165,405 165,462", 350.0, 414.0),
        (Approval, Results) => curve("M415,462 C415,432 135,432 135,462", 275.0, 440.0),
        // Under the approval box, not through it: a call that needs no
        // approval must not look as if it went through one.
        (Validate, RunTool) => curve("M525,518 C525,542 305,542 305,518", 415.0, 536.0),
        // Left of `done`, not through it: a rejected answer is not done.
        (Verifier, Exit(Status::FailedVerification)) => {
            curve("M1022,252 C984,290 984,340 992,372", 972.0, 318.0)
        }
        (Response, _) if key.to == variant.chain()[0] => match variant.cost {
            CostMode::Strict => curve("M875,258 C875,330 165,330 165,262", 520.0, 320.0),
            CostMode::Naive => curve("M875,258 C875,372 262,372 200,362", 520.0, 352.0),
        },
        (ModelCall, Backoff) => curve("M748,202 L748,120", 732.0, 165.0),
        (Backoff, ModelCall) => curve("M772,120 L772,202", 788.0, 165.0),
        (_, Exit(Status::Deadline)) if MID_CALL.contains(&key.from) => {
            let (x0, y0) = (from.x - from.w / 2.0 + 12.0, from.y - from.h / 2.0);
            Route {
                d: format!("M{x0},{y0} L{},{}", x0 - 14.0, y0 - 14.0),
                label: Some((x0 - 16.0, y0 - 16.0)),
                stub: true,
                room_for_tag: false,
            }
        }
        _ => {
            let (x1, y1) = border(from, to.x, to.y);
            let (x2, y2) = border(to, from.x, from.y);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let length = (dx * dx + dy * dy).sqrt();
            // Beside the line's middle: above it going right, right of it
            // going down.
            let label = (length >= 44.0).then(|| {
                (
                    (x1 + x2) / 2.0 + dy.abs() / length * 14.0,
                    (y1 + y2) / 2.0 - dx.abs() / length * 8.0 + 4.0,
                )
            });
            Route {
                d: format!("M{x1:.1},{y1:.1} L{x2:.1},{y2:.1}"),
                label,
                stub: false,
                room_for_tag: length >= 56.0,
            }
        }
    }
}

fn tone_class(tone: StopTone) -> String {
    format!("tone-{}", tone.as_str())
}

/// Runs `act` on Enter or Space, as a button does.
fn on_key(act: impl Fn() + 'static) -> impl Fn(leptos::ev::KeyboardEvent) + 'static {
    move |ev| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            act();
        }
    }
}

#[component]
pub fn LoopDiagramView(
    /// The model, kept up to date one event at a time by its owner.
    #[prop(into)]
    diagram: Signal<LoopDiagram>,
    /// A node or exit was picked: show the events that passed it.
    #[prop(into)]
    on_select_node: Callback<NodeId>,
    /// An exit's "show me a run that stops here": a built-in's id. Without
    /// it the exits offer no lesson.
    #[prop(optional, into)]
    on_pick_scenario: Option<Callback<&'static str>>,
    /// Set when this is one of several diagrams on the page (a comparison's
    /// columns): the prefix of its own arrowhead ids; the tones' legend is
    /// left to the main diagram.
    #[prop(optional)]
    also_drawn_as: Option<&'static str>,
    /// An edge was picked: show the events that went that way.
    #[prop(optional, into)]
    on_select_edge: Option<Callback<EdgeKey>>,
    /// The node of the event picked in the trace, outlined.
    #[prop(optional, into)]
    highlight: Option<Signal<Option<NodeId>>>,
    /// The part of the drawing shown (zoom and pan), as a `viewBox`;
    /// without it, the whole drawing.
    #[prop(optional, into)]
    view_box: Option<Signal<String>>,
    /// Where the steps are listed instead of drawn (a phone): "See the loop
    /// drawn" shows the drawing full screen. Without it, no such button.
    #[prop(optional, into)]
    on_full_screen: Option<Callback<()>>,
    /// "but Anthropic Messages would refuse turn 2" when the run drawn
    /// ended `done` with requests a provider would refuse (the stop
    /// banner's verdict): the exit's caption says it beside `done`.
    /// Without it (a comparison's columns), the caption does not.
    #[prop(optional, into)]
    refusal: Option<Signal<Option<String>>>,
) -> impl IntoView {
    // The drawing is built again only when the limits or the context window
    // change (a new run under others): its shape, notes and labels come
    // from them.
    let limits = Memo::new(move |_| diagram.with(|d| (d.limits().cloned(), d.context().clone())));
    let is_highlighted = move |id: NodeId| highlight.is_some_and(|h| h.get() == Some(id));
    let arrows = also_drawn_as.unwrap_or("loop");
    let drawing = move || {
        // Read, not only tracked: a memo nobody reads is never recomputed.
        limits.with(|_| ());
        let v = diagram.with_untracked(LoopDiagram::variant);
        let (nodes, edges) = diagram.with_untracked(|d| {
            (
                d.nodes().iter().map(|n| n.id).collect::<Vec<_>>(),
                d.edges().iter().map(|e| e.key).collect::<Vec<_>>(),
            )
        });
        let edge_views = edges
            .into_iter()
            .map(|key| edge_view(diagram, key, v, on_select_edge, arrows))
            .collect_view();
        let node_views = nodes
            .into_iter()
            .map(|id| {
                node_view(
                    diagram,
                    id,
                    v,
                    on_select_node,
                    on_pick_scenario,
                    is_highlighted,
                    arrows,
                )
            })
            .collect_view();
        view! {
            <svg
                class="loop-svg"
                viewBox=move || match view_box {
                    Some(view) => view.get(),
                    None => format!("0 0 {WIDTH} {HEIGHT}"),
                }
                role="group"
                aria-label="The agent loop, as this run went through it"
            >
                <defs>
                    <marker id=format!("{arrows}-arrow") class="loop-arrow" viewBox="0 0 10 10" refX="9" refY="5"
                        markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z"></path>
                    </marker>
                    <marker id=format!("{arrows}-arrow-lit") class="loop-arrow lit" viewBox="0 0 10 10" refX="9" refY="5"
                        markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z"></path>
                    </marker>
                    // The ground under a node's "where it is" words: a line
                    // under them (to blocked, or a call that needs no
                    // approval) passes behind, between the words too.
                    // Its parts as markup: the view macro wraps filter
                    // primitives it does not know in a <g>, which breaks them.
                    <filter id=format!("{arrows}-ground") x="-0.02" y="-0.08" width="1.04" height="1.16"
                        inner_html=r#"<feFlood class="loop-ground"/><feComposite in="SourceGraphic"/>"#>
                    </filter>
                </defs>
                <g class="loop-edges">{edge_views}</g>
                <g class="loop-nodes">{node_views}</g>
            </svg>
        }
    };
    let caption = move || {
        diagram.with(|d| {
            if let Some(exit) = d.exit() {
                let class = format!("loop-caption loop-exit-reason {}", tone_class(exit.tone));
                let status = exit.status.as_str();
                let refused = refusal
                    .and_then(|r| r.get())
                    .filter(|_| exit.status == Status::Done)
                    .map(|words| format!(" — {words}"));
                let is_refused = refused.is_some().then_some("true");
                view! {
                    <p class=class data-status=status data-refused=is_refused>
                        <span class="loop-icon" aria-hidden="true">{exit.tone.icon()}</span>
                        " Ended at " <code>{status}</code> {refused} " (" {exit.tone.label()} "): "
                        {exit.reason.clone()}
                    </p>
                }
                .into_any()
            } else if let Some(current) = d.current() {
                let class = if current.next {
                    "loop-caption loop-next"
                } else {
                    "loop-caption"
                };
                view! { <p class=class>{current.text}</p> }.into_any()
            } else {
                view! { <p class="loop-caption">"Run a scenario to see it go around the loop."</p> }
                    .into_any()
            }
        })
    };
    view! {
        // A comparison's two columns each draw one: their names differ.
        <section class="loop-diagram" aria-label=match also_drawn_as {
            Some("compare-a") => "Loop diagram, left column",
            Some("compare-b") => "Loop diagram, right column",
            _ => "Loop diagram",
        }>
            <div class="loop-wide">{drawing}</div>
            <NarrowList diagram on_select_node on_pick_scenario on_full_screen />
            {caption}
            {also_drawn_as.is_none().then(|| view! { <ToneLegend /> })}
        </section>
    }
}

fn edge_view(
    diagram: Signal<LoopDiagram>,
    key: EdgeKey,
    variant: Variant,
    on_select: Option<Callback<EdgeKey>>,
    arrows: &'static str,
) -> impl IntoView {
    let Route {
        d,
        label,
        stub,
        room_for_tag,
    } = route(key, variant);
    let read = move |f: fn(&crate::loop_diagram::Edge) -> String| {
        diagram.with(|dg| dg.edge(key.from, key.to).map(f).unwrap_or_default())
    };
    let count = move || diagram.with(|dg| dg.edge(key.from, key.to).map_or(0, |e| e.count));
    let style = diagram.with_untracked(|dg| {
        dg.edge(key.from, key.to)
            .map_or(EdgeStyle::Normal, |e| e.style)
    });
    let (tag, title) = diagram.with_untracked(|dg| {
        let e = dg.edge(key.from, key.to);
        (
            e.map_or("", |e| e.tag),
            e.map(|e| e.label.clone()).unwrap_or_default(),
        )
    });
    let not_taken = style == EdgeStyle::NotTaken;
    let class = move || {
        let mut class = String::from("loop-edge");
        if count() > 0 {
            class.push_str(" lit");
        }
        if not_taken {
            class.push_str(" not-taken");
        }
        if stub {
            class.push_str(" stub");
        }
        class
    };
    let marker = move || {
        if count() > 0 {
            format!("url(#{arrows}-arrow-lit)")
        } else {
            format!("url(#{arrows}-arrow)")
        }
    };
    let drawn_count = label.is_some() && !stub;
    let drawn_tag = label.is_some() && !tag.is_empty() && !stub && room_for_tag;
    let drawn_mark = (label.is_some() && stub).then_some(if not_taken { "◷✕" } else { "◷" });
    let name = move || {
        let n = count();
        let from = diagram.with(|dg| {
            dg.node(key.from)
                .map(|n| n.label.clone())
                .unwrap_or_default()
        });
        let to = diagram.with(|dg| dg.node(key.to).map(|n| n.label.clone()).unwrap_or_default());
        let label = read(|e| e.label.clone());
        // The name starts with what the edge shows (its count, its tag, a
        // stub's mark), so a person who says what they see names it.
        let mut shown = Vec::new();
        // In the order they are drawn (tag, mark, count).
        if drawn_tag {
            shown.push(tag.to_string());
        }
        if let Some(mark) = drawn_mark {
            shown.push(mark.to_string());
        }
        if drawn_count && n > 0 {
            shown.push(format!("×{n}"));
        }
        let shown = if shown.is_empty() {
            String::new()
        } else {
            format!("{}: ", shown.join(" "))
        };
        format!(
            "{shown}From {from} to {to}: {label}; taken {n} time{}",
            if n == 1 { "" } else { "s" }
        )
    };
    let count_text = move || match count() {
        0 => String::new(),
        n => format!("×{n}"),
    };
    let select = move || {
        if let Some(cb) = on_select {
            cb.run(key);
        }
    };
    // A clock face: the deadline; crossed out where it cannot cut the call.
    let stub_mark = stub.then_some(if not_taken { "◷✕" } else { "◷" });
    let labels = label.map(|(lx, ly)| {
        let tag = (!tag.is_empty() && !stub && room_for_tag).then(|| {
            view! { <text class="loop-tag" x=lx y={ly + 12.0} text-anchor="middle">{tag}</text> }
        });
        let mark = stub_mark.map(|mark| {
            view! { <text class="loop-stub" x=lx y=ly text-anchor="end">{mark}</text> }
        });
        let count = (!stub).then(|| {
            view! { <text class="loop-count" x=lx y=ly text-anchor="middle">{count_text}</text> }
        });
        view! { {tag} {mark} {count} }
    });
    view! {
        <g
            class=class
            data-edge=format!("{}>{}", key.from.key(), key.to.key())
            role="button"
            tabindex={move || if count() > 0 && on_select.is_some() { "0" } else { "-1" }}
            aria-label=name
            on:click=move |_| select()
            on:keydown=on_key(select)
        >
            <title>{title}</title>
            <path class="loop-hit" d=d.clone()></path>
            <path class="loop-line" d=d marker-end=marker></path>
            {labels}
        </g>
    }
}

fn node_view(
    diagram: Signal<LoopDiagram>,
    id: NodeId,
    variant: Variant,
    on_select: Callback<NodeId>,
    on_pick_scenario: Option<Callback<&'static str>>,
    is_highlighted: impl Fn(NodeId) -> bool + Copy + Send + Sync + 'static,
    ids: &'static str,
) -> impl IntoView {
    let s = spot(id, variant);
    let (label, note, off, kind) = diagram.with_untracked(|d| {
        d.node(id)
            .map(|n| (n.label.clone(), n.note.clone(), n.off, n.kind))
            .unwrap_or((String::new(), String::new(), false, NodeKind::Step))
    });
    let current = move || diagram.with(|d| d.current().filter(|c| c.node == id));
    let lit = move || diagram.with(|d| d.node(id).is_some_and(|n| !n.events.is_empty()));
    let reached = move || diagram.with(|d| d.exit().is_some_and(|e| NodeId::Exit(e.status) == id));
    let tripped = move || diagram.with(|d| d.tripped_gate() == Some(id));
    // A gate's value and its limit, on two lines; the repeat gate's rule.
    let reading = move || {
        diagram.with(|d| match d.gates().into_iter().find(|g| g.node == id) {
            Some(g) => (g.value, g.limit),
            None if id == NodeId::GateRepeat => d.repeat_reading(),
            None => Default::default(),
        })
    };
    let class = move || {
        let mut class = format!("loop-node kind-{kind:?}").to_lowercase();
        if let NodeId::Exit(status) = id {
            class.push(' ');
            class.push_str(&tone_class(diagram.with(|d| d.exit_tone(status))));
        }
        for (on, word) in [
            (lit(), " lit"),
            (current().is_some(), " current"),
            (current().is_some_and(|c| c.next), " next"),
            (reached(), " reached"),
            (tripped(), " tripped"),
            (off, " off"),
            (is_highlighted(id), " highlighted"),
        ] {
            if on {
                class.push_str(word);
            }
        }
        class
    };
    let select = move || on_select.run(id);
    let (x, y) = (s.x - s.w / 2.0, s.y - s.h / 2.0);
    // An exit's icon is who ended the run once it did (a `blocked` run
    // the harness's policy ended is a guard's, not a person's).
    let heading = move || match id {
        NodeId::Exit(status) => format!(
            "{} {}",
            diagram.with(|d| d.exit_tone(status)).icon(),
            status.as_str()
        ),
        _ => label.clone(),
    };
    let has_value = kind == NodeKind::Gate;
    let title_y = if has_value { s.y - 12.0 } else { s.y + 5.0 };
    let lesson = match id {
        NodeId::Exit(status) => {
            on_pick_scenario.and_then(|pick| LoopDiagram::lesson(status).map(|l| (status, l, pick)))
        }
        _ => None,
    };
    let below = s.y + s.h / 2.0 + 15.0;
    // A gate's lines keep 4 units of its box clear on each side.
    let room = s.w - 8.0;
    view! {
        <g
            class=class
            data-node=id.key()
            role="button"
            tabindex="0"
            aria-label=move || diagram.with(|d| d.accessible_name(id))
            aria-current=move || current().map(|_| "step")
            on:click=move |_| select()
            on:keydown=on_key(select)
        >
            <title>{note}</title>
            <rect x=x y=y width=s.w height=s.h rx={if kind == NodeKind::Exit { 20.0 } else { 8.0 }}></rect>
            // A gate's lines end in a space: read as one text (the node's
            // visible label, as axe reads it) they are words apart, "Turns
            // 3 / 3", not "Turns3/ 3". Other nodes have one line, and no space
            // to widen it.
            <text class="loop-label" x=s.x y=title_y text-anchor="middle">
                {move || if has_value { format!("{} ", heading()) } else { heading() }}
            </text>
            {has_value.then(|| view! {
                <text class="loop-value" x=s.x y={s.y + 7.0} text-anchor="middle"
                    textLength=move || squeezed_length(&reading().0, VALUE_CHAR_WIDTH, room)
                    lengthAdjust="spacingAndGlyphs">{move || format!("{} ", reading().0)}</text>
                <text class="loop-limit" x=s.x y={s.y + 24.0} text-anchor="middle"
                    textLength=move || squeezed_length(&reading().1, LIMIT_CHAR_WIDTH, room)
                    lengthAdjust="spacingAndGlyphs">{move || reading().1}</text>
            })}
            <text class="loop-where" x=s.x y=below text-anchor="middle" filter=format!("url(#{ids}-ground)")>
                // A space first, as the gate's lines end in one: read with the label, words apart.
                {move || current().filter(|_| kind != NodeKind::Exit).map(|c| format!(" {}", c.text)).unwrap_or_default()}
            </text>
        </g>
        {lesson.map(|(status, lesson, on_pick)| {
            let pick = move || on_pick.run(lesson.id);
            let name = format!(
                "Show a run that ends {}: the built-in scenario {}",
                status.as_str(),
                lesson.name
            );
            let tooltip = name.clone();
            // A 26-unit circle: at least 24 px across wherever the stage
            // draws the loop (WCAG 2.2's target size).
            let (cx, cy) = (s.x + s.w / 2.0 - 4.0, s.y - s.h / 2.0 + 2.0);
            view! {
                <g class="loop-lesson" role="button" tabindex="0" aria-label=name
                    on:click=move |_| pick() on:keydown=on_key(pick)>
                    <title>{tooltip}</title>
                    <circle cx=cx cy=cy r="13"></circle>
                    <text x=cx y={cy + 5.0} text-anchor="middle">"▸"</text>
                </g>
            }
        })}
    }
}

/// The narrow layout: the gates a turn passes and the exits, as a list.
#[component]
fn NarrowList(
    diagram: Signal<LoopDiagram>,
    on_select_node: Callback<NodeId>,
    on_pick_scenario: Option<Callback<&'static str>>,
    on_full_screen: Option<Callback<()>>,
) -> impl IntoView {
    let item = move |id: NodeId| {
        let current = move || diagram.with(|d| d.current().is_some_and(|c| c.node == id));
        let text = move || {
            diagram.with(|d| {
                let label = d.node(id).map(|n| n.label.clone()).unwrap_or_default();
                let rule = d.repeat_rule();
                match d.gates().into_iter().find(|g| g.node == id) {
                    Some(g) => format!("{label}: {}", g.text),
                    None if id == NodeId::GateRepeat && !rule.is_empty() => {
                        format!("{label}: {rule}")
                    }
                    None => label,
                }
            })
        };
        let lesson = match id {
            NodeId::Exit(status) => on_pick_scenario
                .and_then(|pick| LoopDiagram::lesson(status).map(|l| (status, l, pick))),
            _ => None,
        };
        let tone = move || match id {
            NodeId::Exit(status) => tone_class(diagram.with(|d| d.exit_tone(status))),
            _ => String::new(),
        };
        let icon = move || match id {
            NodeId::Exit(status) => diagram.with(|d| d.exit_tone(status)).icon(),
            _ => "",
        };
        let select = move |_| on_select_node.run(id);
        view! {
            <li class=tone data-node=id.key()>
                <button
                    type="button"
                    aria-label=move || diagram.with(|d| d.accessible_name(id))
                    aria-current=move || current().then_some("step")
                    on:click=select
                >
                    <span class="loop-icon" aria-hidden="true">{icon}</span>
                    {text}
                </button>
                {lesson.map(|(status, lesson, on_pick)| view! {
                    <button type="button" class="loop-lesson-button"
                        on:click=move |_| on_pick.run(lesson.id)>
                        "Show a run that ends " {status.as_str()}
                        " (" {lesson.name} ")"
                    </button>
                })}
            </li>
        }
    };
    let steps = move || {
        let chain = diagram.with(|d| d.variant().chain());
        let mut ids = vec![NodeId::Start];
        ids.extend(chain.iter().copied());
        ids.extend([
            NodeId::Backoff,
            NodeId::Response,
            NodeId::Verifier,
            NodeId::GateToolCalls,
            NodeId::GateRepeat,
            NodeId::Validate,
            NodeId::Approval,
            NodeId::RunTool,
            NodeId::Results,
        ]);
        ids.into_iter().map(item).collect_view()
    };
    let exits = Status::ALL
        .into_iter()
        .map(|status| item(NodeId::Exit(status)))
        .collect_view();
    view! {
        <div class="loop-narrow">
            {on_full_screen.map(|open| view! {
                <button type="button" class="loop-full-open" on:click=move |_| open.run(())>
                    "⤢ See the loop drawn, full screen"
                </button>
            })}
            <h3>"The loop, step by step"</h3>
            <ol class="loop-steps">{steps}</ol>
            <h3>"Exits"</h3>
            <ul class="loop-exits">{exits}</ul>
        </div>
    }
}

/// What the four tones mean, each with its icon.
#[component]
fn ToneLegend() -> impl IntoView {
    let items = StopTone::ALL
        .into_iter()
        .map(|tone| {
            view! {
                <li class=tone_class(tone)>
                    <span class="loop-icon" aria-hidden="true">{tone.icon()}</span>
                    " " {tone.label()}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="loop-legend" aria-label="Who ended the run">{items}</ul> }
}

/// The loop diagram as the page shows it, beside the trace: kept up to date
/// from the run log one event at a time (rebuilt when another run is shown),
/// with the step mode's pause marked. Picking a node brings the first trace
/// event that passed it into view; an exit's lesson loads its built-in.
///
/// A split module of its own (like those in `lazy`): the first paint does
/// not carry the diagram, which arrives right after it.
#[cfg_attr(feature = "split", lazy)]
pub async fn loop_panel(
    events: ReadSignal<Vec<RunEvent>>,
    run_id: ReadSignal<u64>,
    paused: ReadSignal<Option<PauseBefore>>,
    live_elapsed_ms: Signal<Option<u64>>,
    picked_event: ReadSignal<Option<u64>>,
    on_show_event: Callback<u64>,
    on_pick_scenario: Callback<&'static str>,
) -> AnyView {
    view! { <LoopPanel events run_id paused live_elapsed_ms picked_event on_show_event on_pick_scenario /> }
        .into_any()
}

#[component]
fn LoopPanel(
    events: ReadSignal<Vec<RunEvent>>,
    run_id: ReadSignal<u64>,
    paused: ReadSignal<Option<PauseBefore>>,
    /// The header's elapsed time while a run is live (`None` otherwise).
    live_elapsed_ms: Signal<Option<u64>>,
    picked_event: ReadSignal<Option<u64>>,
    /// Shows a trace event: its card is drawn first if it was off screen.
    on_show_event: Callback<u64>,
    on_pick_scenario: Callback<&'static str>,
) -> impl IntoView {
    // The rules that fold the loop beside what wants the room live in
    // inspector.css: linked the first time a lesson or the tool bench wants
    // it too, not only the inspector. Here, not on the stage, so the first
    // paint does not carry the call.
    if let Some(RoomWanted(wanted)) = use_context::<RoomWanted>() {
        Effect::new(move |_| {
            if wanted.get() {
                crate::browser::runner::start(crate::browser::stylesheet::load(FOLD_STYLES));
            }
        });
    }
    let diagram = RwSignal::new(LoopDiagram::default());
    // The stop banner's protocol verdict on the run in view, for the exit.
    let protocol = use_context::<ProtocolWatch>();
    let refusal =
        Signal::derive(move || protocol.and_then(|watch| watch.done_but_refused(Status::Done)));
    // (run shown, events observed): a new run, or a log that shrank, is
    // rebuilt from the start; otherwise only the new events are observed.
    // Events are observed as they come but drawn at most once a frame: a
    // fast run appends thousands of events, and redrawing every label for
    // each would slow the run itself.
    let seen = StoredValue::new((u64::MAX, 0usize));
    let frame_pending = StoredValue::new(false);
    // At most one redraw a frame, whatever asked for it (events, the clock).
    let redraw = move || {
        if !frame_pending.get_value() {
            frame_pending.set_value(true);
            request_animation_frame(move || {
                frame_pending.set_value(false);
                diagram.notify();
            });
        }
    };
    Effect::new(move |_| {
        let run = run_id.get();
        events.with(|log| {
            let (seen_run, count) = seen.get_value();
            if seen_run != run || log.len() < count {
                // The pause and the clock may have come before the events.
                let (pause, elapsed) = (paused.get_untracked(), live_elapsed_ms.get_untracked());
                diagram.update_untracked(|d| {
                    *d = LoopDiagram::from_events(log);
                    d.set_paused(pause);
                    d.set_live_elapsed(elapsed);
                });
            } else if log.len() > count {
                diagram
                    .update_untracked(|d| log[count..].iter().for_each(|event| d.observe(event)));
            }
            seen.set_value((run, log.len()));
        });
        redraw();
    });
    Effect::new(move |_| {
        let pause = paused.get();
        diagram.update(|d| d.set_paused(pause));
    });
    Effect::new(move |_| {
        let elapsed = live_elapsed_ms.get();
        diagram.update_untracked(|d| d.set_live_elapsed(elapsed));
        redraw();
    });
    let highlight = RwSignal::new(None::<NodeId>);
    // An event picked in the trace: outline the node it happened at, and
    // bring the drawing into view if the trace was scrolled past it.
    Effect::new(move |_| {
        let Some(seq) = picked_event.get() else {
            return;
        };
        let node = diagram.with_untracked(|d| d.node_of(seq));
        highlight.set(node);
        if let Some(node) = node {
            crate::browser::page::bring_into_view(
                move || {
                    web_sys::window()?
                        .document()?
                        .query_selector(&format!(".loop-wide [data-node=\"{}\"]", node.key()))
                        .ok()
                        .flatten()
                },
                web_sys::ScrollLogicalPosition::Nearest,
            );
        }
    });
    // A node or an edge picked on the drawing, and which of its passes the
    // trace shows. What it passed is read from the diagram as drawn now, so
    // a live run's counts stay true.
    let picked = RwSignal::new(None::<(Pick, usize)>);
    let passes = Memo::new(move |_| {
        picked
            .get()
            .and_then(|(pick, at)| diagram.with(|d| Passes::of(d, pick, at)))
    });
    let show = move |pick: Pick, at: usize| {
        picked.set(Some((pick, at)));
        if let Some(seq) = passes.with_untracked(|p| p.as_ref().and_then(Passes::shown)) {
            on_show_event.run(seq);
        }
    };
    let show_node = move |node: NodeId| {
        highlight.set(Some(node));
        show(Pick::Node(node), 0);
    };
    let show_edge = move |key: EdgeKey| {
        highlight.set(None);
        show(Pick::Edge(key), 0);
    };
    let step = move |by: isize| {
        if let Some((pick, at)) = picked.get_untracked() {
            show(pick, at.saturating_add_signed(by));
        }
    };
    let zoom = RwSignal::new(Zoom::whole(WIDTH, HEIGHT));
    // On a phone the steps are listed; the drawing opens over the whole
    // screen, with its zoom, until closed.
    let full = RwSignal::new(false);
    // Set once the full-screen stylesheet has loaded: the drawing has its
    // full-screen size, so where the run is can be centred.
    let full_drawn = RwSignal::new(false);
    let panel = NodeRef::<leptos::html::Details>::new();
    let close_full = move || {
        full.set(false);
        full_drawn.set(false);
        full_screen::leave();
    };
    // Drawn full screen, the drawing is wider than a phone: the node where
    // the run is (or the exit it ended at) stays in the middle as it moves.
    let where_run_is = Memo::new(move |_| {
        diagram.with(|d| {
            d.current()
                .map(|c| c.node)
                .or_else(|| d.exit().map(|e| NodeId::Exit(e.status)))
        })
    });
    Effect::new(move |_| {
        if full_drawn.get() {
            centre_node(where_run_is.get().unwrap_or(NodeId::Start));
        }
    });
    // A new run's passes are not the picked ones'.
    Effect::new(move |_| {
        run_id.track();
        picked.set(None);
    });
    view! {
        <details class="panel loop-panel" open node_ref=panel data-full=move || full.get().then_some("")
            on:keydown=move |ev| if full.get_untracked() && ev.key() == "Escape" { close_full() }>
            <summary><h2 class="loop-heading">"The loop"</h2></summary>
            {move || full.get().then(|| view! {
                <button type="button" class="loop-full-close" on:click=move |_| close_full()>
                    "Close the drawn loop"
                </button>
            })}
            <ZoomPan zoom>
                <LoopDiagramView
                    diagram=diagram
                    refusal=refusal
                    on_select_node=Callback::new(show_node)
                    on_select_edge=Callback::new(show_edge)
                    on_pick_scenario=on_pick_scenario
                    highlight=highlight
                    view_box=Signal::derive(move || zoom.with(Zoom::view_box))
                    on_full_screen=Callback::new(move |()| {
                        full.set(true);
                        if let Some(panel) = panel.get_untracked() {
                            full_screen::enter(&panel);
                        }
                        // Laid out by its own stylesheet, then centred.
                        crate::browser::runner::start(async move {
                            crate::browser::stylesheet::load(FULL_SCREEN_STYLES).await;
                            full_drawn.set(true);
                        });
                    })
                />
            </ZoomPan>
            {move || passes.with(|p| p.as_ref().map(|p| {
                let (has_previous, has_next) = (p.has_previous(), p.has_next());
                let many = p.events.len() > 1;
                view! {
                    <p class="loop-passes" role="status">
                        <span>{p.summary()}</span>
                        {many.then(|| view! {
                            " "
                            <button type="button" disabled=!has_previous on:click=move |_| step(-1)>"◀ Previous"</button>
                            " "
                            <button type="button" disabled=!has_next on:click=move |_| step(1)>"Next ▶"</button>
                        })}
                        {p.shown().map(|seq| view! { " " {crate::compare::view::fork_here(seq)} })}
                    </p>
                }
            }))}
        </details>
    }
}

/// The stylesheet that lays the drawing out full screen on a phone.
const FULL_SCREEN_STYLES: &str = "loop-full.css";

/// The stylesheet that folds the loop beside what is open.
const FOLD_STYLES: &str = "inspector.css";

/// Provided by the stage: something open beside the loop wants the room
/// (`app::stage::LoopRoom`), so the rules that fold it must be linked.
#[derive(Clone, Copy)]
pub struct RoomWanted(pub Signal<bool>);

/// Scrolls the full-screen drawing so `node` is in the middle of the
/// screen, both ways, once what was just drawn has a box.
fn centre_node(node: NodeId) {
    request_animation_frame(move || {
        let found = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector(&format!(
                ".loop-panel[data-full] .loop-wide [data-node=\"{}\"]",
                node.key()
            ))
            .ok()
            .flatten()
        });
        if let Some(element) = found {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Center);
            options.set_inline(web_sys::ScrollLogicalPosition::Center);
            element.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// Zoom and pan on the drawing (`loop_diagram::zoom` keeps the view): the
/// wheel with Ctrl (a trackpad's pinch), a drag, two fingers, the keys
/// + − 0 and the arrows while the drawing has focus, and three buttons.
#[component]
fn ZoomPan(zoom: RwSignal<Zoom>, children: Children) -> impl IntoView {
    // The pointers down on the drawing: id and last position.
    let pointers = StoredValue::new(Vec::<(i32, f64, f64)>::new());
    // Screen pixels to drawing units, and a screen point to the drawing's.
    let geometry = move |host: &web_sys::Element| {
        let svg = host.query_selector(".loop-wide svg").ok()??;
        let r = svg.get_bounding_client_rect();
        let (vx, vy, vw, vh) = zoom.with_untracked(Zoom::rect);
        // The drawing is fitted whole into the SVG's box, centred.
        let px = (r.width() / vw).min(r.height() / vh);
        if !(px.is_finite() && px > 0.0) {
            return None;
        }
        let (ox, oy) = (
            r.left() + (r.width() - vw * px) / 2.0,
            r.top() + (r.height() - vh * px) / 2.0,
        );
        Some((px, move |x: f64, y: f64| {
            (vx + (x - ox) / px, vy + (y - oy) / px)
        }))
    };
    let host = NodeRef::<leptos::html::Div>::new();
    let zoom_at = move |factor: f64, at: Option<(f64, f64)>| {
        let (x, y, w, h) = zoom.with_untracked(Zoom::rect);
        let (cx, cy) = at.unwrap_or((x + w / 2.0, y + h / 2.0));
        zoom.update(|z| *z = z.zoomed(factor, cx, cy));
    };
    let on_wheel = move |ev: leptos::ev::WheelEvent| {
        // A plain wheel scrolls as ever; Ctrl (and a pinch) zooms.
        if !ev.ctrl_key() {
            return;
        }
        let Some(el) = host.get_untracked() else {
            return;
        };
        ev.prevent_default();
        let at = geometry(&el).map(|(_, to)| to(ev.client_x() as f64, ev.client_y() as f64));
        zoom_at((-ev.delta_y() / 300.0).exp(), at);
    };
    let on_down = move |ev: leptos::ev::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        pointers.update_value(|p| {
            p.retain(|(id, _, _)| *id != ev.pointer_id());
            p.push((ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64));
        });
    };
    let on_move = move |ev: leptos::ev::PointerEvent| {
        let id = ev.pointer_id();
        let (x, y) = (ev.client_x() as f64, ev.client_y() as f64);
        let before = pointers.with_value(|p| p.clone());
        let Some(at) = before.iter().position(|(i, _, _)| *i == id) else {
            return;
        };
        let Some(el) = host.get_untracked() else {
            return;
        };
        let Some((px, to_drawing)) = geometry(&el) else {
            return;
        };
        match before.as_slice() {
            // One pointer: a drag pans (once zoomed in).
            [(_, bx, by)] if !zoom.with_untracked(Zoom::is_whole) => {
                zoom.update(|z| *z = z.panned(-(x - bx) / px, -(y - by) / px));
            }
            // Two: the pinch zooms around the fingers' middle.
            [(_, ax, ay), (_, bx, by)] => {
                let (ox, oy) = if at == 0 { (*bx, *by) } else { (*ax, *ay) };
                let (px0, py0) = (before[at].1, before[at].2);
                let (d0, d1) = ((px0 - ox).hypot(py0 - oy), (x - ox).hypot(y - oy));
                if d0 > 0.0 {
                    let middle = to_drawing((x + ox) / 2.0, (y + oy) / 2.0);
                    zoom_at(d1 / d0, Some(middle));
                }
            }
            _ => {}
        }
        pointers.update_value(|p| p[at] = (id, x, y));
    };
    let on_up = move |ev: leptos::ev::PointerEvent| {
        pointers.update_value(|p| p.retain(|(id, _, _)| *id != ev.pointer_id()));
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let step = zoom.with_untracked(|z| z.rect().2) / 10.0;
        match ev.key().as_str() {
            "+" | "=" => zoom_at(1.25, None),
            "-" | "_" => zoom_at(0.8, None),
            "0" => zoom.update(|z| *z = z.reset()),
            key if !zoom.with_untracked(Zoom::is_whole) => {
                let (dx, dy) = match key {
                    "ArrowLeft" => (-step, 0.0),
                    "ArrowRight" => (step, 0.0),
                    "ArrowUp" => (0.0, -step),
                    "ArrowDown" => (0.0, step),
                    _ => return,
                };
                zoom.update(|z| *z = z.panned(dx, dy));
            }
            _ => return,
        }
        ev.prevent_default();
    };
    let percent = move || format!("{:.0} %", zoom.with(Zoom::scale) * 100.0);
    view! {
        <div class="loop-zoom-controls" role="group" aria-label="Zoom the loop diagram">
            <button type="button" aria-label="Zoom out" title="Zoom out (−)"
                prop:disabled=move || zoom.with(Zoom::is_whole)
                on:click=move |_| zoom_at(0.8, None)>"−"</button>
            <button type="button" aria-label="Zoom in" title="Zoom in (+)"
                prop:disabled=move || zoom.with(|z| z.scale() >= crate::loop_diagram::zoom::MAX_SCALE)
                on:click=move |_| zoom_at(1.25, None)>"+"</button>
            <button type="button" title="Show the whole loop (0)"
                prop:disabled=move || zoom.with(Zoom::is_whole)
                on:click=move |_| zoom.update(|z| *z = z.reset())>"Whole loop"</button>
            <span class="loop-zoom-level" aria-live="polite">{percent}</span>
        </div>
        <div class="loop-zoom" node_ref=host data-zoomed=move || (!zoom.with(Zoom::is_whole)).then_some("")
            on:wheel=on_wheel on:pointerdown=on_down on:pointermove=on_move
            on:pointerup=on_up on:pointercancel=on_up on:keydown=on_key>
            {children()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::context::ContextConfig;
    use harness::limits::Limits;

    /// Every node, gates and exits included, has a place of its own under
    /// both cost modes: a gate's place comes from its row of `GATES`, so a
    /// node that no row and no arm places would stand at the corner.
    /// The drawing under each cost mode, which moves the cost gate and its exit.
    fn under_both_cost_modes() -> [LoopDiagram; 2] {
        [CostMode::Strict, CostMode::Naive].map(|cost_mode| {
            let limits = Limits {
                cost_mode,
                ..Limits::default()
            };
            LoopDiagram::new(limits, ContextConfig::default())
        })
    }

    #[test]
    fn every_node_has_a_place_of_its_own() {
        for diagram in under_both_cost_modes() {
            let variant = diagram.variant();
            let mut places: Vec<(NodeId, (i64, i64))> = Vec::new();
            for node in diagram.nodes() {
                let s = spot(node.id, variant);
                let place = (s.x as i64, s.y as i64);
                assert!(s.x > 0.0 && s.y > 0.0, "{:?} has no place", node.id);
                if let Some((other, _)) = places.iter().find(|(_, p)| *p == place) {
                    panic!("{:?} and {other:?} stand at {place:?}", node.id);
                }
                places.push((node.id, place));
            }
            for gate in crate::loop_diagram::GATES {
                assert!(
                    diagram.node(gate.node).is_some(),
                    "{}: a row of GATES that shape.rs does not draw",
                    gate.key
                );
                assert!(
                    diagram.edge(gate.node, NodeId::Exit(gate.status)).is_some(),
                    "{}: no way from the gate to its exit",
                    gate.key
                );
            }
        }
    }

    /// Points along an edge's path (`M x,y` then `L x,y` or `C x,y x,y x,y`
    /// segments, as `route` writes them).
    fn points_along(d: &str) -> Vec<(f64, f64)> {
        let mut numbers = d
            .split(|c: char| c.is_ascii_alphabetic() || c == ',' || c == ' ')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<f64>().expect("a number in a path"));
        let mut next = || (numbers.next().unwrap(), numbers.next().unwrap());
        let mut at = next();
        let mut points = vec![at];
        for command in d.chars().filter(|c| c.is_ascii_alphabetic()).skip(1) {
            let ends: Vec<(f64, f64)> = match command {
                'L' => vec![next()],
                'C' => vec![next(), next(), next()],
                other => panic!("route wrote a path command {other}"),
            };
            for step in 1..=40 {
                let t = step as f64 / 40.0;
                let point = match ends.as_slice() {
                    [end] => (at.0 + (end.0 - at.0) * t, at.1 + (end.1 - at.1) * t),
                    [c1, c2, end] => {
                        let u = 1.0 - t;
                        let mix = |a: f64, b: f64, c: f64, d: f64| {
                            u * u * u * a
                                + 3.0 * u * u * t * b
                                + 3.0 * u * t * t * c
                                + t * t * t * d
                        };
                        (mix(at.0, c1.0, c2.0, end.0), mix(at.1, c1.1, c2.1, end.1))
                    }
                    _ => unreachable!(),
                };
                points.push(point);
            }
            at = *ends.last().unwrap();
        }
        points
    }

    /// A line that crosses a box it does not join reads as if the run went
    /// through that box: the verifier's line to failed_verification once
    /// crossed `done`. Checked for every variant the drawing has.
    #[test]
    fn no_line_crosses_a_box_it_does_not_join() {
        use harness::limits::{DeadlineMode, DeadlineScope, RepeatMode, StopMode};
        let mut crossings = Vec::new();
        for cost_mode in [CostMode::Strict, CostMode::Naive] {
            for deadline_mode in [DeadlineMode::Interrupt, DeadlineMode::BetweenSteps] {
                for deadline_scope in [DeadlineScope::Run, DeadlineScope::Shared] {
                    for repeat_mode in [RepeatMode::Canonical, RepeatMode::Naive] {
                        for stop_mode in [StopMode::Strict, StopMode::Naive] {
                            let limits = Limits {
                                cost_mode,
                                deadline_mode,
                                deadline_scope,
                                repeat_mode,
                                stop_mode,
                                ..Limits::default()
                            };
                            let diagram = LoopDiagram::new(limits, ContextConfig::default());
                            let variant = diagram.variant();
                            for edge in diagram.edges() {
                                let path = route(edge.key, variant).d;
                                for node in diagram.nodes() {
                                    if node.id == edge.key.from || node.id == edge.key.to {
                                        continue;
                                    }
                                    let s = spot(node.id, variant);
                                    // A line may graze a box's edge; it may not
                                    // pass through its middle.
                                    let inside = |(x, y): (f64, f64)| {
                                        (x - s.x).abs() < s.w / 2.0 - 4.0
                                            && (y - s.y).abs() < s.h / 2.0 - 4.0
                                    };
                                    if points_along(&path).into_iter().any(inside) {
                                        let crossing = format!(
                                            "{:?} -> {:?} crosses {:?}",
                                            edge.key.from, edge.key.to, node.id
                                        );
                                        if !crossings.contains(&crossing) {
                                            crossings.push(crossing);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(crossings.is_empty(), "{}", crossings.join("\n"));
    }

    /// Two boxes that overlap read as one, or hide each other's words: the
    /// Stop button's box once covered the left end of `cancelled`.
    #[test]
    fn no_two_boxes_overlap() {
        for diagram in under_both_cost_modes() {
            let variant = diagram.variant();
            let nodes = diagram.nodes();
            for (i, a) in nodes.iter().enumerate() {
                for b in &nodes[i + 1..] {
                    let (p, q) = (spot(a.id, variant), spot(b.id, variant));
                    let apart = (p.x - q.x).abs() >= (p.w + q.w) / 2.0
                        || (p.y - q.y).abs() >= (p.h + q.h) / 2.0;
                    assert!(apart, "{:?} and {:?} overlap ({variant:?})", a.id, b.id);
                }
            }
        }
    }
}
