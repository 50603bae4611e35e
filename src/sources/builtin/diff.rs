//! Applied hunks: the changed regions between a file's before and after images, each with a
//! few lines of surrounding context, for `diff` result cards and for the values of
//! `write_file` and `edit_file`.
//!
//! Owns the line diff and the grouping into hunks; must not touch files or know about cards
//! beyond turning hunks into [`FileDiff`]s.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use similar::{Algorithm, TextDiff};

use crate::presentation::FileDiff;
use crate::schema::ValueSchema;

/// Unchanged lines kept around each change.
pub(crate) const CONTEXT_LINES: usize = 3;
/// How long the line diff may search for a minimal diff before settling for a coarser one.
const DIFF_TIMEOUT: Duration = Duration::from_millis(500);

/// One changed region with its context: the old lines and the new lines it stands for, each
/// with their line endings, exactly as in the before and after images.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Hunk {
    /// The 1-based first line of `old_text` in the before image (for an empty `old_text`,
    /// the line the insertion comes before).
    pub old_start: u64,
    /// The 1-based first line of `new_text` in the after image.
    pub new_start: u64,
    /// The region before the change.
    pub old_text: String,
    /// The region after the change.
    pub new_text: String,
}

impl Hunk {
    /// The output schema of one hunk.
    pub(crate) fn schema() -> ValueSchema {
        ValueSchema::object(false)
            .required(
                "old_start",
                ValueSchema::integer()
                    .description("1-based first line of old_text in the file before"),
            )
            .required(
                "new_start",
                ValueSchema::integer()
                    .description("1-based first line of new_text in the file after"),
            )
            .required(
                "old_text",
                ValueSchema::string()
                    .description("The region before the change, with context lines"),
            )
            .required(
                "new_text",
                ValueSchema::string()
                    .description("The region after the change, with context lines"),
            )
    }

    /// The hunk as one file change of a `diff` card.
    pub(crate) fn to_file_diff(&self, path: &str) -> FileDiff {
        FileDiff {
            path: path.to_owned(),
            old_text: Some(self.old_text.clone()),
            new_text: self.new_text.clone(),
        }
    }
}

/// The hunks that turn `before` into `after`, with [`CONTEXT_LINES`] of context; changes
/// closer than twice the context share a hunk. Identical texts have no hunks.
pub(crate) fn hunks(before: &str, after: &str) -> Vec<Hunk> {
    hunks_with_context(before, after, CONTEXT_LINES)
}

fn hunks_with_context(before: &str, after: &str, context: usize) -> Vec<Hunk> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(DIFF_TIMEOUT)
        .diff_lines(before, after);
    let old = diff.old_slices();
    let new = diff.new_slices();
    diff.grouped_ops(context)
        .into_iter()
        .filter(|group| {
            group
                .iter()
                .any(|op| !matches!(op, similar::DiffOp::Equal { .. }))
        })
        .filter_map(|group| {
            let first = group.first()?;
            let last = group.last()?;
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            Some(Hunk {
                old_start: old_range.start as u64 + 1,
                new_start: new_range.start as u64 + 1,
                old_text: old.get(old_range)?.concat(),
                new_text: new.get(new_range)?.concat(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(range: std::ops::RangeInclusive<u32>) -> String {
        range.map(|n| format!("line {n}\n")).collect()
    }

    fn hunk(old_start: u64, new_start: u64, old_text: &str, new_text: &str) -> Hunk {
        Hunk {
            old_start,
            new_start,
            old_text: old_text.to_owned(),
            new_text: new_text.to_owned(),
        }
    }

    #[test]
    fn identical_texts_have_no_hunks() {
        assert_eq!(hunks("", ""), vec![]);
        assert_eq!(hunks("a\nb\n", "a\nb\n"), vec![]);
    }

    #[test]
    fn one_change_carries_three_lines_of_context_each_side() {
        let before = numbered(1..=20);
        let after = before.replace("line 10\n", "line ten\n");
        assert_eq!(
            hunks(&before, &after),
            vec![hunk(
                7,
                7,
                "line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\n",
                "line 7\nline 8\nline 9\nline ten\nline 11\nline 12\nline 13\n",
            )]
        );
    }

    #[test]
    fn distant_changes_are_separate_hunks_and_near_ones_merge() {
        let before = numbered(1..=30);
        let after = before
            .replace("line 2\n", "two\n")
            .replace("line 25\n", "twenty-five\n");
        let found = hunks(&before, &after);
        assert_eq!(found.len(), 2);
        assert_eq!(
            found[0],
            hunk(
                1,
                1,
                &numbered(1..=5),
                "line 1\ntwo\nline 3\nline 4\nline 5\n"
            )
        );
        assert_eq!(found[1].old_start, 22);
        assert_eq!(found[1].old_text, numbered(22..=28));

        // Six unchanged lines between two changes: the contexts touch, one hunk.
        let near = before
            .replace("line 10\n", "ten\n")
            .replace("line 17\n", "seventeen\n");
        let found = hunks(&before, &near);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].old_text, numbered(7..=20));
    }

    #[test]
    fn insertions_and_deletions_at_the_edges() {
        assert_eq!(hunks("", "new\n"), vec![hunk(1, 1, "", "new\n")]);
        assert_eq!(hunks("old\n", ""), vec![hunk(1, 1, "old\n", "")]);
        assert_eq!(
            hunks("a\nb\n", "a\nb\nc\n"),
            vec![hunk(1, 1, "a\nb\n", "a\nb\nc\n")]
        );
        let before = numbered(1..=10);
        let after = format!("first\n{before}");
        assert_eq!(
            hunks(&before, &after),
            vec![hunk(
                1,
                1,
                &numbered(1..=3),
                &format!("first\n{}", numbered(1..=3))
            )]
        );
    }

    #[test]
    fn a_missing_final_newline_is_kept_exactly() {
        let found = hunks("a\nb", "a\nb\n");
        assert_eq!(found, vec![hunk(1, 1, "a\nb", "a\nb\n")]);
        assert_eq!(found[0].to_file_diff("x").old_text.as_deref(), Some("a\nb"));
    }

    #[test]
    fn hunks_rebuild_the_after_image() {
        let before = numbered(1..=50);
        let after = before
            .replace("line 3\n", "")
            .replace("line 30\n", "thirty\nand more\n")
            .replace("line 50\n", "line 50\nline 51\n");
        // Applying each hunk's replacement in order reproduces the after image.
        let mut rebuilt = String::new();
        let mut consumed = 0usize;
        let lines: Vec<&str> = before.split_inclusive('\n').collect();
        for h in hunks(&before, &after) {
            let start = h.old_start as usize - 1;
            rebuilt.push_str(&lines[consumed..start].concat());
            rebuilt.push_str(&h.new_text);
            consumed = start + h.old_text.split_inclusive('\n').count();
        }
        rebuilt.push_str(&lines[consumed..].concat());
        assert_eq!(rebuilt, after);
    }
}
