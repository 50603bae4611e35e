//! Reading text safely: binary detection, bounded line reading (a line of a gigabyte costs
//! no more memory than the cap), lossy decoding and language hints.
//!
//! Owns byte-level text handling shared by `read_file`, `grep` and `edit_file`; must not
//! resolve paths or format results.

use std::io::{self, BufRead};
use std::path::Path;

/// How many leading bytes are probed for a NUL byte (Git's and ripgrep's heuristic).
pub(crate) const BINARY_PROBE_BYTES: usize = 8192;

/// Whether `head` (the first bytes of a file) looks binary: it contains a NUL byte.
pub(crate) fn looks_binary(head: &[u8]) -> bool {
    head[..head.len().min(BINARY_PROBE_BYTES)].contains(&0)
}

/// One line read by [`Lines`]: at most the cap's worth of its bytes (without the `\n`), its
/// full length, and whether a `\n` ended it.
#[derive(Debug)]
pub(crate) struct Line<'a> {
    /// The first bytes of the line, without the terminating `\n` (a `\r` before it stays).
    pub bytes: &'a [u8],
    /// The full length of the line in bytes, without the terminating `\n`.
    pub len: usize,
    /// Whether the line ended with `\n` (the last line of a file may not).
    pub newline: bool,
}

impl Line<'_> {
    /// Whether the line was longer than the cap (so `bytes` is a prefix).
    pub(crate) fn is_cut(&self) -> bool {
        self.bytes.len() < self.len
    }
}

/// A line reader that keeps at most `cap` bytes of each line in memory.
pub(crate) struct Lines<R> {
    reader: R,
    cap: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// Reads lines from `reader`, keeping at most `cap` bytes of each.
    pub(crate) fn new(reader: R, cap: usize) -> Self {
        Lines {
            reader,
            cap,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut len = 0usize;
        let mut newline = false;
        let mut read_any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if available.is_empty() {
                break;
            }
            read_any = true;
            let (chunk, consumed, done) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            let room = self.cap.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
            len += chunk.len();
            self.reader.consume(consumed);
            if done {
                newline = true;
                break;
            }
        }
        if !read_any {
            return Ok(None);
        }
        Ok(Some(Line {
            bytes: &self.buf,
            len,
            newline,
        }))
    }
}

/// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD.
pub(crate) fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The longest prefix of `text` with at most `max` characters, and whether it is shorter.
pub(crate) fn take_chars(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    }
}

/// A language hint for a file, from its extension or name (the identifiers common syntax
/// highlighters use).
pub(crate) fn language_of(path: &str) -> Option<&'static str> {
    let name = Path::new(path).file_name()?.to_str()?;
    let by_name = match name {
        "Dockerfile" => Some("dockerfile"),
        "Makefile" | "GNUmakefile" => Some("makefile"),
        "CMakeLists.txt" => Some("cmake"),
        _ => None,
    };
    if by_name.is_some() {
        return by_name;
    }
    let extension = Path::new(name).extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "rs" => "rust",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "py" | "pyi" => "python",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "swift" => "swift",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "rb" => "ruby",
        "php" => "php",
        "sh" | "bash" | "zsh" => "shell",
        "ps1" => "powershell",
        "json" | "jsonc" => "json",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "xml" => "xml",
        "html" | "htm" => "html",
        "css" => "css",
        "scss" => "scss",
        "md" | "markdown" => "markdown",
        "sql" => "sql",
        "lua" => "lua",
        "hs" => "haskell",
        "ml" | "mli" => "ocaml",
        "ex" | "exs" => "elixir",
        "erl" => "erlang",
        "scala" => "scala",
        "dart" => "dart",
        "zig" => "zig",
        "vue" => "vue",
        "svelte" => "svelte",
        "proto" => "protobuf",
        "tf" => "hcl",
        "ini" | "cfg" => "ini",
        "diff" | "patch" => "diff",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], cap: usize) -> Vec<(Vec<u8>, usize, bool)> {
        let mut lines = Lines::new(input, cap);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push((line.bytes.to_vec(), line.len, line.newline));
        }
        out
    }

    #[test]
    fn lines_keep_their_shape() {
        assert_eq!(collect(b"", 10), vec![]);
        assert_eq!(
            collect(b"a\n\nbc", 10),
            vec![
                (b"a".to_vec(), 1, true),
                (b"".to_vec(), 0, true),
                (b"bc".to_vec(), 2, false)
            ]
        );
        assert_eq!(collect(b"x\r\n", 10), vec![(b"x\r".to_vec(), 2, true)]);
    }

    #[test]
    fn long_lines_are_capped_but_measured() {
        let mut input = vec![b'z'; 100_000];
        input.extend_from_slice(b"\nnext\n");
        // A tiny buffer forces the line across many fill_buf calls.
        let reader = io::BufReader::with_capacity(7, &input[..]);
        let mut lines = Lines::new(reader, 16);
        let first = lines.next_line().unwrap().unwrap();
        assert_eq!(
            (first.bytes.len(), first.len, first.is_cut()),
            (16, 100_000, true)
        );
        let second = lines.next_line().unwrap().unwrap();
        assert_eq!(
            (second.bytes, second.len, second.is_cut()),
            (&b"next"[..], 4, false)
        );
        assert!(lines.next_line().unwrap().is_none());
    }

    #[test]
    fn binary_means_a_nul_byte_near_the_start() {
        assert!(looks_binary(b"PK\x03\x04\0\0"));
        assert!(!looks_binary("héllo\n".as_bytes()));
        assert!(!looks_binary(&[0xff, 0xfe, b'a']));
        let mut late = vec![b'a'; BINARY_PROBE_BYTES];
        late.push(0);
        assert!(!looks_binary(&late));
    }

    #[test]
    fn chars_and_languages() {
        assert_eq!(take_chars("héllo", 2), ("hé", true));
        assert_eq!(take_chars("hé", 2), ("hé", false));
        assert_eq!(language_of("src/main.rs"), Some("rust"));
        assert_eq!(language_of("a/Dockerfile"), Some("dockerfile"));
        assert_eq!(language_of("README.MD"), Some("markdown"));
        assert_eq!(language_of("LICENSE"), None);
    }
}
