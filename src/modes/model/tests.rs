//! The modes driven as the page drives them: links followed, buttons
//! pressed, and which mode is shown and which panels are drawn after.

use super::*;

fn followed(model: &mut ModesModel, fragment: &str) -> Vec<ModesCmd> {
    model.update(ModesMsg::Followed(fragment.to_string()))
}

#[test]
fn a_link_names_its_mode_and_anything_else_keeps_or_resets_it() {
    for mode in Mode::ALL {
        assert_eq!(
            Mode::of_fragment(&format!("#mode={}", mode.key())),
            Some(mode)
        );
    }
    assert_eq!(Mode::of_fragment("#mode=nothing"), None);
    assert_eq!(Mode::after(Mode::Compare, "#mode=history"), Mode::History);
    assert_eq!(Mode::after(Mode::Compare, ""), Mode::Run);
    assert_eq!(Mode::after(Mode::Compare, "#s=abc"), Mode::Compare);
    assert_eq!(Mode::after(Mode::Scenario, "#lesson=x"), Mode::Scenario);
    // Presenting is the Run mode.
    assert_eq!(Mode::after(Mode::Compare, PRESENT), Mode::Run);
}

#[test]
fn a_page_opened_without_a_mode_link_shows_run_and_draws_only_run() {
    let model = ModesModel::new("");
    assert_eq!(model.now(), Mode::Run);
    for mode in Mode::ALL {
        assert_eq!(model.opened(mode), mode == Mode::Run, "{mode:?}");
    }
}

#[test]
fn a_page_opened_with_a_mode_link_opens_in_that_mode_and_draws_only_it() {
    let model = ModesModel::new("#mode=history");
    assert_eq!(model.now(), Mode::History);
    assert!(model.opened(Mode::History));
    assert!(!model.opened(Mode::Run));
}

#[test]
fn a_page_opened_with_a_scenario_or_lesson_link_shows_run() {
    assert_eq!(ModesModel::new("#s=abc").now(), Mode::Run);
    assert_eq!(ModesModel::new("#lesson=x").now(), Mode::Run);
    assert_eq!(ModesModel::new(PRESENT).now(), Mode::Run);
}

#[test]
fn opening_a_mode_keeps_the_earlier_panels_drawn() {
    let mut model = ModesModel::new("");
    model.update(ModesMsg::Opened(Mode::Compare));
    model.update(ModesMsg::Opened(Mode::History));
    assert_eq!(model.now(), Mode::History);
    assert!(model.opened(Mode::Run) && model.opened(Mode::Compare));
    assert!(model.opened(Mode::History));
    assert!(!model.opened(Mode::Scenario) && !model.opened(Mode::Files));
}

#[test]
fn going_back_to_run_keeps_the_other_modes_drawn() {
    let mut model = ModesModel::new("#mode=scenario");
    followed(&mut model, "");
    assert_eq!(model.now(), Mode::Run);
    assert!(model.opened(Mode::Scenario), "its panels stay, hidden");
}

#[test]
fn opening_a_mode_from_a_button_goes_to_its_link() {
    let mut model = ModesModel::new("");
    assert_eq!(
        model.update(ModesMsg::Opened(Mode::Files)),
        vec![ModesCmd::GoTo("#mode=files".into())]
    );
    // Shown at once, before the browser reports the fragment.
    assert_eq!(model.now(), Mode::Files);
}

#[test]
fn opening_the_mode_already_shown_adds_no_back_button_entry() {
    let mut model = ModesModel::new("#mode=compare");
    assert_eq!(model.update(ModesMsg::Opened(Mode::Compare)), vec![]);
    assert_eq!(model.now(), Mode::Compare);
}

#[test]
fn run_opened_while_presenting_stays_presented() {
    let mut model = ModesModel::new(PRESENT);
    // `#present` is the Run mode: asking for Run must not go to `#mode=run`.
    assert_eq!(model.update(ModesMsg::Opened(Mode::Run)), vec![]);
}

#[test]
fn the_back_button_moves_between_modes_without_going_to_a_link() {
    let mut model = ModesModel::new("");
    model.update(ModesMsg::Opened(Mode::History));
    assert_eq!(followed(&mut model, "#mode=history"), vec![]);
    assert_eq!(followed(&mut model, "#mode=compare"), vec![]);
    assert_eq!(model.now(), Mode::Compare);
    assert_eq!(followed(&mut model, ""), vec![]);
    assert_eq!(model.now(), Mode::Run);
}

#[test]
fn a_scenario_link_pasted_keeps_the_mode_open() {
    let mut model = ModesModel::new("#mode=scenario");
    followed(&mut model, "#s=abc");
    assert_eq!(model.now(), Mode::Scenario);
    followed(&mut model, "#lesson=turn-limit");
    assert_eq!(model.now(), Mode::Scenario);
}

#[test]
fn an_unknown_mode_link_keeps_the_mode_open() {
    let mut model = ModesModel::new("#mode=history");
    followed(&mut model, "#mode=nothing");
    assert_eq!(model.now(), Mode::History);
    assert_eq!(model.opened_bits().count_ones(), 1);
}

#[test]
fn each_mode_has_its_own_bit() {
    let mut model = ModesModel::new("");
    for mode in Mode::ALL {
        model.update(ModesMsg::Opened(mode));
    }
    assert_eq!(model.opened_bits().count_ones(), Mode::ALL.len() as u32);
}
