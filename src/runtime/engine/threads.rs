//! Engine threads, all spawned by one process-wide spawner thread.
//!
//! deno_core requires every runtime's thread to descend from the thread that initialized the
//! JavaScript platform (V8 hands memory-protection keys down from parent to child thread).
//! The spawner initializes the platform and then spawns every engine thread, so that holds
//! whichever host thread asks for a run.
//!
//! This module owns thread creation; it must not know what the threads run.

use std::sync::OnceLock;
use std::sync::mpsc;

use deno_core::JsRuntime;

/// Stack of an engine thread: room for the engine's recursion limit (about 1 MiB of JS
/// frames) plus the parser, deno_core and our own frames.
const ENGINE_STACK_BYTES: usize = 16 * 1024 * 1024;

type Body = Box<dyn FnOnce() + Send + 'static>;

struct SpawnRequest {
    name: String,
    body: Body,
    spawned: mpsc::Sender<std::io::Result<()>>,
}

static SPAWNER: OnceLock<Result<mpsc::Sender<SpawnRequest>, String>> = OnceLock::new();

fn spawner() -> Result<&'static mpsc::Sender<SpawnRequest>, String> {
    SPAWNER
        .get_or_init(|| {
            let (requests, incoming) = mpsc::channel::<SpawnRequest>();
            std::thread::Builder::new()
                .name("codemode-spawner".to_owned())
                .spawn(move || {
                    JsRuntime::init_platform(None);
                    for request in incoming {
                        let spawned = std::thread::Builder::new()
                            .name(request.name)
                            .stack_size(ENGINE_STACK_BYTES)
                            .spawn(request.body)
                            .map(|_| ());
                        let _ = request.spawned.send(spawned);
                    }
                })
                .map(|_| requests)
                .map_err(|err| format!("the engine spawner thread could not start: {err}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Spawns an engine thread running `body`; the thread is detached.
pub(crate) fn spawn_engine_thread(
    name: &str,
    body: impl FnOnce() + Send + 'static,
) -> Result<(), String> {
    let (spawned, result) = mpsc::channel();
    spawner()?
        .send(SpawnRequest {
            name: name.to_owned(),
            body: Box::new(body),
            spawned,
        })
        .map_err(|_| "the engine spawner thread is gone".to_owned())?;
    match result.recv() {
        Ok(Ok(())) => Ok(()),
        Ok(Err(err)) => Err(format!("an engine thread could not start: {err}")),
        Err(_) => Err("the engine spawner thread is gone".to_owned()),
    }
}
