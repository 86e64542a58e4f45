//! A `WWW-Authenticate: Bearer …` challenge read into its parameters
//! (RFC 6750 §3): the protected resource metadata's URL (RFC 9728 §5.1),
//! the scope the request needs, and the error that says why.

/// The parameters of a Bearer challenge a client acts on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    pub resource_metadata: Option<String>,
    pub scope: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl Challenge {
    /// Reads the Bearer challenge of a `WWW-Authenticate` value; other
    /// schemes' parameters (`Basic realm=…`) are ignored.
    pub fn parse(header: &str) -> Challenge {
        let mut challenge = Challenge::default();
        let mut in_bearer = false;
        for param in params(header) {
            match param {
                Param::Scheme(scheme) => in_bearer = scheme.eq_ignore_ascii_case("bearer"),
                Param::Pair(key, value_text) if in_bearer => {
                    let slot = match key.to_ascii_lowercase().as_str() {
                        "resource_metadata" => &mut challenge.resource_metadata,
                        "scope" => &mut challenge.scope,
                        "error" => &mut challenge.error,
                        "error_description" => &mut challenge.error_description,
                        _ => continue,
                    };
                    *slot = Some(value_text);
                }
                Param::Pair(..) => {}
            }
        }
        challenge
    }

    /// Why the server refused, in its words: the description, else the
    /// error code.
    pub fn reason(&self) -> Option<String> {
        self.error_description
            .clone()
            .or_else(|| self.error.clone())
    }

    /// The scopes the challenge asks for, one each.
    pub fn scopes(&self) -> Vec<String> {
        split_scopes(self.scope.as_deref().unwrap_or(""))
    }
}

/// A scope string's scopes, in order, without repeats.
pub fn split_scopes(text: &str) -> Vec<String> {
    let mut scopes: Vec<String> = Vec::new();
    for scope in text.split_whitespace() {
        if !scopes.iter().any(|s| s == scope) {
            scopes.push(scope.to_string());
        }
    }
    scopes
}

enum Param {
    Scheme(String),
    Pair(String, String),
}

/// The header as a sequence of schemes and their `key=value` parameters
/// (values a token or a quoted string with `\` escapes).
fn params(header: &str) -> Vec<Param> {
    let mut out = Vec::new();
    let chars: Vec<char> = header.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && (chars[i] == ',' || chars[i].is_whitespace()) {
            i += 1;
        }
        let start = i;
        while i < chars.len() && !matches!(chars[i], '=' | ',' | ' ' | '\t') {
            i += 1;
        }
        if start == i {
            i += 1;
            continue;
        }
        let word: String = chars[start..i].iter().collect();
        let mut j = i;
        while j < chars.len() && chars[j].is_whitespace() {
            j += 1;
        }
        if j < chars.len() && chars[j] == '=' {
            i = j + 1;
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            let mut value = String::new();
            if i < chars.len() && chars[i] == '"' {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    value.push(chars[i]);
                    i += 1;
                }
                i += 1;
            } else {
                while i < chars.len() && chars[i] != ',' && !chars[i].is_whitespace() {
                    value.push(chars[i]);
                    i += 1;
                }
            }
            out.push(Param::Pair(word, value));
        } else {
            out.push(Param::Scheme(word));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parameters_a_client_acts_on() {
        let c = Challenge::parse(
            r#"Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp", error_description="Token has \"insufficient\" scope""#,
        );
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scopes(), ["mcp:basic", "mcp:write"]);
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(
            c.error_description.as_deref(),
            Some(r#"Token has "insufficient" scope"#)
        );
    }

    #[test]
    fn ignores_other_schemes_and_reads_tokens() {
        let c = Challenge::parse(r#"Basic realm="x", Bearer error=invalid_token, scope=a"#);
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(c.scopes(), ["a"]);
        assert_eq!(Challenge::parse("Basic realm=\"x\"").error, None);
    }
}
