//! The protocol versions this client speaks: a leaf, so the session, the
//! server end and the errors can all name them.

/// The stateless generation.
pub const MODERN: &str = "2026-07-28";
/// The handshake generation's versions, newest first.
pub const LEGACY: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
