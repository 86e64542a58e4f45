//! While a lesson is open, the JSON box is read-only and the paths the
//! lesson lets the learner change each get a JSON box of their own here:
//! the way to edit what the form has no field for (`approval`, `verify`, a
//! tool's precondition). Each box writes its value into the scenario text at
//! its path, and follows the text when something else changes that value (a
//! form field, "Show the solution"). A path whose values are a closed set
//! (`harness::lesson::choices`) lists them beside its box, each a button
//! that writes it.
//!
//! Drawn in the open lesson's column (`lessons::view`), under its goal
//! and above Check, so it comes with that split module. A box whose text
//! could not be written (not JSON) keeps it: `unapplied_edits` reads those
//! boxes, so Check can say the edit was not applied instead of judging the
//! scenario without it.

use harness::lesson::patch;
use harness::scenario::syntax::describe;
use leptos::html;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::editor::state::Editor;
use crate::ui::field::Field;

/// One JSON box per path an open lesson lets the learner change; nothing
/// for a lesson that lets nothing change.
#[component]
pub fn LessonParts(editor: Editor, paths: Vec<String>) -> impl IntoView {
    (!paths.is_empty()).then(|| {
        let parts = paths
            .into_iter()
            .map(|path| view! { <LessonPart editor path /> })
            .collect_view();
        view! {
            <fieldset class="lesson-parts">
                <legend>"✎ What this lesson lets you change, as JSON"</legend>
                {parts}
            </fieldset>
        }
    })
}

/// The boxes on the page whose text is not in the scenario `text` because
/// it could not be written there, each as "path: why", in the page's order.
/// Read from the boxes themselves: what the learner sees in a box is what
/// Check must not pretend it ran.
pub fn unapplied_edits(text: &str) -> Vec<String> {
    let Some(boxes) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector_all("textarea.lesson-part[data-path]").ok())
    else {
        return Vec::new();
    };
    (0..boxes.length())
        .filter_map(|i| {
            boxes
                .item(i)?
                .dyn_into::<web_sys::HtmlTextAreaElement>()
                .ok()
        })
        .filter_map(|area| {
            let path = area.get_attribute("data-path")?;
            unapplied(text, &path, &area.value())
        })
        .collect()
}

/// Why the box at `path` holding `part` is not what the scenario `text`
/// holds there, or `None` when it is (or the box is empty and the scenario
/// does not set the path, as a lesson starts).
fn unapplied(text: &str, path: &str, part: &str) -> Option<String> {
    let shown = shown_part(text, path)?;
    if part.trim().is_empty() && shown.is_empty() {
        return None;
    }
    with_part(text, path, part).err()
}

/// The values `path` may take, when they are a closed set, as JSON text.
fn choices(path: &str) -> Vec<String> {
    harness::lesson::choices::allowed_values(path)
        .unwrap_or_default()
        .iter()
        .map(|v| v.to_string())
        .collect()
}

/// The value at `path` in the scenario `text`, as the box shows it: `None`
/// while the text is not JSON (the box keeps what it has), `Some("")` when
/// the scenario does not set it.
fn shown_part(text: &str, path: &str) -> Option<String> {
    let root: Value = serde_json::from_str(text).ok()?;
    Some(
        patch::value_at(&root, path)
            .map(|v| serde_json::to_string_pretty(v).unwrap_or_default())
            .unwrap_or_default(),
    )
}

/// The scenario `text` with `part` (the box's text) at `path`, or why not.
fn with_part(text: &str, path: &str, part: &str) -> Result<String, String> {
    if part.trim().is_empty() {
        return Err(format!(
            "{path}: type a JSON value (a number, \"text\", true, a list or an object)."
        ));
    }
    let value: Value =
        serde_json::from_str(part).map_err(|e| format!("{path}: {}", describe(&e, part)))?;
    let mut root: Value = serde_json::from_str(text)
        .map_err(|e| format!("the scenario JSON is {}", describe(&e, text)))?;
    patch::set_at(&mut root, path, value).map_err(|e| e.to_string())?;
    Ok(serde_json::to_string_pretty(&root).unwrap_or_default())
}

#[component]
fn LessonPart(editor: Editor, path: String) -> impl IntoView {
    let area = NodeRef::<html::Textarea>::new();
    let error = RwSignal::new(None::<String>);
    let id = format!("lesson-part-{}", path.replace(['.', '[', ']'], "-"));
    let choices_id = format!("{id}-choices");
    let choices = choices(&path);
    // Follow the scenario: show its value when it differs from what the box
    // means, so typing (which writes the same value) never moves the caret.
    Effect::new({
        let path = path.clone();
        move |_| {
            let text = editor.text().get();
            let (Some(area), Some(shown)) = (area.get(), shown_part(&text, &path)) else {
                return;
            };
            let same = match (
                serde_json::from_str::<Value>(&area.value()),
                serde_json::from_str::<Value>(&shown),
            ) {
                (Ok(box_value), Ok(value)) => box_value == value,
                _ => area.value() == shown,
            };
            if !same {
                area.set_value(&shown);
                error.set(None);
            }
        }
    });
    let path_for_rows = path.clone();
    let on_input = {
        let path = path.clone();
        move |ev| {
            let part = event_target_value(&ev);
            match with_part(&editor.text().get_untracked(), &path, &part) {
                Ok(text) => {
                    error.set(None);
                    editor.edit(text);
                }
                Err(why) => error.set(Some(why)),
            }
        }
    };
    // A closed set's value: written as if typed into the box.
    let write = {
        let path = path.clone();
        move |value: String| match with_part(&editor.text().get_untracked(), &path, &value) {
            Ok(text) => {
                error.set(None);
                editor.edit(text);
            }
            Err(why) => error.set(Some(why)),
        }
    };
    let offered = (!choices.is_empty()).then(|| {
        let buttons = choices
            .into_iter()
            .map(|value| {
                let write = write.clone();
                let shown = value.clone();
                view! {
                    <li><button type="button" class="lesson-choice"
                        on:click=move |_| write(value.clone())><code>{shown}</code></button></li>
                }
            })
            .collect_view();
        view! {
            <div class="lesson-choices" id=choices_id.clone()>
                <span>"One of:"</span>
                <ul>{buttons}</ul>
            </div>
        }
    });
    // A short value gets a short box: the lesson's column keeps its goal
    // and Check in view.
    let rows = move || {
        editor
            .text()
            .with(|t| shown_part(t, &path_for_rows))
            .map_or(1, |shown| shown.lines().count().clamp(1, 8))
    };
    view! {
        <Field id label={
            let path = path.clone();
            move || view! { <code>{path}</code> }
        } described_by=offered.is_some().then_some(choices_id) problem=error>
            <textarea class="lesson-part" rows=rows spellcheck="false" autocomplete="off"
                data-path=path node_ref=area on:input=on_input></textarea>
        </Field>
        {offered}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_shown_and_written_at_its_path() {
        let text = r#"{"limits": {"max_turns": 10}, "tools": ["get_time"]}"#;
        assert_eq!(shown_part(text, "limits.max_turns").as_deref(), Some("10"));
        assert_eq!(shown_part(text, "approval").as_deref(), Some(""));
        assert_eq!(shown_part("{", "approval"), None);
        let written = with_part(text, "limits.max_turns", "3").unwrap();
        assert!(written.contains("\"max_turns\": 3"), "{written}");
        let added = with_part(text, "approval", r#"{"deny_all": true}"#).unwrap();
        assert!(added.contains("\"deny_all\": true"), "{added}");
    }

    #[test]
    fn a_box_whose_text_is_not_in_the_scenario_says_why() {
        let text = r#"{"limits": {"stop_mode": "naive"}}"#;
        assert_eq!(unapplied(text, "limits.stop_mode", "\"naive\""), None);
        assert_eq!(unapplied(text, "approval", ""), None);
        let why = unapplied(text, "limits.stop_mode", "strict").unwrap();
        assert!(why.starts_with("limits.stop_mode: "), "{why}");
        assert_eq!(
            choices("limits.stop_mode"),
            vec!["\"strict\"".to_string(), "\"naive\"".to_string()]
        );
        assert!(choices("limits.max_turns").is_empty());
    }

    #[test]
    fn a_part_that_is_not_json_says_where() {
        let text = r#"{"limits": {}}"#;
        let why = with_part(text, "limits.max_turns", "3x").unwrap_err();
        assert!(why.starts_with("limits.max_turns: "), "{why}");
        let why = with_part(text, "limits.max_turns", "  ").unwrap_err();
        assert!(why.contains("type a JSON value"), "{why}");
    }
}
