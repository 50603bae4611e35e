//! JSON Pointers: a `$ref` read as a pointer into the same document, the escapes of a
//! pointer's segments, and the names of the aliases their targets get.
//!
//! This file owns the pointer syntax. It must not look into documents: the walk resolves
//! pointers.

use super::Role;
use crate::code::sdk::text::pascal_case;

/// Whether the schema at `pointer` has a name of its own: the root, or an entry of
/// `$defs`/`definitions`.
pub(super) fn has_own_name(pointer: &str) -> bool {
    pointer.is_empty() || definition_name(pointer).is_some()
}

/// `Name` for `/$defs/Name` and `/definitions/Name` (unescaped).
fn definition_name(pointer: &str) -> Option<String> {
    let mut segments = pointer.split('/').skip(1);
    match (segments.next(), segments.next(), segments.next()) {
        (Some("$defs" | "definitions"), Some(name), None) => Some(pointer_unescape(name)),
        _ => None,
    }
}

/// `#`, `#/a/b` (percent-decoded) -> a JSON Pointer into the same document. External
/// references and anchors have no target here.
pub(super) fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return None;
    }
    percent_decode(fragment)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Appends `segment` as one JSON Pointer segment (`~` -> `~0`, `/` -> `~1`).
pub(super) fn push_pointer_escaped(out: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

fn pointer_unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// The part of an alias name after the tool stem: the definition's name for `$defs`/
/// `definitions` entries, `Args`/`Output` for the document root, else the pointer's words.
pub(super) fn alias_suffix(pointer: &str, role: Role) -> String {
    if pointer.is_empty() {
        return role.root_alias().to_owned();
    }
    let words = match definition_name(pointer) {
        Some(name) => pascal_case(&name),
        None => {
            let segments: Vec<String> = pointer.split('/').skip(1).map(pointer_unescape).collect();
            pascal_case(&segments.join(" "))
        }
    };
    if words.is_empty() {
        "Def".to_owned()
    } else {
        words
    }
}
