//! What counts as an id in an answer (`facts::id_like_words`), which the
//! replay's `ids_exist` check looks up in the tool results: a table of what
//! is and is not an id, and properties over generated text.

use harness::facts::{id_like_words, names};
use proptest::prelude::*;

#[test]
fn ids_of_every_shape_the_tools_use_are_found() {
    for (text, ids) in [
        (
            "Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00).",
            vec!["ord_f6g7h8i9j0", "re_0001"],
        ),
        ("Casa Alfama (h_lis_01) costs 192 EUR.", vec!["h_lis_01"]),
        (
            "Order ORD-1001 and A1001, again A1001.",
            vec!["ORD-1001", "A1001"],
        ),
        ("refund `rf_0001`: done", vec!["rf_0001"]),
        (
            "Ticket 550e8400-e29b-41d4-a716-446655440000 is open.",
            vec!["550e8400-e29b-41d4-a716-446655440000"],
        ),
        (
            "See https://shop.example/orders/ord_k1l2m3n4o5?x=1",
            vec!["ord_k1l2m3n4o5"],
        ),
        ("call toolu_0001 failed", vec!["toolu_0001"]),
    ] {
        assert_eq!(id_like_words(text), ids, "{text}");
    }
}

#[test]
fn words_numbers_dates_prices_and_version_names_are_not_ids() {
    for text in [
        "The order is processing; refunding it.",
        "I called issue_refund and get_order_status.",
        "It costs 42.00 EUR, or $42, or 4200 cents, for 3 nights.",
        "Check in on 2027-03-14; now is 2026-11-29T12:00:00Z.",
        "Answered by gpt-4o and claude-3-5-sonnet in 1.5 s.",
        "An MP3, a B2B deal, Q3 results, IPv6, HTTP2 and UTF-8.",
        "A T-shirt, a re-run, an e-mail, x-large.",
        "",
        "____ ---- _-_",
    ] {
        assert_eq!(id_like_words(text), Vec::<&str>::new(), "{text}");
    }
}

#[test]
fn technical_names_shaped_like_ids_are_counted() {
    // The shape of COVID-19 is the shape of ORD-19: the check cannot tell
    // them apart, so an answer naming one must have it from a tool or the task.
    assert_eq!(
        id_like_words("COVID-19, SHA-256 and H264"),
        vec!["COVID-19", "SHA-256", "H264"]
    );
}

#[test]
fn a_result_names_an_id_only_as_a_whole_word() {
    let result = r#"{"ok":true,"order_id":"ord_f6g7h8i9j0","refund_id":"re_0001"}"#;
    assert!(names(result, "re_0001"));
    assert!(names(result, "ord_f6g7h8i9j0"));
    assert!(!names(result, "re_000"));
    assert!(!names(result, "re_00011"));
    assert!(!names("denied by the user: no reason given", "re_0001"));
}

proptest! {
    /// A letter prefix, a separator and two or more digits is always an id,
    /// wherever it stands in a sentence.
    #[test]
    fn a_prefixed_id_is_found_in_any_sentence(
        prefix in "[a-zA-Z]{1,6}",
        separator in "[_-]",
        digits in "[0-9]{2,8}",
        before in "[a-z ,.()]{0,20}",
        after in "[a-z ,.()]{0,20}",
    ) {
        let id = format!("{prefix}{separator}{digits}");
        let text = format!("{before} {id} {after}");
        prop_assert!(id_like_words(&text).contains(&id.as_str()), "{text}");
    }

    /// Dates, times, amounts and plain numbers never are.
    #[test]
    fn dates_times_and_amounts_are_never_ids(
        year in 1900u32..2100, month in 1u32..13, day in 1u32..29,
        hour in 0u32..24, cents in 0u64..10_000_000,
    ) {
        let text = format!(
            "On {year}-{month:02}-{day:02} at {year}-{month:02}-{day:02}T{hour:02}:00:00Z it cost {}.{:02} ({cents} cents).",
            cents / 100, cents % 100
        );
        prop_assert_eq!(id_like_words(&text), Vec::<&str>::new());
    }

    /// Whatever the text, every id found is a whole word of it, found once,
    /// and the tokenizer never panics (multi-byte text included).
    #[test]
    fn every_id_found_is_a_word_of_the_text(text in "\\PC{0,80}") {
        let ids = id_like_words(&text);
        for (i, id) in ids.iter().enumerate() {
            prop_assert!(names(&text, id), "{id} in {text:?}");
            prop_assert!(!ids[..i].contains(id));
        }
    }
}
