//! The editor's rules, as a person sees them: which text the editor holds
//! and the picker names, what blocks Run and why, what a reload brings back,
//! and what the notices say.

use harness::library::{json_of, OPENING_ID, OPENING_JSON};
use serde_json::json;

use super::*;

const TURN_LIMIT: &str = "turn-limit";

fn turn_limit() -> &'static str {
    json_of(TURN_LIMIT).unwrap()
}

/// The editor of a first visit: no link, nothing saved.
fn fresh() -> EditorModel {
    EditorModel::open(Opening::default()).0
}

fn send(model: &mut EditorModel, msg: EditorMsg) -> Vec<EditorCmd> {
    model.update(msg)
}

/// The pick number of the `FetchBuiltin` among `cmds`.
fn fetch_of(cmds: &[EditorCmd]) -> u64 {
    cmds.iter()
        .find_map(|c| match c {
            EditorCmd::FetchBuiltin { pick, .. } => Some(*pick),
            _ => None,
        })
        .expect("a pick fetches the built-in's text")
}

/// Picks `id` and lets its text arrive.
fn pick(model: &mut EditorModel, id: &str) {
    let number = fetch_of(&send(model, EditorMsg::Picked(id.to_string())));
    send(
        model,
        EditorMsg::BuiltinArrived {
            pick: number,
            id: id.to_string(),
            json: json_of(id),
        },
    );
}

/// A one-character edit of the JSON box (a keystroke, not a paste).
fn keystroke(model: &mut EditorModel) -> String {
    let text = model.text().replacen('{', "{ ", 1);
    send(model, EditorMsg::Typed(text.clone()));
    text
}

fn label(model: &EditorModel) -> String {
    model.provenance().label(|id| Some(format!("name of {id}")))
}

fn saved_text(cmds: &[EditorCmd]) -> Option<&String> {
    cmds.iter().rev().find_map(|c| match c {
        EditorCmd::SaveText(text) => Some(text),
        _ => None,
    })
}

fn checks(cmds: &[EditorCmd]) -> Vec<&String> {
    cmds.iter()
        .filter_map(|c| match c {
            EditorCmd::Check(text) => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn a_first_visit_opens_on_the_first_built_in_and_checks_it() {
    let (model, cmds) = EditorModel::open(Opening::default());
    assert_eq!(model.text(), OPENING_JSON);
    assert_eq!(model.selected(), OPENING_ID);
    assert_eq!(checks(&cmds), vec![OPENING_JSON]);
    assert!(cmds.contains(&EditorCmd::SaveSelection(OPENING_ID.to_string())));
    // Known without the files: nothing to identify.
    assert!(!cmds.iter().any(|c| matches!(c, EditorCmd::Identify(_))));
}

#[test]
fn a_reload_restores_what_was_typed_and_where_it_came_from() {
    let mut before = fresh();
    pick(&mut before, TURN_LIMIT);
    keystroke(&mut before);
    let provenance = before.provenance().to_saved();
    let (after, cmds) = EditorModel::open(Opening {
        saved_text: Some(before.text().to_string()),
        saved_provenance: Some(provenance),
        saved_selection: Some(before.selected().to_string()),
        ..Opening::default()
    });
    assert_eq!(after.text(), before.text());
    assert_eq!(after.selected(), CUSTOM);
    assert_eq!(label(&after), "Edited from name of turn-limit");
    // Which built-in it is, if any, is asked of the built-ins' module.
    assert!(cmds.contains(&EditorCmd::Identify(before.text().to_string())));
}

#[test]
fn a_reload_names_the_saved_built_in_in_the_picker_at_once() {
    let (model, cmds) = EditorModel::open(Opening {
        saved_text: Some(turn_limit().to_string()),
        saved_provenance: Some(Provenance::fresh(Source::Builtin(TURN_LIMIT.into())).to_saved()),
        saved_selection: Some(TURN_LIMIT.to_string()),
        ..Opening::default()
    });
    assert_eq!(model.selected(), TURN_LIMIT);
    assert!(!cmds.iter().any(|c| matches!(c, EditorCmd::Identify(_))));
}

#[test]
fn a_reload_still_offers_the_undo_it_offered() {
    let (model, _) = EditorModel::open(Opening {
        saved_text: Some(turn_limit().to_string()),
        saved_replaced: Some(("{\"mine\": 1}".into(), "own".into(), String::new())),
        ..Opening::default()
    });
    assert!(model.can_undo_replacement());
    let mut model = model;
    send(&mut model, EditorMsg::UndoPressed);
    assert_eq!(model.text(), "{\"mine\": 1}");
    assert_eq!(model.selected(), CUSTOM);
}

#[test]
fn a_link_opens_its_scenario_and_keeps_the_draft_for_undo() {
    let fragment = share::fragment_for(turn_limit());
    let (mut model, cmds) = EditorModel::open(Opening {
        fragment,
        saved_text: Some("{\"draft\": true}".into()),
        saved_provenance: Some(Provenance::fresh(Source::Own).to_saved()),
        ..Opening::default()
    });
    assert_eq!(model.text(), turn_limit().trim());
    assert_eq!(
        model.arrival().map(String::as_str),
        Some(share::LINK_LOADED)
    );
    assert_eq!(label(&model), "From a shared link");
    // Saved at once, so a reload shows the link's scenario.
    assert_eq!(
        saved_text(&cmds).map(String::as_str),
        Some(turn_limit().trim())
    );
    assert!(model.can_undo_replacement());
    send(&mut model, EditorMsg::UndoPressed);
    assert_eq!(model.text(), "{\"draft\": true}");
    assert_eq!(model.arrival().map(String::as_str), Some(UNDONE));
}

#[test]
fn a_broken_link_says_why_and_opens_the_saved_text() {
    let (model, _) = EditorModel::open(Opening {
        fragment: "#s=@@@".into(),
        saved_text: Some("{\"draft\": true}".into()),
        ..Opening::default()
    });
    assert_eq!(model.text(), "{\"draft\": true}");
    let arrival = model.arrival().expect("the broken link is reported");
    assert!(arrival.contains("link"), "{arrival}");
    assert!(!model.can_undo_replacement());
}

#[test]
fn a_link_over_an_unedited_built_in_keeps_nothing_for_undo() {
    let (model, _) = EditorModel::open(Opening {
        fragment: share::fragment_for(turn_limit()),
        saved_text: Some(OPENING_JSON.into()),
        saved_provenance: Some(Provenance::fresh(Source::Builtin(OPENING_ID.into())).to_saved()),
        ..Opening::default()
    });
    assert!(!model.can_undo_replacement());
}

#[test]
fn picking_shows_the_choice_at_once_and_holds_run_until_its_text_arrives() {
    let mut model = fresh();
    let cmds = send(&mut model, EditorMsg::Picked(TURN_LIMIT.into()));
    assert_eq!(model.selected(), TURN_LIMIT);
    assert_eq!(model.text(), OPENING_JSON);
    assert_eq!(
        model.run_blocker(Vec::new()).as_deref(),
        Some(view_model::LOADING_BLOCKER)
    );
    send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: fetch_of(&cmds),
            id: TURN_LIMIT.into(),
            json: json_of(TURN_LIMIT),
        },
    );
    assert_eq!(model.text(), turn_limit());
    assert!(!model.loading());
    assert_eq!(model.run_blocker(Vec::new()), None);
    assert_eq!(label(&model), "Custom, from name of turn-limit");
}

#[test]
fn a_newer_picks_text_wins_over_an_older_ones_late_answer() {
    let mut model = fresh();
    let first = fetch_of(&send(&mut model, EditorMsg::Picked(TURN_LIMIT.into())));
    let second = fetch_of(&send(&mut model, EditorMsg::Picked("deadline".into())));
    send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: second,
            id: "deadline".into(),
            json: json_of("deadline"),
        },
    );
    let late = send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: first,
            id: TURN_LIMIT.into(),
            json: json_of(TURN_LIMIT),
        },
    );
    assert_eq!(model.text(), json_of("deadline").unwrap());
    assert_eq!(model.selected(), "deadline");
    assert!(late.is_empty(), "the late answer saves nothing: {late:?}");
}

#[test]
fn an_edit_makes_the_pick_in_flight_moot() {
    let mut model = fresh();
    let pick_number = fetch_of(&send(&mut model, EditorMsg::Picked(TURN_LIMIT.into())));
    let typed = keystroke(&mut model);
    // The edit lets Run go: nothing is on its way any more.
    assert!(!model.loading());
    send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: pick_number,
            id: TURN_LIMIT.into(),
            json: json_of(TURN_LIMIT),
        },
    );
    assert_eq!(model.text(), typed);
    assert_eq!(model.selected(), CUSTOM);
}

#[test]
fn picking_custom_keeps_the_text_and_drops_the_pick_in_flight() {
    let mut model = fresh();
    let pick_number = fetch_of(&send(&mut model, EditorMsg::Picked(TURN_LIMIT.into())));
    let cmds = send(&mut model, EditorMsg::Picked(CUSTOM.into()));
    assert!(!cmds
        .iter()
        .any(|c| matches!(c, EditorCmd::FetchBuiltin { .. })));
    assert_eq!(model.selected(), CUSTOM);
    assert!(!model.loading());
    send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: pick_number,
            id: TURN_LIMIT.into(),
            json: json_of(TURN_LIMIT),
        },
    );
    assert_eq!(model.text(), OPENING_JSON);
}

#[test]
fn a_pick_clears_what_arrived_before() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::ArrivalSaid(Some("Imported the scenario x.".into())),
    );
    send(&mut model, EditorMsg::Picked(TURN_LIMIT.into()));
    assert_eq!(model.arrival(), None);
}

#[test]
fn a_pick_of_an_unknown_id_lets_run_go_and_keeps_the_text() {
    let mut model = fresh();
    let number = fetch_of(&send(&mut model, EditorMsg::Picked("no-such".into())));
    send(
        &mut model,
        EditorMsg::BuiltinArrived {
            pick: number,
            id: "no-such".into(),
            json: None,
        },
    );
    assert!(!model.loading());
    assert_eq!(model.text(), OPENING_JSON);
}

#[test]
fn an_edit_moves_the_picker_to_custom_and_says_edited_from() {
    let mut model = fresh();
    pick(&mut model, TURN_LIMIT);
    let cmds = {
        let text = model.text().replacen('{', "{ ", 1);
        send(&mut model, EditorMsg::Typed(text))
    };
    assert_eq!(model.selected(), CUSTOM);
    assert_eq!(label(&model), "Edited from name of turn-limit");
    assert!(cmds.contains(&EditorCmd::SaveSelection(CUSTOM.into())));
    assert!(cmds.contains(&EditorCmd::ForgetLink));
    assert_eq!(saved_text(&cmds).map(String::as_str), Some(model.text()));
}

#[test]
fn an_input_that_leaves_the_text_as_it_is_changes_nothing() {
    let mut model = fresh();
    let cmds = send(&mut model, EditorMsg::Typed(OPENING_JSON.into()));
    assert!(cmds.is_empty());
    assert_eq!(model.selected(), OPENING_ID);
    assert_eq!(label(&model), "Custom, from name of get-time");
}

#[test]
fn a_whole_scenario_pasted_over_the_text_says_pasted_and_keeps_an_edit_for_undo() {
    let mut model = fresh();
    let mine = keystroke(&mut model);
    send(&mut model, EditorMsg::Typed(turn_limit().to_string()));
    assert_eq!(label(&model), "Pasted");
    assert!(model.can_undo_replacement());
    // Not a pick: the offer beside the picker is not made.
    assert!(!model.can_undo_pick());
    send(&mut model, EditorMsg::UndoPressed);
    assert_eq!(model.text(), mine);
}

#[test]
fn a_lesson_lock_makes_a_whole_new_text_an_edit_not_a_paste() {
    let mut model = fresh();
    send(&mut model, EditorMsg::Locked(Some(vec!["limits".into()])));
    send(&mut model, EditorMsg::Typed(turn_limit().to_string()));
    assert_eq!(label(&model), "Edited from name of get-time");
    assert!(!model.can_undo_replacement());
}

#[test]
fn a_pick_over_the_persons_text_offers_undo_beside_the_picker() {
    let mut model = fresh();
    let mine = keystroke(&mut model);
    pick(&mut model, TURN_LIMIT);
    assert!(model.can_undo_pick());
    let cmds = send(&mut model, EditorMsg::UndoPressed);
    assert_eq!(model.text(), mine);
    assert_eq!(model.selected(), CUSTOM);
    assert!(
        !model.can_undo_pick(),
        "the offer beside the picker has done its job"
    );
    // Undo again brings the pick back, and the slot is saved for a reload.
    assert!(cmds.iter().any(
        |c| matches!(c, EditorCmd::SaveReplaced(r) if r.text == turn_limit() && r.selected == TURN_LIMIT)
    ));
    send(&mut model, EditorMsg::UndoPressed);
    assert_eq!(model.text(), turn_limit());
    assert_eq!(model.selected(), TURN_LIMIT);
}

#[test]
fn a_pick_over_an_unedited_built_in_keeps_nothing_for_undo() {
    let mut model = fresh();
    pick(&mut model, TURN_LIMIT);
    assert!(!model.can_undo_replacement());
    assert!(!model.can_undo_pick());
}

#[test]
fn undo_with_nothing_kept_changes_nothing() {
    let mut model = fresh();
    assert!(send(&mut model, EditorMsg::UndoPressed).is_empty());
    assert_eq!(model.text(), OPENING_JSON);
    assert_eq!(model.arrival(), None);
}

#[test]
fn a_loaded_file_says_where_it_came_from_and_is_identified_later() {
    let mut model = fresh();
    let cmds = send(
        &mut model,
        EditorMsg::Loaded {
            text: turn_limit().to_string(),
            source: Source::File("limits.json".into()),
        },
    );
    assert_eq!(label(&model), "From file limits.json");
    assert_eq!(model.selected(), CUSTOM);
    assert!(cmds.contains(&EditorCmd::Identify(turn_limit().to_string())));
    send(
        &mut model,
        EditorMsg::Identified {
            text: turn_limit().to_string(),
            id: TURN_LIMIT.into(),
        },
    );
    assert_eq!(model.selected(), TURN_LIMIT);
}

#[test]
fn an_identification_of_a_text_edited_since_is_dropped() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::Loaded {
            text: turn_limit().to_string(),
            source: Source::KeptRun,
        },
    );
    keystroke(&mut model);
    send(
        &mut model,
        EditorMsg::Identified {
            text: turn_limit().to_string(),
            id: TURN_LIMIT.into(),
        },
    );
    assert_eq!(model.selected(), CUSTOM);
    assert_eq!(label(&model), "Edited from a kept run");
}

#[test]
fn a_link_pasted_into_the_address_loads_or_says_why_not() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::LinkOpened(Err("it is cut short".into())),
    );
    assert_eq!(model.text(), OPENING_JSON);
    assert_eq!(
        model.arrival().cloned(),
        Some(share::broken_link_notice("it is cut short"))
    );
    send(
        &mut model,
        EditorMsg::LinkOpened(Ok(turn_limit().to_string())),
    );
    assert_eq!(model.text(), turn_limit());
    assert_eq!(
        model.arrival().map(String::as_str),
        Some(share::LINK_LOADED)
    );
    assert_eq!(label(&model), "From a shared link");
}

#[test]
fn every_text_is_checked_and_the_problems_follow_the_text() {
    let mut model = fresh();
    let broken = keystroke(&mut model).replacen("{ ", "{ ,", 1);
    let cmds = send(&mut model, EditorMsg::Typed(broken.clone()));
    assert_eq!(checks(&cmds), vec![&broken]);
    send(
        &mut model,
        EditorMsg::Checked {
            text: broken.clone(),
            problems: vec!["line 1: a comma too many".into()],
            notes: Vec::new(),
        },
    );
    assert_eq!(model.live_problems(), ["line 1: a comma too many"]);
    // Fixed: its check clears the problem.
    send(&mut model, EditorMsg::Typed(OPENING_JSON.into()));
    send(
        &mut model,
        EditorMsg::Checked {
            text: OPENING_JSON.into(),
            problems: Vec::new(),
            notes: vec!["note: x".into()],
        },
    );
    assert!(model.live_problems().is_empty());
    assert_eq!(model.live_notes(), ["note: x"]);
}

#[test]
fn a_check_of_a_text_changed_since_is_dropped() {
    let mut model = fresh();
    let broken = OPENING_JSON.replacen('{', "{,", 1);
    send(&mut model, EditorMsg::Typed(broken.clone()));
    keystroke(&mut model);
    send(
        &mut model,
        EditorMsg::Checked {
            text: broken,
            problems: vec!["line 1: a comma too many".into()],
            notes: Vec::new(),
        },
    );
    assert!(model.live_problems().is_empty());
    assert_eq!(model.run_blocker(Vec::new()), None);
}

#[test]
fn run_is_blocked_while_the_text_is_broken_and_says_why() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::Checked {
            text: OPENING_JSON.into(),
            problems: vec![
                "limits.max_turns: must be a number".into(),
                "tools: empty".into(),
            ],
            notes: Vec::new(),
        },
    );
    assert_eq!(
        model.run_blocker(Vec::new()).as_deref(),
        Some("Run is disabled: limits.max_turns: must be a number (and 1 more problem)")
    );
}

#[test]
fn a_field_that_cannot_go_into_the_json_blocks_run_first() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::FieldError {
            key: "schema".into(),
            error: Some("The schema is not JSON".into()),
        },
    );
    assert_eq!(
        model
            .run_blocker(vec!["The key is missing".into()])
            .as_deref(),
        Some("Run is disabled: The schema is not JSON (and 1 more problem)")
    );
    send(
        &mut model,
        EditorMsg::FieldError {
            key: "schema".into(),
            error: None,
        },
    );
    assert_eq!(
        model.run_blocker(Vec::new()),
        None,
        "cleared, the field no longer holds Run"
    );
}

#[test]
fn a_lessons_hold_says_why_run_waits_before_anything_else() {
    let mut model = fresh();
    send(&mut model, EditorMsg::Picked(TURN_LIMIT.into()));
    send(
        &mut model,
        EditorMsg::Held(Some("Make your prediction first.".into())),
    );
    assert_eq!(
        model.run_blocker(Vec::new()).as_deref(),
        Some("Make your prediction first.")
    );
    send(&mut model, EditorMsg::Held(None));
    assert_eq!(
        model.run_blocker(Vec::new()).as_deref(),
        Some(view_model::LOADING_BLOCKER)
    );
}

#[test]
fn a_field_edit_rewrites_one_value_and_keeps_the_form_as_it_is() {
    let mut model = fresh();
    let revision = model.revision();
    send(
        &mut model,
        EditorMsg::FieldEdited {
            key: "max_turns".into(),
            path: vec![Key::Field("limits"), Key::Field("max_turns")],
            value: Some(json!(7)),
        },
    );
    let doc: Value = serde_json::from_str(model.text()).unwrap();
    assert_eq!(doc["limits"]["max_turns"], json!(7));
    assert_eq!(model.selected(), CUSTOM);
    assert_eq!(label(&model), "Edited from name of get-time");
    // The form's own edit does not rebuild the form (the field keeps focus).
    assert_eq!(model.revision(), revision);
}

#[test]
fn a_field_edit_that_cannot_apply_is_said_under_the_field_and_changes_no_text() {
    let mut model = fresh();
    send(&mut model, EditorMsg::Typed("[1]".into()));
    send(
        &mut model,
        EditorMsg::FieldEdited {
            key: "max_turns".into(),
            path: vec![Key::Field("limits"), Key::Field("max_turns")],
            value: Some(json!(7)),
        },
    );
    assert_eq!(model.text(), "[1]");
    assert_eq!(model.field_errors().len(), 1);
    assert_eq!(model.field_errors()[0].0, "max_turns");
}

#[test]
fn a_text_replaced_from_outside_rebuilds_the_form_and_forgets_its_errors() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::FieldError {
            key: "schema".into(),
            error: Some("not JSON".into()),
        },
    );
    let revision = model.revision();
    pick(&mut model, TURN_LIMIT);
    assert!(model.revision() > revision);
    assert!(model.field_errors().is_empty());
}

#[test]
fn the_share_notice_goes_with_the_text_it_describes() {
    let mut model = fresh();
    send(
        &mut model,
        EditorMsg::NoticeSaid(Some("Link copied.".into())),
    );
    assert_eq!(model.notice().map(String::as_str), Some("Link copied."));
    keystroke(&mut model);
    assert_eq!(model.notice(), None);
}

#[test]
fn the_share_notice_stays_while_the_text_does() {
    let mut model = fresh();
    send(&mut model, EditorMsg::NoticeSaid(Some("Exported.".into())));
    send(&mut model, EditorMsg::Typed(OPENING_JSON.into()));
    send(&mut model, EditorMsg::ArrivalSaid(Some("x".into())));
    assert_eq!(model.notice().map(String::as_str), Some("Exported."));
    send(&mut model, EditorMsg::NoticeSaid(None));
    assert_eq!(model.notice(), None);
}

const WITH_SECRET: &str = r#"{"name": "s", "mcp_servers": [{"name": "docs", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer abc123"}}]}"#;

#[test]
fn a_header_value_leaves_a_pasted_text_before_it_is_saved() {
    let mut model = fresh();
    let cmds = send(&mut model, EditorMsg::Typed(WITH_SECRET.into()));
    assert!(!model.text().contains("abc123"), "{}", model.text());
    assert!(cmds.contains(&EditorCmd::HoldSecrets(WITH_SECRET.into())));
    let saved = saved_text(&cmds).unwrap();
    assert!(!saved.contains("abc123"));
    assert!(checks(&cmds).iter().all(|text| !text.contains("abc123")));
}

#[test]
fn a_saved_draft_with_a_header_value_is_saved_again_without_it() {
    let (model, cmds) = EditorModel::open(Opening {
        saved_text: Some(WITH_SECRET.into()),
        ..Opening::default()
    });
    assert!(!model.text().contains("abc123"));
    assert!(!saved_text(&cmds).unwrap().contains("abc123"));
    assert!(cmds.contains(&EditorCmd::HoldSecrets(WITH_SECRET.into())));
}
