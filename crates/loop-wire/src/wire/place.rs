//! Places said in plain words: "the 4th message (user), its 2nd block, a
//! tool_result".
//!
//! Job: one phrasing for every pointer a reader sees, whether it points into
//! a wire body (the checker's explanations and [`Violation::place`]) or into
//! the harness history ([`Rejection::place`]). Readers count from 1 and
//! recognise an entry by what its JSON says it is, so a place is an ordinal,
//! the list's noun, and the entry's role or type; never a zero-based index.
//!
//! [`Violation::place`]: super::Violation::place
//! [`Rejection::place`]: super::Rejection::place

use crate::limits::ordinal;

/// "the 4th message (user)": entry `index` (counted from 0) of a list of
/// `noun`s, with its role or type when the JSON names one.
pub(crate) fn item(noun: &str, index: usize, kind: Option<&str>) -> String {
    let mut text = format!("the {} {noun}", ordinal(index + 1));
    if let Some(kind) = kind {
        text.push_str(&format!(" ({kind})"));
    }
    text
}

/// "its 2nd block, a tool_result": part `index` (counted from 0) of an
/// entry, with its type when the JSON names one.
pub(crate) fn part(noun: &str, index: usize, kind: Option<&str>) -> String {
    let mut text = format!("its {} {noun}", ordinal(index + 1));
    if let Some(kind) = kind {
        text.push_str(&format!(", {} {kind}", article(kind)));
    }
    text
}

/// An entry, then its part when there is one: "the 4th message (user), its
/// 2nd block, a tool_result".
pub(crate) fn joined(item: String, part: Option<String>) -> String {
    match part {
        Some(part) => format!("{item}, {part}"),
        None => item,
    }
}

/// The phrase with a capital first letter, to open a sentence.
pub(crate) fn capitalized(phrase: &str) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "an" before a vowel ("an image"), "a" otherwise ("a tool_use"): a
/// hand-written body may hold any block type.
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_counts_from_one_and_names_role_and_kind() {
        let at = joined(
            item("message", 3, Some("user")),
            Some(part("block", 1, Some("tool_result"))),
        );
        assert_eq!(at, "the 4th message (user), its 2nd block, a tool_result");
        assert_eq!(
            item("input item", 11, Some("function_call_output")),
            "the 12th input item (function_call_output)"
        );
        assert_eq!(part("tool call", 0, None), "its 1st tool call");
        assert_eq!(part("block", 2, Some("image")), "its 3rd block, an image");
        assert_eq!(joined(item("message", 0, None), None), "the 1st message");
    }

    #[test]
    fn a_phrase_opens_a_sentence_capitalized() {
        assert_eq!(capitalized("the 2nd message"), "The 2nd message");
        assert_eq!(capitalized(""), "");
    }
}
