//! Sharing a scenario: the `#s=` URL fragment (base64url of the scenario
//! text, no padding) and the choice of which scenario the page opens with.
//!
//! The encoder is a few lines of plain Rust rather than a crate, so the
//! bundle pays nothing for it; it is tested natively against RFC 4648's
//! vectors.

use crate::editor::provenance;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The fragment prefix of a share link.
pub const FRAGMENT_PREFIX: &str = "#s=";

/// base64url without padding (RFC 4648 §5).
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextets = chunk.len() + 1;
        for i in 0..sextets {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url, with or without padding; also accepts the standard
/// alphabet's `+` and `/`, since links get hand-edited.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => {
                return Err(format!(
                    "the link is broken: its character {} is not one a share link uses",
                    i + 1
                ))
            }
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if text.len() % 4 == 1 {
        return Err("the link is cut off: the scenario in it stops part-way".to_string());
    }
    Ok(out)
}

/// The share link's fragment for a scenario's text.
pub fn fragment_for(text: &str) -> String {
    format!("{FRAGMENT_PREFIX}{}", encode(text.trim().as_bytes()))
}

/// The scenario text a `#s=` fragment carries; `None` when the fragment is
/// not a share link, `Err` (why, in words) when it is one but does not hold
/// a whole scenario: it does not decode, or what it decodes to is not
/// complete JSON (a link cut short still decodes, to the first part).
pub fn scenario_from_fragment(fragment: &str) -> Option<Result<String, String>> {
    let encoded = fragment.strip_prefix(FRAGMENT_PREFIX)?;
    Some(decode(encoded).and_then(|bytes| {
        let text = String::from_utf8(bytes)
            .map_err(|_| "the link is broken or cut off: it does not decode to text".to_string())?;
        match provenance::broken_link(&text) {
            Some(why) => Err(why),
            None => Ok(text),
        }
    }))
}

/// The one message a share link that cannot be loaded gets.
pub fn broken_link_notice(why: &str) -> String {
    format!(
        "Nothing was loaded from this share link: {why}. Ask for the link again; the editor keeps your last scenario."
    )
}

/// The message a share link that loaded gets.
pub const LINK_LOADED: &str = "Loaded the scenario from the share link.";

/// Where the page's first scenario came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Link,
    Saved,
}

/// A share link wins over the autosaved scenario; either wins over the
/// default built-in (`None`). A broken link is reported and skipped.
pub fn initial_text(
    fragment: &str,
    saved: Option<String>,
) -> (Option<(String, Source)>, Option<String>) {
    match scenario_from_fragment(fragment) {
        Some(Ok(text)) => (Some((text, Source::Link)), None),
        Some(Err(why)) => (
            saved.map(|s| (s, Source::Saved)),
            Some(broken_link_notice(&why)),
        ),
        None => (saved.map(|s| (s, Source::Saved)), None),
    }
}

/// A file name for exporting a scenario: its name in kebab case.
pub fn file_stem(text: &str) -> String {
    let name = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
        .unwrap_or_default();
    let mut stem = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            stem.push(c.to_ascii_lowercase());
        } else if !stem.ends_with('-') && !stem.is_empty() {
            stem.push('-');
        }
    }
    let stem = stem.trim_end_matches('-');
    if stem.is_empty() {
        "scenario".to_string()
    } else {
        stem.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_rfc_4648_vectors_without_padding() {
        let vectors = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
        }
        // The URL-safe characters, and padding accepted on the way in.
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("-_8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("+/8").unwrap(), [0xfb, 0xff]);
        assert!(decode("Zm9v!").is_err());
        assert!(decode("Zm9vY").is_err());
    }

    #[test]
    fn a_scenario_round_trips_through_a_fragment() {
        let text = "{\"name\": \"Café ☕\", \"task\": \"x\"}";
        let fragment = fragment_for(text);
        assert!(fragment.starts_with("#s="));
        assert!(!fragment[3..].contains(['+', '/', '=']));
        assert_eq!(
            scenario_from_fragment(&fragment),
            Some(Ok(text.to_string()))
        );
        assert_eq!(scenario_from_fragment("#other"), None);
        assert_eq!(scenario_from_fragment(""), None);
    }

    #[test]
    fn a_link_beats_the_saved_scenario_and_a_broken_link_is_reported() {
        let saved = Some("saved".to_string());
        assert_eq!(
            initial_text(&fragment_for(r#"{"task": "linked"}"#), saved.clone()),
            (
                Some((r#"{"task": "linked"}"#.to_string(), Source::Link)),
                None
            )
        );
        assert_eq!(
            initial_text("", saved.clone()),
            (Some(("saved".to_string(), Source::Saved)), None)
        );
        let (text, error) = initial_text("#s=%%%", saved.clone());
        assert_eq!(text, Some(("saved".to_string(), Source::Saved)));
        assert_eq!(
            error.as_deref(),
            Some("Nothing was loaded from this share link: the link is broken: its character 1 is not one a share link uses. Ask for the link again; the editor keeps your last scenario.")
        );
        // A link cut short decodes to the first part of the scenario: it is
        // reported as cut off, and the saved scenario stays.
        let whole = fragment_for(r#"{"name": "Turn limit", "task": "Count."}"#);
        for cut in [whole.len() - 1, whole.len() - 2, whole.len() / 2] {
            let (text, error) = initial_text(&whole[..cut], saved.clone());
            assert_eq!(text, Some(("saved".to_string(), Source::Saved)));
            let error = error.unwrap();
            assert!(error.contains("the link is cut off"), "{cut}: {error}");
            assert!(!error.contains("Loaded"), "{error}");
        }
        assert_eq!(initial_text("", None), (None, None));
    }

    #[test]
    fn export_file_names_come_from_the_scenario_name() {
        assert_eq!(
            file_stem(r#"{"name": "Refund with approval (seed 000)"}"#),
            "refund-with-approval-seed-000"
        );
        assert_eq!(file_stem("{broken"), "scenario");
        assert_eq!(file_stem(r#"{"name": "!!"}"#), "scenario");
    }
}
