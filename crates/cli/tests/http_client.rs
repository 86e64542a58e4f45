//! The command line's HTTP client as servers and proxies see it: origin-form
//! request lines, https to a server whose CA is in `SSL_CERT_FILE` (a
//! certificate this test makes with openssl), a certificate from an unknown
//! CA refused with the reason, the hosted address by default (through a
//! proxy, since no hosted API is reachable from a test), `NO_PROXY`, and the
//! API key read from the SDKs' variables but kept out of every output.
//!
//! The servers here are small std-thread servers that record each raw
//! request (line and headers) and answer with a fixed body: what is checked
//! is the bytes on the wire, which `agent-loop serve` does not log.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use serde_json::Value;

const KEY: &str = "sk-http-test-key-never-printed";
const SCENARIO: &str = r#"{"name":"One answer","task":"Say hello.","tools":[],"model":{"type":"scripted","responses":[{"text":"Hello."}]}}"#;

/// One request as the server read it off the socket.
#[derive(Clone, Debug)]
struct Seen {
    request_line: String,
    /// Lower-case names.
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

type Answer = fn(&Seen) -> String;

/// Listens on 127.0.0.1 (a port the system picks), over TLS when a config
/// is given, and answers each request with `answer` (a whole raw HTTP
/// response); one request a connection (`connection: close`). The thread
/// lives as long as the test process.
fn start_server(
    tls: Option<Arc<rustls::ServerConfig>>,
    answer: Answer,
) -> (u16, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for tcp in listener.incoming().map_while(Result::ok) {
            let log = log.clone();
            let tls = tls.clone();
            std::thread::spawn(move || match tls {
                Some(config) => {
                    let Ok(connection) = rustls::ServerConnection::new(config) else {
                        return;
                    };
                    let mut stream = rustls::StreamOwned::new(connection, tcp);
                    if handle(&mut stream, answer, &log).is_some() {
                        stream.conn.send_close_notify();
                        let _ = stream.flush();
                    }
                }
                None => {
                    let mut tcp: TcpStream = tcp;
                    handle(&mut tcp, answer, &log);
                }
            });
        }
    });
    (port, seen)
}

/// Reads one request (a failed TLS handshake ends here with `None`), logs
/// it, writes the answer.
fn handle<S: Read + Write>(stream: &mut S, answer: Answer, log: &Mutex<Vec<Seen>>) -> Option<()> {
    let mut reader = BufReader::new(&mut *stream);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let seen = Seen {
        request_line: request_line.trim_end().to_string(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let response = answer(&seen);
    log.lock().unwrap().push(seen);
    stream.write_all(response.as_bytes()).ok()?;
    stream.flush().ok()
}

fn http_response(status: &str, content_type: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A model that says "Hello." in the format the request's path asks for,
/// streamed when the request asks for it.
fn hello_model(seen: &Seen) -> String {
    let streamed = seen.body.contains(r#""stream":true"#);
    if seen.request_line.contains("/v1/messages") {
        let message = r#"{"id":"msg_1","type":"message","role":"assistant","model":"test-model","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":2}}"#;
        assert!(!streamed, "the Anthropic tests here ask for whole answers");
        return http_response("200 OK", "application/json", message);
    }
    if streamed {
        let chunk = |delta: &str, finish: &str| {
            format!(
                r#"data: {{"id":"c1","object":"chat.completion.chunk","created":0,"model":"test-model","choices":[{{"index":0,"delta":{delta},"finish_reason":{finish}}}]}}"#
            ) + "\n\n"
        };
        let body = chunk(r#"{"role":"assistant","content":"Hel"}"#, "null")
            + &chunk(r#"{"content":"lo."}"#, r#""stop""#)
            + r#"data: {"id":"c1","object":"chat.completion.chunk","created":0,"model":"test-model","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#
            + "\n\ndata: [DONE]\n\n";
        return http_response("200 OK", "text/event-stream", &body);
    }
    let completion = r#"{"id":"c1","object":"chat.completion","created":0,"model":"test-model","choices":[{"index":0,"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#;
    http_response("200 OK", "application/json", completion)
}

/// A proxy that refuses every tunnel: enough to see where the client was
/// going (the CONNECT line) without reaching it.
fn refusing_proxy(_: &Seen) -> String {
    http_response("403 Forbidden", "text/plain", "no tunnels here")
}

fn not_found(_: &Seen) -> String {
    http_response("404 Not Found", "text/plain", "not found")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-http-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn scenario_file(dir: &Path) -> PathBuf {
    let path = dir.join("one-answer.json");
    std::fs::write(&path, SCENARIO).unwrap();
    path
}

/// The CLI with none of the variables under test inherited from the shell
/// that runs the tests (a developer's own key or proxy must not leak in).
fn cli() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agent-loop"));
    for name in [
        "AGENT_LOOP_API_KEY",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
    ] {
        command.env_remove(name);
    }
    command
}

fn run_provider(command: &mut Command, scenario: &Path, provider: &str, extra: &[&str]) -> Output {
    command
        .arg("run")
        .arg(scenario)
        .args(["--jsonl", "--provider", provider, "--model", "test-model"])
        .args(extra)
        .output()
        .expect("agent-loop runs")
}

fn last_event(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_else(|| {
        panic!(
            "no events; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    serde_json::from_str(last).expect("JSON event")
}

fn assert_key_absent(output: &Output, key: &str) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stdout.contains(key), "the key is in the trace: {stdout}");
    assert!(!stderr.contains(key), "the key is on stderr: {stderr}");
}

/// uvicorn/Starlette route on the path: a request line with the absolute
/// URL (the proxy form the old client sent) got 404 from every one of them.
#[test]
fn requests_go_out_in_origin_form_to_providers_and_mcp_servers() {
    let dir = temp_dir("origin-form");
    let (port, seen) = start_server(None, hello_model);
    let output = run_provider(
        &mut cli(),
        &scenario_file(&dir),
        "openai-chat",
        &[
            "--base-url",
            &format!("http://127.0.0.1:{port}/v1"),
            "--no-stream",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(last_event(&output)["status"], "done");
    let request = seen.lock().unwrap()[0].clone();
    assert_eq!(request.request_line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(
        request.header("host"),
        Some(format!("127.0.0.1:{port}").as_str())
    );

    let (port, seen) = start_server(None, not_found);
    let output = cli()
        .args(["mcp", "tools", &format!("http://127.0.0.1:{port}/mcp")])
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0), "a 404 is no MCP server");
    let first = seen.lock().unwrap()[0].clone();
    assert_eq!(first.request_line, "POST /mcp HTTP/1.1");
}

/// Without `--base-url` the run goes to the provider's hosted https
/// address. It cannot be reached from a test, so `HTTPS_PROXY` names a
/// local proxy: its CONNECT line shows where the client was going, and that
/// the proxy was used. The key travels inside the tunnel, never to the proxy.
#[test]
fn without_a_base_url_the_hosted_https_api_is_used_through_https_proxy() {
    let dir = temp_dir("hosted");
    let scenario = scenario_file(&dir);
    for (provider, host, path) in [
        ("anthropic", "api.anthropic.com", "/v1/messages"),
        ("openai-chat", "api.openai.com", "/v1/chat/completions"),
        ("openai-responses", "api.openai.com", "/v1/responses"),
    ] {
        let (proxy_port, seen) = start_server(None, refusing_proxy);
        let output = run_provider(
            cli()
                .env("HTTPS_PROXY", format!("http://127.0.0.1:{proxy_port}"))
                .env("AGENT_LOOP_API_KEY", KEY),
            &scenario,
            provider,
            &["--no-stream"],
        );
        assert_eq!(output.status.code(), Some(3), "{provider}");
        let last = last_event(&output);
        assert_eq!(last["status"], "model_error", "{provider}");
        let reason = last["reason"].as_str().unwrap();
        assert!(
            reason.contains(&format!("could not reach https://{host}{path}")),
            "{provider}: {reason}"
        );
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty(), "{provider}: the proxy saw no request");
        assert_eq!(seen[0].request_line, format!("CONNECT {host}:443 HTTP/1.1"));
        assert!(
            seen.iter().all(|s| !format!("{s:?}").contains(KEY)),
            "{provider}: the proxy saw the key"
        );
        assert_key_absent(&output, KEY);
    }
}

/// With no key in any variable and the hosted API as the target, the run
/// says which variable to set before the API answers 401.
#[test]
fn a_hosted_run_without_a_key_names_the_variable_to_set() {
    let dir = temp_dir("no-key");
    let (proxy_port, _seen) = start_server(None, refusing_proxy);
    let output = run_provider(
        cli().env("HTTPS_PROXY", format!("http://127.0.0.1:{proxy_port}")),
        &scenario_file(&dir),
        "anthropic",
        &["--no-stream"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("note: no API key: set ANTHROPIC_API_KEY (or AGENT_LOOP_API_KEY)"),
        "{stderr}"
    );
}

/// `NO_PROXY` sends a host past the proxy; other hosts still go through it.
#[test]
fn loopback_and_no_proxy_hosts_are_reached_directly_and_others_through_the_proxy() {
    let dir = temp_dir("no-proxy");
    let scenario = scenario_file(&dir);
    let (proxy_port, proxied) = start_server(None, hello_model);
    let (port, direct) = start_server(None, hello_model);
    let proxy = format!("http://127.0.0.1:{proxy_port}");

    // This machine's own servers are never sent to a proxy.
    let local = format!("http://127.0.0.1:{port}/v1");
    let output = run_provider(
        cli().env("HTTP_PROXY", &proxy),
        &scenario,
        "openai-chat",
        &["--base-url", &local, "--no-stream"],
    );
    assert_eq!(last_event(&output)["status"], "done");
    assert_eq!(direct.lock().unwrap().len(), 1);
    assert!(
        proxied.lock().unwrap().is_empty(),
        "a loopback host went to the proxy"
    );

    // Another host goes through the proxy, in the absolute form a proxy
    // needs (the proxy here answers as the model).
    let remote = "http://models.example.test/v1";
    let output = run_provider(
        cli().env("HTTP_PROXY", &proxy),
        &scenario,
        "openai-chat",
        &["--base-url", remote, "--no-stream"],
    );
    assert_eq!(last_event(&output)["status"], "done");
    assert_eq!(
        proxied.lock().unwrap()[0].request_line,
        format!("POST {remote}/chat/completions HTTP/1.1")
    );

    // Unless NO_PROXY names it: then it is dialled directly (and this name
    // resolves nowhere, so the run ends model_error without the proxy).
    let output = run_provider(
        cli()
            .env("HTTP_PROXY", &proxy)
            .env("NO_PROXY", "models.example.test"),
        &scenario,
        "openai-chat",
        &["--base-url", remote, "--no-stream"],
    );
    let last = last_event(&output);
    assert_eq!(last["status"], "model_error");
    assert_eq!(proxied.lock().unwrap().len(), 1, "NO_PROXY was ignored");
    // The advice is a command line's, not a browser's (no CORS here).
    let reason = last["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("Check the base URL, and that the server is running")
            && !reason.contains("CORS"),
        "{reason}"
    );
}

type KeyCase = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    String,
);

/// The SDKs' variables are read when AGENT_LOOP_API_KEY is not set, and
/// AGENT_LOOP_API_KEY wins when it is; each provider gets the key in its own
/// header.
#[test]
fn the_key_comes_from_the_providers_own_variable_unless_agent_loop_api_key_is_set() {
    let dir = temp_dir("keys");
    let scenario = scenario_file(&dir);
    // (provider, variables set, the header the key goes in, its value)
    let cases: [KeyCase; 3] = [
        (
            "anthropic",
            &[("ANTHROPIC_API_KEY", "sk-ant-from-sdk-var")],
            "x-api-key",
            "sk-ant-from-sdk-var".into(),
        ),
        (
            "openai-chat",
            &[("OPENAI_API_KEY", "sk-openai-from-sdk-var")],
            "authorization",
            "Bearer sk-openai-from-sdk-var".into(),
        ),
        (
            "openai-chat",
            &[
                ("OPENAI_API_KEY", "sk-openai-from-sdk-var"),
                ("AGENT_LOOP_API_KEY", KEY),
            ],
            "authorization",
            format!("Bearer {KEY}"),
        ),
    ];
    for (provider, vars, header, expected) in cases {
        let (port, seen) = start_server(None, hello_model);
        let mut command = cli();
        command.envs(vars.iter().copied());
        let record = dir.join(format!("{provider}-{}.jsonl", vars.len()));
        let output = run_provider(
            &mut command,
            &scenario,
            provider,
            &[
                "--base-url",
                &format!("http://127.0.0.1:{port}"),
                "--no-stream",
                "--record",
                record.to_str().unwrap(),
            ],
        );
        assert_eq!(last_event(&output)["status"], "done", "{provider} {vars:?}");
        assert_eq!(
            seen.lock().unwrap()[0].header(header),
            Some(expected.as_str())
        );
        let record_text = std::fs::read_to_string(&record).unwrap();
        for (_, key) in vars {
            assert_key_absent(&output, key);
            assert!(!record_text.contains(key), "the key is in the record");
        }
    }
}

/// A CA and a certificate for localhost and 127.0.0.1 signed by it, made
/// with the openssl command line; returns (CA file, server config).
fn make_certificates(dir: &Path) -> (PathBuf, Arc<rustls::ServerConfig>) {
    let openssl = |args: &[&str]| {
        let output = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("this test makes its certificates with the openssl command, which must be installed");
        assert!(
            output.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=agent-loop test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign",
            ],
        ]
        .concat(),
    );
    openssl(
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=localhost",
            ],
        ]
        .concat(),
    );
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ]);
    let certs = rustls_pemfile::certs(&mut BufReader::new(
        std::fs::File::open(dir.join("server.pem")).unwrap(),
    ))
    .collect::<Result<Vec<_>, _>>()
    .unwrap();
    let key = rustls_pemfile::private_key(&mut BufReader::new(
        std::fs::File::open(dir.join("server.key")).unwrap(),
    ))
    .unwrap()
    .expect("a private key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    (dir.join("ca.pem"), Arc::new(config))
}

/// https as a CI job would add its own CA: SSL_CERT_FILE names it. The
/// answer is streamed (SSE over TLS); the key comes from OPENAI_API_KEY and
/// is nowhere in the trace, stderr or the record.
#[test]
fn https_trusts_the_ca_in_ssl_cert_file_and_streams() {
    let dir = temp_dir("tls-trusted");
    let (ca, config) = make_certificates(&dir);
    let (port, seen) = start_server(Some(config), hello_model);
    let record = dir.join("run.jsonl");
    let output = run_provider(
        cli().env("SSL_CERT_FILE", &ca).env("OPENAI_API_KEY", KEY),
        &scenario_file(&dir),
        "openai-chat",
        &[
            "--base-url",
            &format!("https://localhost:{port}/v1"),
            "--record",
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Hello."), "{stdout}");
    assert_eq!(last_event(&output)["status"], "done");
    let request = seen.lock().unwrap()[0].clone();
    assert_eq!(request.request_line, "POST /v1/chat/completions HTTP/1.1");
    assert!(
        request.body.contains(r#""stream":true"#),
        "{}",
        request.body
    );
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_key_absent(&output, KEY);
    assert!(
        !std::fs::read_to_string(&record).unwrap().contains(KEY),
        "the key is in the record"
    );
}

/// The same server without SSL_CERT_FILE: its CA is in no trust store, so
/// the run ends with a model error that says the certificate was refused.
#[test]
fn https_to_a_certificate_from_an_unknown_ca_is_refused_with_the_reason() {
    let dir = temp_dir("tls-unknown");
    let (_ca, config) = make_certificates(&dir);
    let (port, seen) = start_server(Some(config), hello_model);
    let output = run_provider(
        cli().env("OPENAI_API_KEY", KEY),
        &scenario_file(&dir),
        "openai-chat",
        &[
            "--base-url",
            &format!("https://localhost:{port}/v1"),
            "--no-stream",
        ],
    );
    assert_eq!(output.status.code(), Some(3));
    let last = last_event(&output);
    assert_eq!(last["status"], "model_error");
    let reason = last["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!(
            "could not reach https://localhost:{port}/v1/chat/completions"
        )),
        "{reason}"
    );
    assert!(
        reason.contains("invalid peer certificate: UnknownIssuer"),
        "says why: {reason}"
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "no request went over the refused connection"
    );
    assert_key_absent(&output, KEY);
}
