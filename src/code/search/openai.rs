//! An [`Embedder`] over an OpenAI-compatible embeddings endpoint (`POST
//! {base}/embeddings` with `{"model", "input": [...]}`, as OpenAI, Ollama, vLLM and
//! text-embeddings-inference serve it), for the command's `[search.embeddings]` in
//! `codemode.toml`. An API key, when given, is sent as a bearer token and never printed.

use std::time::Duration;

use futures::future::BoxFuture;

use super::embed::{EmbedError, Embedder};

/// An OpenAI-compatible `/v1/embeddings` endpoint.
#[derive(Clone)]
pub struct OpenAiEmbedder {
    url: String,
    model: String,
    api_key: Option<String>,
    client: reqwest::Client,
}

impl std::fmt::Debug for OpenAiEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiEmbedder")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .finish()
    }
}

impl OpenAiEmbedder {
    /// An embedder posting to `base_url` + `/embeddings` (`base_url` as `http://host/v1`;
    /// a URL that already ends in `/embeddings` is used as it is) for `model`, each request
    /// given at most `timeout`.
    ///
    /// # Errors
    ///
    /// [`EmbedError::Failed`] when the HTTP client cannot be set up (`cannot set up HTTP:
    /// ...`). The URL is not checked here: a bad one fails the first request.
    pub fn new(
        base_url: &str,
        model: &str,
        api_key: Option<String>,
        timeout: Duration,
    ) -> Result<OpenAiEmbedder, EmbedError> {
        let base = base_url.trim_end_matches('/');
        let url = if base.ends_with("/embeddings") {
            base.to_owned()
        } else {
            format!("{base}/embeddings")
        };
        // rustls' default provider, aws-lc-rs (installed once; a host that installed its own
        // keeps it).
        let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|err| EmbedError::Failed(format!("cannot set up HTTP: {err}")))?;
        Ok(OpenAiEmbedder {
            url,
            model: model.to_owned(),
            api_key,
            client,
        })
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// The vectors of an answer, by their `index` (in order when there is none).
fn read_answer(body: &[u8]) -> Result<Vec<Vec<f32>>, EmbedError> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|err| EmbedError::BadAnswer(format!("not JSON: {err}")))?;
    let data = value
        .get("data")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| EmbedError::BadAnswer("no `data` array".to_owned()))?;
    let mut out: Vec<(u64, Vec<f32>)> = Vec::with_capacity(data.len());
    for (at, item) in data.iter().enumerate() {
        let index = item
            .get("index")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(at as u64);
        let vector = item
            .get("embedding")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| EmbedError::BadAnswer(format!("`data[{at}]` has no `embedding` array")))?
            .iter()
            .map(|x| x.as_f64().map(|x| x as f32))
            .collect::<Option<Vec<f32>>>()
            .ok_or_else(|| {
                EmbedError::BadAnswer(format!("`data[{at}].embedding` has a non-number"))
            })?;
        out.push((index, vector));
    }
    out.sort_by_key(|(index, _)| *index);
    Ok(out.into_iter().map(|(_, v)| v).collect())
}

impl Embedder for OpenAiEmbedder {
    fn model(&self) -> &str {
        &self.model
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'static, Result<Vec<Vec<f32>>, EmbedError>> {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .body(serde_json::json!({"model": self.model, "input": texts}).to_string());
        if let Some(key) = &self.api_key {
            request = request.header("authorization", format!("Bearer {key}"));
        }
        Box::pin(async move {
            let response = request.send().await.map_err(|err| {
                EmbedError::Failed(format!("request failed: {}", err.without_url()))
            })?;
            let status = response.status();
            let body = response.bytes().await.map_err(|err| {
                EmbedError::Failed(format!("reading the answer: {}", err.without_url()))
            })?;
            if !status.is_success() {
                let text = String::from_utf8_lossy(&body);
                let text: String = text.chars().take(200).collect();
                return Err(EmbedError::Failed(format!("HTTP {status}: {text}")));
            }
            read_answer(&body)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_by_index() {
        let body =
            br#"{"data": [{"index": 1, "embedding": [0.5]}, {"index": 0, "embedding": [1, 2]}]}"#;
        assert_eq!(read_answer(body).unwrap(), [vec![1.0, 2.0], vec![0.5]]);
        assert_eq!(read_answer(b"{}").unwrap_err().code(), "EMBED_BAD_ANSWER");
        assert_eq!(read_answer(b"nope").unwrap_err().code(), "EMBED_BAD_ANSWER");
        let bad = br#"{"data": [{"embedding": ["x"]}]}"#;
        assert_eq!(read_answer(bad).unwrap_err().code(), "EMBED_BAD_ANSWER");
    }

    #[test]
    fn the_url_is_the_base_and_embeddings() {
        let e = OpenAiEmbedder::new("http://h/v1/", "m", None, Duration::from_secs(1)).unwrap();
        assert_eq!(e.url(), "http://h/v1/embeddings");
        let e = OpenAiEmbedder::new(
            "http://h/v1/embeddings",
            "m",
            Some("k".into()),
            Duration::from_secs(1),
        )
        .unwrap();
        assert_eq!(e.url(), "http://h/v1/embeddings");
        assert!(!format!("{e:?}").contains("\"k\""));
    }
}
