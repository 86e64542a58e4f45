//! Components. Each renders what it is given (view-model rows, a banner,
//! page state to read) and reports user input through callbacks or the page
//! state's actions; the decisions about a run are the state's and the
//! harness's, never a component's. A component may import page state, split
//! points and pure modules; nothing but another component or the page
//! (`app`) imports a component.
//!
//! These are split modules of their own, each declaring its `#[lazy]`
//! function beside it: the answer panel and the approval bar (shown only
//! while a run waits), the
//! timeline with its cards, the loop diagram, the Compare panel, the Run
//! state panel, calling a tool by hand, the inspector and the run history's
//! list (painted right after the page), the Lessons panel
//! (fetched the first time the mode opens) and the Time view (`waterfall`,
//! fetched the first time it is opened).

pub mod answer_panel;
pub mod approval_bar;
pub mod compare_panel;
pub mod conversation_view;
pub mod counters;
pub mod field;
pub mod guide_link;
pub mod history_panel;
pub mod inspector_panel;
pub mod json_editor;
pub mod lesson_parts;
pub mod lessons_panel;
pub mod loop_diagram;
pub mod mcp_panel;
pub mod model_settings;
pub mod problem_list;
pub mod protocol_verdict;
pub mod run_state_panel;
pub mod scenario_form;
pub mod scenario_picker;
pub mod schema_form;
pub mod share_bar;
pub mod stop_banner;
pub mod timeline;
pub mod timeline_window;
pub mod tool_bench;
pub mod turn_card;
pub mod waterfall;
