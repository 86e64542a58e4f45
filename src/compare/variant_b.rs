//! What variant B holds as the scenario picked changes: B follows the
//! pick. A scenario that is half of a built-in pair brings the pair's other
//! half into B (so B is the pair's other side, its differing fields marked);
//! any other built-in brings a copy of itself (B starts as a copy of A).
//!
//! B is the person's work once they have edited it: replacing it then puts
//! it aside, to be brought back, never dropped (`worth_keeping`).
//!
//! Invariant: pure, no signals or DOM; tested natively.

use harness::library;

/// What B becomes when `picked` is picked: the built-in whose JSON goes
/// into B, and the sentence that says so.
pub fn follows(picked: &str) -> (&'static str, String) {
    match library::pair_containing(picked) {
        Some(pair) => {
            let (role_a, role_b) = pair.roles();
            let (other, role) = if pair.a == picked {
                (pair.b, role_b)
            } else {
                (pair.a, role_a)
            };
            (
                other,
                format!(
                    "B is now {other} ({role}), the other half of {} with {picked}: the fields where it differs from A are marked.",
                    pair.kind_words()
                ),
            )
        }
        None => {
            let id = library::find(picked).map_or("", |b| b.id);
            (
                id,
                format!("B is now a copy of {picked}, as A is: edit B to compare."),
            )
        }
    }
}

/// Whether B's `current` text is the person's own work, to be kept aside
/// when B is replaced: not when it is empty or is what the page put there
/// last (`put`), which can be put there again.
pub fn worth_keeping(current: &str, put: Option<&str>) -> bool {
    !current.trim().is_empty() && put != Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_half_brings_the_other_half_and_a_lone_builtin_a_copy() {
        let pair = library::pairs().next().unwrap();
        assert_eq!(follows(pair.a).0, pair.b);
        assert_eq!(follows(pair.b).0, pair.a);
        assert!(follows(pair.a).1.contains("the other half of"));
        assert!(library::pair_containing("turn-limit").is_none());
        assert_eq!(follows("turn-limit").0, "turn-limit");
        assert_eq!(follows("no-such-scenario").0, "");
    }

    #[test]
    fn only_an_edit_of_the_persons_own_is_kept_aside() {
        assert!(!worth_keeping("  ", None));
        assert!(!worth_keeping(
            "{\"task\": \"t\"}",
            Some("{\"task\": \"t\"}")
        ));
        assert!(worth_keeping(
            "{\"task\": \"u\"}",
            Some("{\"task\": \"t\"}")
        ));
        // Kept across a reload: the page did not put it there this time.
        assert!(worth_keeping("{\"task\": \"t\"}", None));
    }
}
