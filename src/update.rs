//! The shape every stateful feature of the page takes: a plain model that
//! changes only when it is sent a message, and says what it wants done in
//! the world as commands (data), not by doing it. No Leptos and no async
//! here, so a model's behaviour (a stale answer dropped, a notice leaving
//! with its run, a paused run continued) is a native `cargo test`: build the
//! model, send it messages, look at its fields and the commands it returned.
//!
//! The page holds a model in its adapter (`state::controller` holds the
//! runs'), which performs the commands and sends their answers back as
//! messages.

/// A model changed by messages. `update` is the only way in: it changes the
/// model and returns the commands the change calls for, in order.
pub trait Update {
    /// What can happen to the model: a person's action, or a command's answer.
    type Msg;
    /// What the model asks the world to do (fetch, store, start a run, set a
    /// timer); each may answer with a message.
    type Cmd;

    fn update(&mut self, msg: Self::Msg) -> Vec<Self::Cmd>;
}

/// "Latest wins" as plain data. Work a model starts and awaits (a fetch, a
/// load, a check) carries the ticket it was started with; when its answer
/// comes back as a message, the model keeps it only if no newer start has
/// taken a ticket since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latest {
    newest: u64,
}

/// One start of a kind of work: current until the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket(u64);

impl Latest {
    /// Starts an attempt: every ticket taken before is stale from now on.
    // A line of tickets, not an iterator: it never ends and takes `&mut`
    // only to move its newest on.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Ticket {
        self.newest += 1;
        Ticket(self.newest)
    }

    /// Makes every ticket taken so far stale without starting anything (an
    /// edit that makes the work in flight moot).
    pub fn drop_all(&mut self) {
        self.newest += 1;
    }

    /// No newer attempt has started since `ticket` was taken.
    pub fn is_current(&self, ticket: Ticket) -> bool {
        ticket.0 == self.newest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_ticket_is_current() {
        let mut line = Latest::default();
        let first = line.next();
        assert!(line.is_current(first));
        let second = line.next();
        assert!(!line.is_current(first) && line.is_current(second));
        line.drop_all();
        assert!(!line.is_current(second));
    }

    #[test]
    fn lines_are_independent() {
        let mut one = Latest::default();
        let mut other = Latest::default();
        let mine = other.next();
        one.next();
        one.next();
        assert!(other.is_current(mine));
    }
}
