//! Fitting a `describe_tools` answer within its token budget: declarations are shortened,
//! the largest first, one step at a time — [`Shortening::Summary`] (the description cut to
//! its first sentence), then [`Shortening::NoDocs`] (the parameters' and result's nested
//! docs dropped), then [`Shortening::Collapsed`] (shapes deeper than the top-level
//! members written as `JsonValue`) — and when every declaration is at the last step and
//! the answer is still over, the least relevant declarations are left out, named. A
//! declaration is never cut in the middle; the answer says what was shortened and how to
//! read the rest (name the tool alone).

use crate::json::{DepthLimit, JsonValue};
use crate::runtime::Language;

use crate::code::sdk::{SdkTool, render_sdk_section_within};
use crate::code::text::{declarations, estimate_tokens, first_sentence};

/// How far one declaration was shortened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shortening {
    /// As the SDK declares it.
    Full,
    /// The description cut to its first sentence.
    Summary,
    /// And the nested docs of its parameters and result dropped.
    NoDocs,
    /// And shapes below the top-level members collapsed to `JsonValue`.
    Collapsed,
}

impl Shortening {
    fn next(self) -> Option<Shortening> {
        match self {
            Shortening::Full => Some(Shortening::Summary),
            Shortening::Summary => Some(Shortening::NoDocs),
            Shortening::NoDocs => Some(Shortening::Collapsed),
            Shortening::Collapsed => None,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Shortening::Full => "in full",
            Shortening::Summary => "description cut to its first sentence",
            Shortening::NoDocs => "first sentence only, nested docs dropped",
            Shortening::Collapsed => {
                "first sentence only, no nested docs, nested shapes as JsonValue"
            }
        }
    }
}

/// Keys of a schema node that only document it.
const DOC_KEYS: &[&str] = &["description", "title", "examples", "example", "$comment"];

/// `schema` without the docs of any node below the top level's members (`depth` counts
/// JSON object levels from the root: the root 0, its `properties` map 1, each member 2).
fn drop_docs(schema: &JsonValue, depth: usize) -> JsonValue {
    match schema {
        JsonValue::Object(map) => JsonValue::Object(
            map.iter()
                .filter(|(key, _)| depth < 3 || !DOC_KEYS.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), drop_docs(value, depth + 1)))
                .collect(),
        ),
        JsonValue::Array(items) => {
            JsonValue::Array(items.iter().map(|v| drop_docs(v, depth)).collect())
        }
        other => other.clone(),
    }
}

/// `schema` with every property's own shape replaced by an open one (`{}`, declared
/// `JsonValue`), keeping its docs: a member's name and meaning stay, its nested shape goes.
fn collapse(schema: &JsonValue) -> JsonValue {
    let mut out = schema.clone();
    if let Some(properties) = out.get_mut("properties").and_then(JsonValue::as_object_mut) {
        for value in properties.values_mut() {
            let deep = value.get("properties").is_some()
                || value.get("items").is_some()
                || value.get("anyOf").is_some()
                || value.get("oneOf").is_some()
                || value.get("allOf").is_some()
                || value.get("$ref").is_some();
            if deep {
                let mut open = serde_json::Map::new();
                if let Some(doc) = value.get("description") {
                    open.insert("description".to_owned(), doc.clone());
                }
                *value = JsonValue::Object(open);
            }
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(map) = out.as_object_mut() {
            map.remove(key);
        }
    }
    out
}

/// `tool` shortened to `step`.
pub fn shorten(tool: &SdkTool, step: Shortening) -> SdkTool {
    let mut out = tool.clone();
    if step >= Shortening::Summary {
        out.description = first_sentence(&tool.description);
    }
    if step >= Shortening::NoDocs {
        out.parameters = drop_docs(&out.parameters, 0);
        out.output = out.output.as_ref().map(|o| drop_docs(o, 0));
    }
    if step >= Shortening::Collapsed {
        out.parameters = collapse(&out.parameters);
        out.output = out.output.as_ref().map(collapse);
    }
    out
}

/// The declarations of `tools` (in name order, as the SDK lists them), with what was done
/// to fit `budget` tokens (`None`: no budget) after `head` (the lines before them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// The notes to add after `head` (what was shortened or left out, and how to read it).
    pub notes: String,
    /// The declarations (the SDK section's code block).
    pub declarations: String,
}

fn render(language: Language, tools: &[(SdkTool, Shortening)], depth: DepthLimit) -> String {
    let mut shown: Vec<SdkTool> = tools.iter().map(|(t, s)| shorten(t, *s)).collect();
    shown.sort_by(|a, b| a.name.cmp(&b.name));
    declarations(&render_sdk_section_within(language, &shown, depth)).to_owned()
}

/// The notes of a fitted answer within `budget` tokens: which declarations were shortened
/// (and how), which were left out.
fn fit_notes(
    budget: usize,
    chosen: &[(SdkTool, Shortening)],
    left_out: &[(String, usize)],
) -> String {
    use std::fmt::Write as _;
    let mut notes = String::new();
    let shortened: Vec<String> = chosen
        .iter()
        .filter(|(_, s)| *s != Shortening::Full)
        .map(|(t, s)| format!("{} ({})", t.name, s.what()))
        .collect();
    if !shortened.is_empty() {
        let _ = writeln!(
            notes,
            "Shortened to fit this answer's budget of {} tokens: {}. Name one tool alone in `names` to read more of it.",
            budget,
            shortened.join(", ")
        );
    }
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|(n, _)| n.as_str()).collect();
        let _ = writeln!(
            notes,
            "Left out to fit this answer's budget (the least relevant, even shortened): {}. Ask for them by `names`, fewer at a time.",
            names.join(", ")
        );
    }
    notes
}

/// Fits the declarations of `tools` (most relevant first) within `budget` tokens with
/// `head` before them.
pub fn fit(
    language: Language,
    tools: &[SdkTool],
    depth: DepthLimit,
    head: &str,
    budget: Option<usize>,
) -> Fitted {
    use std::fmt::Write as _;
    let mut chosen: Vec<(SdkTool, Shortening)> = tools
        .iter()
        .map(|t| (t.clone(), Shortening::Full))
        .collect();
    let mut left_out: Vec<(String, usize)> = Vec::new();
    // What each tool costs alone at its step (the sizes shortening goes by).
    let alone = |tool: &SdkTool, step: Shortening| {
        estimate_tokens(&render(language, &[(tool.clone(), step)], depth))
    };
    let Some(budget) = budget else {
        return Fitted {
            notes: String::new(),
            declarations: render(language, &chosen, depth),
        };
    };
    let mut sizes: Vec<usize> = chosen.iter().map(|(t, s)| alone(t, *s)).collect();
    loop {
        let declarations = render(language, &chosen, depth);
        let notes = fit_notes(budget, &chosen, &left_out);
        let total =
            estimate_tokens(head) + estimate_tokens(&notes) + 1 + estimate_tokens(&declarations);
        if total <= budget || chosen.is_empty() {
            return Fitted {
                notes,
                declarations,
            };
        }
        // The largest declaration that can still be shortened (ties: the less relevant).
        let largest = (0..chosen.len())
            .filter(|&i| chosen[i].1.next().is_some())
            .max_by(|&a, &b| sizes[a].cmp(&sizes[b]).then(a.cmp(&b)));
        match largest {
            Some(i) => {
                if let Some(next) = chosen[i].1.next() {
                    chosen[i].1 = next;
                    sizes[i] = alone(&chosen[i].0, next);
                }
            }
            None if chosen.len() > 1 => {
                // Everything is at its last step: the least relevant goes.
                if let Some((tool, step)) = chosen.pop() {
                    sizes.pop();
                    left_out.insert(0, (tool.name.clone(), alone(&tool, step)));
                }
            }
            None if !left_out.is_empty() => {
                // The notes naming what was left out leave no room for the last one: it
                // goes too (the answer names every tool; each can be asked for alone).
                if let Some((tool, step)) = chosen.pop() {
                    sizes.pop();
                    left_out.insert(0, (tool.name.clone(), alone(&tool, step)));
                }
                let notes = fit_notes(budget, &chosen, &left_out);
                return Fitted {
                    notes,
                    declarations: String::new(),
                };
            }
            None => {
                // One declaration, at its last step, over the budget alone: shown whole
                // rather than cut.
                let mut notes = notes;
                let _ = writeln!(
                    notes,
                    "This declaration is over the budget even shortened; it is shown whole rather than cut."
                );
                return Fitted {
                    notes,
                    declarations,
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn big(name: &str, words: usize) -> SdkTool {
        SdkTool {
            name: name.into(),
            description: format!("Does a thing. {}", "More words here. ".repeat(words)),
            parameters: json!({"type": "object", "properties": {
                "deep": {"type": "object", "description": "A deep one.", "properties": {
                    "inner": {"type": "string", "description": "Inner doc. ".repeat(words)}
                }}
            }}),
            output: None,
        }
    }

    #[test]
    fn the_largest_is_shortened_first_and_nothing_is_cut() {
        let tools = [big("small", 1), big("large", 200)];
        let full = fit(Language::TypeScript, &tools, DepthLimit::DEFAULT, "", None);
        let budget = estimate_tokens(&full.declarations) / 2;
        let fitted = fit(
            Language::TypeScript,
            &tools,
            DepthLimit::DEFAULT,
            "",
            Some(budget),
        );
        assert!(
            estimate_tokens(&fitted.notes) + 1 + estimate_tokens(&fitted.declarations) <= budget,
            "{}{}",
            fitted.notes,
            fitted.declarations
        );
        assert!(fitted.notes.contains("large ("), "{}", fitted.notes);
        assert!(!fitted.notes.contains("small ("), "{}", fitted.notes);
        assert!(
            fitted.declarations.contains("small"),
            "{}",
            fitted.declarations
        );
        assert!(
            fitted.declarations.trim_end().ends_with("```"),
            "{}",
            fitted.declarations
        );
        // A tiny budget: every step taken, then the least relevant left out, named.
        let tiny = fit(
            Language::TypeScript,
            &tools,
            DepthLimit::DEFAULT,
            "",
            Some(10),
        );
        // Every step taken, then the least relevant left out; the notes naming them leave
        // no room for the last one either: the answer names both and declares none.
        assert!(
            tiny.notes
                .contains("Left out to fit this answer's budget (the least relevant, even shortened): small, large."),
            "{}",
            tiny.notes
        );
        assert_eq!(tiny.declarations, "");
        // One tool over the budget alone: shown whole, never cut, and said so.
        let alone = fit(
            Language::TypeScript,
            &tools[1..],
            DepthLimit::DEFAULT,
            "",
            Some(10),
        );
        assert!(
            alone.notes.contains("shown whole rather than cut"),
            "{}",
            alone.notes
        );
        assert!(
            alone.declarations.contains("large"),
            "{}",
            alone.declarations
        );
    }

    #[test]
    fn shortening_steps_keep_names_and_drop_detail() {
        let tool = big("t", 3);
        let docs = shorten(&tool, Shortening::NoDocs);
        assert_eq!(docs.description, "Does a thing.");
        assert!(
            docs.parameters["properties"]["deep"]
                .get("description")
                .is_some()
        );
        assert!(
            docs.parameters["properties"]["deep"]["properties"]["inner"]
                .get("description")
                .is_none()
        );
        let collapsed = shorten(&tool, Shortening::Collapsed);
        assert_eq!(
            collapsed.parameters["properties"]["deep"],
            json!({"description": "A deep one."})
        );
    }
}
