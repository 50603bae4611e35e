//! Walking the tree under a directory the way `glob` and `grep` see it, and matching their
//! path patterns.
//!
//! Walker rules: `.gitignore`, `.ignore` and `.git/info/exclude` are respected (also outside
//! a Git repository; the user's global Git excludes are not read, so results do not depend
//! on the machine), hidden files are included, `.git` directories are skipped, symbolic
//! links are never followed (a walk cannot leave the root), entries come in file-name order,
//! and only regular files are visited.
//!
//! Owns the walker configuration and the pattern rules; must not read file contents.

use std::ops::ControlFlow;
use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};

use crate::error::{Error, ErrorCode};
use crate::tool::Signal;

use super::aborted;
use super::root::Root;

/// A file pattern: with no `/`, it matches file names at any depth (`*.rs`); with a `/`, it
/// matches the whole path relative to the searched directory (`src/**/*.rs`). `*` and `?`
/// never cross a `/`, `**` does, `{a,b}` and `[abc]` work as usual.
#[derive(Debug, Clone)]
pub(crate) struct PathPattern {
    matcher: GlobMatcher,
    name_only: bool,
}

impl PathPattern {
    /// Compiles a pattern; an empty, absolute or `..` pattern, or bad syntax, is
    /// `INVALID_ARGS`.
    pub(crate) fn new(pattern: &str) -> Result<PathPattern, Error> {
        let invalid = |why: String| Error::new(ErrorCode::InvalidArgs, why);
        if pattern.is_empty() {
            return Err(invalid(
                "the pattern is empty; try `**/*.rs` or `*.md`".into(),
            ));
        }
        if pattern.contains('\0') {
            return Err(invalid("the pattern contains a NUL byte".into()));
        }
        if pattern.starts_with('/') {
            return Err(invalid(format!(
                "the pattern `{pattern}` is absolute; patterns are relative to the searched directory (give that directory as `path`)"
            )));
        }
        if pattern.split('/').any(|part| part == "..") {
            return Err(invalid(format!(
                "the pattern `{pattern}` contains `..`; patterns only match below the searched directory (give a different `path` instead)"
            )));
        }
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|err| invalid(format!("invalid pattern `{pattern}`: {}", err.kind())))?;
        Ok(PathPattern {
            matcher: glob.compile_matcher(),
            name_only: !pattern.contains('/'),
        })
    }

    /// Whether the path (relative to the searched directory) matches.
    pub(crate) fn is_match(&self, relative: &Path) -> bool {
        if self.name_only {
            relative
                .file_name()
                .is_some_and(|name| self.matcher.is_match(name))
        } else {
            self.matcher.is_match(relative)
        }
    }
}

/// One regular file met by [`walk_files`].
pub(crate) struct WalkedFile<'a> {
    /// Its absolute path.
    pub path: &'a Path,
    /// Its path relative to the walked directory (the file name when a file was walked).
    pub below: &'a Path,
    /// Its root-relative display path.
    pub display: String,
}

/// Visits the regular files under `start` (a directory or a file inside `root`) by the
/// walker rules, until `visit` breaks; polls `signal` as it goes. Unreadable entries are
/// skipped.
pub(crate) fn walk_files(
    root: &Root,
    start: &Path,
    signal: &Signal,
    mut visit: impl FnMut(WalkedFile<'_>) -> ControlFlow<()>,
) -> Result<(), Error> {
    let walker = ignore::WalkBuilder::new(start)
        .hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| entry.file_name() != ".git")
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for (seen, entry) in walker.enumerate() {
        if seen.is_multiple_of(256) && signal.is_cancelled() {
            return Err(aborted());
        }
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let path = entry.path();
        let Some(display) = root.relative(path) else {
            continue;
        };
        let below = match path.strip_prefix(start) {
            Ok(rest) if !rest.as_os_str().is_empty() => rest,
            _ => Path::new(path.file_name().unwrap_or(path.as_os_str())),
        };
        if visit(WalkedFile {
            path,
            below,
            display,
        })
        .is_break()
        {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        PathPattern::new(pattern).unwrap().is_match(Path::new(path))
    }

    #[test]
    fn patterns_without_a_slash_match_names_at_any_depth() {
        assert!(matches("*.rs", "main.rs"));
        assert!(matches("*.rs", "src/deep/lib.rs"));
        assert!(!matches("*.rs", "src/lib.rsx"));
        assert!(matches("Cargo.toml", "crates/a/Cargo.toml"));
        assert!(matches("*.{ts,js}", "web/app.js"));
    }

    #[test]
    fn patterns_with_a_slash_match_the_whole_relative_path() {
        assert!(matches("src/*.rs", "src/lib.rs"));
        assert!(!matches("src/*.rs", "src/deep/lib.rs"));
        assert!(matches("src/**/*.rs", "src/deep/lib.rs"));
        assert!(matches("src/**/*.rs", "src/lib.rs"));
        assert!(matches("**/*.rs", "lib.rs"));
        assert!(matches("./src/*.rs", "src/lib.rs"));
        assert!(!matches("src/*.rs", "other/src/lib.rs"));
    }

    #[test]
    fn bad_patterns_say_why() {
        for (pattern, why) in [
            ("", "empty"),
            ("/etc/*", "absolute"),
            ("../*.rs", "contains `..`"),
            ("src/[a", "invalid pattern"),
        ] {
            let err = PathPattern::new(pattern).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidArgs);
            assert!(err.message().contains(why), "{pattern}: {err}");
        }
    }
}
