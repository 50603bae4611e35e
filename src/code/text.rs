//! The text measures and cuts the compact index and `describe_tools`' answers share: the
//! token estimate budgets are measured in, a description's first sentence, and the
//! declarations of an SDK section.

/// The first sentence is cut at this many characters (with `…`).
pub(crate) const SENTENCE_CHARS: usize = 120;

/// The estimated number of tokens of `text`: its UTF-8 length in bytes divided by four,
/// rounded up — the usual rule of thumb for English prose and code under BPE tokenizers
/// (it slightly overestimates identifier-heavy text; budgets are therefore conservative).
///
/// ```
/// use codemode::code::estimate_tokens;
/// assert_eq!(estimate_tokens(""), 0);
/// assert_eq!(estimate_tokens("abcd"), 1);
/// assert_eq!(estimate_tokens("abcde"), 2);
/// assert_eq!(estimate_tokens("é"), 1); // two bytes
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The marker between the SDK section's instructions and its code block.
pub(crate) const AVAILABLE: &str = "The available tools:\n\n";

/// The declarations of an SDK section (its code block).
pub(crate) fn declarations(section: &str) -> &str {
    section
        .find(AVAILABLE)
        .map_or(section, |at| &section[at + AVAILABLE.len()..])
}

/// The first sentence of `description`, on one line: up to the first `.`, `!` or `?`
/// followed by a space or the end, at most `SENTENCE_CHARS` (120) characters (cut at a word
/// with `…`).
pub fn first_sentence(description: &str) -> String {
    let line = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut end = line.len();
    let bytes = line.as_bytes();
    for (at, byte) in bytes.iter().enumerate() {
        if matches!(byte, b'.' | b'!' | b'?') && bytes.get(at + 1).is_none_or(|b| *b == b' ') {
            end = at + 1;
            break;
        }
    }
    let sentence = &line[..end];
    if sentence.chars().count() <= SENTENCE_CHARS {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(SENTENCE_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ']))
}
