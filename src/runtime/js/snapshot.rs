//! The V8 startup snapshot: a context with the bootstrap already run, made once per process.
//!
//! On QuickJS the bootstrap is compiled once per process to bytecode and evaluated per
//! sandbox ([`scripts`](super::scripts)); V8 has no such per-process cache across isolates,
//! so every sandbox would parse and compile the whole bootstrap again. Instead the first
//! sandbox of the process runs the bootstrap in a snapshot creator and serializes the
//! result; every sandbox after it is an isolate made from that blob, whose default context
//! is the bootstrapped one, and finds the host API's functions in the context's snapshot
//! data. Each context is still a fresh copy: nothing a run does reaches the blob.
//!
//! A snapshot names each native by its address, so the natives are registered as external
//! references, from the one table of their callbacks ([`natives::native_callbacks`]).
//!
//! This module owns the blob and the external references; the bootstrap itself, and what
//! the context data holds, belong to the caller ([`sandbox`](super::sandbox)).

use std::borrow::Cow;
use std::sync::OnceLock;

use deno_core::v8;

use super::natives;

/// The external references of every isolate made from or for the snapshot.
struct References(Vec<v8::ExternalReference>);

// SAFETY: the vector holds only the addresses of `extern "C"` functions, written once before
// the `OnceLock` publishes it and never changed after; sharing and sending such addresses
// between threads is sound (the raw-pointer member of the union is what makes the type
// neither `Send` nor `Sync` by default, and it is never used here).
unsafe impl Sync for References {}
// SAFETY: as above.
unsafe impl Send for References {}

static REFERENCES: OnceLock<References> = OnceLock::new();

/// The blob, once made; `None` if making it failed (every sandbox then runs the bootstrap).
static BLOB: OnceLock<Option<&'static [u8]>> = OnceLock::new();

/// The names on the global object of the snapshot's context, sealed.
static SEALED_GLOBALS: OnceLock<Vec<String>> = OnceLock::new();

/// The names of the globals a program keeps (the seal's list: ECMAScript's and the
/// bootstrap's own), as the snapshot's bootstrap gave them.
static KEPT_GLOBALS: OnceLock<Vec<String>> = OnceLock::new();

/// The names V8 adds to the global object of a context made from a snapshot, after the
/// context is deserialized (`WebAssembly`: V8 installs it only where no snapshot is being
/// made), found on the first such context.
static ADDED_GLOBALS: OnceLock<Vec<String>> = OnceLock::new();

/// The natives' callbacks, as a snapshot and the isolates made from it name them.
pub(crate) fn external_references() -> Cow<'static, [v8::ExternalReference]> {
    let references = REFERENCES.get_or_init(|| {
        References(
            natives::native_callbacks()
                .into_iter()
                .map(|(_, function)| v8::ExternalReference { function })
                .collect(),
        )
    });
    Cow::Borrowed(&references.0)
}

/// The blob, made on the first call by `bootstrap` (which runs in the creator's context, adds
/// what to keep to the context's snapshot data, and says why if it failed). Threads asking at
/// once wait for the first.
pub(crate) fn blob<F>(bootstrap: F) -> Option<&'static [u8]>
where
    F: FnOnce(&mut v8::PinScope<'_, '_>, v8::Local<'_, v8::Context>) -> Result<(), String>,
{
    *BLOB.get_or_init(|| match make(bootstrap) {
        Ok(blob) => Some(blob),
        Err(reason) => {
            tracing::warn!(
                %reason,
                "no V8 startup snapshot: every sandbox runs the bootstrap itself"
            );
            None
        }
    })
}

fn make<F>(bootstrap: F) -> Result<&'static [u8], String>
where
    F: FnOnce(&mut v8::PinScope<'_, '_>, v8::Local<'_, v8::Context>) -> Result<(), String>,
{
    let mut creator = v8::Isolate::snapshot_creator(Some(external_references()), None);
    {
        v8::scope!(let scope, &mut creator);
        let context = v8::Context::new(scope, Default::default());
        let scope = &mut v8::ContextScope::new(scope, context);
        bootstrap(scope, context)?;
        let names = global_names(scope, context)
            .ok_or_else(|| "the sealed global object could not be listed".to_owned())?;
        let _ = SEALED_GLOBALS.set(names);
        scope.set_default_context(context);
    }
    let blob = creator
        .create_blob(v8::FunctionCodeHandling::Keep)
        .ok_or_else(|| "V8 could not serialize the bootstrapped context".to_owned())?;
    // Once per process, kept for its life: every later isolate is made from it.
    Ok(Box::leak(blob.to_vec().into_boxed_slice()))
}

/// Takes the `index`th function of the context's snapshot data (each can be taken once).
pub(crate) fn take_function<'s>(
    scope: &v8::PinScope<'s, '_>,
    index: usize,
) -> Option<v8::Local<'s, v8::Function>> {
    scope
        .get_context_data_from_snapshot_once::<v8::Function>(index)
        .ok()
}

/// Records the names of the globals a program keeps (called by the snapshot's bootstrap).
pub(crate) fn keep_globals(names: Vec<String>) {
    let _ = KEPT_GLOBALS.set(names);
}

/// Deletes from a context made from the snapshot what V8 added to its global object after
/// deserializing it, so that it holds what the sealed bootstrap left and nothing else. With
/// `check`, lists the global object afterwards and fails if anything else is there.
pub(crate) fn reseal(
    scope: &mut v8::PinScope<'_, '_>,
    context: v8::Local<'_, v8::Context>,
    check: bool,
) -> Result<(), String> {
    let sealed = SEALED_GLOBALS
        .get()
        .ok_or_else(|| "no startup snapshot was made".to_owned())?;
    let added = match ADDED_GLOBALS.get() {
        Some(added) => added,
        None => {
            let names = global_names(scope, context)
                .ok_or_else(|| "the global object could not be listed".to_owned())?;
            // What V8 adds that ECMAScript defines (`SharedArrayBuffer`) stays, as the seal
            // keeps it in a context made without the snapshot.
            let kept = KEPT_GLOBALS.get().map(Vec::as_slice).unwrap_or_default();
            let added = names
                .into_iter()
                .filter(|name| !sealed.contains(name) && !kept.contains(name))
                .collect();
            ADDED_GLOBALS.get_or_init(|| added)
        }
    };
    let global = context.global(scope);
    for name in added {
        let key = v8::String::new(scope, name)
            .ok_or_else(|| "out of memory deleting a global".to_owned())?;
        if global.delete(scope, key.into()) != Some(true) {
            return Err(format!("the global {name} could not be deleted"));
        }
    }
    if check {
        let left = global_names(scope, context)
            .ok_or_else(|| "the global object could not be listed".to_owned())?;
        let kept = KEPT_GLOBALS.get().map(Vec::as_slice).unwrap_or_default();
        let unexpected: Vec<&String> = left
            .iter()
            .filter(|name| !sealed.contains(name) && !kept.contains(name))
            .collect();
        if !unexpected.is_empty() || sealed.iter().any(|name| !left.contains(name)) {
            return Err(format!(
                "a context made from the snapshot has globals {left:?}, the sealed one {sealed:?}"
            ));
        }
    }
    Ok(())
}

/// The names of the global object's own properties (strings, enumerable or not), in order.
fn global_names(
    scope: &mut v8::PinScope<'_, '_>,
    context: v8::Local<'_, v8::Context>,
) -> Option<Vec<String>> {
    let global = context.global(scope);
    let names = global.get_own_property_names(
        scope,
        v8::GetPropertyNamesArgs {
            mode: v8::KeyCollectionMode::OwnOnly,
            property_filter: v8::PropertyFilter::SKIP_SYMBOLS,
            index_filter: v8::IndexFilter::IncludeIndices,
            key_conversion: v8::KeyConversionMode::ConvertToString,
        },
    )?;
    let mut out = Vec::with_capacity(names.length() as usize);
    for index in 0..names.length() {
        let name = names.get_index(scope, index)?;
        out.push(name.to_rust_string_lossy(scope));
    }
    Some(out)
}
