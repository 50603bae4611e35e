//! Tool search for `describe_tools`: which tools of a set answer a query, best first.
//!
//! - [`tokens`]: the terms texts are compared by (identifier splitting and joining,
//!   filler words, abbreviations, Snowball English stemming).
//! - [`bm25`]: fielded BM25 (BM25F) over names, first sentences, sources, parameter names,
//!   descriptions and parameter docs — the lexical ranking, always available.
//! - [`embed`]: the [`Embedder`] seam, bounded calls, and the [`VectorCache`] of tool
//!   vectors by text hash.
//! - `openai` (with the `mcp` feature): an [`Embedder`] over an OpenAI-compatible
//!   `/v1/embeddings` endpoint.
//! - [`ToolSearch`] (here): one tool set's lexical index and embedding texts, and the
//!   hybrid ranking: the lexical and the semantic ranking fused by weighted reciprocal rank
//!   fusion (Cormack, Clarke and Büttcher, SIGIR 2009) when an embedder answers in time,
//!   the lexical ranking alone (with a note, and a counted warning) when it does not.

pub(crate) mod bm25;
pub mod embed;
#[cfg(feature = "mcp")]
pub mod openai;
pub(crate) mod tokens;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use embed::{EmbedError, Embedder, VectorCache};

use bm25::{Bm25, Fields};

/// How semantic ranking is configured: the embedder (none: lexical only) and the bounds on
/// waiting for it.
#[derive(Clone)]
#[non_exhaustive]
pub struct SearchConfig {
    /// The embedder (`None`, the default: lexical ranking only).
    pub embedder: Option<Arc<dyn Embedder>>,
    /// The longest a search waits for a query's vector (default 2 s).
    pub query_timeout: Duration,
    /// The longest a search waits for the vectors of the tools not yet embedded (default
    /// 30 s; the first search of a tool set pays it once).
    pub index_timeout: Duration,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            embedder: None,
            query_timeout: Duration::from_secs(2),
            index_timeout: Duration::from_secs(30),
        }
    }
}

impl std::fmt::Debug for SearchConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchConfig")
            .field(
                "embedder",
                &self.embedder.as_ref().map(|e| e.model().to_owned()),
            )
            .field("query_timeout", &self.query_timeout)
            .field("index_timeout", &self.index_timeout)
            .finish()
    }
}

impl SearchConfig {
    /// The same configuration with an embedder (`None`: lexical only).
    pub fn with_embedder(mut self, embedder: Option<Arc<dyn Embedder>>) -> Self {
        self.embedder = embedder;
        self
    }

    /// The same configuration with other bounds on waiting for the embedder.
    pub fn with_timeouts(mut self, query: Duration, index: Duration) -> Self {
        self.query_timeout = query;
        self.index_timeout = index;
        self
    }
}

/// The state semantic ranking keeps across searches: the tool vectors, and how often it
/// fell back to lexical ranking.
#[derive(Debug, Default)]
pub struct SearchState {
    /// Tool vectors by text hash.
    pub cache: VectorCache,
    degraded: AtomicU64,
    failing: AtomicBool,
}

impl SearchState {
    /// How many searches ranked lexically because the embedder failed or was slow.
    pub fn degraded(&self) -> u64 {
        self.degraded.load(Ordering::Relaxed)
    }

    fn record(&self, outcome: Result<(), &EmbedError>) {
        match outcome {
            Ok(()) => {
                if self.failing.swap(false, Ordering::Relaxed) {
                    tracing::info!(
                        "describe_tools: the embedder answers again; semantic ranking is back"
                    );
                }
            }
            Err(err) => {
                let count = self.degraded.fetch_add(1, Ordering::Relaxed) + 1;
                if self.failing.swap(true, Ordering::Relaxed) {
                    tracing::debug!(
                        count,
                        code = err.code(),
                        "describe_tools: lexical ranking only: {err}"
                    );
                } else {
                    tracing::warn!(
                        count,
                        code = err.code(),
                        "describe_tools: the embedder failed, ranking lexically until it answers again: {err}"
                    );
                }
            }
        }
    }
}

/// One tool to index: its fields for the lexical ranking, and the text it is embedded by.
#[derive(Debug, Clone)]
pub(crate) struct SearchDocument<'a> {
    pub fields: Fields<'a>,
    pub embed_text: String,
}

/// RRF's rank constant. The paper's 60 flattens the top of each ranking; 10 was better on
/// the tuning halves of `fixtures/search` (a tool first in one ranking and absent from the
/// other still beats one tenth in both).
const RRF_K: f64 = 10.0;
/// The weights of the lexical and the semantic ranking in the fusion.
const LEXICAL_WEIGHT: f64 = 1.0;
const SEMANTIC_WEIGHT: f64 = 1.0;
/// How deep each ranking goes into the fusion.
const FUSION_DEPTH: usize = 100;

/// A ranking: tool ids best first, and a note when semantic ranking was wanted but not had.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ranked {
    pub ids: Vec<usize>,
    pub note: Option<String>,
}

/// One tool set's search index. Ids are positions in the documents given.
pub(crate) struct ToolSearch {
    bm25: Bm25,
    embed_texts: Vec<String>,
}

impl ToolSearch {
    /// Indexes `documents`.
    pub(crate) fn new(documents: Vec<SearchDocument<'_>>) -> ToolSearch {
        let mut embed_texts = Vec::with_capacity(documents.len());
        let bm25 = Bm25::new(documents.into_iter().map(|d| {
            embed_texts.push(d.embed_text);
            d.fields
        }));
        ToolSearch { bm25, embed_texts }
    }

    /// The lexical ranking of `query` (tools sharing no term with it left out).
    pub(crate) fn lexical(&self, query: &str) -> Vec<usize> {
        self.bm25
            .rank(query)
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    }

    /// The texts the tools are embedded by.
    pub(crate) fn embed_texts(&self) -> &[String] {
        &self.embed_texts
    }

    /// The ranking of `query`: hybrid when `config` has an embedder that answers within its
    /// bounds, else lexical with a note.
    pub(crate) async fn rank(
        &self,
        query: &str,
        config: &SearchConfig,
        state: &SearchState,
    ) -> Ranked {
        let lexical = self.lexical(query);
        let Some(embedder) = &config.embedder else {
            return Ranked {
                ids: lexical,
                note: None,
            };
        };
        match self.semantic(query, embedder.as_ref(), config, state).await {
            Ok(semantic) => {
                state.record(Ok(()));
                Ranked {
                    ids: fuse(&lexical, &semantic),
                    note: None,
                }
            }
            Err(err) => {
                state.record(Err(&err));
                Ranked {
                    ids: lexical,
                    note: Some(format!(
                        "Ranked by words only: the embedder gave no vectors ({}).",
                        err.code()
                    )),
                }
            }
        }
    }

    /// The semantic ranking of `query`: every tool by cosine similarity, best first (ties
    /// by id).
    async fn semantic(
        &self,
        query: &str,
        embedder: &dyn Embedder,
        config: &SearchConfig,
        state: &SearchState,
    ) -> Result<Vec<usize>, EmbedError> {
        let tools = state
            .cache
            .vectors(embedder, &self.embed_texts, config.index_timeout)
            .await?;
        let query =
            embed::embed_within(embedder, vec![query.to_owned()], config.query_timeout).await?;
        let query = query.into_iter().next().unwrap_or_default();
        if tools.first().is_some_and(|t| t.len() != query.len()) {
            return Err(EmbedError::BadAnswer(
                "the query's vector and the tools' differ in dimension".to_owned(),
            ));
        }
        let mut scored: Vec<(usize, f64)> = tools
            .iter()
            .enumerate()
            .map(|(id, vector)| (id, embed::cosine(&query, vector)))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(scored.into_iter().map(|(id, _)| id).collect())
    }
}

/// Weighted reciprocal rank fusion of two rankings, each taken `FUSION_DEPTH` deep: a tool
/// scores `Σ w / (k + rank)`; ties by the better lexical rank, then by id.
pub(crate) fn fuse(lexical: &[usize], semantic: &[usize]) -> Vec<usize> {
    let mut scores: std::collections::BTreeMap<usize, (f64, usize)> =
        std::collections::BTreeMap::new();
    for (rank, &id) in lexical.iter().take(FUSION_DEPTH).enumerate() {
        let entry = scores.entry(id).or_insert((0.0, usize::MAX));
        entry.0 += LEXICAL_WEIGHT / (RRF_K + rank as f64 + 1.0);
        entry.1 = rank;
    }
    for (rank, &id) in semantic.iter().take(FUSION_DEPTH).enumerate() {
        scores.entry(id).or_insert((0.0, usize::MAX)).0 +=
            SEMANTIC_WEIGHT / (RRF_K + rank as f64 + 1.0);
    }
    let mut fused: Vec<(usize, f64, usize)> =
        scores.into_iter().map(|(id, (s, l))| (id, s, l)).collect();
    fused.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| a.2.cmp(&b.2))
            .then_with(|| a.0.cmp(&b.0))
    });
    fused.into_iter().map(|(id, _, _)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fusion_rewards_agreement_and_keeps_either_side() {
        // 2 is second in both: first once fused.
        assert_eq!(fuse(&[1, 2, 3], &[4, 2, 5])[0], 2);
        let fused = fuse(&[1], &[4]);
        assert_eq!(fused, [1, 4], "a tie goes to the lexical side");
        assert_eq!(fuse(&[], &[7, 8]), [7, 8]);
    }
}
