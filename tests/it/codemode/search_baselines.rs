//! The rankings `describe_tools`' search is measured against (evaluation only, never
//! shipped): the baseline, plain Okapi BM25 over one bag of a tool's name,
//! description and parameter names (lowercased runs of letters and digits, nothing
//! dropped, nothing stemmed, k1 = 1.2, b = 0.75); and the ranking `describe_tools` had
//! before issue 40 (`src/code/rank.rs` at 078bccb, copied as it was, its `Ranker` below).

use std::collections::BTreeMap;

use codemode::code::SourcedTool;
use codemode::json::JsonValue;

fn parameter_names(parameters: &JsonValue) -> Vec<&str> {
    parameters
        .get("properties")
        .and_then(JsonValue::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Plain BM25 over names, descriptions and parameters.
pub struct PlainBm25 {
    documents: Vec<(String, BTreeMap<String, u32>, u32)>,
    frequency: BTreeMap<String, u32>,
    average: f64,
}

fn plain_terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl PlainBm25 {
    pub fn new(tools: &[SourcedTool]) -> PlainBm25 {
        let mut documents = Vec::new();
        let mut frequency: BTreeMap<String, u32> = BTreeMap::new();
        for tool in tools {
            let text = format!(
                "{} {} {}",
                tool.tool.name,
                tool.tool.description,
                parameter_names(&tool.tool.parameters).join(" ")
            );
            let mut counts: BTreeMap<String, u32> = BTreeMap::new();
            let terms = plain_terms(&text);
            for term in &terms {
                *counts.entry(term.clone()).or_default() += 1;
            }
            for term in counts.keys() {
                *frequency.entry(term.clone()).or_default() += 1;
            }
            documents.push((tool.tool.name.clone(), counts, terms.len() as u32));
        }
        let average =
            documents.iter().map(|d| f64::from(d.2)).sum::<f64>() / documents.len().max(1) as f64;
        PlainBm25 {
            documents,
            frequency,
            average: average.max(1.0),
        }
    }

    pub fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let mut wanted = plain_terms(query);
        let mut seen = std::collections::BTreeSet::new();
        wanted.retain(|t| seen.insert(t.clone()));
        let n = self.documents.len() as f64;
        let mut scored: Vec<(f64, &str)> = self
            .documents
            .iter()
            .filter_map(|(name, counts, length)| {
                let norm = 1.2 * (1.0 - 0.75 + 0.75 * f64::from(*length) / self.average);
                let mut score = 0.0;
                let mut matched = false;
                for term in &wanted {
                    let (Some(&tf), Some(&df)) = (counts.get(term), self.frequency.get(term))
                    else {
                        continue;
                    };
                    let idf = (1.0 + (n - f64::from(df) + 0.5) / (f64::from(df) + 0.5)).ln();
                    score += idf * f64::from(tf) * 2.2 / (f64::from(tf) + norm);
                    matched = true;
                }
                matched.then_some((score, name.as_str()))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, n)| n.to_owned())
            .collect()
    }
}

/// The ranking before issue 40, over `tools`.
pub fn old_ranker(tools: &[SourcedTool]) -> Ranker {
    Ranker::new(tools.iter().map(|t| {
        Fields {
            name: &t.tool.name,
            source: t
                .source
                .as_deref()
                .map_or("", |s| s.strip_prefix("mcp:").unwrap_or(s)),
            parameters: parameter_names(&t.tool.parameters),
            description: &t.tool.description,
        }
    }))
}

// ---- src/code/rank.rs at 078bccb, unchanged below but for visibility and its tests ----
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
pub fn terms(text: &str) -> Vec<String> {
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
pub struct Fields<'a> {
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
pub struct Ranker {
    documents: Vec<Document>,
    /// In how many documents each term occurs.
    frequency: BTreeMap<String, u32>,
    average_length: f64,
}

impl Ranker {
    /// Indexes `documents` (their order does not matter to the ranking).
    pub fn new<'a>(documents: impl IntoIterator<Item = Fields<'a>>) -> Ranker {
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
    pub fn search(&self, query: &str, limit: usize) -> Vec<&str> {
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
