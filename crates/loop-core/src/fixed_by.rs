//! Who can put an error right. Its own module, below everything, so errors
//! defined where they arise (`run`, `mcp::config`, which `error` re-exports
//! and so cannot import) answer with it too.

/// Who can put an error right; every layer's errors answer with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedBy {
    /// The file being read, or the scenario: whoever wrote or saved it.
    TheFile,
    /// The caller's own choice: which event to fork from, what to import
    /// first (a response needs its request's run in view), or the decision a
    /// person gives a waiting call.
    TheCaller,
}
