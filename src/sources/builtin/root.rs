//! Path confinement: every path a built-in tool touches is resolved here, relative to one
//! root directory, and refused when it could reach anything outside it.
//!
//! Owns the lexical checks (NUL bytes, absolute paths, `..` that climbs above the root,
//! overlong paths and components) and the symlink checks (every existing component of the
//! path is inspected; a symbolic link anywhere on it must resolve inside the root, and a
//! dangling one is refused because its target cannot be checked). Must not read or write
//! files: tools do that with the [`Resolved`] path, and show the model only its root-relative
//! form, so no message ever names anything outside the root.
//!
//! Limits of the guarantee: the checks run when a path is resolved. A concurrent process that
//! swaps a directory for a symbolic link between the check and the open is outside the threat
//! model (the model's arguments are the threat); hard links are not detected.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, ErrorCode};

/// The longest path argument accepted, in bytes.
pub(crate) const MAX_PATH_BYTES: usize = 4096;
/// The longest single path component accepted, in bytes (the common file-system limit).
pub(crate) const MAX_COMPONENT_BYTES: usize = 255;
/// How much of a refused path argument a message quotes.
const QUOTE_CHARS: usize = 120;

/// The directory the built-in tools are confined to (canonical: no symlinks, absolute).
#[derive(Debug, Clone)]
pub(crate) struct Root {
    dir: PathBuf,
}

/// A path argument that passed confinement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// The path relative to the root, `/`-separated, `.` for the root itself: the only form
    /// of the path a model is shown.
    pub display: String,
    /// The absolute path to open: the root joined with the normalized components, every
    /// symbolic link among its existing components resolved (each one inside the root).
    pub path: PathBuf,
    /// Whether the whole path exists (`false`: one or more trailing components are missing).
    pub exists: bool,
}

impl Root {
    /// Canonicalizes `dir`; a missing root or one that is not a directory is `INVALID_CONFIG`.
    pub(crate) fn new(dir: &Path) -> Result<Root, Error> {
        let canonical = std::fs::canonicalize(dir).map_err(|err| {
            Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "the built-in tools' root `{}` cannot be used: {}",
                    dir.display(),
                    io_reason(&err)
                ),
            )
        })?;
        if !canonical.is_dir() {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "the built-in tools' root `{}` is not a directory",
                    dir.display()
                ),
            ));
        }
        Ok(Root { dir: canonical })
    }

    /// The canonical root directory.
    #[cfg(test)]
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The root-relative, `/`-separated form of an absolute path inside the root (`.` for
    /// the root itself); `None` for a path outside it.
    pub(crate) fn relative(&self, path: &Path) -> Option<String> {
        let rest = path.strip_prefix(&self.dir).ok()?;
        Some(join_display(rest.components().filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })))
    }

    /// The absolute path of a root-relative display path (for UI cards, never for models).
    pub(crate) fn absolute_display(&self, display: &str) -> String {
        if display == "." {
            self.dir.display().to_string()
        } else {
            self.dir.join(display).display().to_string()
        }
    }

    /// Resolves a path argument, relative to the root (empty means the root itself).
    ///
    /// Refused, with `INVALID_ARGS` and a message that says what to do instead: a NUL byte,
    /// more than [`MAX_PATH_BYTES`] bytes or a component longer than
    /// [`MAX_COMPONENT_BYTES`], an absolute path, `..` that climbs above the root, a
    /// component that is not a directory but has more components after it, and a symbolic
    /// link (anywhere on the path) that points outside the root or whose target is missing.
    pub(crate) fn resolve(&self, input: &str) -> Result<Resolved, Error> {
        let parts = self.components(input)?;
        let display = join_display(parts.iter().copied());
        let mut current = self.dir.clone();
        let mut exists = true;
        for (index, name) in parts.iter().enumerate() {
            let next = current.join(name);
            if !exists {
                current = next;
                continue;
            }
            let shown = || join_display(parts[..=index].iter().copied());
            match std::fs::symlink_metadata(&next) {
                Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(&next) {
                    Ok(target) if target.starts_with(&self.dir) => {
                        let last = index + 1 == parts.len();
                        if !last && !target.is_dir() {
                            return Err(not_a_directory(&shown()));
                        }
                        current = target;
                    }
                    Ok(_) => {
                        return Err(refused(format!(
                            "`{}` is a symbolic link that points outside the workspace root; it cannot be used",
                            shown()
                        )));
                    }
                    Err(_) => {
                        return Err(refused(format!(
                            "`{}` is a symbolic link whose target is missing or cannot be resolved; it cannot be used",
                            shown()
                        )));
                    }
                },
                Ok(meta) => {
                    if index + 1 < parts.len() && !meta.is_dir() {
                        return Err(not_a_directory(&shown()));
                    }
                    current = next;
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => {
                    exists = false;
                    current = next;
                }
                Err(err) => {
                    return Err(Error::new(
                        ErrorCode::ToolFailed,
                        format!("cannot access `{}`: {}", shown(), io_reason(&err)),
                    ));
                }
            }
        }
        Ok(Resolved {
            display,
            path: current,
            exists,
        })
    }

    /// The root-relative display form of a path argument by the lexical rules alone (no
    /// file-system access, for pure presenters); `None` when the argument is refused.
    pub(crate) fn lexical_display(&self, input: &str) -> Option<String> {
        self.components(input)
            .ok()
            .map(|parts| join_display(parts.into_iter()))
    }

    /// The normalized components of a path argument, by the lexical rules.
    fn components<'a>(&self, input: &'a str) -> Result<Vec<&'a OsStr>, Error> {
        if input.contains('\0') {
            return Err(refused(
                "the path contains a NUL byte; give a plain path relative to the workspace root",
            ));
        }
        if input.len() > MAX_PATH_BYTES {
            return Err(refused(format!(
                "the path is too long ({} bytes; at most {MAX_PATH_BYTES} are accepted)",
                input.len()
            )));
        }
        let path = Path::new(input);
        if path.has_root() || path.is_absolute() {
            return Err(refused(self.absolute_hint(path)));
        }
        let mut parts: Vec<&OsStr> = Vec::new();
        for component in path.components() {
            match component {
                Component::Prefix(_) | Component::RootDir => {
                    return Err(refused(self.absolute_hint(path)));
                }
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(refused(format!(
                            "`{}` leads outside the workspace root (too many `..`); only files under the root can be reached",
                            quote(input)
                        )));
                    }
                }
                Component::Normal(name) => {
                    if name.len() > MAX_COMPONENT_BYTES {
                        return Err(refused(format!(
                            "a component of the path is too long ({} bytes; at most {MAX_COMPONENT_BYTES} are accepted)",
                            name.len()
                        )));
                    }
                    parts.push(name);
                }
            }
        }
        Ok(parts)
    }

    fn absolute_hint(&self, path: &Path) -> String {
        let suggestion = path
            .strip_prefix(&self.dir)
            .ok()
            // Only a plain path below the root is worth suggesting (not `root/../x`).
            .filter(|rest| {
                rest.components()
                    .all(|part| matches!(part, Component::Normal(_)))
            })
            .map(|rest| join_display(rest.iter()))
            .filter(|rest| rest != ".");
        match suggestion {
            Some(rest) => format!(
                "absolute paths are not accepted; paths are relative to the workspace root: use `{rest}`"
            ),
            None => "absolute paths are not accepted; give a path relative to the workspace root (for example `src/main.rs`); nothing outside the root can be reached".to_owned(),
        }
    }
}

/// Joins path components with `/` (lossily for names that are not UTF-8); `.` when empty.
fn join_display<'a>(parts: impl Iterator<Item = &'a OsStr>) -> String {
    let joined = parts
        .map(|part| part.to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    if joined.is_empty() {
        ".".to_owned()
    } else {
        joined
    }
}

/// A refused path argument (`INVALID_ARGS`: the model must change it).
fn refused(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgs, message)
}

fn not_a_directory(shown: &str) -> Error {
    refused(format!(
        "`{shown}` is not a directory, so the path cannot continue after it"
    ))
}

/// The first characters of a path argument, for a message.
fn quote(input: &str) -> String {
    if input.chars().count() <= QUOTE_CHARS {
        input.to_owned()
    } else {
        let head: String = input.chars().take(QUOTE_CHARS).collect();
        format!("{head}…")
    }
}

/// An I/O error's reason without the path-free OS envelope (`No such file or directory`).
pub(crate) fn io_reason(err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "it does not exist".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// root/ { dir/inner.txt, file.txt, link_in -> dir, link_file_in -> file.txt,
    ///         link_out -> ../outside, link_file_out -> ../outside/secret.txt,
    ///         dangling -> missing, dir/up -> .. (inside), dir/escape -> ../../outside }
    pub(super) struct Fixture {
        _temp: tempfile::TempDir,
        pub root: Root,
        pub outside: PathBuf,
    }

    pub(super) fn fixture() -> Fixture {
        let temp = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(temp.path()).unwrap();
        let root_dir = base.join("root");
        let outside = base.join("outside");
        fs::create_dir_all(root_dir.join("dir")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("secret.txt"), "secret").unwrap();
        fs::write(root_dir.join("file.txt"), "hello").unwrap();
        fs::write(root_dir.join("dir/inner.txt"), "inner").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink("dir", root_dir.join("link_in")).unwrap();
            symlink("file.txt", root_dir.join("link_file_in")).unwrap();
            symlink("../outside", root_dir.join("link_out")).unwrap();
            symlink("../outside/secret.txt", root_dir.join("link_file_out")).unwrap();
            symlink("missing", root_dir.join("dangling")).unwrap();
            symlink("..", root_dir.join("dir/up")).unwrap();
            symlink("../../outside", root_dir.join("dir/escape")).unwrap();
        }
        Fixture {
            root: Root::new(&root_dir).unwrap(),
            outside,
            _temp: temp,
        }
    }

    fn refused_message(root: &Root, input: &str) -> String {
        match root.resolve(input) {
            Ok(resolved) => panic!("`{input}` was accepted as {resolved:?}"),
            Err(err) => {
                assert_eq!(err.code(), ErrorCode::InvalidArgs, "{input}: {err}");
                err.to_string()
            }
        }
    }

    #[test]
    fn plain_paths_resolve_inside_the_root() {
        let fx = fixture();
        let dir = fx.root.dir().to_path_buf();
        for (input, display, path) in [
            ("", ".", dir.clone()),
            (".", ".", dir.clone()),
            ("file.txt", "file.txt", dir.join("file.txt")),
            (
                "./dir//inner.txt",
                "dir/inner.txt",
                dir.join("dir/inner.txt"),
            ),
            ("dir/../file.txt", "file.txt", dir.join("file.txt")),
            ("dir/..", ".", dir.clone()),
        ] {
            let resolved = fx.root.resolve(input).unwrap();
            assert_eq!(resolved.display, display, "{input}");
            assert_eq!(resolved.path, path, "{input}");
            assert!(resolved.exists, "{input}");
        }
        let missing = fx.root.resolve("new/deeper/file.rs").unwrap();
        assert_eq!(missing.path, dir.join("new/deeper/file.rs"));
        assert!(!missing.exists);
    }

    #[test]
    fn lexical_escapes_are_refused() {
        let fx = fixture();
        assert!(refused_message(&fx.root, "..").contains("leads outside the workspace root"));
        assert!(refused_message(&fx.root, "../outside/secret.txt").contains("too many `..`"));
        assert!(refused_message(&fx.root, "dir/../../x").contains("leads outside"));
        assert!(refused_message(&fx.root, "/etc/passwd").contains("absolute paths"));
        assert!(refused_message(&fx.root, "a\0b").contains("NUL byte"));
        let long_name = "a".repeat(MAX_COMPONENT_BYTES + 1);
        assert!(refused_message(&fx.root, &long_name).contains("too long"));
        let long_path = vec!["ab"; MAX_PATH_BYTES / 2].join("/");
        assert!(refused_message(&fx.root, &long_path).contains("too long"));
        assert!(refused_message(&fx.root, "file.txt/x").contains("not a directory"));
    }

    #[test]
    fn an_absolute_path_inside_the_root_gets_its_relative_form_suggested() {
        let fx = fixture();
        let inside = fx.root.dir().join("dir/inner.txt");
        let message = refused_message(&fx.root, &inside.display().to_string());
        assert_eq!(
            message,
            "absolute paths are not accepted; paths are relative to the workspace root: use `dir/inner.txt`"
        );
        let climbing = fx.root.dir().join("../outside/secret.txt");
        let message = refused_message(&fx.root, &climbing.display().to_string());
        assert!(
            message.starts_with("absolute paths are not accepted; give a path relative"),
            "{message}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_only_inside_the_root() {
        let fx = fixture();
        let dir = fx.root.dir().to_path_buf();
        let resolved = fx.root.resolve("link_in/inner.txt").unwrap();
        assert_eq!(resolved.path, dir.join("dir/inner.txt"));
        assert_eq!(resolved.display, "link_in/inner.txt");
        assert_eq!(
            fx.root.resolve("link_file_in").unwrap().path,
            dir.join("file.txt")
        );
        assert_eq!(
            fx.root.resolve("dir/up/file.txt").unwrap().path,
            dir.join("file.txt")
        );

        for input in [
            "link_out",
            "link_out/secret.txt",
            "link_out/new.txt",
            "link_file_out",
            "dir/escape/secret.txt",
            "link_in/escape",
            "dir/up/link_out/secret.txt",
        ] {
            let message = refused_message(&fx.root, input);
            assert!(
                message.contains("points outside the workspace root"),
                "{input}: {message}"
            );
            let outside = fx.outside.display().to_string();
            assert!(!message.contains(&outside), "{message} leaks {outside}");
        }
        assert!(refused_message(&fx.root, "dangling").contains("target is missing"));
        assert!(refused_message(&fx.root, "link_file_in/x").contains("not a directory"));
    }

    #[test]
    fn relative_forms() {
        let fx = fixture();
        let dir = fx.root.dir().to_path_buf();
        assert_eq!(fx.root.relative(&dir).as_deref(), Some("."));
        assert_eq!(
            fx.root.relative(&dir.join("dir/inner.txt")).as_deref(),
            Some("dir/inner.txt")
        );
        assert_eq!(fx.root.relative(&fx.outside), None);
        assert_eq!(fx.root.absolute_display("."), dir.display().to_string());
    }

    #[test]
    fn a_missing_root_is_a_config_error() {
        let err = Root::new(Path::new("/definitely/not/here")).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidConfig);
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("f");
        fs::write(&file, "").unwrap();
        assert_eq!(
            Root::new(&file).unwrap_err().code(),
            ErrorCode::InvalidConfig
        );
    }
}

#[cfg(test)]
mod proptests {
    use super::tests::fixture;
    use proptest::prelude::*;
    use std::path::Path;

    /// The longest existing ancestor of `path`, canonicalized.
    fn existing_ancestor(path: &Path) -> std::path::PathBuf {
        let mut current = path;
        loop {
            if let Ok(canonical) = std::fs::canonicalize(current) {
                return canonical;
            }
            match current.parent() {
                Some(parent) => current = parent,
                None => return current.to_path_buf(),
            }
        }
    }

    fn segment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("..".to_owned()),
            Just(".".to_owned()),
            Just(String::new()),
            Just("dir".to_owned()),
            Just("file.txt".to_owned()),
            Just("link_in".to_owned()),
            Just("link_out".to_owned()),
            Just("link_file_out".to_owned()),
            Just("dangling".to_owned()),
            Just("up".to_owned()),
            Just("escape".to_owned()),
            Just("secret.txt".to_owned()),
            Just("outside".to_owned()),
            "[a-z.\\\\~]{1,4}",
            "\\PC{0,6}",
        ]
    }

    fn path_string() -> impl Strategy<Value = String> {
        (prop::bool::ANY, prop::collection::vec(segment(), 0..8)).prop_map(|(absolute, parts)| {
            let joined = parts.join("/");
            if absolute {
                format!("/{joined}")
            } else {
                joined
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the string, an accepted path stays inside the root: its lexical form is
        /// under the root, and so is the real location of its longest existing ancestor.
        #[test]
        fn no_path_string_resolves_outside_the_root(input in prop_oneof![path_string(), "\\PC{0,40}"]) {
            let fx = fixture();
            if let Ok(resolved) = fx.root.resolve(&input) {
                prop_assert!(resolved.path.starts_with(fx.root.dir()), "{input:?} -> {resolved:?}");
                let real = existing_ancestor(&resolved.path);
                prop_assert!(real.starts_with(fx.root.dir()), "{input:?} -> {real:?}");
                prop_assert!(!input.contains('\0'));
                prop_assert!(!input.starts_with('/'));
            }
        }
    }
}
