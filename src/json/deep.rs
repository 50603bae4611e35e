//! Cloning, comparing and dropping deep values without recursion.
//!
//! `serde_json::Value`'s derived `Clone`, `PartialEq` and its drop glue recurse once per
//! level of nesting (cloning a 5,000-deep value of objects takes about 3 MiB of stack). The library
//! uses these wherever it copies or frees a value that came from a program or a tool.

use super::JsonValue;

/// A copy of `value`, made with a heap stack instead of recursion.
///
/// ```
/// use codemode::json::deep_clone;
/// let value = serde_json::json!({"a": [1, {"b": null}], "c": "d"});
/// assert_eq!(deep_clone(&value), value);
/// ```
pub fn deep_clone(value: &JsonValue) -> JsonValue {
    /// A container being copied: the source's remaining members and the copy so far.
    enum Frame<'a> {
        Array(std::slice::Iter<'a, JsonValue>, Vec<JsonValue>),
        Object(
            serde_json::map::Iter<'a>,
            serde_json::Map<String, JsonValue>,
            Option<&'a str>,
        ),
    }
    let shallow = |value: &JsonValue| match value {
        JsonValue::Array(_) | JsonValue::Object(_) => None,
        scalar => Some(scalar.clone()),
    };
    fn open(value: &JsonValue) -> Frame<'_> {
        match value {
            JsonValue::Array(items) => Frame::Array(items.iter(), Vec::with_capacity(items.len())),
            JsonValue::Object(map) => Frame::Object(map.iter(), serde_json::Map::new(), None),
            _ => Frame::Array([].iter(), Vec::new()),
        }
    }
    if let Some(scalar) = shallow(value) {
        return scalar;
    }
    let mut frames = vec![open(value)];
    loop {
        let Some(frame) = frames.last_mut() else {
            return JsonValue::Null;
        };
        let next = match frame {
            Frame::Array(items, _) => items.next(),
            Frame::Object(members, _, key) => members.next().map(|(k, v)| {
                *key = Some(k.as_str());
                v
            }),
        };
        let done = match next {
            Some(child) => match shallow(child) {
                Some(scalar) => Some(scalar),
                None => {
                    frames.push(open(child));
                    None
                }
            },
            None => {
                let finished = match frames.pop() {
                    Some(Frame::Array(_, copy)) => JsonValue::Array(copy),
                    Some(Frame::Object(_, copy, _)) => JsonValue::Object(copy),
                    None => JsonValue::Null,
                };
                if frames.is_empty() {
                    return finished;
                }
                Some(finished)
            }
        };
        if let Some(copied) = done {
            match frames.last_mut() {
                Some(Frame::Array(_, copy)) => copy.push(copied),
                Some(Frame::Object(_, copy, key)) => {
                    copy.insert(key.unwrap_or_default().to_owned(), copied);
                }
                None => return copied,
            }
        }
    }
}

/// Frees `value` level by level, so no depth of nesting reaches the thread's stack.
///
/// ```
/// let mut deep = serde_json::json!(0);
/// for _ in 0..100_000 {
///     deep = serde_json::Value::Array(vec![deep]);
/// }
/// codemode::json::dispose(deep);
/// ```
pub fn dispose(value: JsonValue) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            JsonValue::Array(items) => pending.extend(items),
            JsonValue::Object(map) => pending.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Whether `a` and `b` are the same JSON value (as `==` says: object members in any order,
/// numbers as `serde_json` compares them), compared with a heap stack instead of
/// recursion.
///
/// ```
/// use codemode::json::deep_eq;
/// let a = serde_json::json!({"a": [1, {"b": null}], "c": "d"});
/// assert!(deep_eq(&a, &serde_json::json!({"c": "d", "a": [1, {"b": null}]})));
/// assert!(!deep_eq(&a, &serde_json::json!({"a": [1, {"b": 0}], "c": "d"})));
/// ```
pub fn deep_eq(a: &JsonValue, b: &JsonValue) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (JsonValue::Array(x), JsonValue::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                pending.extend(x.iter().zip(y));
            }
            (JsonValue::Object(x), JsonValue::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (key, value) in x {
                    match y.get(key) {
                        Some(other) => pending.push((value, other)),
                        None => return false,
                    }
                }
            }
            (JsonValue::Array(_) | JsonValue::Object(_), _)
            | (_, JsonValue::Array(_) | JsonValue::Object(_)) => return false,
            (a, b) => {
                if a != b {
                    return false;
                }
            }
        }
    }
    true
}

/// Folds a tree bottom-up with a heap stack instead of recursion: `combine(node, results)`
/// gets the results of `node`'s children in order (`child(node, i)` is its `i`th child,
/// `None` past the last), and the root's result is returned. What copies, compares or writes
/// out a deep tree (schemas, the SDK's types) is built on this.
pub(crate) fn fold_post_order<'a, N: ?Sized, O>(
    root: &'a N,
    child: impl Fn(&'a N, usize) -> Option<&'a N>,
    mut combine: impl FnMut(&'a N, Vec<O>) -> O,
) -> O {
    // The ancestors of `node`, each with the results of its children folded so far.
    let mut open: Vec<(&'a N, Vec<O>)> = Vec::new();
    let (mut node, mut done) = (root, Vec::new());
    loop {
        if let Some(next) = child(node, done.len()) {
            open.push((node, std::mem::take(&mut done)));
            node = next;
            continue;
        }
        let result = combine(node, std::mem::take(&mut done));
        match open.pop() {
            Some((parent, mut siblings)) => {
                siblings.push(result);
                (node, done) = (parent, siblings);
            }
            None => return result,
        }
    }
}

/// A tree whose nodes own their children (a checked schema, a schema of the DSL, a type of
/// the SDK's model): what [`clone_tree`], [`tree_eq`] and [`drop_tree`] need to copy,
/// compare and free one of any depth with a heap stack instead of recursion. Such a type's
/// `Clone`, `PartialEq` and `Drop` are these three functions.
pub(crate) trait Tree: Sized {
    /// The `index`th child, `None` past the last.
    fn child(&self, index: usize) -> Option<&Self>;

    /// A copy of this node around `children` (copies of its children, in order).
    fn with_children(&self, children: Vec<Self>) -> Self;

    /// Moves this node's children out into `into` (at least those that have children of
    /// their own), so that freeing this node frees no grandchild.
    fn take_children(&mut self, into: &mut Vec<Self>);
}

/// A copy of `root`, post-order: a node is copied once copies of its children are made.
pub(crate) fn clone_tree<T: Tree>(root: &T) -> T {
    fold_post_order(root, T::child, T::with_children)
}

/// Whether `a` and `b` are the same tree: `same_node(x, y)` says whether two nodes agree
/// but for their children and have as many; then their children are compared, in order.
pub(crate) fn tree_eq<T: Tree>(a: &T, b: &T, same_node: impl Fn(&T, &T) -> bool) -> bool {
    if a.child(0).is_none() || b.child(0).is_none() {
        // A leaf on either side: the nodes decide (they have as many children or differ).
        return same_node(a, b);
    }
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        if !same_node(a, b) {
            return false;
        }
        let mut index = 0;
        while let (Some(x), Some(y)) = (a.child(index), b.child(index)) {
            pending.push((x, y));
            index += 1;
        }
    }
    true
}

/// Frees what `root` holds level by level (its `Drop::drop` calls this): each node's
/// children are moved out before it is freed, so freeing one never reaches another.
pub(crate) fn drop_tree<T: Tree>(root: &mut T) {
    let mut pending = Vec::new();
    root.take_children(&mut pending);
    while let Some(mut node) = pending.pop() {
        node.take_children(&mut pending);
    }
}
