//! For each exit, a built-in scenario that ends there: "show me a run that
//! stops here".

use harness::event::Status;
use harness::library::{BuiltinScenario, BUILTIN, OPENING_ID};

/// The picker's group made to show the ways a run stops.
const STOP_CONDITIONS: &str = "Stop conditions";

/// The built-in that ends with `status` when its approvals are approved:
/// the "Stop conditions" group's first, else the library's first. A plain
/// `done` is the opening scenario, the simplest run there is. `cancelled`'s
/// is a call that hangs until the person presses Stop.
pub fn lesson_for(status: Status) -> Option<&'static BuiltinScenario> {
    let ends_there = |b: &&BuiltinScenario| b.expected_status == status.as_str();
    if status == Status::Done {
        return BUILTIN
            .iter()
            .filter(ends_there)
            .find(|b| b.id == OPENING_ID);
    }
    BUILTIN
        .iter()
        .filter(ends_there)
        .find(|b| b.group == STOP_CONDITIONS)
        .or_else(|| BUILTIN.iter().find(ends_there))
}
