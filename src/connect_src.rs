//! What the page's Content-Security-Policy, and the browser itself, let it
//! connect to, and why a Model settings base URL is refused when it is not:
//! a meta policy cannot be widened at runtime, a browser never fetches from
//! a few ports, and a blocked fetch would only read as a network or CORS
//! failure. Pure; the Model settings (`settings::state`) and the
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

/// The ports a browser never fetches from, whatever listens there: the
/// Fetch standard's "bad ports", kept for protocols an HTTP request could be
/// made to speak. A fetch to one fails as a bare network error, which the
/// page would otherwise explain as "nothing listens there, or CORS".
const BAD_PORTS: [u16; 83] = [
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 6679, 6697, 10080,
];

/// Why the page cannot connect to an origin: its meta Content-Security-Policy
/// does not list it (and cannot be widened at runtime), or its port is one
/// browsers refuse. Either way a fetch would only read as a network or CORS
/// failure. `Display` says so without naming the field, so each place
/// prefixes its own ("Base URL: ", "OTLP endpoint: ", "mcp_servers[0].url: ").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectRefusal {
    Csp { origin: String },
    BadPort { origin: String, port: u16 },
}

impl std::fmt::Display for ConnectRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectRefusal::Csp { origin } => write!(
                f,
                "this page's Content-Security-Policy does not allow connecting to {origin} \
                 (it allows this page, https://api.anthropic.com, https://api.openai.com and \
                 http://127.0.0.1 or http://localhost on any port). To use it, add {origin} to \
                 connect-src in index.html's Content-Security-Policy and rebuild, or reach it \
                 through a proxy on 127.0.0.1"
            ),
            ConnectRefusal::BadPort { origin, port } => write!(
                f,
                "browsers never connect to port {port} ({origin}), whatever listens there: the \
                 Fetch standard keeps it for another protocol. Serve it on another port, such \
                 as 8787 (the command line is not bound by this)"
            ),
        }
    }
}

/// Why the page may not connect to `url`, if it may not.
pub fn connect_problem(url: &BaseUrl, page_origin: &str) -> Option<ConnectRefusal> {
    let origin = url.origin();
    if let Some(port) = url.port.filter(|p| BAD_PORTS.contains(p)) {
        return Some(ConnectRefusal::BadPort { origin, port });
    }
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
    (!allowed).then_some(ConnectRefusal::Csp { origin })
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
                connect_problem(&url(fine), "https://playground.example"),
                None,
                "{fine}"
            );
        }
        let problem = connect_problem(&url("https://llm.example.com:8443/v1"), PAGE)
            .unwrap()
            .to_string();
        assert!(problem.starts_with("this page's Content-Security-Policy does not allow connecting to https://llm.example.com:8443"), "{problem}");
        assert!(problem.contains("add https://llm.example.com:8443 to connect-src in index.html"));
        // http to an official host, or https to a local one, is another origin.
        assert!(connect_problem(&url("http://api.openai.com"), PAGE).is_some());
        assert!(connect_problem(&url("https://127.0.0.1:8787"), PAGE).is_some());
        assert!(connect_problem(&url("https://api.openai.com:8443"), PAGE).is_some());
        assert_eq!(
            connect_problem(&url("https://api.openai.com:443"), PAGE),
            None
        );
    }

    #[test]
    fn a_port_browsers_refuse_is_named_before_any_request() {
        let url = |text: &str| provider::parse_base_url(text).unwrap();
        for refused in [
            "http://127.0.0.1:9",
            "http://localhost:6000/mcp",
            "http://127.0.0.1:10080/v1",
        ] {
            let problem = connect_problem(&url(refused), PAGE).map(|p| p.to_string());
            assert!(
                problem
                    .as_deref()
                    .is_some_and(|p| p.starts_with("browsers never connect to port ")),
                "{refused}: {problem:?}"
            );
        }
        let said = connect_problem(&url("http://127.0.0.1:6667"), PAGE)
            .unwrap()
            .to_string();
        assert!(said.starts_with("browsers never connect to port 6667 (http://127.0.0.1:6667), whatever listens there"), "{said}");
        for fine in [
            "http://127.0.0.1:8787",
            "http://localhost:3000",
            "http://127.0.0.1:8080",
        ] {
            assert_eq!(connect_problem(&url(fine), PAGE), None, "{fine}");
        }
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
