//! The seam for semantic ranking: an [`Embedder`] turns texts into vectors (a Rust
//! implementation, a Python callable through the package, or an OpenAI-compatible
//! `/v1/embeddings` endpoint in the command), and [`VectorCache`] keeps each tool's vector
//! by the hash of its text so a tool is embedded once per text and model, whatever tool
//! sets it appears in.
//!
//! Nothing here waits unboundedly: [`embed_within`] bounds every call, and its errors
//! ([`EmbedError`]) only ever make a search fall back to lexical ranking.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use parking_lot::Mutex;

/// Why an embedder gave no usable vectors. Never reaches a caller as an error: the search
/// ranks lexically and says so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmbedError {
    /// The embedder reported a failure.
    #[error("EMBED_FAILED: {0}")]
    Failed(String),
    /// It did not answer within the bound.
    #[error("EMBED_TIMEOUT: no answer within {0:?}")]
    Timeout(Duration),
    /// It answered with the wrong number of vectors, or vectors of differing or zero
    /// dimension, or non-finite values.
    #[error("EMBED_BAD_ANSWER: {0}")]
    BadAnswer(String),
}

impl EmbedError {
    /// The stable code of the error.
    pub fn code(&self) -> &'static str {
        match self {
            EmbedError::Failed(_) => "EMBED_FAILED",
            EmbedError::Timeout(_) => "EMBED_TIMEOUT",
            EmbedError::BadAnswer(_) => "EMBED_BAD_ANSWER",
        }
    }
}

/// Turns texts into vectors of one dimension (one vector per text, in order). Semantic
/// ranking compares them by cosine similarity, so their scale does not matter.
pub trait Embedder: Send + Sync + 'static {
    /// The model's name: part of every cached vector's key (another model, other vectors).
    fn model(&self) -> &str;

    /// The vectors of `texts`.
    fn embed(&self, texts: Vec<String>) -> BoxFuture<'static, Result<Vec<Vec<f32>>, EmbedError>>;
}

impl std::fmt::Debug for dyn Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("model", &self.model())
            .finish_non_exhaustive()
    }
}

/// `texts`' vectors from `embedder` within `bound`, checked (one per text, one non-zero
/// dimension, finite values) and L2-normalised.
///
/// # Errors
///
/// [`EmbedError::Timeout`] when the embedder does not answer within `bound`;
/// [`EmbedError::BadAnswer`] when it answers with another number of vectors than texts,
/// vectors of zero or differing dimensions, or a value that is not finite; the embedder's
/// own error (usually [`EmbedError::Failed`]) as it is.
pub async fn embed_within(
    embedder: &dyn Embedder,
    texts: Vec<String>,
    bound: Duration,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    let wanted = texts.len();
    if wanted == 0 {
        return Ok(Vec::new());
    }
    let vectors = tokio::time::timeout(bound, embedder.embed(texts))
        .await
        .map_err(|_| EmbedError::Timeout(bound))??;
    if vectors.len() != wanted {
        return Err(EmbedError::BadAnswer(format!(
            "{} vectors for {wanted} texts",
            vectors.len()
        )));
    }
    let dimension = vectors.first().map_or(0, Vec::len);
    if dimension == 0 || vectors.iter().any(|v| v.len() != dimension) {
        return Err(EmbedError::BadAnswer(
            "vectors of zero or differing dimensions".to_owned(),
        ));
    }
    vectors
        .into_iter()
        .map(|mut vector| {
            if vector.iter().any(|x| !x.is_finite()) {
                return Err(EmbedError::BadAnswer(
                    "a value that is not finite".to_owned(),
                ));
            }
            let norm = vector
                .iter()
                .map(|x| f64::from(*x) * f64::from(*x))
                .sum::<f64>()
                .sqrt();
            if norm > 0.0 {
                for x in &mut vector {
                    *x = (f64::from(*x) / norm) as f32;
                }
            }
            Ok(vector)
        })
        .collect()
}

/// The 64-bit FNV-1a hash of `model`, a zero byte and `text`: a cached vector's key.
pub fn text_hash(model: &str, text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in model.bytes().chain([0]).chain(text.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Tool vectors by [`text_hash`], shared by every tool set of one Code Mode installation:
/// when a server's tools change, only the tools whose text changed are embedded again.
#[derive(Default)]
pub struct VectorCache {
    vectors: Mutex<HashMap<u64, Arc<[f32]>>>,
}

impl std::fmt::Debug for VectorCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorCache")
            .field("vectors", &self.vectors.lock().len())
            .finish()
    }
}

/// How many texts go to the embedder in one request.
const BATCH: usize = 128;

impl VectorCache {
    /// How many vectors are cached.
    pub fn len(&self) -> usize {
        self.vectors.lock().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vectors of `texts` (by `embedder`), embedding the ones not cached in batches,
    /// all within `bound` in total.
    ///
    /// # Errors
    ///
    /// As [`embed_within`] for the first batch that fails (a timeout names the whole `bound`);
    /// nothing fetched by earlier batches is lost, it stays cached.
    pub async fn vectors(
        &self,
        embedder: &dyn Embedder,
        texts: &[String],
        bound: Duration,
    ) -> Result<Vec<Arc<[f32]>>, EmbedError> {
        let model = embedder.model().to_owned();
        let keys: Vec<u64> = texts.iter().map(|t| text_hash(&model, t)).collect();
        let missing: Vec<usize> = {
            let cached = self.vectors.lock();
            let mut seen = std::collections::HashSet::new();
            (0..texts.len())
                .filter(|&i| !cached.contains_key(&keys[i]) && seen.insert(keys[i]))
                .collect()
        };
        let started = tokio::time::Instant::now();
        for chunk in missing.chunks(BATCH) {
            let left = bound.saturating_sub(started.elapsed());
            let batch: Vec<String> = chunk.iter().map(|&i| texts[i].clone()).collect();
            let vectors = embed_within(embedder, batch, left)
                .await
                .map_err(|err| match err {
                    EmbedError::Timeout(_) => EmbedError::Timeout(bound),
                    other => other,
                })?;
            let mut cached = self.vectors.lock();
            for (&i, vector) in chunk.iter().zip(vectors) {
                cached.insert(keys[i], Arc::from(vector));
            }
        }
        let cached = self.vectors.lock();
        keys.iter()
            .map(|key| {
                cached
                    .get(key)
                    .cloned()
                    .ok_or_else(|| EmbedError::BadAnswer("a vector went missing".to_owned()))
            })
            .collect()
    }
}

/// The cosine similarity of two L2-normalised vectors (their dot product; 0 when the
/// dimensions differ).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<Vec<f32>>, Option<Duration>);

    impl Embedder for Fixed {
        fn model(&self) -> &str {
            "fixed"
        }
        fn embed(
            &self,
            texts: Vec<String>,
        ) -> BoxFuture<'static, Result<Vec<Vec<f32>>, EmbedError>> {
            let out: Vec<Vec<f32>> = texts
                .iter()
                .map(|t| self.0[t.len() % self.0.len()].clone())
                .collect();
            let delay = self.1;
            Box::pin(async move {
                if let Some(delay) = delay {
                    tokio::time::sleep(delay).await;
                }
                Ok(out)
            })
        }
    }

    fn run<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map(|rt| rt.block_on(future))
            .unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn answers_are_checked_and_normalised() {
        let good = Fixed(vec![vec![3.0, 4.0]], None);
        let vectors = run(embed_within(
            &good,
            vec!["a".into()],
            Duration::from_secs(1),
        ))
        .unwrap();
        assert_eq!(vectors, [vec![0.6, 0.8]]);
        let bad = Fixed(vec![vec![]], None);
        let err = run(embed_within(&bad, vec!["a".into()], Duration::from_secs(1))).unwrap_err();
        assert_eq!(err.code(), "EMBED_BAD_ANSWER");
        let nan = Fixed(vec![vec![f32::NAN]], None);
        assert!(run(embed_within(&nan, vec!["a".into()], Duration::from_secs(1))).is_err());
        let slow = Fixed(vec![vec![1.0]], Some(Duration::from_secs(5)));
        let err = run(embed_within(
            &slow,
            vec!["a".into()],
            Duration::from_millis(20),
        ))
        .unwrap_err();
        assert_eq!(err.code(), "EMBED_TIMEOUT");
    }

    #[test]
    fn the_cache_embeds_each_text_once() {
        let cache = VectorCache::default();
        let embedder = Fixed(vec![vec![1.0, 0.0], vec![0.0, 1.0]], None);
        let texts = vec!["a".to_owned(), "bb".to_owned(), "a".to_owned()];
        let vectors = run(cache.vectors(&embedder, &texts, Duration::from_secs(1))).unwrap();
        assert_eq!(vectors.len(), 3);
        assert_eq!(cache.len(), 2);
        assert!((cosine(&vectors[0], &vectors[2]) - 1.0).abs() < 1e-9);
        assert_eq!(cosine(&vectors[0], &vectors[1]), 0.0);
        assert_ne!(text_hash("m", "a"), text_hash("n", "a"));
    }
}
