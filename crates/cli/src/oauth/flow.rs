//! The authorization code flow with PKCE (OAuth 2.1, as the MCP spec
//! requires it): a client registered (given, a client ID metadata document,
//! or dynamic registration, RFC 7591), the person sent to the authorization
//! endpoint, the code taken from the loopback redirect and exchanged for a
//! token with the verifier, the `resource` named in both (RFC 8707).

use std::rc::Rc;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use harness::mcp::transport::McpTransport;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use url::Url;

use super::callback::Callback;
use super::discovery::Discovered;
use super::http::{self, Body};
use super::{Authorize, OAuthArgs};

/// A registered client and how it proves itself at the token endpoint.
#[derive(Clone)]
pub struct Client {
    pub id: String,
    pub secret: Option<String>,
    pub auth: TokenAuth,
    /// The key a `private_key_jwt` client signs its assertions with.
    pub key: Option<Rc<SigningKey>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenAuth {
    None,
    Basic,
    Post,
    PrivateKeyJwt,
}

impl TokenAuth {
    fn named(name: &str) -> Option<TokenAuth> {
        match name {
            "none" => Some(TokenAuth::None),
            "client_secret_basic" => Some(TokenAuth::Basic),
            "client_secret_post" => Some(TokenAuth::Post),
            _ => None,
        }
    }

    /// With a secret: Basic when the server takes it (the default when it
    /// lists nothing, RFC 8414 §2), else the secret in the form.
    fn for_secret(supported: Option<&[String]>) -> TokenAuth {
        match supported {
            Some(methods) if !methods.iter().any(|m| m == "client_secret_basic") => {
                if methods.iter().any(|m| m == "client_secret_post") {
                    TokenAuth::Post
                } else {
                    TokenAuth::Basic
                }
            }
            _ => TokenAuth::Basic,
        }
    }
}

/// A token and what it was granted for.
#[derive(Clone)]
pub struct Token {
    pub access: String,
    pub refresh: Option<String>,
}

pub async fn register(
    transport: &Rc<dyn McpTransport>,
    found: &Discovered,
    options: &OAuthArgs,
    redirect_uri: &str,
) -> Result<Client, String> {
    let supported = found.server.token_endpoint_auth_methods.as_deref();
    if let Some(id) = &options.client_id {
        let key = match &options.private_key {
            Some(path) => Some(Rc::new(SigningKey::read(path)?)),
            None => None,
        };
        let secret = options.secret()?;
        return Ok(Client {
            id: id.clone(),
            auth: match (&key, &secret) {
                (Some(_), _) => TokenAuth::PrivateKeyJwt,
                (None, Some(_)) => TokenAuth::for_secret(supported),
                (None, None) => TokenAuth::None,
            },
            secret,
            key,
        });
    }
    if found.server.client_id_metadata_document_supported {
        if let Some(url) = &options.client_metadata_url {
            return Ok(Client {
                id: url.clone(),
                secret: None,
                auth: TokenAuth::None,
                key: None,
            });
        }
    }
    let Some(endpoint) = &found.server.registration_endpoint else {
        return Err("the authorization server does not register clients itself (its metadata has no registration_endpoint): pass --oauth-client-id (and --oauth-client-secret) of a client registered there".to_string());
    };
    // A public client (PKCE alone) when the server allows one; else the
    // secret it hands out, sent the way it takes it.
    let method = match supported {
        Some(methods) if !methods.iter().any(|m| m == "none") => {
            if methods.iter().any(|m| m == "client_secret_basic") {
                "client_secret_basic"
            } else {
                "client_secret_post"
            }
        }
        _ => "none",
    };
    let request = json!({
        "client_name": "agent-loop",
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
    });
    let answer = http::post(transport, endpoint, Body::Json(request), Vec::new()).await?;
    if !answer.ok() {
        return Err(format!(
            "registering with the authorization server at {endpoint} failed: {}",
            answer.refusal()
        ));
    }
    let id = answer
        .json
        .get("client_id")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the registration at {endpoint} answered without a client_id"))?;
    let secret = answer
        .json
        .get("client_secret")
        .and_then(Value::as_str)
        .map(str::to_string);
    let auth = answer
        .json
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str)
        .and_then(TokenAuth::named)
        .unwrap_or(match secret {
            Some(_) => TokenAuth::for_secret(supported),
            None => TokenAuth::None,
        });
    Ok(Client {
        id: id.to_string(),
        secret,
        auth,
        key: None,
    })
}

/// A PKCE verifier and its S256 challenge (RFC 7636 §4.1-4.2).
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    pub fn new() -> Result<Pkce, String> {
        let verifier = random_text(32)?;
        let challenge = s256(&verifier);
        Ok(Pkce {
            verifier,
            challenge,
        })
    }
}

/// The S256 code challenge of a verifier.
fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn random_text(bytes: usize) -> Result<String, String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::getrandom(&mut buffer)
        .map_err(|e| format!("the system gave no random bytes for PKCE: {e}"))?;
    Ok(URL_SAFE_NO_PAD.encode(buffer))
}

/// The person is sent to the authorization endpoint; the code comes back
/// on the loopback redirect and is exchanged for a token.
pub async fn authorize(
    transport: &Rc<dyn McpTransport>,
    found: &Discovered,
    client: &Client,
    callback: &Callback,
    scopes: &[String],
    how: Authorize,
) -> Result<Token, String> {
    if let Some(methods) = &found.server.code_challenge_methods {
        if !methods.iter().any(|m| m == "S256") {
            return Err(format!(
                "the authorization server offers PKCE only as {}, not S256, which MCP requires; agent-loop will not authorize without it",
                methods.join(", ")
            ));
        }
    }
    let pkce = Pkce::new()?;
    let state = random_text(16)?;
    let mut url = Url::parse(&found.server.authorization_endpoint).map_err(|e| {
        format!(
            "the authorization endpoint {} is not a URL ({e})",
            found.server.authorization_endpoint
        )
    })?;
    {
        let mut query = url.query_pairs_mut();
        query
            .append_pair("response_type", "code")
            .append_pair("client_id", &client.id)
            .append_pair("redirect_uri", &callback.redirect_uri)
            .append_pair("code_challenge", &pkce.challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", &state)
            .append_pair("resource", &found.resource);
        if !scopes.is_empty() {
            query.append_pair("scope", &scopes.join(" "));
        }
    }
    let returned = match how {
        Authorize::Follow => {
            eprintln!("authorizing at {url} (following its redirect back)");
            follow(transport, url.as_str(), callback).await?
        }
        Authorize::Browser | Authorize::Print => {
            eprintln!("To authorize agent-loop, open this address in a browser and sign in:\n  {url}\n(waiting for the redirect back to {})", callback.redirect_uri);
            if how == Authorize::Browser {
                open_browser(url.as_str());
            }
            let wait = tokio::time::timeout(std::time::Duration::from_secs(300), callback.wait());
            wait.await.map_err(|_| {
                "no redirect came back within 5 minutes; run the command again to retry".to_string()
            })??
        }
        Authorize::Off => unreachable!("the transport does not authorize when told not to"),
    };
    if returned.state.as_deref() != Some(state.as_str()) {
        return Err("the redirect back carried a different state than was sent, so its code is not used (another page may have sent it)".to_string());
    }
    let mut fields = vec![
        ("grant_type", "authorization_code".to_string()),
        ("code", returned.code),
        ("redirect_uri", callback.redirect_uri.clone()),
        ("code_verifier", pkce.verifier),
        ("resource", found.resource.clone()),
    ];
    token_request(transport, found, client, &mut fields).await
}

/// A token for the client itself, no person involved: the client
/// credentials grant (OAuth 2.1 §4.2), as MCP's extension for machines
/// describes it
/// (https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/draft/oauth-client-credentials.mdx).
pub async fn client_credentials(
    transport: &Rc<dyn McpTransport>,
    found: &Discovered,
    client: &Client,
    scopes: &[String],
) -> Result<Token, String> {
    let mut fields = vec![
        ("grant_type", "client_credentials".to_string()),
        ("resource", found.resource.clone()),
    ];
    if !scopes.is_empty() {
        fields.push(("scope", scopes.join(" ")));
    }
    token_request(transport, found, client, &mut fields).await
}

/// A new access token for a refresh token (OAuth 2.1 §4.3).
pub async fn refresh(
    transport: &Rc<dyn McpTransport>,
    found: &Discovered,
    client: &Client,
    refresh_token: &str,
) -> Result<Token, String> {
    let mut fields = vec![
        ("grant_type", "refresh_token".to_string()),
        ("refresh_token", refresh_token.to_string()),
        ("resource", found.resource.clone()),
    ];
    token_request(transport, found, client, &mut fields).await
}

async fn token_request(
    transport: &Rc<dyn McpTransport>,
    found: &Discovered,
    client: &Client,
    fields: &mut Vec<(&'static str, String)>,
) -> Result<Token, String> {
    let mut headers = Vec::new();
    let endpoint = &found.server.token_endpoint;
    match (client.auth, &client.secret) {
        (TokenAuth::PrivateKeyJwt, _) => {
            let key = client
                .key
                .as_ref()
                .ok_or("a private_key_jwt client needs --oauth-private-key")?;
            fields.push(("client_id", client.id.clone()));
            fields.push((
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_string(),
            ));
            fields.push((
                "client_assertion",
                key.assertion(&client.id, &found.issuer)?,
            ));
        }
        (TokenAuth::Basic, Some(secret)) => {
            // RFC 6749 §2.3.1: each part form-encoded before Base64.
            let encode =
                |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
            let pair = format!("{}:{}", encode(&client.id), encode(secret));
            headers.push((
                "authorization".to_string(),
                format!("Basic {}", STANDARD.encode(pair)),
            ));
        }
        (TokenAuth::Post, Some(secret)) => {
            fields.push(("client_id", client.id.clone()));
            fields.push(("client_secret", secret.clone()));
        }
        _ => fields.push(("client_id", client.id.clone())),
    }
    let answer = http::post(transport, endpoint, Body::Form(fields.clone()), headers).await?;
    if !answer.ok() {
        return Err(format!(
            "the token endpoint {endpoint} refused: {}",
            answer.refusal()
        ));
    }
    let access = answer
        .json
        .get("access_token")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the token endpoint {endpoint} answered without an access_token"))?;
    Ok(Token {
        access: access.to_string(),
        refresh: answer
            .json
            .get("refresh_token")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// Fetches the authorization address as a browser would and follows its
/// redirect back to the callback. An endpoint that answers without
/// redirecting (an error page) is reported, not waited on.
async fn follow(
    transport: &Rc<dyn McpTransport>,
    url: &str,
    callback: &Callback,
) -> Result<super::callback::Returned, String> {
    use futures::future::{select, Either};
    let wait = std::pin::pin!(callback.wait());
    let fetch = std::pin::pin!(http::get(transport, url));
    match select(wait, fetch).await {
        Either::Left((returned, _)) => returned,
        // The redirect back is answered before the fetch sees its end, so
        // this is an endpoint that did not redirect; a moment's grace
        // covers a redirect still on its way.
        Either::Right((fetched, wait)) => {
            match tokio::time::timeout(std::time::Duration::from_secs(2), wait).await {
                Ok(returned) => returned,
                Err(_) => Err(match fetched {
                    Ok(answer) => format!(
                        "the authorization endpoint answered {} instead of redirecting back",
                        answer.refusal()
                    ),
                    Err(why) => format!("the authorization endpoint could not be reached: {why}"),
                }),
            }
        }
    }
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    // The address is printed above: a machine without a browser still works.
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// An ES256 key from a PKCS#8 PEM file, for `private_key_jwt` client
/// authentication (RFC 7523 §2.2).
pub struct SigningKey {
    pair: ring::signature::EcdsaKeyPair,
}

impl SigningKey {
    pub fn read(path: &str) -> Result<SigningKey, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the private key {path}: {e}"))?;
        let base64: String = text
            .lines()
            .filter(|line| !line.starts_with("-----"))
            .map(str::trim)
            .collect();
        let der = STANDARD
            .decode(base64)
            .map_err(|_| format!("{path} is not a PEM file (a PKCS#8 \"PRIVATE KEY\")"))?;
        let rng = ring::rand::SystemRandom::new();
        let pair = ring::signature::EcdsaKeyPair::from_pkcs8(
            &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &der,
            &rng,
        )
        .map_err(|_| format!("{path} is not a P-256 (ES256) private key in PKCS#8"))?;
        Ok(SigningKey { pair })
    }

    /// A signed JWT saying this client is `client_id`, for `audience` (the
    /// authorization server's issuer), good for five minutes.
    fn assertion(&self, client_id: &str, audience: &str) -> Result<String, String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let header = json!({"alg": "ES256", "typ": "JWT"});
        let claims = json!({
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": now,
            "exp": now + 300,
            "jti": random_text(16)?,
        });
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let rng = ring::rand::SystemRandom::new();
        let signature = self
            .pair
            .sign(&rng, signing_input.as_bytes())
            .map_err(|_| "signing the client assertion failed".to_string())?;
        Ok(format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_the_s256_of_the_verifier() {
        let pkce = Pkce::new().unwrap();
        assert!(
            pkce.verifier.len() >= 43,
            "RFC 7636 wants 43 to 128 characters"
        );
        assert_eq!(pkce.challenge, s256(&pkce.verifier));
        // RFC 7636 Appendix B's example.
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_secret_goes_as_the_server_takes_it() {
        let only_post = vec!["client_secret_post".to_string()];
        assert_eq!(TokenAuth::for_secret(Some(&only_post)), TokenAuth::Post);
        assert_eq!(TokenAuth::for_secret(None), TokenAuth::Basic);
    }
}
