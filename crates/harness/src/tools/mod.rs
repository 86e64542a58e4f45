//! Built-in client-side tools, looked up by name from scenario files.
//!
//! Each built-in is constructed per run, so any state it keeps starts fresh.

mod clock;

use std::rc::Rc;

use crate::runtime::Runtime;
use crate::tool::ToolDef;

/// The names a scenario may list as built-in tools.
pub const BUILTIN_NAMES: &[&str] = &["get_time"];

/// Builds a built-in tool for one run, or `None` if the name is not built in.
pub fn builtin(name: &str, runtime: Rc<dyn Runtime>) -> Option<ToolDef> {
    match name {
        "get_time" => Some(clock::get_time(runtime)),
        _ => None,
    }
}
