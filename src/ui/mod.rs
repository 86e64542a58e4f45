//! Components that more than one feature draws (each feature's own are in
//! its folder's `view`). Each renders what it is given and reports input
//! through callbacks or page state's actions; the decisions about a run are
//! the state's and the harness's, never a component's.
//!
//! - [`field`]: one labelled input with its unit, hint and problem, linked
//!   for assistive technology; every form uses it.
//! - [`schema_form`]: a form built from a JSON Schema, beside its JSON.
//! - [`tool_bench`]: calling a tool by hand (a split module of its own).
//! - [`json_editor`], [`problem_list`], [`guide_link`].

pub mod field;
pub mod guide_link;
pub mod json_editor;
pub mod problem_list;
pub mod schema_form;
pub mod tool_bench;
