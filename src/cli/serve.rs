//! `codemode serve`: serves the configured tools to an MCP client, over standard input and
//! output (the default) or streamable HTTP (`--http`, endpoint `/mcp`): on a loopback
//! address, or on any address once bearer tokens are configured (`[[serve.tokens]]` in the
//! file, `--token-file`, `--token-env`), over TLS with `--tls-cert` and `--tls-key`. Standard output carries only the protocol; logs go to standard error
//! (`CODEMODE_LOG`, e.g. `CODEMODE_LOG=debug`; default `warn`). The HTTP bounds (header
//! and body timeouts, the connection and session caps, the idle expiry) and the run cap
//! are flags; their defaults are the library's (`codemode::mcp::server::DEFAULT_*`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::Config;
use crate::host::{Engine, Host};
use crate::mcp::server::{
    self, BearerAuth, BearerToken, McpServer, ServeError, ServeOptions, Shares, TlsFiles,
};
use clap::Args;
use tokio_util::sync::CancellationToken;

use super::{Failure, setup};

mod signals;

#[derive(Debug, Clone, Args)]
pub(crate) struct ServeArgs {
    /// The configuration file (default: `codemode.toml` in the working directory, else the
    /// built-in file tools over the working directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Serve streamable HTTP on this address instead of stdio, e.g. `127.0.0.1:8931` (port
    /// 0 picks a free port; the URL is printed to standard error). Addresses other than
    /// loopback need bearer tokens (`[[serve.tokens]]`, `--token-file`, `--token-env`).
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,

    /// HTTP: accept the bearer tokens in FILE, one a line (`TOKEN`, `NAME TOKEN`, or `NAME
    /// sha256:DIGEST` as `codemode token hash --name NAME` prints it; a word starting with
    /// `#` starts a comment), besides those of `[[serve.tokens]]`. Read again on SIGHUP.
    #[arg(long, value_name = "FILE", requires = "http")]
    token_file: Option<PathBuf>,

    /// HTTP: accept the bearer token in the environment variable VAR.
    #[arg(long, value_name = "VAR", requires = "http")]
    token_env: Option<String>,

    /// HTTP: serve TLS with this PEM certificate chain (with `--tls-key`).
    #[arg(long, value_name = "FILE", requires_all = ["tls_key", "http"])]
    tls_cert: Option<PathBuf>,

    /// HTTP: the PEM private key of `--tls-cert`.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,

    /// HTTP: also answer pages of this origin (`https://host[:port]`; repeatable); requests
    /// with another non-loopback `Origin` are answered `403`.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allowed_origin: Vec<String>,

    /// HTTP: the endpoint's URL as clients reach it (behind a proxy or load balancer), for
    /// the protected-resource metadata; default: made from each request's `Host`.
    #[arg(long, value_name = "URL", requires = "http")]
    public_url: Option<String>,

    /// Seconds a call under the `ask` policy waits for the client's answer before it is
    /// denied.
    #[arg(long, value_name = "SECONDS", default_value_t = 120, value_parser = positive::<u64>)]
    approval_timeout: u64,

    /// HTTP: milliseconds a connection may take to send a request's line and headers
    /// (also the longest idle time between its requests) before it is closed.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = positive::<u64>)]
    header_timeout: u64,

    /// HTTP: milliseconds a request body may take to arrive before it is answered `408`.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = positive::<u64>)]
    body_timeout: u64,

    /// HTTP: milliseconds an answer may wait for a client that does not read it; the
    /// connection is then closed and the answer's memory released.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = positive::<u64>)]
    write_timeout: u64,

    /// HTTP: the most connections open at once; one more is answered `503`.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_CONNECTIONS, value_parser = positive::<usize>)]
    max_connections: usize,

    /// HTTP: the most MCP sessions at once; an `initialize` past it is answered `503`.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_SESSIONS, value_parser = positive::<usize>)]
    max_sessions: usize,

    /// HTTP: seconds an MCP session may stay idle before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = positive::<u64>)]
    session_idle: u64,

    /// The most tool calls (`run_code` runs included) running at once across the server.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_RUNS, value_parser = positive::<usize>)]
    max_runs: usize,

    /// The most tool calls waiting for a run slot; one more is refused as busy.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_RUN_QUEUE)]
    run_queue: usize,

    /// MiB that the stores of all sessions (`store` in programs) may hold together; each
    /// bearer token gets an even share. A write past it fails with `STORE_LIMIT`.
    #[arg(long, value_name = "MB", default_value_t = server::DEFAULT_MAX_STORE_BYTES / (1024 * 1024), value_parser = positive::<usize>)]
    max_store_mb: usize,

    /// Seconds the calls in flight get to finish after SIGTERM or SIGINT (new sessions and
    /// calls are refused meanwhile); those left are then cancelled, answered "the server is
    /// stopping", and the process exits 0. A second signal stops at once.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    shutdown_grace: u64,

    /// Serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9464), on a listener
    /// of their own without the MCP endpoint's authentication: bind it where only the
    /// monitoring reaches.
    #[arg(long, value_name = "ADDR")]
    metrics: Option<String>,
}

/// A count or duration that must be at least 1 (clap names the flag).
fn positive<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(value) if value >= T::from(1) => Ok(value),
        _ => Err("must be a positive whole number".to_owned()),
    }
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), Failure> {
    let addr = args.http.as_deref().map(parse_address).transpose()?;
    let metrics_addr = args.metrics.as_deref().map(parse_metrics).transpose()?;
    for origin in &args.allowed_origin {
        check_origin(origin)?;
    }
    let config = setup::load_config(args.config.as_deref())?;
    let auth = match addr {
        Some(_) => bearer_auth(&config, args)?,
        None => None,
    };
    if let Some(addr) = addr
        && !server::is_loopback(addr.ip())
        && auth.is_some()
        && args.tls_cert.is_none()
    {
        eprintln!(
            "codemode: warning: serving {addr} without TLS: bearer tokens and tool results cross the network unencrypted; use --tls-cert and --tls-key, or a TLS-terminating proxy in front"
        );
    }
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(TlsFiles::new(cert, key)),
        _ => None,
    };
    let runtime = setup::tokio_runtime()?;
    let outcome = runtime.block_on(async {
        let host = setup::host(config, Engine::Auto).await?;
        if let Some(auth) = &auth {
            check_token_scopes(&host, auth)?;
        }
        let server = McpServer::new(
            host.registry().clone(),
            ServeOptions::default()
                .with_approval_timeout(Duration::from_secs(args.approval_timeout))
                .with_header_timeout(Duration::from_millis(args.header_timeout))
                .with_body_timeout(Duration::from_millis(args.body_timeout))
                .with_write_timeout(Duration::from_millis(args.write_timeout))
                .with_max_connections(args.max_connections)
                .with_max_sessions(args.max_sessions)
                .with_session_idle(Duration::from_secs(args.session_idle))
                .with_max_runs(args.max_runs)
                .with_run_queue(args.run_queue)
                .with_max_store_bytes(args.max_store_mb.saturating_mul(1024 * 1024))
                .with_auth(auth.map(|auth| auth.auth))
                .with_tls(tls)
                .with_allowed_origins(args.allowed_origin.clone())
                .with_public_url(args.public_url.clone()),
        );
        let shutdown = CancellationToken::new();
        let reload = args.token_file.as_ref().map(|_| {
            let (config_path, args) = (args.config.clone(), args.clone());
            move || reload_tokens(config_path.as_deref(), &args)
        });
        signals::watch(
            server.clone(),
            Duration::from_secs(args.shutdown_grace),
            shutdown.clone(),
            reload,
        )
        .map_err(|err| Failure::failed(format!("cannot handle signals: {err}")))?;
        if let Some(metrics_addr) = metrics_addr {
            serve_metrics(&server, metrics_addr, shutdown.clone()).await?;
        }
        let served = match addr {
            None => server.serve_stdio(shutdown).await,
            Some(addr) => {
                let http = server.bind_http(addr).await.map_err(|err| match err {
                    ServeError::NotLoopback(_) | ServeError::Tls(_) => {
                        Failure::usage(err.to_string())
                    }
                    _ => Failure::failed(format!("{err} ({})", err.code())),
                })?;
                eprintln!(
                    "codemode: serving MCP over streamable HTTP at {}",
                    http.url()
                );
                http.serve(shutdown).await
            }
        };
        served.map_err(|err| Failure {
            message: format!("{} ({})", err, err.code()),
            status: 1,
        })
    });
    // Nothing a tool started outlives the server (a call abandoned by its client, a stdio
    // MCP server), and tool calls still running when the client left must not keep the
    // process alive.
    let killed = crate::process::kill_every_group();
    if killed > 0 {
        tracing::debug!(groups = killed, "killed the tool processes left at exit");
    }
    runtime.shutdown_timeout(Duration::from_millis(200));
    outcome
}

/// Binds `--metrics` and serves it until `shutdown`.
async fn serve_metrics(
    server: &McpServer,
    addr: SocketAddr,
    shutdown: CancellationToken,
) -> Result<(), Failure> {
    let metrics = server
        .bind_metrics(addr)
        .await
        .map_err(|err| Failure::failed(format!("--metrics: {err} ({})", err.code())))?;
    let local = metrics.local_addr().unwrap_or(addr);
    eprintln!(
        "codemode: serving metrics at http://{local}{}",
        server::METRICS_PATH
    );
    tokio::spawn(metrics.serve(shutdown));
    Ok(())
}

/// Parses `--http`: an IP address and port, or `localhost:PORT`. Whether the address
/// may be served (loopback, or any with tokens) is the server's to say.
fn parse_address(text: &str) -> Result<SocketAddr, Failure> {
    let addr = match text.strip_prefix("localhost:") {
        Some(port) => port
            .parse::<u16>()
            .ok()
            .map(|port| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)),
        None => text.parse::<SocketAddr>().ok(),
    };
    addr.ok_or_else(|| {
        Failure::usage(format!(
            "--http takes an IP address and port: 127.0.0.1:8931 or [::1]:8931 on loopback, or e.g. 0.0.0.0:8931 with bearer tokens; got `{text}`"
        ))
    })
}

/// Parses `--metrics`: an IP address and port, or `localhost:PORT`.
fn parse_metrics(text: &str) -> Result<SocketAddr, Failure> {
    parse_address(text).map_err(|_| {
        Failure::usage(format!(
            "--metrics takes an IP address and port, e.g. 127.0.0.1:9464; got `{text}`"
        ))
    })
}

/// `--allowed-origin`: `http(s)://host[:port]`, nothing after.
fn check_origin(origin: &str) -> Result<(), Failure> {
    let uri = origin.parse::<http::Uri>().ok();
    let fine = uri.as_ref().is_some_and(|uri| {
        matches!(uri.scheme_str(), Some("http" | "https"))
            && uri.authority().is_some()
            && matches!(uri.path(), "" | "/")
            && uri.query().is_none()
    });
    if fine {
        Ok(())
    } else {
        Err(Failure::usage(format!(
            "--allowed-origin takes an origin such as https://agents.example.com or http://localhost:3000, got `{origin}`"
        )))
    }
}

/// The tokens `serve --http` accepts, with where each came from (to name it in messages).
struct Tokens {
    auth: BearerAuth,
    /// Where each token is declared, in the order of the auth's tokens.
    places: Vec<String>,
}

/// The bearer tokens of `[[serve.tokens]]`, `--token-file` and `--token-env`, or none.
fn bearer_auth(config: &Config, args: &ServeArgs) -> Result<Option<Tokens>, Failure> {
    let mut tokens = Vec::new();
    let mut places = Vec::new();
    for token in &config.serve_tokens {
        let mut bearer = BearerToken::from_sha256_hex(&token.name, &token.sha256)
            .map_err(|err| Failure::usage(format!("{}: {err}", token.place)))?;
        if let Some(allow) = &token.allow {
            bearer = bearer.with_allow(allow.clone());
        }
        if let Some(deny) = &token.deny {
            bearer = bearer.with_deny(deny.clone());
        }
        let mut shares = Shares::even();
        if let Some(n) = token.max_sessions {
            shares = shares.with_sessions(n);
        }
        if let Some(n) = token.max_streams {
            shares = shares.with_streams(n);
        }
        if let Some(n) = token.max_runs {
            shares = shares.with_runs(n);
        }
        if let Some(n) = token.run_queue {
            shares = shares.with_queue(n);
        }
        bearer = bearer.with_shares(shares);
        tokens.push(bearer);
        places.push(token.place.clone());
    }
    if let Some(file) = &args.token_file {
        for (place, token) in read_token_file(file)? {
            tokens.push(token);
            places.push(place);
        }
    }
    if let Some(var) = &args.token_env {
        let secret = std::env::var(var).map_err(|_| {
            Failure::usage(format!(
                "--token-env {var}: the environment variable `{var}` is not set (or not UTF-8)"
            ))
        })?;
        let token = BearerToken::from_secret(var.clone(), secret.trim())
            .map_err(|err| Failure::usage(format!("--token-env {var}: {err}")))?;
        tokens.push(token);
        places.push(format!("--token-env {var}"));
    }
    if tokens.is_empty() {
        return Ok(None);
    }
    let auth = BearerAuth::new(tokens).map_err(|err| Failure::usage(err.to_string()))?;
    Ok(Some(Tokens { auth, places }))
}

/// The tokens after `SIGHUP`: the configuration's, the token file's and the environment's,
/// read again.
fn reload_tokens(config: Option<&Path>, args: &ServeArgs) -> Result<BearerAuth, String> {
    let config = setup::load_config(config).map_err(|failure| failure.message)?;
    match bearer_auth(&config, args).map_err(|failure| failure.message)? {
        Some(tokens) => Ok(tokens.auth),
        None => Err("no token is configured any more".to_owned()),
    }
}

/// The tokens of a token file, each with its place (`FILE:LINE`).
fn read_token_file(path: &Path) -> Result<Vec<(String, BearerToken)>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|err| {
        Failure::usage(format!(
            "--token-file: cannot read {}: {err}",
            path.display()
        ))
    })?;
    warn_if_shared(path);
    let mut tokens = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let place = format!("{}:{}", path.display(), number + 1);
        if let Some(token) = token_line(line, &place)? {
            tokens.push((place, token));
        }
    }
    if tokens.is_empty() {
        return Err(Failure::usage(format!(
            "--token-file: {} holds no token (one a line: `TOKEN`, `NAME TOKEN` or `NAME sha256:DIGEST`)",
            path.display()
        )));
    }
    Ok(tokens)
}

/// One line of a token file: `TOKEN`, `NAME TOKEN` or `NAME sha256:DIGEST` (what `codemode
/// token hash --name NAME` prints: the file then holds no secret). Words are separated by
/// whitespace; a word that starts with `#` starts a comment, to the end of the line, so a
/// `#` inside a secret is part of it (a secret cannot start with `#`: use its digest).
fn token_line(line: &str, place: &str) -> Result<Option<BearerToken>, Failure> {
    let fields: Vec<&str> = line
        .split_whitespace()
        .take_while(|word| !word.starts_with('#'))
        .collect();
    let (name, secret) = match fields.as_slice() {
        [] => return Ok(None),
        [secret] => (place.to_owned(), *secret),
        [name, secret] => ((*name).to_owned(), *secret),
        _ => {
            return Err(Failure::usage(format!(
                "{place}: a token line is `TOKEN`, `NAME TOKEN` or `NAME sha256:DIGEST`, got {} words",
                fields.len()
            )));
        }
    };
    let token = match secret.strip_prefix(DIGEST_PREFIX) {
        Some(digest) => BearerToken::from_sha256_hex(name, digest),
        None => BearerToken::from_secret(name, secret),
    };
    token
        .map(Some)
        .map_err(|err| Failure::usage(format!("{place}: {err}")))
}

/// What marks a token file's word as a digest rather than a secret.
pub(crate) const DIGEST_PREFIX: &str = "sha256:";

/// Warns when a token file can be read by others than its owner.
fn warn_if_shared(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        eprintln!(
            "codemode: warning: the token file {} can be read by others (mode {:o}); `chmod 600` it",
            path.display(),
            meta.permissions().mode() & 0o777
        );
    }
}

/// Refuses, at the token's place, a tool scope that names tools the host does not have.
fn check_token_scopes(host: &Host, tokens: &Tokens) -> Result<(), Failure> {
    for (token, place) in tokens.auth.tokens().zip(&tokens.places) {
        if token.allow().is_none() && token.deny().is_none() {
            continue;
        }
        fn names(list: Option<&[String]>) -> Option<Vec<&str>> {
            list.map(|names| names.iter().map(String::as_str).collect())
        }
        let (allow, deny) = (names(token.allow()), names(token.deny()));
        let scope = host
            .registry()
            .global()
            .create_scope(format!("token check {}", token.name()))
            .map_err(|err| Failure::from_error(&err))?;
        let checked = scope.restrict(allow.as_deref(), deny.as_deref());
        scope.close();
        checked
            .map_err(|err| {
                Failure::usage(format!(
                    "{place}: the tool scope of token `{}`: {}",
                    token.name(),
                    err.message()
                ))
            })?
            .keep();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_parsed_and_bad_ones_named() {
        assert_eq!(
            parse_address("127.0.0.1:0").ok(),
            Some("127.0.0.1:0".parse().unwrap())
        );
        assert!(parse_address("[::1]:8080").is_ok());
        assert!(parse_address("0.0.0.0:8080").is_ok());
        assert_eq!(
            parse_address("localhost:9").ok(),
            Some("127.0.0.1:9".parse().unwrap())
        );
        let bad = parse_address("example.com:80").unwrap_err();
        assert_eq!(bad.status, Failure::USAGE);
        assert!(bad.message.contains("example.com:80"), "{}", bad.message);
        assert!(parse_address("127.0.0.1").is_err());
    }

    #[test]
    fn origins_are_checked() {
        assert!(check_origin("https://agents.example.com").is_ok());
        assert!(check_origin("http://localhost:3000").is_ok());
        for bad in [
            "agents.example.com",
            "https://x.example/path",
            "ftp://x.example",
            "",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn token_files_take_tokens_names_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens");
        std::fs::write(
            &path,
            "# the agents\nalpha-token-0123456789abcdefghij\n\nbuild  beta-token-0123456789abcdefghij  # CI\n",
        )
        .unwrap();
        let tokens = read_token_file(&path).unwrap();
        assert_eq!(tokens.len(), 2);
        assert!(
            tokens[0].1.name().ends_with("tokens:2"),
            "{}",
            tokens[0].1.name()
        );
        assert_eq!(tokens[1].1.name(), "build");
        std::fs::write(&path, "a b c\n").unwrap();
        let three = read_token_file(&path).unwrap_err();
        assert!(
            three.message.contains("tokens:1: a token line"),
            "{}",
            three.message
        );
        std::fs::write(&path, "short\n").unwrap();
        let short = read_token_file(&path).unwrap_err();
        assert!(short.message.contains("tokens:1:"), "{}", short.message);
        // A `#` inside a secret is part of it; a word starting with `#` is a comment.
        std::fs::write(
            &path,
            "hashy abc#def-0123456789abcdefghijkl #comment words\n",
        )
        .unwrap();
        let hashy = read_token_file(&path).unwrap();
        let secret = "abc#def-0123456789abcdefghijkl";
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(
            axum::http::header::AUTHORIZATION,
            format!("Bearer {secret}").parse().unwrap(),
        );
        let auth = BearerAuth::new(vec![hashy[0].1.clone()]).unwrap();
        assert!(auth.check(&headers).is_ok());
        headers.insert(
            axum::http::header::AUTHORIZATION,
            "Bearer abc".parse().unwrap(),
        );
        assert!(auth.check(&headers).is_err());
        // A digest line holds no secret and accepts the token it is the digest of.
        std::fs::write(
            &path,
            format!("ci sha256:{}\n", crate::mcp::server::sha256_hex(secret)),
        )
        .unwrap();
        let digested = read_token_file(&path).unwrap();
        assert_eq!(digested[0].1.name(), "ci");
        let auth = BearerAuth::new(vec![digested[0].1.clone()]).unwrap();
        headers.insert(
            axum::http::header::AUTHORIZATION,
            format!("Bearer {secret}").parse().unwrap(),
        );
        assert!(auth.check(&headers).is_ok());
        std::fs::write(&path, "ci sha256:abc\n").unwrap();
        assert!(
            read_token_file(&path)
                .unwrap_err()
                .message
                .contains("64 hexadecimal digits")
        );
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(
            read_token_file(&path)
                .unwrap_err()
                .message
                .contains("holds no token")
        );
    }
}
