//! "Did you mean …?": the nearest known word to a misspelt one, for unknown
//! fields, built-in tools, scenarios and commands alike, so every message that
//! names a typo offers the same kind of suggestion.

/// The candidate closest to `word` by edit distance (case-insensitive), if it
/// is close enough to be a plausible typo: at most a third of the longer
/// word's letters differ (and at least one edit is always allowed). Ties go to
/// the earlier candidate, so callers list their preferred spellings first.
pub fn nearest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
        let longest = lower.chars().count().max(candidate.chars().count());
        let allowed = (longest / 3).max(1);
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

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
