//! Signing in to an MCP server that is protected with OAuth 2.1, as the MCP
//! authorization spec describes
//! (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization),
//! for the command line's MCP client.
//!
//! [`OAuthHttp`] wraps the HTTP transport: a request the server refuses
//! with a Bearer challenge (401, or 403 `insufficient_scope`) starts the
//! flow, and the request is sent again with the token. Tokens live in this
//! process's memory only and go with it. A person's own `Authorization`
//! header is sent as it is and never replaced.
//!
//! - [`challenge`]: the `WWW-Authenticate` parameters a client acts on;
//! - [`discovery`]: resource and authorization server metadata;
//! - [`flow`]: client registration, PKCE, the code and the token;
//! - [`callback`]: the loopback redirect back;
//! - [`http`]: the metadata, registration and token requests.

mod callback;
mod challenge;
mod discovery;
mod flow;
mod http;

use std::cell::RefCell;
use std::io::IsTerminal;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::lock::Mutex;
use harness::mcp::transport::{HttpRequest, HttpResponse, McpTransport};

use callback::Callback;
use challenge::{split_scopes, Challenge};
use discovery::Discovered;
use flow::{Client, Token};

/// How agent-loop sends a person to sign in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Authorize {
    /// Open the address in the system's browser (and print it).
    Browser,
    /// Print the address for the person to open.
    Print,
    /// Fetch the address itself and follow its redirect back: for
    /// authorization servers that approve without a person (test servers,
    /// some internal ones).
    Follow,
    /// Do not sign in: a refusal says what to do.
    Off,
}

/// The `mcp` commands' sign-in flags.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OAuthArgs {
    /// When the server wants OAuth: browser (the default at a terminal),
    /// print the address, follow its redirect without a person, or off (the
    /// default otherwise)
    #[arg(long = "authorize", value_name = "HOW", value_enum)]
    pub authorize: Option<Authorize>,
    /// A client registered with the authorization server beforehand;
    /// without one, agent-loop registers itself where the server allows it
    #[arg(long = "oauth-client-id", value_name = "ID")]
    pub client_id: Option<String>,
    /// That client's secret. Every user of the machine can read a flag's
    /// value in the process list: prefer --oauth-client-secret-file
    #[arg(
        long = "oauth-client-secret",
        value_name = "SECRET",
        requires = "client_id"
    )]
    pub client_secret: Option<String>,
    /// A file holding that client's secret (its first line)
    #[arg(
        long = "oauth-client-secret-file",
        value_name = "FILE",
        requires = "client_id",
        conflicts_with = "client_secret"
    )]
    pub client_secret_file: Option<String>,
    /// That client's ES256 private key (a PKCS#8 PEM file), to sign in
    /// with a signed assertion (private_key_jwt) instead of a secret
    #[arg(
        long = "oauth-private-key",
        value_name = "FILE",
        requires = "client_id"
    )]
    pub private_key: Option<String>,
    /// The URL of this client's metadata document, used as its client id
    /// where the authorization server accepts such documents
    #[arg(long = "oauth-client-metadata-url", value_name = "URL")]
    pub client_metadata_url: Option<String>,
}

impl OAuthArgs {
    /// How to sign in: as asked, else in a browser when a person is at a
    /// terminal to use it, else not at all.
    pub fn how(&self) -> Authorize {
        self.authorize.unwrap_or_else(|| {
            if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
                Authorize::Browser
            } else {
                Authorize::Off
            }
        })
    }

    /// Whether the client can prove itself with no person: a secret or a
    /// key, for the client credentials grant.
    fn has_credentials(&self) -> bool {
        self.client_id.is_some()
            && (self.client_secret.is_some()
                || self.client_secret_file.is_some()
                || self.private_key.is_some())
    }

    /// The client's secret, from the flag or the first line of the file.
    fn secret(&self) -> Result<Option<String>, String> {
        let Some(path) = &self.client_secret_file else {
            return Ok(self.client_secret.clone());
        };
        let text = std::fs::read_to_string(path)
            .map_err(|err| format!("cannot read the client secret file {path}: {err}"))?;
        match text
            .lines()
            .next()
            .map(str::trim)
            .filter(|line| !line.is_empty())
        {
            Some(secret) => Ok(Some(secret.to_string())),
            None => Err(format!("the client secret file {path} is empty")),
        }
    }
}

/// The most times one server is signed in to before agent-loop gives up:
/// a server that keeps refusing the scopes it asked for would otherwise
/// send the person round forever.
const MAX_AUTHORIZATIONS: u32 = 3;

/// The HTTP transport with sign-in on a Bearer challenge.
#[derive(Clone)]
pub struct OAuthHttp {
    inner: Rc<dyn McpTransport>,
    server_url: String,
    /// Who the client is, as the person said.
    client: OAuthArgs,
    how: Authorize,
    state: Rc<RefCell<SignedIn>>,
    /// One sign-in at a time: requests refused together wait for it.
    signing_in: Rc<Mutex<()>>,
    /// Why the server could not be signed in to, once it is known: later
    /// requests get the same answer rather than another attempt.
    refusal: Rc<RefCell<Option<String>>>,
    /// What a person can do when agent-loop is not to sign in: the flags
    /// of `mcp`, or a run's scenario headers.
    hint: &'static str,
}

/// What `mcp tools` and `mcp call` offer a person when not signing in.
const MCP_HINT: &str = "agent-loop can sign in with OAuth: add --authorize browser (or print); or pass a token with --header \"Authorization: Bearer …\"";

/// What a run offers: it signs in only with a person at the terminal.
const RUN_HINT: &str = "agent-loop signs in with OAuth when run at a terminal; or give the server a token in the scenario: \"headers\": {\"Authorization\": \"Bearer …\"}";

#[derive(Default)]
struct SignedIn {
    found: Option<Discovered>,
    client: Option<Client>,
    callback: Option<Rc<Callback>>,
    token: Option<Token>,
    scopes: Vec<String>,
    authorizations: u32,
    refreshed: bool,
}

impl OAuthHttp {
    pub fn new(inner: Rc<dyn McpTransport>, server_url: &str, args: &OAuthArgs) -> OAuthHttp {
        OAuthHttp {
            inner,
            server_url: server_url.to_string(),
            client: args.clone(),
            how: args.how(),
            state: Rc::default(),
            signing_in: Rc::default(),
            refusal: Rc::default(),
            hint: MCP_HINT,
        }
    }

    /// For a run's server: signs in when a person is at the terminal, and
    /// its refusals point at the scenario rather than at flags.
    pub fn for_run(inner: Rc<dyn McpTransport>, server_url: &str) -> OAuthHttp {
        OAuthHttp {
            hint: RUN_HINT,
            ..OAuthHttp::new(inner, server_url, &OAuthArgs::default())
        }
    }

    /// Why the server refused and could not be signed in to: the sentence
    /// a person reads, in place of each request's own failure.
    pub fn refusal(&self) -> Option<String> {
        self.refusal.borrow().clone()
    }

    fn token(&self) -> Option<String> {
        self.state.borrow().token.as_ref().map(|t| t.access.clone())
    }

    /// Sends `request` (with the token, when there is one), signing in and
    /// sending it again while the server answers with a Bearer challenge.
    async fn send(self, request: HttpRequest, get: bool) -> Result<HttpResponse, String> {
        let own_header = request
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("authorization"));
        loop {
            let sent = self.token();
            let mut attempt = HttpRequest {
                url: request.url.clone(),
                headers: request.headers.clone(),
                body: request.body.clone(),
            };
            if let (Some(token), false) = (&sent, own_header) {
                attempt
                    .headers
                    .push(("authorization".into(), format!("Bearer {token}")));
            }
            let response = if get {
                self.inner.get(attempt).await?
            } else {
                self.inner.post(attempt).await?
            };
            let Some(challenge) = bearer_challenge(&response) else {
                return Ok(response);
            };
            if own_header {
                return Ok(response);
            }
            if let Some(refusal) = self.refusal() {
                return Ok(refused(response.status, refusal));
            }
            if self.how == Authorize::Off && !self.client.has_credentials() {
                let why = challenge
                    .reason()
                    .map(|why| format!(" ({why})"))
                    .unwrap_or_default();
                let text = format!("the server wants authorization{why}; {}", self.hint);
                *self.refusal.borrow_mut() = Some(text.clone());
                return Ok(refused(response.status, text));
            }
            if let Err(why) = self.sign_in(&challenge, response.status, sent).await {
                *self.refusal.borrow_mut() = Some(why.clone());
                return Ok(refused(response.status, why));
            }
        }
    }

    async fn sign_in(
        &self,
        challenge: &Challenge,
        status: u16,
        sent: Option<String>,
    ) -> Result<(), String> {
        let _one_at_a_time = self.signing_in.lock().await;
        if self.token() != sent {
            // Another request signed in while this one waited.
            return Ok(());
        }
        let refused = || {
            let why = challenge
                .reason()
                .unwrap_or_else(|| format!("HTTP {status}"));
            format!(
                "the server still refuses after {MAX_AUTHORIZATIONS} sign-ins ({why}); agent-loop stopped asking"
            )
        };
        let refresh = {
            let state = self.state.borrow();
            match (&state.token, &state.found, &state.client) {
                (
                    Some(Token {
                        refresh: Some(refresh),
                        ..
                    }),
                    Some(found),
                    Some(client),
                ) if status == 401 && !state.refreshed => {
                    Some((refresh.clone(), found.clone(), client.clone()))
                }
                _ => None,
            }
        };
        if let Some((refresh_token, found, client)) = refresh {
            self.state.borrow_mut().refreshed = true;
            if let Ok(token) = flow::refresh(&self.inner, &found, &client, &refresh_token).await {
                self.state.borrow_mut().token = Some(token);
                return Ok(());
            }
        }
        if self.state.borrow().authorizations >= MAX_AUTHORIZATIONS {
            return Err(refused());
        }
        let prefix = |why: String| format!("signing in with OAuth failed: {why}");
        let known = self.state.borrow().found.clone();
        let found = match known {
            Some(found) => found,
            None => discovery::discover(&self.inner, &self.server_url, challenge)
                .await
                .map_err(prefix)?,
        };
        self.state.borrow_mut().found = Some(found.clone());
        let known = self.state.borrow().callback.clone();
        let callback = match known {
            Some(callback) => callback,
            None => Rc::new(Callback::bind().await.map_err(prefix)?),
        };
        self.state.borrow_mut().callback = Some(callback.clone());
        let known = self.state.borrow().client.clone();
        let client = match known {
            Some(client) => client,
            None => flow::register(&self.inner, &found, &self.client, &callback.redirect_uri)
                .await
                .map_err(prefix)?,
        };
        self.state.borrow_mut().client = Some(client.clone());
        let scopes = self.scopes_for(challenge, &found);
        self.state.borrow_mut().authorizations += 1;
        let token = if found.server.machines_only() && self.client.has_credentials() {
            flow::client_credentials(&self.inner, &found, &client, &scopes).await
        } else if self.how == Authorize::Off {
            Err("a person must sign in there: add --authorize browser (or print)".to_string())
        } else {
            flow::authorize(&self.inner, &found, &client, &callback, &scopes, self.how).await
        }
        .map_err(prefix)?;
        let mut state = self.state.borrow_mut();
        state.token = Some(token);
        state.refreshed = false;
        state.scopes = scopes;
        eprintln!("signed in to {} with OAuth", self.server_url);
        Ok(())
    }

    /// The scopes to ask for (the spec's scope selection strategy): those
    /// asked for before, with the challenge's; without a challenge scope at
    /// first, all the resource metadata lists; else none. `offline_access`
    /// goes with them where the authorization server offers it, for a
    /// refresh token.
    fn scopes_for(&self, challenge: &Challenge, found: &Discovered) -> Vec<String> {
        let before = self.state.borrow().scopes.clone();
        let mut scopes = before.clone();
        let asked = challenge.scopes();
        if !asked.is_empty() {
            scopes.extend(asked);
        } else if before.is_empty() {
            scopes.extend(found.resource_scopes.clone().unwrap_or_default());
        }
        let offers_offline = found
            .server
            .scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|s| s == "offline_access"));
        if offers_offline && !scopes.is_empty() {
            scopes.push("offline_access".to_string());
        }
        split_scopes(&scopes.join(" "))
    }
}

/// The Bearer challenge of a refusal that signing in can answer: a 401, or
/// a 403 for `insufficient_scope` (step-up), that carries one.
fn bearer_challenge(response: &HttpResponse) -> Option<Challenge> {
    if response.status != 401 && response.status != 403 {
        return None;
    }
    let header = response.header("www-authenticate").unwrap_or("");
    let challenge = Challenge::parse(header);
    let bearer = header.to_ascii_lowercase().contains("bearer");
    // A 401 without a Bearer challenge (the bridge's, say, which wants
    // the token it printed) is no invitation to sign in with OAuth.
    match response.status {
        401 if bearer => Some(challenge),
        403 if bearer && challenge.error.as_deref() == Some("insufficient_scope") => {
            Some(challenge)
        }
        _ => None,
    }
}

/// A refusal agent-loop could not sign in past, its body saying why in
/// plain words (the server's own body may be JSON that reads like a
/// JSON-RPC error).
fn refused(status: u16, text: String) -> HttpResponse {
    HttpResponse {
        status,
        headers: vec![("content-type".into(), "text/plain".into())],
        body: Box::pin(futures::stream::once(async move { Ok(text.into_bytes()) })),
    }
}

impl McpTransport for OAuthHttp {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(self.clone().send(request, false))
    }

    fn get(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(self.clone().send(request, true))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        self.inner.sleep(ms)
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.inner.spawn(task)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of this test's own, so tests running at once do not meet.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("agent-loop-oauth-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn with_file(path: &std::path::Path) -> OAuthArgs {
        OAuthArgs {
            client_id: Some("registered".into()),
            client_secret_file: Some(path.display().to_string()),
            ..OAuthArgs::default()
        }
    }

    #[test]
    fn a_secret_file_gives_its_first_line_without_the_newline() {
        let path = scratch("first-line").join("secret");
        std::fs::write(&path, "s3cret \nignored\n").unwrap();
        let args = with_file(&path);
        assert_eq!(args.secret().unwrap().as_deref(), Some("s3cret"));
        assert!(args.has_credentials());
    }

    #[test]
    fn an_empty_or_missing_secret_file_is_refused_by_name() {
        let dir = scratch("refused");
        let empty = dir.join("empty");
        std::fs::write(&empty, "\n").unwrap();
        let error = with_file(&empty).secret().unwrap_err();
        assert!(error.ends_with("empty is empty"), "{error}");
        let missing = dir.join("missing");
        let error = with_file(&missing).secret().unwrap_err();
        assert!(
            error.starts_with("cannot read the client secret file"),
            "{error}"
        );
        assert!(error.contains("missing"), "{error}");
    }

    #[test]
    fn without_a_file_the_flag_is_the_secret() {
        let args = OAuthArgs {
            client_id: Some("registered".into()),
            client_secret: Some("on-the-line".into()),
            ..OAuthArgs::default()
        };
        assert_eq!(args.secret().unwrap().as_deref(), Some("on-the-line"));
    }
}
