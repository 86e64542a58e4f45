//! The page's state: signals made once in the root component, so they
//! outlive every component and every spawned run, with the actions that
//! change them. Components read it and call its actions; nothing here
//! imports a component (the layers go one way: components → page state →
//! split points → engine → browser glue and the harness).
//!
//! - [`comparison`]: the Compare panel's state machine: what it shows,
//!   the comparison in flight, Stop, a replaced comparison's answer dropped;
//!   the runs per side typed, the round shown, and the fork's step picker.
//! - [`controller`]: the run in the trace (the only module that starts or
//!   stops runs), its log, cards, counters and what it waits for.
//! - [`editor`]: the scenario text the next run loads, where it came from,
//!   and its live check (what blocks Run).
//! - [`form_doc`]: a scenario text the structured form edits (A's, or
//!   the comparison's variant B).
//! - [`history`]: the kept runs and their actions (keep, open, delete,
//!   import, export, replay).
//! - [`mcp`]: the scenario's MCP servers: their tools, loaded; the
//!   JSON-RPC exchanges; header values, held in memory only.
//! - [`model_choice`]: the Model settings (scripted or a provider).
//! - [`inspector`]: what the inspector shows (open, turn, view, format,
//!   the block a verdict points at).
//! - [`protocol`]: the protocol checker's verdicts on the run in view, live.
//! - [`tied_notice`]: a notice that leaves with the run or scenario text
//!   it describes.
//! - [`mode`]: the mode open (Run, Compare, Scenario, History,
//!   Import/Export) and the modes opened so far, whose panels are drawn.
//! - [`lessons`]: the Lessons mode's switch and a lesson link to open
//!   (the course and lessons are the split module `ui::lessons_panel`);
//!   a lesson's attempt (verdict, failed checks, hints, the run Check
//!   waits for) and which edits it undoes.

pub mod comparison;
pub mod controller;
pub mod editor;
pub mod form_doc;
pub mod history;
pub mod inspector;
pub mod lessons;
pub mod mcp;
pub mod mode;
pub mod model_choice;
pub mod protocol;
pub mod tied_notice;
