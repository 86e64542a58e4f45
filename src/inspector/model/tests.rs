//! The inspector driven as its cards and buttons drive it, what it shows
//! read off the model after.

use super::*;

fn opened_at(turn: u32) -> InspectorModel {
    let mut model = InspectorModel::default();
    model.update(InspectorMsg::OpenedAt(turn));
    model
}

fn verdict_at(turn: u32, provider: Provider, path: &str) -> InspectorMsg {
    InspectorMsg::PointedAt {
        turn,
        provider,
        path: path.to_string(),
    }
}

fn tool_at(turn: u32, id: &str) -> InspectorMsg {
    InspectorMsg::PointedAtTool {
        turn,
        id: id.to_string(),
        block: ToolBlock::Call,
    }
}

#[test]
fn the_inspector_starts_closed_on_the_latest_request_in_the_run_s_format() {
    let model = InspectorModel::default();
    assert!(!model.open());
    assert_eq!(model.turn(), None);
    assert_eq!(model.view(), InspectorView::Request);
    assert_eq!(model.provider(), None);
    assert_eq!(model.pointed(), None);
}

#[test]
fn a_request_card_opens_its_turn_s_request() {
    let model = opened_at(3);
    assert!(model.open());
    assert_eq!(model.turn(), Some(3));
    assert_eq!(model.view(), InspectorView::Request);
    assert_eq!(model.pointed(), None);
}

#[test]
fn a_request_card_shows_the_request_even_when_another_view_was_picked() {
    let mut model = opened_at(1);
    model.update(InspectorMsg::ViewPicked(InspectorView::Conversation));
    model.update(InspectorMsg::OpenedAt(2));
    assert_eq!(model.view(), InspectorView::Request);
}

#[test]
fn a_request_card_clears_what_a_verdict_marked() {
    let mut model = InspectorModel::default();
    model.update(verdict_at(2, Provider::OpenaiChat, "messages.1"));
    model.update(InspectorMsg::OpenedAt(2));
    assert_eq!(model.pointed(), None);
}

#[test]
fn a_verdict_opens_its_turn_in_its_format_with_its_place_marked() {
    let mut model = InspectorModel::default();
    model.update(InspectorMsg::ViewPicked(InspectorView::Response));
    model.update(verdict_at(4, Provider::OpenaiResponses, "contents.2"));
    assert!(model.open());
    assert_eq!(model.turn(), Some(4));
    assert_eq!(model.view(), InspectorView::Request);
    assert_eq!(model.provider(), Some(Provider::OpenaiResponses));
    assert_eq!(
        model.pointed(),
        Some(&Pointed::Path {
            provider: Provider::OpenaiResponses,
            path: "contents.2".into()
        })
    );
}

#[test]
fn a_tool_card_marks_its_block_in_the_format_already_chosen() {
    let mut model = opened_at(1);
    model.update(InspectorMsg::FormatPicked(Provider::OpenaiChat));
    model.update(tool_at(2, "call_1"));
    assert_eq!(model.provider(), Some(Provider::OpenaiChat));
    assert_eq!(model.turn(), Some(2));
    assert_eq!(
        model.pointed(),
        Some(&Pointed::Tool {
            id: "call_1".into(),
            block: ToolBlock::Call
        })
    );
}

#[test]
fn switching_the_view_keeps_the_turn_and_the_mark() {
    let mut model = InspectorModel::default();
    model.update(tool_at(2, "call_1"));
    model.update(InspectorMsg::ViewPicked(InspectorView::Both));
    assert_eq!(model.view(), InspectorView::Both);
    assert_eq!(model.turn(), Some(2));
    assert!(model.pointed().is_some());
}

#[test]
fn switching_the_format_clears_a_verdict_s_place_which_is_in_one_format() {
    let mut model = InspectorModel::default();
    model.update(verdict_at(2, Provider::Anthropic, "messages.1.content.0"));
    model.update(InspectorMsg::FormatPicked(Provider::OpenaiChat));
    assert_eq!(model.provider(), Some(Provider::OpenaiChat));
    assert_eq!(model.pointed(), None);
}

#[test]
fn switching_the_format_keeps_a_tool_block_which_is_in_each() {
    let mut model = InspectorModel::default();
    model.update(tool_at(2, "call_7"));
    model.update(InspectorMsg::FormatPicked(Provider::OpenaiResponses));
    assert!(matches!(model.pointed(), Some(Pointed::Tool { id, .. }) if id == "call_7"));
}

#[test]
fn stepping_to_another_turn_clears_the_mark() {
    let mut model = InspectorModel::default();
    model.update(verdict_at(2, Provider::OpenaiChat, "input[4]"));
    model.update(InspectorMsg::SteppedTo(3));
    assert_eq!(model.turn(), Some(3));
    assert_eq!(model.pointed(), None);
    assert!(model.open());
}

#[test]
fn opening_at_the_latest_turn_forgets_the_turn_picked() {
    let mut model = opened_at(2);
    model.update(InspectorMsg::Closed);
    model.update(InspectorMsg::OpenedLatest);
    assert!(model.open());
    assert_eq!(model.turn(), None);
}

#[test]
fn marking_a_verdict_s_place_in_the_body_points_at_it() {
    let mut model = opened_at(1);
    model.update(InspectorMsg::Marked {
        provider: Provider::OpenaiChat,
        path: "messages.2".into(),
    });
    assert_eq!(
        model.pointed(),
        Some(&Pointed::Path {
            provider: Provider::OpenaiChat,
            path: "messages.2".into()
        })
    );
}

#[test]
fn closing_clears_the_mark_and_keeps_the_view_and_format() {
    let mut model = InspectorModel::default();
    model.update(verdict_at(2, Provider::OpenaiResponses, "contents.1"));
    model.update(InspectorMsg::ViewPicked(InspectorView::Both));
    model.update(InspectorMsg::Closed);
    assert!(!model.open());
    assert_eq!(model.pointed(), None);
    assert_eq!(model.view(), InspectorView::Both);
    assert_eq!(model.provider(), Some(Provider::OpenaiResponses));
}

#[test]
fn a_verdict_s_mark_goes_when_another_run_is_in_view() {
    let mut model = InspectorModel::default();
    model.update(InspectorMsg::RunInView(1));
    model.update(verdict_at(2, Provider::OpenaiChat, "messages.1"));
    model.update(InspectorMsg::RunInView(2));
    assert_eq!(model.pointed(), None);
    // The inspector stays open on the turn picked.
    assert!(model.open());
    assert_eq!(model.turn(), Some(2));
}

#[test]
fn a_tool_s_mark_goes_when_another_run_is_in_view() {
    let mut model = InspectorModel::default();
    model.update(InspectorMsg::RunInView(5));
    model.update(tool_at(1, "call_1"));
    model.update(InspectorMsg::RunInView(6));
    assert_eq!(model.pointed(), None);
}

#[test]
fn the_mark_stays_while_the_same_run_is_in_view() {
    let mut model = InspectorModel::default();
    model.update(InspectorMsg::RunInView(3));
    model.update(verdict_at(2, Provider::OpenaiChat, "messages.1"));
    model.update(InspectorMsg::RunInView(3));
    assert!(model.pointed().is_some());
}

#[test]
fn the_first_run_heard_of_keeps_the_mark_that_opened_the_inspector() {
    // A verdict opens the inspector before the panel has said which run
    // is in view: the mark is about that run.
    let mut model = InspectorModel::default();
    model.update(verdict_at(2, Provider::OpenaiChat, "messages.1"));
    model.update(InspectorMsg::RunInView(9));
    assert!(model.pointed().is_some());
}

#[test]
fn every_view_has_a_label_and_a_name_of_its_own() {
    let labels: std::collections::HashSet<_> =
        InspectorView::ALL.iter().map(|v| v.label()).collect();
    let names: std::collections::HashSet<_> =
        InspectorView::ALL.iter().map(|v| v.as_str()).collect();
    assert_eq!(labels.len(), InspectorView::ALL.len());
    assert_eq!(names.len(), InspectorView::ALL.len());
}
