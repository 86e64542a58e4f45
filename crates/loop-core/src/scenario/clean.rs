//! Loading a file that has no problem, without the code that words them.
//!
//! `check` reads a scenario part by part so that one load reports every
//! problem, and that reader (`parts`, with its stand-ins and number
//! trials) is most of the loader's code. A file with no problem never needs
//! it: every pass finds nothing and the scenario is exactly what serde
//! reads. So this asks each pass only whether it finds anything, and gives
//! up (`None`) at the first thing it would have to explain; the caller then
//! loads the file with `Scenario::load`, which says what is wrong. The web
//! page keeps `parts` and `check` in a module it fetches only then (issue
//! 28), so the first run of a built-in does not carry them.

use serde::Deserialize;
use serde_json::Value;

use super::numbers::Spellings;
use super::{bounds, scenario_schema, Scenario};

/// The scenario in `text` when `Scenario::load` would load it as it is,
/// with nothing to report; `None` when it has any problem, and also for a
/// few files that load but only after a change (`10.0` in an integer field
/// becomes `10`), which `Scenario::load` makes.
pub fn load_if_clean(text: &str) -> Option<Scenario> {
    let spellings = Spellings::scan(text);
    // A number past a float's range is a problem; `load` words it.
    if spellings.overflowing().next().is_some() {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    scenario_schema().ok()?.validate(&value).ok()?;
    if !bounds::check(&value, &spellings).is_empty() {
        return None;
    }
    // Where every part fits its type, reading part by part changes nothing
    // and finds nothing, and `check` returns this same deserialization.
    let scenario = Scenario::deserialize(&value).ok()?;
    scenario.semantic_problems().is_empty().then_some(scenario)
}
