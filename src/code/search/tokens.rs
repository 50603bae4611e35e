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
    ("mr", &["merge", "request"]),
    ("msg", &["message"]),
    ("pr", &["pull", "request"]),
    ("prs", &["pull", "request"]),
    ("repo", &["repository"]),
    ("repos", &["repository"]),
    ("sms", &["text", "message"]),
    ("vm", &["virtual", "machine"]),
];

/// Words of requests and the words tools use for the same thing: a small thesaurus of the
/// tasks people hand to tools (a request says "give them their money back", the tool says
/// `refund`). A query containing a trigger (one word, or two adjacent words; compared by
/// stem, before filler is dropped) also looks for its related words, at
/// `bm25::RELATED_WEIGHT` of a word the query has. Query side only: tool texts
/// are indexed as they are written.
const RELATED: &[(&str, &[&str])] = &[
    // Money.
    ("money back", &["refund"]),
    ("reimburse", &["refund"]),
    ("charged", &["charge", "payment", "refund"]),
    ("overcharged", &["refund", "charge"]),
    ("billing", &["subscription", "invoice"]),
    ("bill", &["invoice", "subscription"]),
    ("stop billing", &["cancel", "subscription"]),
    ("unsubscribe", &["cancel", "subscription"]),
    ("pay", &["payment"]),
    ("paid", &["payment"]),
    ("cost", &["price", "pricing", "cost"]),
    ("price", &["pricing"]),
    ("how much", &["price", "cost", "count"]),
    // Places and travel.
    ("drive", &["directions", "driving", "route"]),
    ("driving", &["directions", "route"]),
    ("commute", &["directions", "route"]),
    ("how long", &["duration", "directions"]),
    ("how far", &["distance"]),
    ("far", &["distance"]),
    ("crow flies", &["distance"]),
    ("near", &["nearby", "places"]),
    ("nearby", &["places", "search"]),
    ("where is", &["geocode", "location"]),
    ("address", &["geocode"]),
    // Time.
    ("what time", &["current", "time", "timezone"]),
    ("time in", &["current", "time", "timezone"]),
    ("clock", &["time"]),
    // Memory.
    (
        "remember",
        &["memory", "entities", "observations", "knowledge", "graph"],
    ),
    ("memorize", &["memory", "entities", "observations"]),
    ("recall", &["memory", "search", "nodes"]),
    ("earlier", &["memory", "search", "nodes"]),
    ("told", &["memory", "search", "nodes"]),
    ("forget", &["delete", "memory", "entities"]),
    // Work tracking.
    ("ticket", &["issue"]),
    ("bug", &["issue"]),
    ("tickets", &["issues"]),
    ("hours", &["worklog", "time"]),
    ("log time", &["worklog"]),
    ("break down", &["expand", "subtasks"]),
    ("subtasks", &["expand"]),
    ("split", &["expand", "subtasks"]),
    // Code.
    ("ship", &["merge", "deploy"]),
    ("land", &["merge"]),
    ("roll out", &["deploy", "deployment"]),
    ("release", &["deploy", "release"]),
    // Messages.
    ("let know", &["message", "post", "send"]),
    ("tell", &["message", "send"]),
    ("announce", &["message", "post"]),
    ("notify", &["message", "notification", "send"]),
    ("ping", &["message"]),
    ("dm", &["direct", "message"]),
    ("text", &["message", "sms"]),
    ("mail", &["email"]),
    // Files and the web.
    ("what s in", &["read", "file", "contents"]),
    ("contents", &["read", "file"]),
    ("yaml", &["file", "read"]),
    ("json", &["file"]),
    ("txt", &["file", "read"]),
    ("csv", &["file"]),
    ("https", &["fetch", "url", "scrape", "web"]),
    ("http", &["fetch", "url", "scrape", "web"]),
    ("url", &["fetch", "scrape"]),
    ("webpage", &["fetch", "scrape", "web", "page"]),
    ("web page", &["fetch", "scrape"]),
    ("blog", &["fetch", "scrape", "web"]),
    ("article", &["fetch", "scrape", "web"]),
    ("website", &["crawl", "scrape", "web"]),
    ("look up", &["search"]),
    ("lookup", &["search"]),
    ("google", &["web", "search"]),
    // Seeing.
    ("visualize", &["chart", "visualization"]),
    ("plot", &["chart"]),
    ("diagram", &["chart", "diagram"]),
    ("picture", &["image", "screenshot"]),
    ("photo", &["image"]),
    ("capture", &["screenshot"]),
    // Actions.
    ("write up", &["create", "page"]),
    ("draft", &["create"]),
    ("make", &["create"]),
    ("new", &["create"]),
    ("add", &["create"]),
    ("open", &["create", "open"]),
    ("change", &["update", "edit"]),
    ("edit", &["update"]),
    ("modify", &["update"]),
    ("rename", &["update", "move"]),
    ("get rid", &["delete", "remove"]),
    ("remove", &["delete"]),
    ("erase", &["delete"]),
    ("wipe", &["delete"]),
    ("kick off", &["run", "trigger", "start"]),
    ("trigger", &["run", "start"]),
    ("launch", &["run", "start", "create"]),
    ("halt", &["stop"]),
    ("kill", &["stop", "terminate", "delete"]),
    ("how many", &["count"]),
    ("number of", &["count"]),
    ("bump", &["scale", "update"]),
    ("replicas", &["scale"]),
    // Operations.
    ("paging", &["alarms", "alerts", "incidents"]),
    ("alerting", &["alarms", "alerts"]),
    ("firing", &["alarms", "alerts"]),
    ("outage", &["incidents", "alarms", "status"]),
    ("down", &["status", "health", "alarms"]),
    ("logging", &["logs"]),
    ("printing", &["logs"]),
    (
        "permissions",
        &["policy", "policies", "role", "permissions"],
    ),
    ("access", &["policy", "permissions"]),
    ("allowed", &["policy", "permissions"]),
    ("slow", &["performance", "metrics"]),
    // Meetings.
    ("meeting", &["event", "calendar"]),
    ("schedule", &["event", "calendar", "create"]),
    ("appointment", &["event", "calendar"]),
];

/// The related words of `RELATED` by the stems of their trigger (one word, or two joined
/// by a space).
static RELATED_BY_STEM: LazyLock<std::collections::BTreeMap<String, Vec<String>>> =
    LazyLock::new(|| {
        let mut table: std::collections::BTreeMap<String, Vec<String>> =
            std::collections::BTreeMap::new();
        for (trigger, related) in RELATED {
            let key: Vec<String> = words(trigger).iter().map(|w| stem(w)).collect();
            let entry = table.entry(key.join(" ")).or_default();
            for word in *related {
                let word = stem(word);
                if !entry.contains(&word) {
                    entry.push(word);
                }
            }
        }
        table
    });

/// The stems of the words related to `text`'s (see `RELATED`), in order of first
/// appearance, without the terms `text` has itself.
pub(crate) fn related(text: &str) -> Vec<String> {
    let stems: Vec<String> = words(text).iter().map(|w| stem(w)).collect();
    let own = terms(text);
    let mut out: Vec<String> = Vec::new();
    let mut add = |key: &str| {
        if let Some(words) = RELATED_BY_STEM.get(key) {
            for word in words {
                if !own.contains(word) && !out.contains(word) {
                    out.push(word.clone());
                }
            }
        }
    };
    for (at, single) in stems.iter().enumerate() {
        add(single);
        if let Some(next) = stems.get(at + 1) {
            add(&format!("{single} {next}"));
        }
        if let (Some(second), Some(third)) = (stems.get(at + 1), stems.get(at + 2)) {
            add(&format!("{single} {second} {third}"));
        }
    }
    out
}

/// Whether `query` has anything to search for: a term of its own or a related word.
pub(crate) fn searchable(query: &str) -> bool {
    !terms(query).is_empty() || !related(query).is_empty()
}

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

    #[test]
    fn requests_find_the_words_tools_use() {
        // One word, two words (filler included: they are read before it is dropped).
        assert_eq!(related("give them their money back"), [stem("refund")]);
        assert!(related("how far is Paris from Berlin").contains(&stem("distance")));
        assert!(related("tell the team").contains(&stem("message")));
        // Words the text has itself are not added again.
        assert!(!related("post a message").contains(&stem("message")));
        assert!(related("list pull requests").is_empty());
        assert!(searchable("how many?") && !searchable("how is it?"));
        for (trigger, words) in RELATED {
            assert!(!words.is_empty(), "{trigger}");
            assert!(
                RELATED_BY_STEM.contains_key(
                    &super::words(trigger)
                        .iter()
                        .map(|w| stem(w))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                "{trigger}"
            );
        }
    }

    proptest! {
        #[test]
        fn terms_are_a_function_of_the_text(text in "\\PC{0,60}") {
            let once = terms(&text);
            prop_assert_eq!(&once, &terms(&text));
            prop_assert_eq!(related(&text), related(&text));
            for term in &once {
                prop_assert!(!term.is_empty());
                prop_assert!(term.chars().all(char::is_alphanumeric));
            }
        }
    }
}
