//! One form field: its label, the input (given as children, so a text or
//! number input, a select, a textarea or a checkbox all fit; the field sets
//! its id), an optional unit and hint, and the problem with what was typed,
//! under it.
//!
//! The field wires the input to what is said about it, so a screen reader
//! reads it with the input: the hint's id, and the problem's while one
//! shows, are in the input's `aria-describedby`, and `aria-invalid="true"`
//! is set while a problem shows. A field that can have a problem always has
//! its paragraph (empty and hidden while there is none), a live region, so
//! a problem that appears is announced as it is typed.
//!
//! It renders no wrapper of its own: each form keeps its layout (a grid row,
//! a `.limit` cell) around it. Only the wiring of the input is generic (one
//! copy per kind of input); the label, hint and problem are one function
//! for every field.

use leptos::attr::{aria_describedby, aria_invalid};
use leptos::prelude::*;

/// The id of the paragraph that says a field's problem.
pub fn problem_id(input_id: &str) -> String {
    format!("{input_id}-problem")
}

/// The id of the paragraph that holds a field's hint: why the value is
/// what it is, or what it takes.
pub fn hint_id(input_id: &str) -> String {
    format!("{input_id}-why")
}

#[component]
pub fn Field<C>(
    /// The input's id, set on it here: the label names the input by it, and
    /// the hint's and the problem's ids are made from it.
    #[prop(into)]
    id: String,
    /// What the label says.
    #[prop(into)]
    label: ViewFnOnce,
    /// The unit the value is in, said in the label after its words (so it
    /// is part of the input's name): "ms" shows as " (ms)".
    #[prop(optional)]
    unit: &'static str,
    /// Marks said in the label after its words and unit ("✎ editable in
    /// this lesson"), so they are part of the input's name too.
    #[prop(optional, into)]
    mark: Option<ViewFnOnce>,
    /// A hint under the input, read with it.
    #[prop(optional, into)]
    hint: Option<Signal<String>>,
    /// The id of another element that says more about the value (a list of
    /// the values it takes), read with the input too.
    #[prop(optional_no_strip)]
    described_by: Option<String>,
    /// What is wrong with the value as typed, if anything. A field that
    /// cannot be wrong (free text, a checkbox) has no problem paragraph.
    #[prop(optional, into)]
    problem: Option<Signal<Option<String>>>,
    /// A checkbox: the label holds the input, before its words.
    #[prop(optional)]
    check: bool,
    /// The label holds the input after its words, as one item of a grid or
    /// a line of controls ("Fork from [step]").
    #[prop(optional)]
    wraps: bool,
    /// The class of the hint and of the problem paragraphs, for a form
    /// styled apart (the schema form's `sf-help` and `sf-problem`); by
    /// default `hint` and `field-error`.
    #[prop(optional)]
    classes: Option<(&'static str, &'static str)>,
    /// The problem is several, one a line: drawn as a list (its class the
    /// problem's) inside the live region, since a list that is itself the
    /// live region is no list to a screen reader.
    #[prop(optional)]
    listed: bool,
    /// The input.
    children: TypedChildren<C>,
) -> impl IntoView
where
    C: AddAnyAttr + IntoView + 'static,
{
    let described = description(&id, hint.is_some(), described_by, problem);
    let invalid = move || shows(problem).then_some("true");
    // On the input's own type, not on an `AnyView`: attributes added to an
    // `AnyView` stop following their signals once the view is redrawn.
    let input = children.into_inner()().into_inner().add_any_attr((
        leptos::attr::id(id.clone()),
        aria_describedby(described),
        aria_invalid(invalid),
    ));
    let layout = if check {
        Layout::Check
    } else if wraps {
        Layout::Wraps
    } else {
        Layout::Above
    };
    let (hint_class, problem_class) = classes.unwrap_or(("hint", "field-error"));
    frame(
        id,
        Label {
            words: label,
            unit,
            mark,
            layout,
        },
        Said {
            hint,
            problem,
            hint_class,
            problem_class,
            listed,
        },
        input.into_any(),
    )
}

/// Where the label goes.
enum Layout {
    /// Above the input (`for` its id).
    Above,
    /// Around the input, after the words.
    Wraps,
    /// Around the input, before the words: a checkbox.
    Check,
}

struct Label {
    words: ViewFnOnce,
    unit: &'static str,
    mark: Option<ViewFnOnce>,
    layout: Layout,
}

/// What is said under the input, and the classes it is drawn with.
struct Said {
    hint: Option<Signal<String>>,
    problem: Option<Signal<Option<String>>>,
    hint_class: &'static str,
    problem_class: &'static str,
    listed: bool,
}

/// Whether a problem shows now.
fn shows(problem: Option<Signal<Option<String>>>) -> bool {
    problem.is_some_and(|p| p.with(Option::is_some))
}

/// The ids the input's `aria-describedby` names: another element's, the
/// hint's, and the problem's while one shows.
fn description(
    id: &str,
    has_hint: bool,
    other: Option<String>,
    problem: Option<Signal<Option<String>>>,
) -> impl Fn() -> Option<String> + Clone + Send + Sync + 'static {
    let hint = has_hint.then(|| hint_id(id));
    let problem_ref = problem_id(id);
    move || {
        let shows = shows(problem).then_some(problem_ref.as_str());
        let ids: Vec<&str> = [other.as_deref(), hint.as_deref(), shows]
            .into_iter()
            .flatten()
            .collect();
        (!ids.is_empty()).then(|| ids.join(" "))
    }
}

/// The label, the input, the hint and the problem, for any input.
fn frame(id: String, label: Label, said: Said, input: AnyView) -> AnyView {
    let Label {
        words,
        unit,
        mark,
        layout,
    } = label;
    let Said {
        hint,
        problem,
        hint_class,
        problem_class,
        listed,
    } = said;
    let unit =
        (!unit.is_empty()).then(|| view! { <span class="unit">{format!(" ({unit})")}</span> });
    let mark = mark.map(ViewFnOnce::run);
    let hint = hint.map(|hint| view! { <p class=hint_class id=hint_id(&id)>{hint}</p> });
    let problem = problem.map(|problem| {
        if listed {
            let lines = move || {
                problem.with(|p| {
                    p.iter()
                        .flat_map(|text| text.lines())
                        .map(|line| view! { <li>{line.to_string()}</li> })
                        .collect_view()
                })
            };
            view! { <div role="alert" id=problem_id(&id)><ul class=problem_class>{lines}</ul></div> }
                .into_any()
        } else {
            view! { <p class=problem_class role="alert" id=problem_id(&id)>{move || problem.get()}</p> }
                .into_any()
        }
    });
    let label = match layout {
        Layout::Check => {
            view! { <label class="check">{input}{words.run()}{mark}</label> }.into_any()
        }
        Layout::Wraps => view! { <label>{words.run()}{unit}{mark}{input}</label> }.into_any(),
        Layout::Above => {
            view! { <label for=id>{words.run()}{unit}{mark}</label>{input} }.into_any()
        }
    };
    view! {
        {label}
        {hint}
        {problem}
    }
    .into_any()
}
