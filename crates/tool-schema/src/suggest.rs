//! "Did you mean …?": the nearest known name to a misspelt one. This crate
//! uses it for keywords, type names and property names; the harness re-exports
//! it (`harness::suggest`) for scenario fields, tools, scenarios and commands,
//! so every suggestion follows one rule.
//!
//! Its messages also reach models, which follow a suggestion blindly, so the
//! rule is cautious: at most two edits, and no more than a third of the
//! longer word's letters (one edit is always allowed).

/// Longest word compared: a longer one is no typo of a known name, and
/// comparing it would only cost time (property names come from models).
const LONGEST_WORD: usize = 64;

/// The candidate closest to `word`, case-insensitively and counting a swap of
/// two neighbouring letters as one edit (so "requried" is one edit from
/// "required"), if it is a plausible typo. Ties go to the earlier candidate,
/// so callers list their preferred spellings first. An exact match is no typo.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word_len = word.chars().count();
    if word_len > LONGEST_WORD {
        return None;
    }
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let len = candidate.chars().count();
        if candidate == word || len.abs_diff(word_len) > 2 {
            continue;
        }
        let distance = strsim::osa_distance(&lower, &candidate.to_lowercase());
        let allowed = (len.max(word_len) / 3).clamp(1, 2);
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn suggests_close_names_only() {
        let names = ["max_turns", "max_tool_calls", "deadline_ms"];
        assert_eq!(nearest("max_turn", names), Some("max_turns"));
        assert_eq!(nearest("MAX_TRUNS", names), Some("max_turns"));
        assert_eq!(nearest("objekt", ["string", "object"]), Some("object"));
        assert_eq!(nearest("colour", names), None);
        assert_eq!(
            nearest("max_turns", names),
            None,
            "an exact name is no typo"
        );
        assert_eq!(nearest(&"m".repeat(100), names), None);
        // Short words still get one edit: a transposed command name.
        assert_eq!(nearest("rnu", ["run", "list"]), Some("run"));
        assert_eq!(nearest("get-tiem", ["get-time"]), Some("get-time"));
        assert_eq!(nearest("ab", ["xy"]), None);
    }
}
