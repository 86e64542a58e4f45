//! Published prices of well-known models, so a provider run's cost counter,
//! cost budget and stop banner start from the real figures, and the parsing
//! of a price the user types instead.
//!
//! Source: Anthropic's pricing page, "Model pricing" table ("Base Input
//! Tokens" and "Output Tokens", standard tier, no caching or batching),
//! <https://docs.anthropic.com/en/docs/about-claude/pricing>, read on
//! 2026-12-01 from the reference library's stored copy of the page.
//!
//! Only models whose price was read on the provider's own page are listed.
//! OpenAI's models (gpt-4o, gpt-4.1, o3, ...) are left out: their official
//! pricing page could not be read when this table was written, and a price
//! copied from a third party could be stale. For an unlisted model the user
//! types the price into the Model settings.

use crate::error::{PriceError, PriceProblem};
use crate::model::Pricing;

/// A model's price as its provider lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ListedPrice {
    /// The model id without a snapshot date, e.g. `claude-sonnet-4`.
    pub model: &'static str,
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
    /// Where the figures come from, as the settings show it.
    pub source: &'static str,
}

impl ListedPrice {
    pub fn pricing(&self) -> Pricing {
        Pricing {
            input_usd_per_mtok: self.input_usd_per_mtok,
            output_usd_per_mtok: self.output_usd_per_mtok,
        }
    }
}

const ANTHROPIC: &str = "Anthropic's pricing page, read 2026-12-01";

/// USD per million tokens (see the module comment for the source).
pub const LISTED: &[ListedPrice] = &[
    listed("claude-opus-4-1", 15.0, 75.0),
    listed("claude-opus-4", 15.0, 75.0),
    listed("claude-sonnet-4", 3.0, 15.0),
    listed("claude-3-7-sonnet", 3.0, 15.0),
    listed("claude-3-5-haiku", 0.80, 4.0),
    listed("claude-3-haiku", 0.25, 1.25),
];

const fn listed(model: &'static str, input: f64, output: f64) -> ListedPrice {
    ListedPrice {
        model,
        input_usd_per_mtok: input,
        output_usd_per_mtok: output,
        source: ANTHROPIC,
    }
}

/// The listed price of `model`, matched on its id without the snapshot
/// suffix: `claude-sonnet-4-20250514`, `claude-sonnet-4-0` and
/// `claude-3-5-haiku-latest` are found, but `claude-opus-4-5` (a different
/// model at a different price) is not mistaken for `claude-opus-4`.
pub fn listed_price(model: &str) -> Option<&'static ListedPrice> {
    let id = base_id(model.trim());
    LISTED.iter().find(|p| p.model.eq_ignore_ascii_case(id))
}

/// Strips one trailing `-YYYYMMDD`, `-latest` or `-0` (Anthropic's snapshot
/// and alias suffixes).
fn base_id(model: &str) -> &str {
    match model.rsplit_once('-') {
        Some((base, tail))
            if tail == "latest"
                || tail == "0"
                || (tail.len() == 8 && tail.bytes().all(|b| b.is_ascii_digit())) =>
        {
            base
        }
        _ => model,
    }
}

/// A price the user typed, in USD per million tokens. Empty means $0 (a
/// local server costs nothing); anything else must be a number, not negative.
pub fn parse_usd_per_mtok(text: &str, what: &str) -> Result<f64, PriceError> {
    let text = text.trim().trim_start_matches('$').trim();
    if text.is_empty() {
        return Ok(0.0);
    }
    // Not `str::parse`: the same value without its tables (see `float_text`).
    let problem = match crate::float_text::parse_f64(text) {
        Some(value) if !value.is_finite() => PriceProblem::NotFinite,
        Some(value) if value < 0.0 => PriceProblem::Negative,
        Some(value) if value > crate::scenario::bounds::MAX_USD_PER_MTOK => PriceProblem::TooLarge,
        Some(value) => return Ok(value),
        None => PriceProblem::NotANumber,
    };
    Err(PriceError {
        what: what.to_string(),
        text: text.to_string(),
        problem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_and_aliases_find_their_model_and_near_names_do_not() {
        let sonnet = listed_price("claude-sonnet-4-20250514").unwrap();
        assert_eq!(sonnet.model, "claude-sonnet-4");
        assert_eq!(sonnet.pricing().cost(1_000_000, 1_000_000), 18.0);
        assert_eq!(
            listed_price("claude-sonnet-4-0").unwrap().model,
            "claude-sonnet-4"
        );
        assert_eq!(
            listed_price(" Claude-Opus-4-1 ").unwrap().model,
            "claude-opus-4-1"
        );
        assert_eq!(
            listed_price("claude-opus-4-1-20250805")
                .unwrap()
                .input_usd_per_mtok,
            15.0
        );
        assert_eq!(
            listed_price("claude-3-5-haiku-latest")
                .unwrap()
                .output_usd_per_mtok,
            4.0
        );
        assert_eq!(
            listed_price("claude-3-haiku-20240307")
                .unwrap()
                .input_usd_per_mtok,
            0.25
        );
        // Newer models of the same family have other prices: never guessed.
        assert_eq!(listed_price("claude-opus-4-5"), None);
        assert_eq!(listed_price("claude-sonnet-4-5-20250929"), None);
        assert_eq!(listed_price("gpt-4o"), None);
        assert_eq!(listed_price(""), None);
        assert_eq!(listed_price("scripted"), None);
    }

    #[test]
    fn every_listed_price_is_positive_and_output_costs_more() {
        for price in LISTED {
            assert!(price.input_usd_per_mtok > 0.0, "{}", price.model);
            assert!(
                price.output_usd_per_mtok > price.input_usd_per_mtok,
                "{}",
                price.model
            );
            assert_eq!(listed_price(price.model), Some(price));
        }
    }

    #[test]
    fn typed_prices_are_numbers_not_negative_and_empty_is_free() {
        assert_eq!(parse_usd_per_mtok("3", "Input price"), Ok(3.0));
        assert_eq!(parse_usd_per_mtok(" $0.25 ", "Input price"), Ok(0.25));
        assert_eq!(parse_usd_per_mtok("", "Input price"), Ok(0.0));
        assert_eq!(
            parse_usd_per_mtok("-1", "Output price").map_err(|e| e.to_string()),
            Err("Output price: a price cannot be negative (-1)".to_string())
        );
        assert_eq!(
            parse_usd_per_mtok("three", "Output price").map_err(|e| e.to_string()),
            Err(
                "Output price: \"three\" is not a number; enter USD per million tokens, e.g. 3"
                    .to_string()
            )
        );
        assert!(parse_usd_per_mtok("inf", "Input price").is_err());
        assert!(parse_usd_per_mtok("NaN", "Input price").is_err());
        assert_eq!(
            parse_usd_per_mtok("1e300", "Input price").map_err(|e| e.to_string()),
            Err("Input price: 1e300 is too large: a price must be at most $10,000 per million tokens".to_string())
        );
        assert_eq!(parse_usd_per_mtok("10000", "Input price"), Ok(10_000.0));
    }
}
