//! What the page's Content-Security-Policy lets it connect to, and why a
//! Model settings base URL is refused when it is not: a meta policy cannot
//! be widened at runtime, and a blocked fetch would only read as a network
//! or CORS failure. Pure; the Model settings (`state::model_choice`) and the
//! engine's provider run (`lazy`) both ask it.

use harness::provider::BaseUrl;

/// The origins the page's Content-Security-Policy lets it connect to, beside
/// its own (`'self'`); it must equal `connect-src` in index.html (a test
/// checks). `(scheme, host, any_port)`: without `any_port` only the scheme's
/// default port is allowed, as CSP reads `https://api.openai.com`.
pub const CONNECT_SRC: [(&str, &str, bool); 4] = [
    ("https", "api.anthropic.com", false),
    ("https", "api.openai.com", false),
    ("http", "127.0.0.1", true),
    ("http", "localhost", true),
];

/// The page may not connect to `origin`: a meta Content-Security-Policy
/// cannot be widened at runtime, and a blocked fetch would only read as a
/// network or CORS failure. `Display` says so without naming the field, so
/// each place prefixes its own ("Base URL: ", "OTLP endpoint: ",
/// "mcp_servers[0].url: ").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CspRefusal {
    pub origin: String,
}

impl std::fmt::Display for CspRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let origin = &self.origin;
        write!(
            f,
            "this page's Content-Security-Policy does not allow connecting to {origin} \
             (it allows this page, https://api.anthropic.com, https://api.openai.com and \
             http://127.0.0.1 or http://localhost on any port). To use it, add {origin} to \
             connect-src in index.html's Content-Security-Policy and rebuild, or reach it \
             through a proxy on 127.0.0.1"
        )
    }
}

/// Why the page may not connect to `url`, if it may not.
pub fn csp_problem(url: &BaseUrl, page_origin: &str) -> Option<CspRefusal> {
    let origin = url.origin();
    let allowed = origin == page_origin
        || CONNECT_SRC.iter().any(|(scheme, host, any_port)| {
            let default_port = match url.scheme.as_str() {
                "https" => 443,
                _ => 80,
            };
            url.scheme == *scheme
                && url.host == *host
                && (*any_port || url.port.is_none_or(|p| p == default_port))
        });
    (!allowed).then_some(CspRefusal { origin })
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::provider;

    const PAGE: &str = "http://127.0.0.1:8080";

    #[test]
    fn the_csp_allows_the_official_apis_local_servers_and_the_page_only() {
        let url = |text: &str| provider::parse_base_url(text).unwrap();
        for fine in [
            "https://api.anthropic.com",
            "https://api.openai.com/v1",
            "http://127.0.0.1:8787",
            "http://localhost",
            "https://playground.example/api",
        ] {
            assert_eq!(
                csp_problem(&url(fine), "https://playground.example"),
                None,
                "{fine}"
            );
        }
        let problem = csp_problem(&url("https://llm.example.com:8443/v1"), PAGE)
            .unwrap()
            .to_string();
        assert!(problem.starts_with("this page's Content-Security-Policy does not allow connecting to https://llm.example.com:8443"), "{problem}");
        assert!(problem.contains("add https://llm.example.com:8443 to connect-src in index.html"));
        // http to an official host, or https to a local one, is another origin.
        assert!(csp_problem(&url("http://api.openai.com"), PAGE).is_some());
        assert!(csp_problem(&url("https://127.0.0.1:8787"), PAGE).is_some());
        assert!(csp_problem(&url("https://api.openai.com:8443"), PAGE).is_some());
        assert_eq!(csp_problem(&url("https://api.openai.com:443"), PAGE), None);
    }

    #[test]
    fn connect_src_here_is_connect_src_in_index_html() {
        let html = include_str!("../index.html");
        let policy = html
            .split("http-equiv=\"Content-Security-Policy\"")
            .nth(1)
            .and_then(|rest| rest.split("content=\"").nth(1))
            .and_then(|rest| rest.split('"').next())
            .expect("index.html has a Content-Security-Policy meta");
        let connect: Vec<&str> = policy
            .split(';')
            .map(str::trim)
            .find_map(|d| d.strip_prefix("connect-src "))
            .expect("the policy has connect-src")
            .split_whitespace()
            .collect();
        let mut expected = vec!["'self'".to_string()];
        expected.extend(CONNECT_SRC.iter().map(|(scheme, host, any_port)| {
            if *any_port {
                format!("{scheme}://{host}:*")
            } else {
                format!("{scheme}://{host}")
            }
        }));
        assert_eq!(connect, expected);
    }
}
