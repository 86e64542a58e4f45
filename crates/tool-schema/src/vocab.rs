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
    let known = ASSERTED.iter().chain(ANNOTATIONS).chain(["$id"].iter());
    crate::suggest::nearest(keyword, known.copied())
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
