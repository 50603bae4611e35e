//! The terms a tool's text and a query are compared by: words split out of identifiers and
//! prose, filler dropped, well-known abbreviations expanded, adjacent words also joined,
//! everything stemmed with the Snowball English (Porter 2) stemmer of `rust-stemmers`.
//!
//! - Words: runs of letters and digits, split where a capital follows a lower-case letter
//!   or digit (`listIssues`), before the last capital of a capital run followed by a
//!   lower-case letter (`HTTPServer` → `http`, `server`), lowercased.
//! - Joins: each pair of adjacent words is also one term (`cloud watch` and `CloudWatch`
//!   both give `cloudwatch`, which `cloudwatch` gives too), so a query meets a name however
//!   either splits it. Joins do not count toward a field's length.
//! - Dropped: English stop words and the filler of requests (`please`, `how many`, `right
//!   now`); they are dropped before joining, so `how many` never meets `delete-many`.
//! - Abbreviations: a short table of the ones tools and people both use (`pr`, `db`,
//!   `k8s`, `repo`, `docs`, ...) adds the words they stand for.
//!
//! Pure functions of their input: the same text gives the same terms in every process.

use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// English stop words and the filler words of requests, sorted (binary search).
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "actually",
    "after",
    "again",
    "all",
    "already",
    "also",
    "am",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "but",
    "by",
    "can",
    "could",
    "currently",
    "did",
    "do",
    "does",
    "doing",
    "done",
    "e",
    "eg",
    "either",
    "else",
    "etc",
    "ever",
    "every",
    "for",
    "from",
    "g",
    "get",
    "give",
    "go",
    "going",
    "got",
    "had",
    "has",
    "have",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "ie",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "kindly",
    "know",
    "let",
    "lets",
    "like",
    "many",
    "may",
    "me",
    "might",
    "mine",
    "more",
    "most",
    "much",
    "must",
    "my",
    "need",
    "needs",
    "no",
    "not",
    "now",
    "of",
    "off",
    "ok",
    "on",
    "one",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "please",
    "quick",
    "quickly",
    "really",
    "right",
    "s",
    "see",
    "she",
    "should",
    "so",
    "some",
    "someone",
    "something",
    "such",
    "sure",
    "t",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "this",
    "those",
    "through",
    "to",
    "too",
    "tool",
    "try",
    "up",
    "us",
    "use",
    "used",
    "uses",
    "using",
    "very",
    "via",
    "want",
    "wants",
    "was",
    "way",
    "we",
    "were",
    "what",
    "whatever",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "would",
    "yes",
    "yet",
    "you",
    "your",
    "yours",
];

/// Abbreviations and the words they stand for (sorted by abbreviation).
const ABBREVIATIONS: &[(&str, &[&str])] = &[
    ("auth", &["authentication"]),
    ("ci", &["continuous", "integration"]),
    ("config", &["configuration"]),
    ("db", &["database"]),
    ("dir", &["directory"]),
    ("doc", &["documentation"]),
    ("docs", &["documentation"]),
    ("env", &["environment"]),
    ("k8s", &["kubernetes"]),
    ("msg", &["message"]),
    ("mr", &["merge", "request"]),
    ("pr", &["pull", "request"]),
    ("prs", &["pull", "request"]),
    ("repo", &["repository"]),
    ("repos", &["repository"]),
    ("sms", &["text", "message"]),
    ("vm", &["virtual", "machine"]),
];

/// Whether `word` (lowercased) carries no meaning for a search.
pub(crate) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// The lowercased words of `text`, in order (repeats kept, nothing dropped).
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut word = String::new();
    for (at, &ch) in chars.iter().enumerate() {
        if !ch.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        if ch.is_uppercase() && !word.is_empty() {
            let previous = chars[at - 1];
            let next_lower = chars.get(at + 1).is_some_and(|c| c.is_lowercase());
            // `listIssues`, `v2Api`; and `HTTPServer` before the `S`.
            if previous.is_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_uppercase() && next_lower)
            {
                out.push(std::mem::take(&mut word));
            }
        }
        word.extend(ch.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The stem of one lowercased word.
pub(crate) fn stem(word: &str) -> String {
    STEMMER.stem(word).into_owned()
}

/// The terms of `text`: `(plain, joined)` — the stems of its meaningful words (with the
/// words abbreviations stand for), and the stems of each adjacent pair joined.
pub(crate) fn terms_split(text: &str) -> (Vec<String>, Vec<String>) {
    let kept: Vec<String> = words(text)
        .into_iter()
        .filter(|w| !is_stop_word(w))
        .collect();
    let mut plain = Vec::with_capacity(kept.len());
    for word in &kept {
        plain.push(stem(word));
        if let Ok(at) = ABBREVIATIONS.binary_search_by(|(a, _)| a.cmp(&word.as_str())) {
            plain.extend(ABBREVIATIONS[at].1.iter().map(|w| stem(w)));
        }
    }
    let joined = kept
        .windows(2)
        .map(|pair| stem(&format!("{}{}", pair[0], pair[1])))
        .collect();
    (plain, joined)
}

/// Every term of `text`, plain then joined.
pub(crate) fn terms(text: &str) -> Vec<String> {
    let (mut plain, joined) = terms_split(text);
    plain.extend(joined);
    plain
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_tables_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn words_split_identifiers_and_prose() {
        assert_eq!(words("listIssues"), ["list", "issues"]);
        assert_eq!(words("HTTPServer v2Api"), ["http", "server", "v2", "api"]);
        assert_eq!(
            words("TwilioApiV2010--CreateCall"),
            ["twilio", "api", "v2010", "create", "call"]
        );
        assert_eq!(words("get-PR2 files_x"), ["get", "pr2", "files", "x"]);
    }

    #[test]
    fn joined_and_split_spellings_meet() {
        let joined = terms("CloudWatch");
        let split = terms("cloud watch");
        let one = terms("cloudwatch");
        assert!(joined.contains(&one[0]), "{joined:?} {one:?}");
        assert!(split.contains(&one[0]), "{split:?} {one:?}");
        assert!(terms("DynamoDB").contains(&terms("dynamodb")[0]));
    }

    #[test]
    fn filler_is_dropped_and_words_are_stemmed() {
        assert!(terms("how many").is_empty());
        assert_eq!(terms("documents"), terms("document"));
        assert!(terms("docs").contains(&stem("documentation")));
        assert_eq!(terms("news"), ["news"]);
        assert!(terms("open a PR").contains(&stem("pull")));
    }

    proptest! {
        #[test]
        fn terms_are_a_function_of_the_text(text in "\\PC{0,60}") {
            let once = terms(&text);
            prop_assert_eq!(&once, &terms(&text));
            for term in &once {
                prop_assert!(!term.is_empty());
                prop_assert!(term.chars().all(char::is_alphanumeric));
            }
        }
    }
}
