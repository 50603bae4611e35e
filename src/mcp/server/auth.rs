//! Bearer-token authentication of the streamable HTTP endpoint, for serving beyond
//! loopback: which tokens are accepted, which one a request presents, the `401` answers
//! and the protected-resource metadata the MCP authorization specification describes
//! (RFC 9728).
//!
//! - Tokens are kept only as SHA-256 digests. A presented token is hashed and compared
//!   with every known digest in constant time (`subtle`), all of them, whatever matched:
//!   how long the check takes says nothing about which digest, or how much of one, was
//!   close. Tokens are random secrets of at least [`MIN_SECRET_CHARS`] characters
//!   (`codemode token new` makes 256-bit ones), so an unsalted digest is enough: nothing
//!   short enough to guess is accepted as a secret.
//! - A request without `Authorization: Bearer …` is `401` with `WWW-Authenticate: Bearer`
//!   naming the metadata document; a wrong token is `401` with `error="invalid_token"`.
//! - The metadata document (`/.well-known/oauth-protected-resource` and
//!   `/.well-known/oauth-protected-resource/mcp`) names the resource and says the token
//!   goes in the header. Tokens are provisioned out of band (no authorization server issues
//!   them), so it lists none.
//! - A token may carry a tool scope (`allow` / `deny`): the sessions it opens see only
//!   those tools (the session applies it as a restriction of its agent scope).
//!
//! This module owns token checking and the answers about it; it must not read request
//! bodies (the HTTP edge's layers do, after authentication) or decide what a session sees beyond
//! handing over the token's scope.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::envelope;

/// The fewest characters a bearer token given as a secret may have (a token of
/// `codemode token new` has 43).
pub const MIN_SECRET_CHARS: usize = 24;

/// The path of the protected-resource metadata document for the `/mcp` endpoint
/// (RFC 9728 inserts the well-known part between the host and the resource's path).
pub(crate) const METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

/// The metadata path without the resource's path, which clients also try.
pub(crate) const METADATA_ROOT_PATH: &str = "/.well-known/oauth-protected-resource";

/// The JSON-RPC code of an authentication failure (the implementation-defined range).
const UNAUTHORIZED: i64 = -32002;

/// Why a token or a token set was refused. Each variant has a stable [`AuthError::code`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// A secret shorter than [`MIN_SECRET_CHARS`], or with whitespace or control characters.
    #[error(
        "bearer token `{name}`: {reason}; make one with `codemode token new` (random, 43 characters)"
    )]
    WeakSecret {
        /// The token's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A digest that is not 64 hexadecimal digits.
    #[error(
        "bearer token `{name}`: `sha256` must be 64 hexadecimal digits (what `codemode token hash` prints), got {got} characters"
    )]
    BadDigest {
        /// The token's name.
        name: String,
        /// How many characters it had.
        got: usize,
    },
    /// Two tokens with one name or one digest.
    #[error("bearer tokens: {0}")]
    Duplicate(String),
    /// No token at all.
    #[error("bearer authentication needs at least one token")]
    Empty,
}

impl AuthError {
    /// The stable code of the failure.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::WeakSecret { .. } => "AUTH_WEAK_TOKEN",
            AuthError::BadDigest { .. } => "AUTH_BAD_DIGEST",
            AuthError::Duplicate(_) => "AUTH_DUPLICATE_TOKEN",
            AuthError::Empty => "AUTH_NO_TOKENS",
        }
    }
}

/// One accepted bearer token: its name (for logs and messages, never the secret), the
/// SHA-256 digest of the secret, and the tools the sessions it opens may see.
#[derive(Clone)]
pub struct BearerToken {
    name: String,
    digest: [u8; 32],
    allow: Option<Vec<String>>,
    deny: Option<Vec<String>>,
    shares: Shares,
}

/// A token's own share of the server's caps; each one left `None` is an even share of its
/// cap among the tokens, with a floor (see the server's `tenants`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Shares {
    /// MCP sessions open at once (of `--max-sessions`).
    pub sessions: Option<usize>,
    /// HTTP requests held open at once: event streams and calls being answered (of
    /// `--max-connections`).
    pub streams: Option<usize>,
    /// Calls running at once (of `--max-runs`).
    pub runs: Option<usize>,
    /// Calls waiting for a run slot (of `--run-queue`).
    pub queue: Option<usize>,
}

impl Shares {
    /// No share of its own: even shares of every cap.
    pub fn even() -> Self {
        Shares::default()
    }

    /// The same shares with `sessions` sessions.
    pub fn with_sessions(mut self, sessions: usize) -> Self {
        self.sessions = Some(sessions.max(1));
        self
    }

    /// The same shares with `streams` open requests.
    pub fn with_streams(mut self, streams: usize) -> Self {
        self.streams = Some(streams.max(1));
        self
    }

    /// The same shares with `runs` running calls.
    pub fn with_runs(mut self, runs: usize) -> Self {
        self.runs = Some(runs.max(1));
        self
    }

    /// The same shares with `queue` waiting calls.
    pub fn with_queue(mut self, queue: usize) -> Self {
        self.queue = Some(queue);
        self
    }
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BearerToken")
            .field("name", &self.name)
            .field("allow", &self.allow)
            .field("deny", &self.deny)
            .finish_non_exhaustive()
    }
}

impl BearerToken {
    /// A token from its secret (kept only as its digest).
    ///
    /// # Errors
    ///
    /// [`AuthError::WeakSecret`] when the secret is shorter than [`MIN_SECRET_CHARS`] or
    /// holds whitespace or control characters (no client sends those in a header).
    pub fn from_secret(name: impl Into<String>, secret: &str) -> Result<Self, AuthError> {
        let name = name.into();
        let weak = |reason: String| AuthError::WeakSecret {
            name: name.clone(),
            reason,
        };
        if secret.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(weak("it holds whitespace or control characters".to_owned()));
        }
        let chars = secret.chars().count();
        if chars < MIN_SECRET_CHARS {
            return Err(weak(format!(
                "it has {chars} characters, fewer than the {MIN_SECRET_CHARS} a token needs"
            )));
        }
        Ok(BearerToken {
            digest: digest(secret),
            name,
            allow: None,
            deny: None,
            shares: Shares::even(),
        })
    }

    /// A token from the hexadecimal SHA-256 digest of its secret ([`sha256_hex`]).
    ///
    /// # Errors
    ///
    /// [`AuthError::BadDigest`] when `hex` is not 64 hexadecimal digits.
    pub fn from_sha256_hex(name: impl Into<String>, hex: &str) -> Result<Self, AuthError> {
        let name = name.into();
        let bad = || AuthError::BadDigest {
            name: name.clone(),
            got: hex.chars().count(),
        };
        let bytes = hex.trim().as_bytes();
        if bytes.len() != 64 {
            return Err(bad());
        }
        let mut digest = [0u8; 32];
        for (slot, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
            let text = std::str::from_utf8(pair).map_err(|_| bad())?;
            *slot = u8::from_str_radix(text, 16).map_err(|_| bad())?;
        }
        Ok(BearerToken {
            name,
            digest,
            allow: None,
            deny: None,
            shares: Shares::even(),
        })
    }

    /// The same token, whose sessions see only `tools` (of what they would see).
    pub fn with_allow(mut self, tools: Vec<String>) -> Self {
        self.allow = Some(tools);
        self
    }

    /// The same token, whose sessions do not see `tools`.
    pub fn with_deny(mut self, tools: Vec<String>) -> Self {
        self.deny = Some(tools);
        self
    }

    /// The same token with its own `shares` of the server's caps.
    pub fn with_shares(mut self, shares: Shares) -> Self {
        self.shares = shares;
        self
    }

    /// Its own shares of the server's caps.
    pub fn shares(&self) -> Shares {
        self.shares
    }

    /// The token's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What identifies the token in per-token counts (its digest).
    pub(crate) fn key(&self) -> [u8; 32] {
        self.digest
    }

    /// The tools its sessions are limited to, if it is limited.
    pub fn allow(&self) -> Option<&[String]> {
        self.allow.as_deref()
    }

    /// The tools its sessions do not see.
    pub fn deny(&self) -> Option<&[String]> {
        self.deny.as_deref()
    }
}

/// The SHA-256 digest of `secret` in lowercase hexadecimal: what `[[serve.tokens]]`'s
/// `sha256` holds.
pub fn sha256_hex(secret: &str) -> String {
    digest(secret).iter().map(|b| format!("{b:02x}")).collect()
}

fn digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// The token a request authenticated with (in the request's extensions once the edge
/// accepted it). Two principals are the same token when their digests are (a token file re-read keeps them).
#[derive(Debug, Clone)]
pub struct Principal {
    token: Arc<BearerToken>,
}

impl Principal {
    /// The token.
    pub fn token(&self) -> &BearerToken {
        &self.token
    }

    /// Whether both are the same token (the same secret: a token file re-read on `SIGHUP`
    /// keeps its sessions for the tokens it still holds).
    pub(crate) fn same(&self, other: &Principal) -> bool {
        self.token.digest == other.token.digest
    }

    /// What identifies the token in per-token counts (its digest).
    pub(crate) fn key(&self) -> [u8; 32] {
        self.token.digest
    }
}

/// The accepted tokens of a server.
#[derive(Debug, Clone)]
pub struct BearerAuth {
    tokens: Arc<[Arc<BearerToken>]>,
}

/// Why a request was not authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No `Authorization` header, or not the `Bearer` scheme.
    Missing,
    /// A bearer token no digest matches.
    Invalid,
}

impl BearerAuth {
    /// Accepts exactly `tokens`.
    ///
    /// # Errors
    ///
    /// [`AuthError::Empty`] for no token; [`AuthError::Duplicate`] when two share a name
    /// or a secret.
    pub fn new(tokens: Vec<BearerToken>) -> Result<Self, AuthError> {
        if tokens.is_empty() {
            return Err(AuthError::Empty);
        }
        for (i, a) in tokens.iter().enumerate() {
            for b in &tokens[..i] {
                if a.name == b.name {
                    return Err(AuthError::Duplicate(format!(
                        "two tokens are named `{}`; give each its own name",
                        a.name
                    )));
                }
                if a.digest == b.digest {
                    return Err(AuthError::Duplicate(format!(
                        "tokens `{}` and `{}` are the same secret; give each client its own",
                        b.name, a.name
                    )));
                }
            }
        }
        Ok(BearerAuth {
            tokens: tokens.into_iter().map(Arc::new).collect(),
        })
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether there is none (never: [`BearerAuth::new`] refuses an empty set).
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The tokens, in the order given.
    pub fn tokens(&self) -> impl Iterator<Item = &BearerToken> {
        self.tokens.iter().map(|token| &**token)
    }

    /// The token `headers` present, checked against every digest in constant time.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<Principal, Refusal> {
        let Some(secret) = bearer(headers) else {
            return Err(Refusal::Missing);
        };
        let presented = digest(secret);
        // Every digest is compared, and the match is selected without a branch on it.
        let mut found = 0usize;
        let mut any = subtle::Choice::from(0);
        for (index, token) in self.tokens.iter().enumerate() {
            let equal = token.digest.ct_eq(&presented);
            found |= usize::from(equal.unwrap_u8()).wrapping_neg() & index;
            any |= equal;
        }
        if !bool::from(any) {
            return Err(Refusal::Invalid);
        }
        let token = self.tokens.get(found).cloned().ok_or(Refusal::Invalid)?;
        Ok(Principal { token })
    }
}

/// The secret of an `Authorization: Bearer <secret>` header (the scheme is
/// case-insensitive, RFC 7235).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, secret) = value.split_once(' ')?;
    let secret = secret.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !secret.is_empty()).then_some(secret)
}

/// Where the resource and its metadata are, for answers: the configured public URL of the
/// endpoint, or one made from the request's `Host` (and whether the listener is TLS).
#[derive(Debug, Clone)]
pub(crate) struct Resource {
    pub(crate) public_url: Option<String>,
    pub(crate) tls: bool,
}

impl Resource {
    /// The endpoint's URL as clients reach it.
    pub(crate) fn url(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        format!("{}{}", self.origin(headers), super::HTTP_PATH)
    }

    /// The metadata document's URL (RFC 9728 §3.1).
    pub(crate) fn metadata_url(&self, headers: &HeaderMap) -> String {
        match &self.public_url {
            Some(url) => match axum::http::Uri::try_from(url.as_str()) {
                Ok(uri) => format!(
                    "{}://{}/.well-known/oauth-protected-resource{}",
                    uri.scheme_str().unwrap_or("https"),
                    uri.authority().map_or("", |a| a.as_str()),
                    uri.path().trim_end_matches('/')
                ),
                Err(_) => format!("{url}{METADATA_ROOT_PATH}"),
            },
            None => format!("{}{METADATA_PATH}", self.origin(headers)),
        }
    }

    fn origin(&self, headers: &HeaderMap) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        let host = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .filter(|host| axum::http::uri::Authority::try_from(*host).is_ok())
            .unwrap_or("localhost");
        format!("{scheme}://{host}")
    }

    /// The protected-resource metadata document.
    pub(crate) fn metadata(&self, headers: &HeaderMap) -> Value {
        json!({
            "resource": self.url(headers),
            "bearer_methods_supported": ["header"],
            "resource_name": "codemode",
            "resource_documentation": "Bearer tokens are provisioned by the server's operator (codemode token new); no authorization server issues them.",
        })
    }
}

/// The `401` for `refusal`, naming the metadata document.
pub(crate) fn unauthorized(refusal: Refusal, resource: &Resource, headers: &HeaderMap) -> Response {
    let metadata = resource.metadata_url(headers);
    let (challenge, message) = match refusal {
        Refusal::Missing => (
            format!(r#"Bearer realm="codemode", resource_metadata="{metadata}""#),
            "Unauthorized: this server needs a bearer token (`Authorization: Bearer <token>`); ask its operator for one",
        ),
        Refusal::Invalid => (
            format!(
                r#"Bearer realm="codemode", error="invalid_token", error_description="the token is not one this server accepts", resource_metadata="{metadata}""#
            ),
            "Unauthorized: the bearer token is not one this server accepts (check for a typo or a revoked token)",
        ),
    };
    let mut response = envelope::json_response(
        StatusCode::UNAUTHORIZED,
        &envelope::error(Value::Null, UNAUTHORIZED, message),
    );
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The metadata document as a response.
pub(crate) fn metadata_response(resource: &Resource, headers: &HeaderMap) -> Response {
    envelope::json_response(StatusCode::OK, &resource.metadata(headers))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "s3cret-token-that-is-long-enough";

    fn with_auth(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        headers
    }

    fn auth() -> BearerAuth {
        BearerAuth::new(vec![
            BearerToken::from_secret("first", "another-secret-that-is-long-enough").unwrap(),
            BearerToken::from_sha256_hex("second", &sha256_hex(SECRET)).unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn the_right_token_is_found_by_its_digest() {
        let principal = auth()
            .check(&with_auth(&format!("Bearer {SECRET}")))
            .unwrap();
        assert_eq!(principal.token().name(), "second");
        let first = auth()
            .check(&with_auth("bearer another-secret-that-is-long-enough"))
            .unwrap();
        assert_eq!(first.token().name(), "first");
        assert!(!first.same(&principal));
    }

    #[test]
    fn missing_and_wrong_tokens_are_told_apart() {
        let auth = auth();
        assert_eq!(auth.check(&HeaderMap::new()).unwrap_err(), Refusal::Missing);
        assert_eq!(
            auth.check(&with_auth("Basic dXNlcjpwYXNz")).unwrap_err(),
            Refusal::Missing
        );
        assert_eq!(
            auth.check(&with_auth("Bearer ")).unwrap_err(),
            Refusal::Missing
        );
        assert_eq!(
            auth.check(&with_auth(&format!("Bearer {SECRET}x")))
                .unwrap_err(),
            Refusal::Invalid
        );
    }

    #[test]
    fn weak_secrets_bad_digests_and_duplicates_are_refused() {
        let short = BearerToken::from_secret("a", "short").unwrap_err();
        assert_eq!(short.code(), "AUTH_WEAK_TOKEN");
        assert!(short.to_string().contains("5 characters"), "{short}");
        assert!(BearerToken::from_secret("a", "has a space in it, long enough").is_err());
        let bad = BearerToken::from_sha256_hex("a", "abc").unwrap_err();
        assert_eq!(bad.code(), "AUTH_BAD_DIGEST");
        assert!(BearerToken::from_sha256_hex("a", &"zz".repeat(32)).is_err());
        assert!(BearerToken::from_sha256_hex("a", &"é".repeat(32)).is_err());
        let same = BearerAuth::new(vec![
            BearerToken::from_secret("a", SECRET).unwrap(),
            BearerToken::from_secret("b", SECRET).unwrap(),
        ])
        .unwrap_err();
        assert!(same.to_string().contains("same secret"), "{same}");
        assert_eq!(
            BearerAuth::new(Vec::new()).unwrap_err().code(),
            "AUTH_NO_TOKENS"
        );
    }

    #[test]
    fn the_digest_is_sha256_in_hex() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn metadata_urls_follow_rfc_9728() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("gw.internal:8931"));
        let derived = Resource {
            public_url: None,
            tls: true,
        };
        assert_eq!(derived.url(&headers), "https://gw.internal:8931/mcp");
        assert_eq!(
            derived.metadata_url(&headers),
            "https://gw.internal:8931/.well-known/oauth-protected-resource/mcp"
        );
        let public = Resource {
            public_url: Some("https://tools.example.com/team/mcp".into()),
            tls: false,
        };
        assert_eq!(
            public.metadata_url(&headers),
            "https://tools.example.com/.well-known/oauth-protected-resource/team/mcp"
        );
        assert_eq!(
            public.metadata(&headers)["resource"],
            "https://tools.example.com/team/mcp"
        );
    }
}
