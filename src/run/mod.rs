//! Runs as the page shows them: what the newest run has done so far (its
//! log, counters, cards, Run state), whether it waits for a person (an
//! approval, a step-mode pause) and how long it has taken. The model is
//! plain data changed by messages (`model`); the controller
//! (`run::controller`) holds it, drives the harness and performs the
//! commands it returns. `view` draws a run; `view_model`, `turn_view`,
//! `card_window` and `run_state` are the pure helpers the views read.

pub mod card_window;
pub mod controller;
pub mod model;
pub mod run_state;
pub mod turn_view;
pub mod view;
pub mod view_model;
