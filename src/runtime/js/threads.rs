//! Engine threads, all spawned by one process-wide spawner thread.
//!
//! deno_core requires every runtime's thread to descend from the thread that initialized the
//! JavaScript platform (V8 hands memory-protection keys down from parent to child thread).
//! The spawner initializes the platform and then spawns every engine thread, so that holds
//! whichever host thread asks for a run.
//!
//! Spawning does not wait: the caller (a run being submitted, the pool refilling itself)
//! goes on while the spawner starts the thread.
//!
//! This module owns thread creation; it must not know what the threads run.

use std::sync::OnceLock;
use std::sync::mpsc;

use deno_core::JsRuntime;

/// Stack of an engine thread: room for the engine's recursion limit
/// ([`ENGINE_JS_STACK_BYTES`] of JS frames) plus the parser, deno_core and our own frames.
/// Only the pages a run touches are committed.
const ENGINE_STACK_BYTES: usize = 16 * 1024 * 1024;

/// The part of an engine thread's stack JavaScript may use (the rest is for the host's
/// natives and the engine's own frames).
const ENGINE_JS_STACK_BYTES: usize = 12 * 1024 * 1024;

type Body = Box<dyn FnOnce() + Send + 'static>;
type OnFailure = Box<dyn FnOnce(String) + Send + 'static>;

struct SpawnRequest {
    name: &'static str,
    body: Body,
    on_failure: OnFailure,
}

static SPAWNER: OnceLock<Result<mpsc::Sender<SpawnRequest>, String>> = OnceLock::new();

fn spawner() -> Result<&'static mpsc::Sender<SpawnRequest>, String> {
    SPAWNER
        .get_or_init(|| {
            let (requests, incoming) = mpsc::channel::<SpawnRequest>();
            std::thread::Builder::new()
                .name("codemode-spawner".to_owned())
                .spawn(move || {
                    deno_core::v8::V8::set_flags_from_string(&engine_flags());
                    JsRuntime::init_platform(None);
                    configure_backend();
                    for request in incoming {
                        let SpawnRequest {
                            name,
                            body,
                            on_failure,
                        } = request;
                        let spawned = std::thread::Builder::new()
                            .name(name.to_owned())
                            .stack_size(ENGINE_STACK_BYTES)
                            .spawn(body);
                        if let Err(err) = spawned {
                            on_failure(format!("an engine thread could not start: {err}"));
                        }
                    }
                })
                .map(|_| requests)
                .map_err(|err| format!("the engine spawner thread could not start: {err}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The engine's flags, set once before the platform starts.
///
/// - `--stack-size`: the engine's own stack limit (KiB), inside the threads' 16 MiB: deep
///   values (JSON.parse of a 5,000-deep result) and deep program recursion get room; past it
///   a program gets a RangeError.
/// - `--no-json-stringify-fast-path` (V8 only): V8's fast `JSON.stringify` (since 13.8) writes
///   the whole text into zone memory outside its heap and copies it in at the end, so no heap
///   limit sees it: a 100 MB text took 100 MB of process memory past the budget before the
///   copy was refused, and a shared structure whose text doubles per level (a few kilobytes of
///   objects) asks for gigabytes. V8's other stringifier builds its text outside the heap too
///   (one doubling buffer), but that buffer is bounded by the heap's room
///   (`vendor/v8-patches/0002`): the flag leaves only the bounded one.
/// - `--no-memory-pool-share-memory-on-teardown` (V8 only): a disposed isolate's heap pages
///   went to V8's process-wide page pool, which only a timed worker task empties, and that
///   task is not re-armed within 12 s of its last posting: `codemode serve` kept a heavy
///   run's whole heap resident after it (80 MiB for 600,000 objects, twice that for twice
///   the objects, through idleness and later runs). With the flag, teardown unmaps them:
///   9 MiB of anonymous memory idle, 20 MiB after heavy runs, against 90 MiB.
///   (`--no-memory-pool` does nothing in this build: V8 reads it only with its sandbox on.)
fn engine_flags() -> String {
    let stack = format!("--stack-size={}", ENGINE_JS_STACK_BYTES / 1024);
    if cfg!(feature = "v8") {
        format!("{stack} --no-json-stringify-fast-path --no-memory-pool-share-memory-on-teardown")
    } else {
        stack
    }
}

/// Opts the QuickJS backend (the patched v8x in `vendor/`) out of the work whose result the
/// bootstrap discards, before the first isolate exists: the Temporal polyfill and
/// `WebAssembly` are not installed in new contexts (`90_seal.js` deletes them), nor v8x's
/// `Intl` stub (fixed answers for a few test inputs, and helpers the seal deletes: QuickJS
/// has no `Intl`, so a program sees none) or its `Atomics.waitAsync` shim (the seal deletes
/// `waitAsync`; QuickJS's own `Atomics.notify` stays), nor QuickJS's web globals (`atob`,
/// `btoa`, `DOMException`, `performance`: not ECMAScript, the seal would delete them), contexts
/// skip the snapshot-intrinsics capture (the engine makes no snapshot), the heap callback
/// runs only when an allocation reaches the limit (not already at seven eighths of it after
/// a script), each script is parsed once and never written to a disk cache (model programs
/// would otherwise be stored under `~/.cache`), and a script compiled again (the bootstrap,
/// once per sandbox) is read from its bytecode. Process-wide: other QuickJS isolates of the process get the
/// same settings. The V8 backend has nothing to configure.
fn configure_backend() {
    #[cfg(feature = "quickjs")]
    {
        use deno_core::v8;
        v8::set_quickjs_flags(
            v8::QUICKJS_SKIP_TEMPORAL
                | v8::QUICKJS_SKIP_INTL
                | v8::QUICKJS_SKIP_ATOMICS_SHIM
                | v8::QUICKJS_SKIP_WEB_GLOBALS
                | v8::QUICKJS_SKIP_WASM
                | v8::QUICKJS_SKIP_SNAPSHOT_INTRINSICS
                | v8::QUICKJS_HEAP_CALLBACK_AT_LIMIT
                | v8::QUICKJS_COMPILE_ONCE
                | v8::QUICKJS_SCRIPT_CACHE,
        );
    }
}

/// Asks for an engine thread running `body` (detached) and returns at once; the caller does
/// not wait for the thread to start. If it cannot start, `on_failure` runs (on the spawner
/// thread, or on the calling thread when the spawner itself is gone) with the reason.
pub(crate) fn spawn_engine_thread(
    name: &'static str,
    body: impl FnOnce() + Send + 'static,
    on_failure: impl FnOnce(String) + Send + 'static,
) {
    let request = SpawnRequest {
        name,
        body: Box::new(body),
        on_failure: Box::new(on_failure),
    };
    match spawner() {
        Ok(spawner) => {
            if let Err(mpsc::SendError(request)) = spawner.send(request) {
                (request.on_failure)("the engine spawner thread is gone".to_owned());
            }
        }
        Err(reason) => (request.on_failure)(reason),
    }
}
