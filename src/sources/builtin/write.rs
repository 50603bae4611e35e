//! `write_file`: create a file, or replace one whole (opt-in, exclusive).
//!
//! Owns creating missing parent directories inside the root, the write itself and the
//! `diff` cards (the whole file with `oldText: null` for a new file, the applied hunks for a
//! replaced one). The path is resolved by [`super::root`] first, so nothing is written
//! through a symbolic link that leaves the root.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{FileDiff, ToolCallKind, ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{ToolDefinition, define_tool};

use super::diff::{Hunk, hunks};
use super::root::Root;
use super::text::lossy;
use super::{blocking, card_from_meta, card_meta, io_failure, location, plural};

/// The arguments of `write_file`.
#[derive(Debug, Deserialize)]
pub(crate) struct WriteArgs {
    path: String,
    content: String,
}

/// The value of `write_file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WriteOutput {
    /// The root-relative path written.
    pub path: String,
    /// Whether the file was new.
    pub created: bool,
    /// The bytes written.
    pub bytes: u64,
    /// The changed regions of a replaced file, with context (empty for a new file).
    pub hunks: Vec<Hunk>,
}

const DESCRIPTION: &str = "Create a file in the workspace, or replace an existing file's whole content. `path` is relative to the workspace root; missing parent directories are created. \
To change part of an existing file, prefer edit_file. Returns whether the file was created, the bytes written and, for a replaced file, the changed regions.";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let output_schema = ValueSchema::object(false)
        .required(
            "path",
            ValueSchema::string().description("The file, relative to the workspace root"),
        )
        .required(
            "created",
            ValueSchema::boolean().description("True when the file did not exist before"),
        )
        .required("bytes", ValueSchema::integer().description("Bytes written"))
        .required(
            "hunks",
            ValueSchema::array(Hunk::schema()).description(
                "The changed regions of a replaced file, with context lines (empty for a new file)",
            ),
        );
    let parameters = ParameterSchema::new()
        .required(
            "path",
            ValueSchema::string().description("The file, relative to the workspace root"),
        )
        .required(
            "content",
            ValueSchema::string().description("The whole new content of the file"),
        );
    let call_root = root.clone();
    let meta_root = root.clone();
    define_tool::<WriteArgs, WriteOutput>("write_file")
        .description(DESCRIPTION)
        .closed_parameters(parameters)
        .output(output_schema, |_, out| {
            vec![ContentBlock::text(render(out))]
        })
        .presentation_meta(move |args, out| card_meta(&result_card(&meta_root, args, out)))
        .present_call(move |args| Some(call_card(&call_root, args)))
        .present_result(|_, result| card_from_meta(result))
        .execute(move |args, ctx| {
            let root = root.clone();
            async move { blocking(ctx.signal(), move |_| write(&root, args)).await }
        })
        .build()
}

fn write(root: &Root, args: WriteArgs) -> Result<WriteOutput, Error> {
    let resolved = root.resolve(&args.path)?;
    let display = resolved.display;
    let before = if resolved.exists {
        let meta =
            std::fs::metadata(&resolved.path).map_err(|err| io_failure("write", &display, &err))?;
        if meta.is_dir() {
            return Err(Error::new(
                ErrorCode::ToolFailed,
                format!("`{display}` is a directory; give the path of a file inside it"),
            ));
        }
        if !meta.is_file() {
            return Err(Error::new(
                ErrorCode::ToolFailed,
                format!(
                    "`{display}` is not a regular file (a device, socket or pipe); it cannot be written"
                ),
            ));
        }
        Some(std::fs::read(&resolved.path).map_err(|err| io_failure("read", &display, &err))?)
    } else {
        if let Some(parent) = resolved.path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| io_failure("create the directories of", &display, &err))?;
        }
        None
    };
    std::fs::write(&resolved.path, args.content.as_bytes())
        .map_err(|err| io_failure("write", &display, &err))?;
    let hunks = match &before {
        Some(before) => hunks(&lossy(before), &args.content),
        None => Vec::new(),
    };
    Ok(WriteOutput {
        path: display,
        created: before.is_none(),
        bytes: args.content.len() as u64,
        hunks,
    })
}

fn render(out: &WriteOutput) -> String {
    let size = plural(out.bytes, "byte", "bytes");
    if out.created {
        format!("Created `{}` ({size}).", out.path)
    } else if out.hunks.is_empty() {
        format!(
            "Wrote `{}` ({size}); the content was already the same.",
            out.path
        )
    } else {
        format!(
            "Replaced the content of `{}` ({size}; {} changed).",
            out.path,
            plural(out.hunks.len() as u64, "region", "regions")
        )
    }
}

fn call_card(root: &Root, args: &WriteArgs) -> ToolCallView {
    match root.lexical_display(&args.path) {
        // Presenters cannot look at the disk: the pending card shows the content to be
        // written; the result card shows what actually changed.
        Some(display) => ToolCallView::Diff {
            title: format!("Write {display}"),
            diffs: vec![FileDiff {
                path: root.absolute_display(&display),
                old_text: None,
                new_text: args.content.clone(),
            }],
            locations: Some(vec![location(root, &display, None)]),
        },
        None => ToolCallView::Generic {
            title: format!("Write {}", args.path.escape_default()),
            kind: Some(ToolCallKind::Edit),
            raw_input: None,
            content: None,
            locations: None,
        },
    }
}

fn result_card(root: &Root, args: &WriteArgs, out: &WriteOutput) -> ToolResultView {
    let path = root.absolute_display(&out.path);
    let diffs = if out.created {
        vec![FileDiff {
            path,
            old_text: None,
            new_text: args.content.clone(),
        }]
    } else {
        out.hunks
            .iter()
            .map(|hunk| hunk.to_file_diff(&path))
            .collect()
    };
    ToolResultView::Diff {
        title: Some(format!(
            "{} {}",
            if out.created { "Create" } else { "Write" },
            out.path
        )),
        diffs,
    }
}
