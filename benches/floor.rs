//! The floor every runtime figure is measured against: a raw QuickJS runtime and context and
//! `eval('1')`, through the C API of the QuickJS-ng library the engine itself links (v8x
//! builds it into this binary and exports its symbols). Nothing of deno_core, v8x's V8
//! emulation or codemode runs.

use std::ffi::{c_char, c_int, c_void};
use std::time::{Duration, Instant};

/// QuickJS-ng's `JSValue` on 64-bit targets (no NaN boxing): a 16-byte union and tag.
#[repr(C)]
#[derive(Clone, Copy)]
struct JsValue {
    payload: u64,
    tag: i64,
}

/// `JS_TAG_EXCEPTION` in quickjs.h.
const JS_TAG_EXCEPTION: i64 = 6;
/// `JS_EVAL_TYPE_GLOBAL` in quickjs.h.
const JS_EVAL_TYPE_GLOBAL: c_int = 0;

unsafe extern "C" {
    fn JS_NewRuntime() -> *mut c_void;
    fn JS_FreeRuntime(rt: *mut c_void);
    fn JS_NewContext(rt: *mut c_void) -> *mut c_void;
    fn JS_FreeContext(ctx: *mut c_void);
    fn JS_Eval(
        ctx: *mut c_void,
        input: *const c_char,
        input_len: usize,
        filename: *const c_char,
        eval_flags: c_int,
    ) -> JsValue;
    fn JS_FreeValue(ctx: *mut c_void, value: JsValue);
}

/// One raw runtime + context + `eval('1')` + teardown; `false` if QuickJS failed.
pub fn raw_quickjs_eval() -> bool {
    const SOURCE: &[u8] = b"1\0";
    // SAFETY: each pointer QuickJS returns is checked before use and freed once, in reverse
    // order of creation, on this thread; the source and file name are NUL-terminated
    // static strings and `input_len` excludes the NUL, as JS_Eval requires; JsValue matches
    // QuickJS-ng's JSValue layout on 64-bit targets (a 16-byte union of i32/f64/pointer and
    // an int64 tag, see quickjs.h with JS_NAN_BOXING off), so it is returned by value as the
    // C ABI returns that struct.
    unsafe {
        let runtime = JS_NewRuntime();
        if runtime.is_null() {
            return false;
        }
        let context = JS_NewContext(runtime);
        if context.is_null() {
            JS_FreeRuntime(runtime);
            return false;
        }
        let value = JS_Eval(
            context,
            SOURCE.as_ptr().cast(),
            SOURCE.len() - 1,
            c"<floor>".as_ptr(),
            JS_EVAL_TYPE_GLOBAL,
        );
        let ok = value.tag != JS_TAG_EXCEPTION;
        JS_FreeValue(context, value);
        JS_FreeContext(context);
        JS_FreeRuntime(runtime);
        ok
    }
}

/// `iters` floor operations; the wall time they took.
pub fn raw_quickjs(iters: u64) -> Duration {
    let started = Instant::now();
    for _ in 0..iters {
        assert!(raw_quickjs_eval(), "raw QuickJS failed");
    }
    started.elapsed()
}

/// The floor's CPU per raw context: the least of eight batches of 50, each the calling
/// thread's CPU time over the batch. On this shared 2-core machine one batch can take twice
/// the CPU of another (a busy sibling core slows the same instructions), so a single batch
/// could set the floor too high and flatter every ratio against it; the least is the
/// engine's own cost.
pub fn raw_quickjs_cpu() -> Duration {
    raw_quickjs_cpu_of(8)
}

/// [`raw_quickjs_cpu`] over `batches` batches of 50.
pub fn raw_quickjs_cpu_of(batches: usize) -> Duration {
    (0..batches)
        .map(|_| {
            let started = super::procfs::thread_cpu();
            let _ = raw_quickjs(50);
            (super::procfs::thread_cpu() - started) / 50
        })
        .min()
        .unwrap_or_default()
}

/// The median of `samples`.
pub fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// Whether the command line's filter (criterion's positional argument, a regular
/// expression) selects `name`; the printed, non-criterion measurements use it to run only
/// when asked for.
pub fn wanted(name: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    filters.is_empty()
        || filters
            .iter()
            .any(|filter| match regex::Regex::new(filter) {
                Ok(pattern) => pattern.is_match(name),
                Err(_) => name.contains(filter.as_str()),
            })
}
