//! `describe_max_tokens` and `[search.embeddings]`: how `describe_tools` answers and ranks.
//!
//! ```toml
//! describe_max_tokens = 5000          # optional: one describe_tools answer's budget
//!                                     # (default: half of sdk_max_tokens)
//! [search.embeddings]                 # optional: semantic ranking fused with the lexical one
//! url = "http://127.0.0.1:11434/v1"   # an OpenAI-compatible endpoint: POST {url}/embeddings
//! model = "nomic-embed-text"
//! api_key_env = "OPENAI_API_KEY"      # optional: the variable holding a bearer token
//! timeout_ms = 2000                   # optional: the longest a search waits for a query's vector
//! index_timeout_ms = 30000            # optional: ... for the vectors of tools not embedded yet
//! ```
//!
//! This module owns reading and checking the section; it must not build the embedder (the
//! composition root, `host`, does, reading the key from the environment then).

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::error::Error;

use super::Place;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSearch {
    embeddings: Option<RawEmbeddings>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEmbeddings {
    url: Spanned<String>,
    model: Spanned<String>,
    api_key_env: Option<Spanned<String>>,
    timeout_ms: Option<Spanned<i64>>,
    index_timeout_ms: Option<Spanned<i64>>,
}

/// `[search.embeddings]`, checked: an OpenAI-compatible embeddings endpoint for
/// `describe_tools`' semantic ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EmbeddingsConfig {
    /// The endpoint's base URL (`http://host:port/v1`; requests go to `{url}/embeddings`).
    pub url: String,
    /// The model name sent with every request.
    pub model: String,
    /// The environment variable holding the API key (sent as a bearer token), if any.
    pub api_key_env: Option<String>,
    /// The longest a search waits for a query's vector (default 2 s).
    pub query_timeout: Duration,
    /// The longest a search waits for the vectors of tools not embedded yet (default 30 s).
    pub index_timeout: Duration,
}

/// The longest timeout accepted (10 minutes).
const MAX_TIMEOUT_MS: i64 = 600_000;

fn timeout(
    place: &Place<'_>,
    key: &str,
    value: Option<Spanned<i64>>,
    default: Duration,
) -> Result<Duration, Error> {
    let Some(value) = value else {
        return Ok(default);
    };
    let ms = *value.get_ref();
    if !(1..=MAX_TIMEOUT_MS).contains(&ms) {
        return Err(place.error(
            value.span(),
            format!("search.embeddings.{key} must be between 1 and {MAX_TIMEOUT_MS} (milliseconds), got {ms}"),
        ));
    }
    Ok(Duration::from_millis(ms.unsigned_abs()))
}

/// Checks `[search]`.
pub(super) fn check(place: &Place<'_>, raw: RawSearch) -> Result<Option<EmbeddingsConfig>, Error> {
    let Some(raw) = raw.embeddings else {
        return Ok(None);
    };
    let url = raw.url.get_ref().trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() <= "https://".len()
    {
        return Err(place.error(
            raw.url.span(),
            format!("search.embeddings.url must be an http:// or https:// URL (such as http://127.0.0.1:11434/v1), got {url:?}"),
        ));
    }
    if raw.model.get_ref().trim().is_empty() {
        return Err(place.error(
            raw.model.span(),
            "search.embeddings.model names the embedding model and cannot be empty",
        ));
    }
    let api_key_env = match raw.api_key_env {
        Some(name) if name.get_ref().is_empty() || name.get_ref().contains('=') => {
            return Err(place.error(
                name.span(),
                "search.embeddings.api_key_env names an environment variable (such as OPENAI_API_KEY)",
            ));
        }
        Some(name) => Some(name.into_inner()),
        None => None,
    };
    Ok(Some(EmbeddingsConfig {
        url: url.to_owned(),
        model: raw.model.get_ref().clone(),
        api_key_env,
        query_timeout: timeout(place, "timeout_ms", raw.timeout_ms, Duration::from_secs(2))?,
        index_timeout: timeout(
            place,
            "index_timeout_ms",
            raw.index_timeout_ms,
            Duration::from_secs(30),
        )?,
    }))
}
