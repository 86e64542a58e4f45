//! Small components. Each renders values it is given (view-model rows, a
//! banner, signals to read) and reports user input through callbacks; none of
//! them decides anything about a run.

pub mod event_list;
pub mod problem_list;
pub mod scenario_picker;
pub mod stop_banner;
