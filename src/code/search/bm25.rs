//! Fielded BM25 over tools: BM25F as given by S. Robertson and H. Zaragoza, "The
//! Probabilistic Relevance Framework: BM25 and Beyond", Foundations and Trends in
//! Information Retrieval 3(4), 2009, §3.5 (no ranking crate was a fit: the ones published
//! rank whole documents, not fields, or bring an index on disk).
//!
//! Each tool is one document with fields, each with a weight `w` and a length
//! normalisation `b`; a term's pseudo-frequency is `tf~ = Σ_f w_f · tf_f / (1 − b_f +
//! b_f · len_f / avglen_f)` and a document scores `Σ_t idf_t · tf~ · (k1 + 1) / (k1 + tf~)`
//! over the query's distinct terms, with `idf_t = ln(1 + (N − df_t + 0.5) / (df_t + 0.5))`.
//! Ties go to the more specific tool (fewer words in its name: `CreateMessage` before
//! `CreateMessageFeedback`), then by name.
//!
//! Deterministic: terms live in `BTreeMap`s, scores are summed in query-term order, and no
//! score is ever printed.

use std::collections::{BTreeMap, BTreeSet};

use super::tokens::{related, terms_split, words};

const K1: f64 = 1.2;

/// How much a word related to the query's ([`related`]) counts, against 1 for a word the
/// query has.
pub(crate) const RELATED_WEIGHT: f64 = 0.6;

/// The fields of a tool, with their weight and length normalisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Field {
    /// The tool's name.
    Name,
    /// The first sentence of its description.
    Summary,
    /// Its source (server) name.
    Source,
    /// Its top-level parameter names.
    Parameters,
    /// Its whole description.
    Description,
    /// The descriptions of its top-level parameters.
    ParameterDocs,
}

const FIELDS: usize = 6;

impl Field {
    fn index(self) -> usize {
        self as usize
    }

    /// `(w, b)`.
    fn weights(self) -> (f64, f64) {
        match self {
            Field::Name => (3.0, 0.5),
            Field::Summary => (1.5, 0.5),
            Field::Source => (1.5, 0.0),
            Field::Parameters => (1.0, 0.5),
            Field::Description => (1.0, 0.75),
            Field::ParameterDocs => (0.3, 0.75),
        }
    }
}

/// One document's text, field by field.
#[derive(Debug, Default, Clone)]
pub(crate) struct Fields<'a> {
    pub name: &'a str,
    pub summary: String,
    pub source: &'a str,
    pub parameters: Vec<&'a str>,
    pub description: &'a str,
    pub parameter_docs: Vec<&'a str>,
}

struct Document {
    /// Plain terms per field (joins not counted).
    lengths: [u32; FIELDS],
    /// How many words the name has (the tie-break).
    name_words: usize,
}

const ALL_FIELDS: [Field; FIELDS] = [
    Field::Name,
    Field::Summary,
    Field::Source,
    Field::Parameters,
    Field::Description,
    Field::ParameterDocs,
];

/// One term's documents, ids ascending, each with the term's count per field.
type Postings = Vec<(usize, [u32; FIELDS])>;

/// A BM25F index over documents, built once per tool set: an inverted index (each term's
/// documents, in id order, with its count per field), so a query touches only the
/// documents that have one of its terms.
pub(crate) struct Bm25 {
    documents: Vec<Document>,
    /// term -> (document id, count per field), ids ascending.
    postings: BTreeMap<String, Postings>,
    /// Each document's length normalisation per field: `1 − b + b · len / avglen`.
    norms: Vec<[f64; FIELDS]>,
}

impl Bm25 {
    /// Indexes `documents`, which keep their positions as their ids.
    pub(crate) fn new<'a>(documents: impl IntoIterator<Item = Fields<'a>>) -> Bm25 {
        let mut built = Vec::new();
        let mut postings: BTreeMap<String, Postings> = BTreeMap::new();
        for (id, fields) in documents.into_iter().enumerate() {
            let mut document = Document {
                lengths: [0; FIELDS],
                name_words: words(fields.name).len(),
            };
            let mut counts: BTreeMap<String, [u32; FIELDS]> = BTreeMap::new();
            let mut add = |field: Field, text: &str| {
                let (plain, joined) = terms_split(text);
                document.lengths[field.index()] += u32::try_from(plain.len()).unwrap_or(u32::MAX);
                for term in plain.into_iter().chain(joined) {
                    counts.entry(term).or_insert([0; FIELDS])[field.index()] += 1;
                }
            };
            add(Field::Name, fields.name);
            add(Field::Summary, &fields.summary);
            add(Field::Source, fields.source);
            for parameter in &fields.parameters {
                add(Field::Parameters, parameter);
            }
            add(Field::Description, fields.description);
            for doc in &fields.parameter_docs {
                add(Field::ParameterDocs, doc);
            }
            for (term, counts) in counts {
                postings.entry(term).or_default().push((id, counts));
            }
            built.push(document);
        }
        let mut average = [1.0; FIELDS];
        if !built.is_empty() {
            for (field, slot) in average.iter_mut().enumerate() {
                let total: u64 = built.iter().map(|d| u64::from(d.lengths[field])).sum();
                *slot = (total as f64 / built.len() as f64).max(1.0);
            }
        }
        let norms = built
            .iter()
            .map(|document| {
                let mut norms = [1.0; FIELDS];
                for field in ALL_FIELDS {
                    let (_, b) = field.weights();
                    let length = f64::from(document.lengths[field.index()]);
                    norms[field.index()] = 1.0 - b + b * length / average[field.index()];
                }
                norms
            })
            .collect();
        Bm25 {
            documents: built,
            postings,
            norms,
        }
    }

    /// The documents matching `query`, best first (ties: fewer name words, then the lower
    /// id, which callers make the name order), with their scores; documents sharing no term
    /// with the query are left out.
    pub(crate) fn rank(&self, query: &str) -> Vec<(usize, f64)> {
        let (plain, joined) = terms_split(query);
        let mut seen = BTreeSet::new();
        let n = self.documents.len() as f64;
        let weighted = plain
            .into_iter()
            .chain(joined)
            .map(|term| (term, 1.0))
            .chain(
                related(query)
                    .into_iter()
                    .map(|term| (term, RELATED_WEIGHT)),
            );
        // Each distinct term once, in the query's order (the order scores are summed in).
        let terms: Vec<(&Postings, f64)> = weighted
            .filter(|(term, _)| seen.insert(term.clone()))
            .filter_map(|(term, weight)| {
                let postings = self.postings.get(&term)?;
                let df = postings.len() as f64;
                Some((postings, weight * (1.0 + (n - df + 0.5) / (df + 0.5)).ln()))
            })
            .collect();
        let mut scores: Vec<Option<f64>> = vec![None; self.documents.len()];
        for (postings, idf) in terms {
            for (id, counts) in postings {
                let mut tf = 0.0;
                for field in ALL_FIELDS {
                    let count = counts[field.index()];
                    if count == 0 {
                        continue;
                    }
                    let (w, _) = field.weights();
                    tf += w * f64::from(count) / self.norms[*id][field.index()];
                }
                let score = scores[*id].get_or_insert(0.0);
                *score += idf * tf * (K1 + 1.0) / (K1 + tf);
            }
        }
        let mut scored: Vec<(usize, f64)> = scores
            .into_iter()
            .enumerate()
            .filter_map(|(id, score)| score.map(|s| (id, s)))
            .collect();
        scored.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| {
                    self.documents[a.0]
                        .name_words
                        .cmp(&self.documents[b.0].name_words)
                })
                .then_with(|| a.0.cmp(&b.0))
        });
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(docs: &[(&'static str, &'static str)]) -> Bm25 {
        Bm25::new(docs.iter().map(|(name, description)| Fields {
            name,
            description,
            ..Fields::default()
        }))
    }

    #[test]
    fn ranks_by_bm25f_and_ties_by_specificity_then_id() {
        let bm25 = index(&[
            ("send_message", "Send a message to a channel."),
            ("list_channels", "List the channels."),
            ("message_feedback_b", "A message."),
            ("message_a", "A message."),
        ]);
        let names =
            |q: &str| -> Vec<usize> { bm25.rank(q).into_iter().map(|(id, _)| id).collect() };
        assert_eq!(names("send a message")[0], 0);
        assert_eq!(names("channels")[0], 1);
        assert!(names("nothing matches here").is_empty());
        // Same text: the name with fewer words first.
        let bm25 = index(&[
            ("message_feedback", "A message."),
            ("message", "A message."),
        ]);
        let ids: Vec<usize> = bm25.rank("message").into_iter().map(|(id, _)| id).collect();
        assert_eq!(ids, [1, 0]);
    }

    #[test]
    fn a_name_outweighs_a_description() {
        let bm25 = index(&[
            ("list_things", "Lists things; unlike refund it never pays."),
            ("create_refund", "Gives money back."),
        ]);
        assert_eq!(bm25.rank("refund")[0].0, 1);
    }
}
