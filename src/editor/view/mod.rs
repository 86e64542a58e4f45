//! What the page draws of the scenario: the picker, the structured form,
//! and the share bar (copy link, export, import).

pub mod scenario_form;
pub mod scenario_picker;
pub mod share_bar;
