//! Which keywords exist, which are only annotations, and what to tell an
//! author who used one this crate does not implement. Silently ignoring an
//! unknown keyword is how a typo such as `"requried"` ships to production,
//! so every keyword outside these lists is reported.

/// Keywords this crate validates.
pub(crate) const ASSERTED: &[&str] = &[
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "items",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
];

/// Keywords that only describe; accepted and ignored. (`$id` is handled
/// separately: it is only allowed at the root.)
pub(crate) const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Why a keyword this crate knows about is still rejected, with what to use
/// instead where there is something.
pub(crate) fn known_unsupported(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "unevaluatedProperties" => {
            "is not supported by tool-schema; use \"additionalProperties\": false to reject unknown properties"
        }
        "unevaluatedItems" => {
            "is not supported by tool-schema; use \"items\" (after \"prefixItems\") to constrain extra items"
        }
        "$dynamicRef" | "$dynamicAnchor" | "$recursiveRef" | "$recursiveAnchor" => {
            "is not supported by tool-schema; use a plain \"$ref\" to \"#/$defs/...\""
        }
        "$anchor" => "is not supported by tool-schema; use \"$ref\": \"#/$defs/<name>\" instead of an anchor",
        "$vocabulary" => "is not supported by tool-schema (custom meta-schemas are out of scope)",
        "$id" => {
            "is only supported at the schema root; nested $id changes the base URI, which tool-schema does not resolve"
        }
        "additionalItems" => {
            "is not part of draft 2020-12; use \"items\" after \"prefixItems\" instead"
        }
        "dependencies" => {
            "is not part of draft 2020-12; use \"dependentRequired\" or \"dependentSchemas\" instead"
        }
        "nullable" => "is OpenAPI 3.0, not JSON Schema; use \"type\": [\"<type>\", \"null\"] instead",
        _ => return None,
    })
}

/// The closest supported keyword to a misspelt one, if it is close enough
/// to be a plausible typo.
pub(crate) fn suggest(keyword: &str) -> Option<&'static str> {
    let lower = keyword.to_ascii_lowercase();
    ASSERTED
        .iter()
        .chain(ANNOTATIONS)
        .chain(["$id"].iter())
        .map(|k| (*k, edit_distance(&lower, &k.to_ascii_lowercase())))
        .filter(|(k, d)| *d <= 2 && *d < k.len() / 2)
        .min_by_key(|(_, d)| *d)
        .map(|(k, _)| k)
}

/// Optimal-string-alignment distance: Levenshtein plus adjacent
/// transpositions, so "requried" is one edit from "required".
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Keywords are short; a long key is no typo of one and would cost a big table.
    if a.len().abs_diff(b.len()) > 2 || a.len() > 64 {
        return usize::MAX;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_keywords_only() {
        assert_eq!(suggest("requried"), Some("required"));
        assert_eq!(suggest("minLenght"), Some("minLength"));
        assert_eq!(
            suggest("additionalproperties"),
            Some("additionalProperties")
        );
        assert_eq!(suggest("maxitems"), Some("maxItems"));
        assert_eq!(suggest("colour"), None);
        assert_eq!(suggest("x"), None);
    }
}
