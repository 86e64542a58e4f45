//! "Did you mean …?": the nearest known word to a misspelt one, for unknown
//! fields, built-in tools, scenarios and commands alike, so every message that
//! names a typo offers the same kind of suggestion.

/// The one rule for "a plausible typo" lives in the schema validator, whose
/// messages reach models too (see there).
pub use tool_schema::suggest::nearest;

/// `nearest` phrased for a message: " (did you mean `max_turns`?)" or "".
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    nearest(word, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos_and_transpositions() {
        let keys = ["max_turns", "max_tool_calls", "max_cost_usd"];
        assert_eq!(nearest("max_turn", keys), Some("max_turns"));
        assert_eq!(nearest("max_truns", keys), Some("max_turns"));
        assert_eq!(nearest("MAX_TURNS_", keys), Some("max_turns"));
        assert_eq!(
            nearest("get_tiem", ["get_time", "get_order"]),
            Some("get_time")
        );
        assert_eq!(
            nearest("get-tiem", ["get-time", "hotel-search"]),
            Some("get-time")
        );
    }

    #[test]
    fn says_nothing_when_nothing_is_close() {
        assert_eq!(nearest("colour", ["max_turns", "tools"]), None);
        assert_eq!(did_you_mean("zzz", ["max_turns"]), "");
        assert_eq!(
            did_you_mean("taks", ["task", "tools"]),
            " (did you mean `task`?)"
        );
    }
}
