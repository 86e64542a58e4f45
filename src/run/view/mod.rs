//! What the page draws of a run: the timeline of turn cards and the
//! window that picks which are drawn, the counters, the stop banner, the
//! approval bar and the answer panel (shown only while a run waits), and
//! the Run state panel.

pub mod answer_panel;
pub mod approval_bar;
pub mod counters;
pub mod run_state_panel;
pub mod stop_banner;
pub mod timeline;
pub mod timeline_window;
pub mod turn_card;
