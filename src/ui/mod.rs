//! Small components. Each renders values it is given (view-model rows, a
//! banner, signals to read) and reports user input through callbacks; none of
//! them decides anything about a run.

pub mod approval_bar;
pub mod compare_panel;
pub mod counters;
pub mod history_panel;
pub mod json_editor;
pub mod loop_diagram;
pub mod model_settings;
pub mod problem_list;
pub mod run_state_panel;
pub mod scenario_form;
pub mod scenario_picker;
pub mod share_bar;
pub mod stop_banner;
pub mod timeline;
pub mod wire_panel;
