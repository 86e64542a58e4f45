//! The page's one way to drop a stale answer. Work the page
//! starts and awaits (a built-in's text fetched for a pick, an MCP load, a
//! live protocol check, a comparison) can be overtaken by a newer start
//! before it answers; the newer one wins and the older answer is dropped.
//! Each such kind of work keeps a `Generation`, takes a `Ticket` when it
//! starts, and asks the ticket whether it is still current when its answer
//! lands. (The run in view has an id of its own, `Controller::run_id`,
//! which the page also draws by; a run's tasks compare against it.)

use leptos::prelude::*;

/// A line of attempts, each newer one making the older ones stale.
#[derive(Clone, Copy)]
pub struct Generation(StoredValue<u64>);

/// One attempt: current until the next one starts.
#[derive(Clone, Copy)]
pub struct Ticket {
    generation: Generation,
    number: u64,
}

impl Generation {
    pub fn new() -> Self {
        Generation(StoredValue::new(0))
    }

    /// Starts an attempt: every ticket taken before is stale from now on.
    pub fn next(self) -> Ticket {
        self.0.update_value(|n| *n += 1);
        Ticket {
            generation: self,
            number: self.0.get_value(),
        }
    }

    /// Makes every ticket taken so far stale, starting nothing new (an
    /// edit that makes the work in flight moot).
    pub fn drop_all(self) {
        self.next();
    }
}

impl Default for Generation {
    fn default() -> Self {
        Self::new()
    }
}

impl Ticket {
    /// No newer attempt has started since this one.
    pub fn is_current(self) -> bool {
        self.generation.0.get_value() == self.number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_ticket_is_current() {
        let line = Generation::new();
        let first = line.next();
        assert!(first.is_current());
        let second = line.next();
        assert!(!first.is_current() && second.is_current());
        line.drop_all();
        assert!(!second.is_current());
        // Lines are independent.
        let other = Generation::new();
        let mine = other.next();
        line.next();
        assert!(mine.is_current());
    }
}
