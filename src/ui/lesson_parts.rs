//! While a lesson is open, the JSON box is read-only and the paths the
//! lesson lets the learner change each get a JSON box of their own here:
//! the way to edit what the form has no field for (`approval`, `verify`, a
//! tool's precondition). Each box writes its value into the scenario text at
//! its path, and follows the text when something else changes that value (a
//! form field, "Show the solution").
//!
//! Drawn by the editor's form (`ui::scenario_form::editor_form`), so it
//! comes with that split module and adds nothing to the first paint.

use harness::lesson::patch;
use harness::scenario::syntax::describe;
use leptos::html;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::editor::Editor;

/// One JSON box per path an open lesson lets the learner change.
#[component]
pub fn LessonParts(editor: Editor, paths: Vec<String>) -> impl IntoView {
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
    view! {
        <label for=id.clone()><code>{path.clone()}</code></label>
        <textarea id=id class="lesson-part" rows="4" spellcheck="false" autocomplete="off"
            node_ref=area on:input=on_input></textarea>
        <p class="field-error" role="alert">{move || error.get()}</p>
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
    fn a_part_that_is_not_json_says_where() {
        let text = r#"{"limits": {}}"#;
        let why = with_part(text, "limits.max_turns", "3x").unwrap_err();
        assert!(why.starts_with("limits.max_turns: "), "{why}");
        let why = with_part(text, "limits.max_turns", "  ").unwrap_err();
        assert!(why.contains("type a JSON value"), "{why}");
    }
}
