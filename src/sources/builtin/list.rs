//! `list_dir`: the entries of one directory, sorted by name, with kinds and file sizes.
//!
//! Owns the listing and its `search` (paths) card; symbolic links are reported as links,
//! never followed or resolved (their targets may be outside the root). Must not write.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{SearchResults, ToolCallKind, ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{Signal, ToolDefinition, define_tool};

use super::root::Root;
use super::{
    aborted, blocking, card_from_meta, card_meta, io_failure, location, not_found, plural,
};

/// The most entries one listing returns.
pub(crate) const MAX_ENTRIES: usize = 1000;

/// The arguments of `list_dir`.
#[derive(Debug, Deserialize)]
pub(crate) struct ListArgs {
    #[serde(default)]
    path: Option<String>,
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EntryKind {
    File,
    Dir,
    Symlink,
    /// A device, socket or pipe.
    Other,
}

/// One directory entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub name: String,
    pub kind: EntryKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// The value of `list_dir`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ListOutput {
    /// The root-relative directory listed.
    pub path: String,
    /// Its entries, sorted by name (at most [`MAX_ENTRIES`]).
    pub entries: Vec<Entry>,
    /// Whether entries were left out.
    pub truncated: bool,
    /// How many entries the directory has.
    pub total: u64,
}

const DESCRIPTION: &str = "List a directory of the workspace: each entry's name, kind (file, dir, symlink, other) and, for files, size in bytes, sorted by name. \
`path` is relative to the workspace root (default: the root itself). Shows at most 1000 entries (`truncated` and `total` say when there are more). \
Nothing is hidden or ignored here; use glob to find files by pattern across directories.";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let entry = ValueSchema::object(false)
        .required("name", ValueSchema::string())
        .required(
            "kind",
            ValueSchema::string().enum_values(["file", "dir", "symlink", "other"]),
        )
        .property(
            "size",
            ValueSchema::integer().description("Bytes, for files"),
        );
    let output_schema = ValueSchema::object(false)
        .required(
            "path",
            ValueSchema::string().description("The directory, relative to the root"),
        )
        .required("entries", ValueSchema::array(entry))
        .required("truncated", ValueSchema::boolean())
        .required(
            "total",
            ValueSchema::integer().description("Entries in the directory"),
        );
    let parameters = ParameterSchema::new().optional(
        "path",
        ValueSchema::string()
            .description("The directory, relative to the workspace root (default `.`)"),
    );
    let call_root = root.clone();
    define_tool::<ListArgs, ListOutput>("list_dir")
        .description(DESCRIPTION)
        .closed_parameters(parameters)
        .output(output_schema, |_, out| {
            vec![ContentBlock::text(render(out))]
        })
        .presentation_meta(|_, out| card_meta(&result_card(out)))
        .always_concurrency_safe()
        .present_call(move |args| Some(call_card(&call_root, args)))
        .present_result(|_, result| card_from_meta(result))
        .execute(move |args, ctx| {
            let root = root.clone();
            async move { blocking(ctx.signal(), move |signal| list(&root, args, signal)).await }
        })
        .build()
}

fn list(root: &Root, args: ListArgs, signal: &Signal) -> Result<ListOutput, Error> {
    let resolved = root.resolve(args.path.as_deref().unwrap_or("."))?;
    let display = resolved.display;
    if !resolved.exists {
        return Err(not_found(&display));
    }
    if !resolved.path.is_dir() {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!("`{display}` is not a directory; use read_file to read a file"),
        ));
    }
    let reader =
        std::fs::read_dir(&resolved.path).map_err(|err| io_failure("list", &display, &err))?;
    let mut entries = Vec::new();
    for (seen, item) in reader.enumerate() {
        if seen.is_multiple_of(256) && signal.is_cancelled() {
            return Err(aborted());
        }
        let Ok(item) = item else { continue };
        let Ok(kind) = item.file_type() else { continue };
        let (kind, size) = if kind.is_symlink() {
            (EntryKind::Symlink, None)
        } else if kind.is_dir() {
            (EntryKind::Dir, None)
        } else if kind.is_file() {
            (EntryKind::File, item.metadata().ok().map(|meta| meta.len()))
        } else {
            (EntryKind::Other, None)
        };
        entries.push(Entry {
            name: item.file_name().to_string_lossy().into_owned(),
            kind,
            size,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let total = entries.len() as u64;
    let truncated = entries.len() > MAX_ENTRIES;
    entries.truncate(MAX_ENTRIES);
    Ok(ListOutput {
        path: display,
        entries,
        truncated,
        total,
    })
}

/// An entry's path relative to the root, directories with a trailing `/`.
fn entry_path(dir: &str, entry: &Entry) -> String {
    let slash = if entry.kind == EntryKind::Dir {
        "/"
    } else {
        ""
    };
    if dir == "." {
        format!("{}{slash}", entry.name)
    } else {
        format!("{dir}/{}{slash}", entry.name)
    }
}

/// The model-facing text: one entry a line (`dir/`, `file (12 bytes)`, `link@`).
fn render(out: &ListOutput) -> String {
    if out.entries.is_empty() {
        return format!("`{}` is empty", out.path);
    }
    let mut text = String::new();
    for entry in &out.entries {
        match entry.kind {
            EntryKind::Dir => text.push_str(&format!("{}/\n", entry.name)),
            EntryKind::Symlink => text.push_str(&format!("{}@ (symbolic link)\n", entry.name)),
            EntryKind::Other => text.push_str(&format!("{} (special file)\n", entry.name)),
            EntryKind::File => match entry.size {
                Some(size) => text.push_str(&format!(
                    "{} ({})\n",
                    entry.name,
                    plural(size, "byte", "bytes")
                )),
                None => text.push_str(&format!("{}\n", entry.name)),
            },
        }
    }
    if out.truncated {
        text.push_str(&format!(
            "(showing {} of {} entries; use glob with a pattern to narrow down)",
            out.entries.len(),
            out.total
        ));
    } else {
        text.pop();
    }
    text
}

fn call_card(root: &Root, args: &ListArgs) -> ToolCallView {
    let input = args.path.as_deref().unwrap_or(".");
    let display = root.lexical_display(input);
    ToolCallView::Generic {
        title: format!("List {}", display.as_deref().unwrap_or(input)),
        kind: Some(ToolCallKind::Read),
        raw_input: None,
        content: None,
        locations: display.map(|display| vec![location(root, &display, None)]),
    }
}

fn result_card(out: &ListOutput) -> ToolResultView {
    ToolResultView::Search {
        title: Some(format!("List {}", out.path)),
        truncated: out.truncated,
        total: out.total,
        results: SearchResults::Paths {
            paths: out
                .entries
                .iter()
                .map(|entry| entry_path(&out.path, entry))
                .collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_render_by_kind() {
        let out = ListOutput {
            path: "src".into(),
            entries: vec![
                Entry {
                    name: "a.rs".into(),
                    kind: EntryKind::File,
                    size: Some(1),
                },
                Entry {
                    name: "b".into(),
                    kind: EntryKind::Dir,
                    size: None,
                },
                Entry {
                    name: "c".into(),
                    kind: EntryKind::Symlink,
                    size: None,
                },
            ],
            truncated: false,
            total: 3,
        };
        assert_eq!(render(&out), "a.rs (1 byte)\nb/\nc@ (symbolic link)");
        let ToolResultView::Search {
            results: SearchResults::Paths { paths },
            ..
        } = result_card(&out)
        else {
            panic!("a paths card");
        };
        assert_eq!(paths, ["src/a.rs", "src/b/", "src/c"]);
    }
}
