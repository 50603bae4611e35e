//! A small BM25 ranking of tools for `describe_tools`: each tool is one document whose
//! terms come from its name (weight 3), its source (weight 2), its top-level parameter
//! names (weight 2) and its description (weight 1); a query's terms are scored with
//! Okapi BM25 (k1 = 1.2, b = 0.75) over those weighted term counts (the "BM25F-lite" of
//! summing weighted counts into one bag).
//!
//! Hand-written because no ranking crate is in the offline registry or the lock file (the
//! build must not reach the network); it is ~150 lines and deterministic: terms live in
//! `BTreeMap`s, scores are summed in query-term order, ranks tie-break by name, and no
//! score is ever printed.
//!
//! Terms: runs of letters and digits, split at camelCase boundaries, lowercased, common
//! English stop words dropped, then lightly stemmed (`issues`, `issue` → `issu`;
//! `creating`, `created`, `create` → `creat`) so a query in plain words meets names
//! written as identifiers.

use std::collections::BTreeMap;

const K1: f64 = 1.2;
const B: f64 = 0.75;

const NAME_WEIGHT: u32 = 3;
const SOURCE_WEIGHT: u32 = 2;
const PARAMETER_WEIGHT: u32 = 2;
const DESCRIPTION_WEIGHT: u32 = 1;

const STOP_WORDS: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does",
    "for", "from", "get", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "should", "so", "some", "that", "the", "their", "them", "then", "there", "these",
    "this", "to", "tool", "use", "using", "via", "want", "was", "we", "what", "when", "which",
    "will", "with", "you", "your",
];

/// The terms of `text`, in order (repeats kept).
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if !word.is_empty() {
            let lower = word.to_lowercase();
            if !STOP_WORDS.contains(&lower.as_str()) {
                out.push(stem(&lower));
            }
            word.clear();
        }
    };
    for ch in text.chars() {
        if ch.is_alphanumeric() {
            // camelCase: a capital after a lower-case letter starts a new word.
            if ch.is_uppercase() && previous_lower {
                flush(&mut word, &mut out);
            }
            previous_lower = ch.is_lowercase() || ch.is_ascii_digit();
            word.push(ch);
        } else {
            previous_lower = false;
            flush(&mut word, &mut out);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A light suffix stripper (not Porter's): plural `ies`/`es`/`s`, `ing`, `ed`, then a
/// final `e`, each only on words long enough to keep a stem of three letters or more.
fn stem(word: &str) -> String {
    let mut w = word.to_owned();
    let len = |w: &String| w.chars().count();
    if len(&w) > 4 && w.ends_with("ies") {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if len(&w) > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w.truncate(w.len() - 1);
    }
    if len(&w) > 5 && w.ends_with("ing") {
        w.truncate(w.len() - 3);
    } else if len(&w) > 4 && w.ends_with("ed") {
        w.truncate(w.len() - 2);
    }
    if len(&w) > 4 && w.ends_with('e') {
        w.truncate(w.len() - 1);
    }
    w
}

/// One document's fields, as plain text.
pub(crate) struct Fields<'a> {
    pub name: &'a str,
    pub source: &'a str,
    pub parameters: Vec<&'a str>,
    pub description: &'a str,
}

struct Document {
    name: String,
    /// Weighted term counts.
    counts: BTreeMap<String, u32>,
    length: u32,
}

/// A BM25 index over documents (tools), built once per tool set.
pub(crate) struct Ranker {
    documents: Vec<Document>,
    /// In how many documents each term occurs.
    frequency: BTreeMap<String, u32>,
    average_length: f64,
}

impl Ranker {
    /// Indexes `documents` (their order does not matter to the ranking).
    pub(crate) fn new<'a>(documents: impl IntoIterator<Item = Fields<'a>>) -> Ranker {
        let mut built = Vec::new();
        let mut frequency: BTreeMap<String, u32> = BTreeMap::new();
        for fields in documents {
            let mut counts: BTreeMap<String, u32> = BTreeMap::new();
            let mut add = |text: &str, weight: u32| {
                for term in terms(text) {
                    *counts.entry(term).or_default() += weight;
                }
            };
            add(fields.name, NAME_WEIGHT);
            add(fields.source, SOURCE_WEIGHT);
            for parameter in &fields.parameters {
                add(parameter, PARAMETER_WEIGHT);
            }
            add(fields.description, DESCRIPTION_WEIGHT);
            for term in counts.keys() {
                *frequency.entry(term.clone()).or_default() += 1;
            }
            let length = counts.values().sum();
            built.push(Document {
                name: fields.name.to_owned(),
                counts,
                length,
            });
        }
        let total: u64 = built.iter().map(|d| u64::from(d.length)).sum();
        let average_length = if built.is_empty() {
            1.0
        } else {
            (total as f64 / built.len() as f64).max(1.0)
        };
        Ranker {
            documents: built,
            frequency,
            average_length,
        }
    }

    /// The names of the documents matching `query` best, at most `limit`: highest score
    /// first, ties by name; documents sharing no term with the query are left out.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<&str> {
        let mut wanted = terms(query);
        // Each distinct query term counts once.
        let mut seen = std::collections::BTreeSet::new();
        wanted.retain(|term| seen.insert(term.clone()));
        let n = self.documents.len() as f64;
        let idf: Vec<(String, f64)> = wanted
            .into_iter()
            .filter_map(|term| {
                let df = f64::from(*self.frequency.get(&term)?);
                Some((term, (1.0 + (n - df + 0.5) / (df + 0.5)).ln()))
            })
            .collect();
        let mut scored: Vec<(f64, &str)> = self
            .documents
            .iter()
            .filter_map(|document| {
                let norm = K1 * (1.0 - B + B * f64::from(document.length) / self.average_length);
                let mut score = 0.0;
                let mut matched = false;
                for (term, idf) in &idf {
                    if let Some(&count) = document.counts.get(term) {
                        let tf = f64::from(count);
                        score += idf * tf * (K1 + 1.0) / (tf + norm);
                        matched = true;
                    }
                }
                matched.then_some((score, document.name.as_str()))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, name)| name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_identifiers_drop_stop_words_and_stem() {
        assert_eq!(terms("listIssues"), ["list", "issu"]);
        assert_eq!(terms("create_issue"), ["creat", "issu"]);
        assert_eq!(terms("Creating the issues"), ["creat", "issu"]);
        assert_eq!(terms("get-PR2 files"), ["pr2", "file"]);
    }

    #[test]
    fn ranks_by_bm25_and_ties_by_name() {
        let docs = [
            ("send_message", "Send a message to a channel."),
            ("list_channels", "List the channels."),
            ("b_message", "A message."),
            ("a_message", "A message."),
        ];
        let ranker = Ranker::new(docs.iter().map(|(name, description)| Fields {
            name,
            source: "",
            parameters: Vec::new(),
            description,
        }));
        assert_eq!(
            ranker.search("send a message", 3),
            ["send_message", "a_message", "b_message"]
        );
        assert_eq!(ranker.search("channels", 1), ["list_channels"]);
        assert!(ranker.search("nothing matches", 5).is_empty());
    }
}
