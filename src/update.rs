//! The shape every stateful feature of the page takes: a plain model that
//! changes only when it is sent a message, and says what it wants done in
//! the world as commands (data), not by doing it. No Leptos and no async
//! here, so a model's behaviour (a stale answer dropped, a notice leaving
//! with its run, a paused run continued) is a native `cargo test`: build the
//! model, send it messages, look at its fields and the commands it returned.
//!
//! The page holds a model in its adapter (`run::controller` holds the
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
