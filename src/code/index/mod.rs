//! Tool sets larger than a context window: when a scope's SDK would make `run_code`'s
//! description exceed [`CodeModeConfig::sdk_max_tokens`](super::CodeModeConfig), the
//! description carries a compact index of the tools instead of their declarations, and
//! `describe_tools` returns the declarations of the tools a model names or of the best
//! matches for a query.
//!
//! - [`estimate_tokens`]: the token estimate budgets are measured in (one token per four
//!   bytes of UTF-8, rounded up).
//! - [`IndexStep`]: the documented steps the index degrades through to fit.
//! - [`plan`]: what replaces the `tools:sdk` section for a tool set and a budget.
//! - [`ToolIndex`]: the tools of one scope with their search ([`super::search`]), and the
//!   text `describe_tools` answers with ([`ToolIndex::answer`], fitted by [`super::answer`]).
//!
//! Every text here is a function of the tool set (and the query): groups are `BTreeMap`s,
//! tools are sorted by name, nothing depends on hashing or on printing a float.

use std::collections::{BTreeMap, BTreeSet};

use crate::json::{DepthLimit, JsonValue};
use crate::runtime::Language;

pub mod answer;
pub(super) mod describe;

use crate::code::checks::static_check;
use crate::code::sdk::{SdkTool, render_sdk_section_within};
use crate::code::search::bm25::Fields;
use crate::code::search::tokens::{searchable, terms};
use crate::code::search::{SearchConfig, SearchDocument, SearchState, ToolSearch};
use crate::code::text::AVAILABLE;
pub use crate::code::text::{estimate_tokens, first_sentence};

/// The name of the tool that returns declarations from the index.
pub const DESCRIBE_TOOLS: &str = "describe_tools";

/// How many matches of a query `describe_tools` returns unless asked (`limit`).
pub(crate) const DEFAULT_MATCHES: usize = 5;
/// The most declarations one `describe_tools` call returns.
pub(crate) const MAX_DECLARATIONS: usize = 20;

/// The source group of tools that do not say where they came from.
const NO_SOURCE: &str = "other";

/// How many terms step 3 suggests searching for, per source.
const SEARCH_TERMS: usize = 6;

/// The steps of the compact index, from the most to the least detailed; the first whose
/// description fits the budget is used (the last one when none fits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum IndexStep {
    /// 1: each tool's name and the first sentence of its description, grouped by source.
    Sentences,
    /// 2: each tool's name only, grouped by source.
    Names,
    /// 3: each source with its tool count and the terms its tool names use most (what to
    /// search for).
    Sources,
}

impl IndexStep {
    /// Every step, in the order they are tried.
    pub const ALL: [IndexStep; 3] = [IndexStep::Sentences, IndexStep::Names, IndexStep::Sources];

    /// The step's number (1, 2, 3).
    pub fn number(self) -> usize {
        match self {
            IndexStep::Sentences => 1,
            IndexStep::Names => 2,
            IndexStep::Sources => 3,
        }
    }

    fn what(self) -> &'static str {
        match self {
            IndexStep::Sentences => "each tool's name and the first sentence of its description",
            IndexStep::Names => "tool names only (with first sentences the index would not fit)",
            IndexStep::Sources => {
                "sources only, with their tool counts and what to search for (even the tool names would not fit)"
            }
        }
    }
}

/// What `run_code`'s description carries in place of the whole SDK.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SdkPlan {
    /// The SDK fits the budget (or there is none): the `tools:sdk` section as it is.
    Full(String),
    /// The SDK does not fit: the index at `step`, whose text replaces the section, and
    /// `describe_tools` is offered.
    Index {
        /// The step taken.
        step: IndexStep,
        /// The section text (the SDK's instructions, then the index).
        text: String,
    },
}

impl SdkPlan {
    /// The section text.
    pub fn text(&self) -> &str {
        match self {
            SdkPlan::Full(text) | SdkPlan::Index { text, .. } => text,
        }
    }

    /// The step taken, when the index is in use.
    pub fn step(&self) -> Option<IndexStep> {
        match self {
            SdkPlan::Full(_) => None,
            SdkPlan::Index { step, .. } => Some(*step),
        }
    }
}

/// One tool with the source it came from (`mcp:github`, `builtin`, ...; `None`: `other`).
#[derive(Debug, Clone, PartialEq)]
pub struct SourcedTool {
    /// Where the tool came from.
    pub source: Option<String>,
    /// The tool as the SDK sees it.
    pub tool: SdkTool,
}

/// Decides what replaces the `tools:sdk` section: the whole SDK when `prefix` (the rest
/// of `run_code`'s description: its own text and the sections before the SDK, joined as a
/// self-describing description joins them) and the SDK together are within `budget`
/// tokens ([`estimate_tokens`]) or there is no budget, else the index at the first
/// [`IndexStep`] that fits, else at the last step.
pub fn plan(
    language: Language,
    tools: &[SourcedTool],
    depth: DepthLimit,
    prefix: &str,
    budget: Option<usize>,
) -> SdkPlan {
    let sdk_tools: Vec<SdkTool> = tools.iter().map(|t| t.tool.clone()).collect();
    let full = render_sdk_section_within(language, &sdk_tools, depth);
    let fits = |section: &str| match budget {
        None => true,
        Some(budget) => estimate_tokens(prefix) + 2 + estimate_tokens(section) <= budget,
    };
    let Some(budget) = budget.filter(|_| !fits(&full)) else {
        return SdkPlan::Full(full);
    };
    let instructions = instructions(&full);
    let full_tokens = estimate_tokens(&full);
    let mut last = None;
    for step in IndexStep::ALL {
        let text = render_index(language, instructions, tools, step, full_tokens, budget);
        if fits(&text) {
            return SdkPlan::Index { step, text };
        }
        last = Some(SdkPlan::Index { step, text });
    }
    last.unwrap_or(SdkPlan::Full(full))
}

/// The instructions of an SDK section (everything before its declarations).
fn instructions(section: &str) -> &str {
    section.find(AVAILABLE).map_or("", |at| &section[..at])
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::TypeScript => "TypeScript",
        Language::Python => "Python",
    }
}

fn source_name(tool: &SourcedTool) -> &str {
    tool.source.as_deref().unwrap_or(NO_SOURCE)
}

/// The tools grouped by source (sorted), each group sorted by name.
fn groups(tools: &[SourcedTool]) -> BTreeMap<&str, Vec<&SourcedTool>> {
    let mut groups: BTreeMap<&str, Vec<&SourcedTool>> = BTreeMap::new();
    for tool in tools {
        groups.entry(source_name(tool)).or_default().push(tool);
    }
    for group in groups.values_mut() {
        group.sort_by(|a, b| a.tool.name.cmp(&b.tool.name));
    }
    groups
}

/// Terms that tell a source's tools apart: the words its tool names use most (split at
/// `_`, `-` and camelCase, lowercased; one entry per stem, shown as its shortest form), ties
/// alphabetically, without the common verbs and the source's own name; when that leaves
/// nothing, the verbs too.
fn search_terms(source: &str, group: &[&SourcedTool]) -> Vec<String> {
    const VERBS: &[&str] = &[
        "get", "list", "create", "update", "delete", "set", "add", "remove", "fetch", "read",
        "write", "search", "find", "run", "mcp", "tool", "api",
    ];
    let source_words: Vec<String> = split_words(source);
    let count = |skip_verbs: bool| {
        // stem -> (tools using it, its shortest spelling)
        let mut counts: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for tool in group {
            let words: BTreeSet<String> = split_words(&tool.tool.name)
                .into_iter()
                .filter(|w| w.chars().count() > 2 && !w.chars().all(|c| c.is_ascii_digit()))
                .filter(|w| !source_words.contains(w))
                .filter(|w| !skip_verbs || !VERBS.contains(&w.as_str()))
                .collect();
            let stems: BTreeMap<String, String> = words
                .into_iter()
                .map(|w| (terms(&w).into_iter().next().unwrap_or_else(|| w.clone()), w))
                .collect();
            for (stem, word) in stems {
                let entry = counts.entry(stem).or_insert((0, word.clone()));
                entry.0 += 1;
                if (word.len(), &word) < (entry.1.len(), &entry.1) {
                    entry.1 = word;
                }
            }
        }
        counts
    };
    let mut counts = count(true);
    if counts.is_empty() {
        counts = count(false);
    }
    let mut ranked: Vec<(usize, String)> = counts.into_values().collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    ranked
        .into_iter()
        .take(SEARCH_TERMS)
        .map(|(_, w)| w)
        .collect()
}

/// The lowercased words of an identifier: split at every character that is not a letter
/// or digit, and where a capital follows a lower-case letter or digit.
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for ch in text.chars() {
        if !ch.is_alphanumeric() {
            previous_lower = false;
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        if ch.is_uppercase() && previous_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        previous_lower = ch.is_lowercase() || ch.is_ascii_digit();
        word.extend(ch.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn tool_count(n: usize) -> String {
    if n == 1 {
        "1 tool".to_owned()
    } else {
        format!("{n} tools")
    }
}

fn render_index(
    language: Language,
    instructions: &str,
    tools: &[SourcedTool],
    step: IndexStep,
    full_tokens: usize,
    budget: usize,
) -> String {
    use std::fmt::Write as _;
    let groups = groups(tools);
    let mut out = String::with_capacity(instructions.len() + tools.len() * 64);
    out.push_str(instructions);
    let _ = write!(
        out,
        "## Tool index\n\nThe {language} SDK of these {count} tools (about {full_tokens} tokens) is over this \
         description's budget of {budget} tokens, so only an index is shown (index step {number} of 3: {what}). \
         Call `{DESCRIBE_TOOLS}` with `names` (tool names) or a `query` (the task in plain words) to read the \
         full {language} declarations before calling a tool. A tool whose declaration you have not read can \
         still be called as `await tools.name(args)`, through the same checks as any call.\n",
        language = language_name(language),
        count = tools.len(),
        number = step.number(),
        what = step.what(),
    );
    match step {
        IndexStep::Sentences | IndexStep::Names => {
            for (source, group) in &groups {
                let _ = write!(out, "\n### {source} ({})\n\n", tool_count(group.len()));
                for tool in group {
                    let name = &tool.tool.name;
                    let sentence = first_sentence(&tool.tool.description);
                    if step == IndexStep::Sentences && !sentence.is_empty() {
                        let _ = writeln!(out, "- {name}: {sentence}");
                    } else if step == IndexStep::Sentences {
                        let _ = writeln!(out, "- {name}");
                    }
                }
                if step == IndexStep::Names {
                    let names: Vec<&str> = group.iter().map(|t| t.tool.name.as_str()).collect();
                    let _ = writeln!(out, "{}", names.join(", "));
                }
            }
        }
        IndexStep::Sources => {
            out.push('\n');
            for (source, group) in &groups {
                let _ = write!(out, "- {source}: {}", tool_count(group.len()));
                let terms = search_terms(source, group);
                if !terms.is_empty() {
                    let _ = write!(out, "; search for: {}", terms.join(", "));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// The tools of one scope, ranked for `describe_tools`.
pub struct ToolIndex {
    language: Language,
    depth: DepthLimit,
    /// In name order; a tool's position is its id in `search`.
    tools: Vec<SdkTool>,
    search: ToolSearch,
}

impl std::fmt::Debug for ToolIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolIndex")
            .field("language", &self.language)
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

/// The top-level parameter names of a tool's argument schema, and their descriptions.
fn parameters_of(parameters: &JsonValue) -> (Vec<&str>, Vec<&str>) {
    let Some(properties) = parameters.get("properties").and_then(JsonValue::as_object) else {
        return (Vec::new(), Vec::new());
    };
    let names = properties.keys().map(String::as_str).collect();
    let docs = properties
        .values()
        .filter_map(|p| p.get("description").and_then(JsonValue::as_str))
        .collect();
    (names, docs)
}

/// How much of a tool's description it is embedded by, in characters.
const EMBED_DESCRIPTION_CHARS: usize = 400;

/// The text a tool is embedded by: its name in words, its source, and the start of its
/// description on one line (at most `EMBED_DESCRIPTION_CHARS`, cut at a word). Measured
/// on the tuning halves of `fixtures/search`: the whole first paragraph ranks better
/// than the first sentence alone (README, Tool search).
fn embed_text(source: &str, tool: &SdkTool) -> String {
    let name = split_words(&tool.name).join(" ");
    let line = tool
        .description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let description = if line.chars().count() <= EMBED_DESCRIPTION_CHARS {
        line
    } else {
        let cut: String = line.chars().take(EMBED_DESCRIPTION_CHARS).collect();
        cut.rsplit_once(' ')
            .map_or(cut.clone(), |(head, _)| head.to_owned())
    };
    if source.is_empty() {
        format!("{name}: {description}")
    } else {
        format!("{name} ({source}): {description}")
    }
}

/// What a `describe_tools` call asks for, read and checked (see `describe`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DescribeRequest {
    /// Tool names, duplicates folded, in the order given.
    pub names: Vec<String>,
    /// The task in plain words.
    pub query: Option<String>,
    /// How many matches of `query`.
    pub limit: usize,
}

impl ToolIndex {
    /// Indexes `tools` for declarations in `language`, schemas rendered `depth` deep.
    pub fn new(language: Language, tools: &[SourcedTool], depth: DepthLimit) -> ToolIndex {
        let mut sorted: Vec<&SourcedTool> = tools.iter().collect();
        sorted.sort_by(|a, b| a.tool.name.cmp(&b.tool.name));
        sorted.dedup_by(|a, b| a.tool.name == b.tool.name);
        let documents = sorted
            .iter()
            .map(|t| {
                let source = t
                    .source
                    .as_deref()
                    .map_or("", |s| s.strip_prefix("mcp:").unwrap_or(s));
                let (parameters, parameter_docs) = parameters_of(&t.tool.parameters);
                SearchDocument {
                    fields: Fields {
                        name: &t.tool.name,
                        summary: first_sentence(&t.tool.description),
                        source,
                        parameters,
                        description: &t.tool.description,
                        parameter_docs,
                    },
                    embed_text: embed_text(source, &t.tool),
                }
            })
            .collect();
        let search = ToolSearch::new(documents);
        ToolIndex {
            language,
            depth,
            tools: sorted.into_iter().map(|t| t.tool.clone()).collect(),
            search,
        }
    }

    /// How many tools are indexed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    fn names_of(&self, ids: &[usize], limit: usize) -> Vec<&str> {
        ids.iter()
            .take(limit)
            .filter_map(|&id| self.tools.get(id).map(|t| t.name.as_str()))
            .collect()
    }

    /// The names of the best matches for `query` by words alone, at most `limit` (best
    /// first; ties to the more specific tool, then by name): fielded BM25 over names, first
    /// sentences, sources, parameter names, descriptions and parameter docs.
    pub fn search(&self, query: &str, limit: usize) -> Vec<&str> {
        self.names_of(&self.search.lexical(query), limit)
    }

    /// The names of the best matches for `query`, at most `limit`, ranked as `config`
    /// says (hybrid with an embedder that answers in time), and a note when semantic
    /// ranking was configured but not had.
    pub async fn rank(
        &self,
        query: &str,
        limit: usize,
        config: &SearchConfig,
        state: &SearchState,
    ) -> (Vec<&str>, Option<String>) {
        let ranked = self.search.rank(query, config, state).await;
        (self.names_of(&ranked.ids, limit), ranked.note)
    }

    /// The texts the tools are embedded by, in name order (for measuring an embedder).
    pub fn embed_texts(&self) -> &[String] {
        self.search.embed_texts()
    }

    /// The text `describe_tools` answers with, ranking lexically (see [`Self::answer`]).
    pub fn describe(&self, names: &[String], query: Option<&str>, limit: usize) -> String {
        let request = DescribeRequest {
            names: names.to_vec(),
            query: query.map(str::to_owned),
            limit,
        };
        let matches = query
            .filter(|q| searchable(q))
            .map(|q| self.search(q, limit.clamp(1, MAX_DECLARATIONS)));
        self.answer(&request, matches, None, None)
    }

    /// The text `describe_tools` answers with: a line saying what was found (the tools
    /// named, the query's `matches` best first, each unknown name with its nearest names,
    /// and `note`), then the declarations of those tools in the index's language (at most
    /// `MAX_DECLARATIONS` (20); named tools first), fitted within `budget` tokens (see
    /// [`super::answer`]).
    pub fn answer(
        &self,
        request: &DescribeRequest,
        matches: Option<Vec<&str>>,
        note: Option<&str>,
        budget: Option<usize>,
    ) -> String {
        use std::fmt::Write as _;
        let by_name = |name: &str| {
            self.tools
                .binary_search_by(|t| t.name.as_str().cmp(name))
                .ok()
                .map(|at| &self.tools[at])
        };
        let mut chosen: Vec<&SdkTool> = Vec::new();
        let mut named: Vec<&str> = Vec::new();
        let mut unknown: Vec<&str> = Vec::new();
        for name in &request.names {
            match by_name(name) {
                Some(tool) if !named.contains(&tool.name.as_str()) => {
                    named.push(&tool.name);
                    chosen.push(tool);
                }
                Some(_) => {}
                None if !unknown.contains(&name.as_str()) => unknown.push(name),
                None => {}
            }
        }
        for name in matches.iter().flatten() {
            if let Some(tool) = by_name(name)
                && !chosen.iter().any(|c| c.name == tool.name)
            {
                chosen.push(tool);
            }
        }
        chosen.truncate(MAX_DECLARATIONS);
        let mut out = String::new();
        if !named.is_empty() {
            let _ = writeln!(out, "Named: {}.", named.join(", "));
        }
        if let Some(query) = &request.query {
            match &matches {
                Some(found) if !found.is_empty() => {
                    let _ = writeln!(
                        out,
                        "Best matches for {:?}, best first: {}.",
                        query,
                        found.join(", ")
                    );
                }
                _ => {
                    let _ = writeln!(out, "No tool matches {query:?}; try other words.");
                }
            }
        }
        if let Some(note) = note {
            let _ = writeln!(out, "{note}");
        }
        if !unknown.is_empty() {
            let members: Vec<String> = self.tools.iter().map(|t| t.name.clone()).collect();
            for name in &unknown {
                let near = static_check::nearest(name, &members);
                if near.is_empty() {
                    let _ = writeln!(out, "Unknown tool: {name}.");
                } else {
                    let _ = writeln!(
                        out,
                        "Unknown tool: {name} (did you mean {}?).",
                        near.join(", ")
                    );
                }
            }
        }
        if chosen.is_empty() {
            out.push_str("No declarations to show.\n");
            return out;
        }
        let tools: Vec<SdkTool> = chosen.into_iter().cloned().collect();
        let fitted = answer::fit(self.language, &tools, self.depth, &out, budget);
        out.push_str(&fitted.notes);
        out.push('\n');
        out.push_str(&fitted.declarations);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::text::SENTENCE_CHARS;
    use serde_json::json;

    fn tool(source: Option<&str>, name: &str, description: &str) -> SourcedTool {
        SourcedTool {
            source: source.map(str::to_owned),
            tool: SdkTool {
                name: name.into(),
                description: description.into(),
                parameters: json!({"type": "object", "properties": {"channel": {"type": "string"}}}),
                output: None,
            },
        }
    }

    #[test]
    fn first_sentences_end_at_a_sentence_mark_and_are_cut_at_a_word() {
        assert_eq!(
            first_sentence("List issues.  Paginated, v1.2 at most."),
            "List issues."
        );
        assert_eq!(
            first_sentence("Version 1.2 of\nthe API"),
            "Version 1.2 of the API"
        );
        assert_eq!(first_sentence(""), "");
        let long = "word ".repeat(40);
        let cut = first_sentence(&long);
        assert!(
            cut.ends_with("word…") && cut.chars().count() <= SENTENCE_CHARS + 1,
            "{cut}"
        );
    }

    #[test]
    fn the_plan_degrades_step_by_step() {
        let tools: Vec<SourcedTool> = (0..40)
            .map(|i| {
                tool(
                    Some(if i % 2 == 0 {
                        "mcp:slack"
                    } else {
                        "mcp:github"
                    }),
                    &format!("tool_number_{i:02}"),
                    "Does one thing with a rather long explanation of it. More.",
                )
            })
            .chain([tool(None, "lonely", "")])
            .collect();
        let depth = DepthLimit::DEFAULT;
        let lang = Language::TypeScript;
        assert!(matches!(
            plan(lang, &tools, depth, "p", None),
            SdkPlan::Full(_)
        ));
        let full = plan(lang, &tools, depth, "p", None);
        let tokens = estimate_tokens(full.text());
        assert_eq!(plan(lang, &tools, depth, "p", Some(tokens + 10)), full);
        // "p", the "\n\n" between (2) and the section: the budget a step needs exactly.
        let needs = |plan: &SdkPlan| 1 + 2 + estimate_tokens(plan.text());
        let sentences = plan(lang, &tools, depth, "p", Some(tokens));
        assert_eq!(sentences.step(), Some(IndexStep::Sentences));
        let need = needs(&sentences);
        assert_eq!(
            plan(lang, &tools, depth, "p", Some(need)).step(),
            sentences.step()
        );
        // (The text names the budget: one digit fewer can save a token, hence `- 2`.)
        let names = plan(lang, &tools, depth, "p", Some(need - 2));
        assert_eq!(names.step(), Some(IndexStep::Names));
        let need = needs(&names);
        assert_eq!(
            plan(lang, &tools, depth, "p", Some(need)).step(),
            names.step()
        );
        let sources = plan(lang, &tools, depth, "p", Some(need - 2));
        assert_eq!(sources.step(), Some(IndexStep::Sources));
        for (plan, number) in [(&sentences, 1), (&names, 2), (&sources, 3)] {
            assert!(plan.text().contains(&format!("index step {number} of 3")));
            assert!(plan.text().starts_with("## Writing code for run_code\n"));
        }
        assert!(sentences.text().contains(
            "\n### mcp:github (20 tools)\n\n- tool_number_01: Does one thing with a rather long explanation of it.\n"
        ));
        assert!(
            names.text().contains("\n### other (1 tool)\n\nlonely\n"),
            "{}",
            names.text()
        );
        // The last step is taken even when nothing fits.
        let smallest = plan(lang, &tools, depth, "p", Some(10));
        assert_eq!(smallest.step(), Some(IndexStep::Sources));
        assert!(smallest.text().contains("budget of 10 tokens"));
        assert!(
            sources
                .text()
                .contains("\n- mcp:github: 20 tools; search for: number\n"),
            "{}",
            sources.text()
        );
        assert!(
            sources
                .text()
                .ends_with("\n- other: 1 tool; search for: lonely\n")
        );
    }

    #[test]
    fn describe_names_tools_and_finds_matches() {
        let tools = vec![
            tool(
                Some("mcp:slack"),
                "post_message",
                "Post a message to a channel.",
            ),
            tool(
                Some("mcp:github"),
                "list_issues",
                "List the issues of a repository.",
            ),
        ];
        let index = ToolIndex::new(Language::TypeScript, &tools, DepthLimit::DEFAULT);
        let text = index.describe(&["list_isues".into()], Some("send a slack message"), 5);
        assert!(
            text.starts_with(
                "Best matches for \"send a slack message\", best first: post_message.\n\
                 Unknown tool: list_isues (did you mean list_issues?).\n\n```ts\n"
            ),
            "{text}"
        );
        assert!(text.contains("post_message: {"), "{text}");
        assert!(!text.contains("list_issues: {"), "{text}");
        assert_eq!(
            text,
            index.describe(&["list_isues".into()], Some("send a slack message"), 5)
        );
        // In the scope's SDK language.
        let python = ToolIndex::new(Language::Python, &tools, DepthLimit::DEFAULT);
        let text = python.describe(&["post_message".into()], None, 5);
        assert!(
            text.starts_with("Named: post_message.\n\n```python\n"),
            "{text}"
        );
        assert!(text.contains("def post_message("), "{text}");
    }
}
