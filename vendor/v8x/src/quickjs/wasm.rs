//! WebAssembly for the QuickJS backend: none, in codemode-v8x.
//!
//! Upstream v8x implements `WebAssembly` over a vendored wasm-micro-runtime
//! (WAMR), built with CMake and, to build offline, Debian's simde headers.
//! codemode deletes `WebAssembly` from every context it makes (and asks for
//! none with `QUICKJS_SKIP_WASM`), so that engine was built and linked for
//! nothing, and it made CMake a requirement of every build. This module keeps
//! the entry points the rest of the backend calls, answering as an engine with
//! no WebAssembly: contexts get no `WebAssembly` global, no value is a module,
//! compiling throws a `TypeError`, and a streaming or incremental compilation
//! is never resolved (as upstream does for bytes that fail to compile).

use std::ffi::{c_char, c_void};
use std::ptr;

use crate::quickjs::quickjs_sys::*;
use crate::{RealIsolate, Value};

type StreamingCallback =
  unsafe extern "C" fn(*const crate::FunctionCallbackInfo);

/// The layout of the V8 API's `std::shared_ptr<WasmStreaming>` as upstream
/// fills it in `streaming_unpack`.
#[repr(C)]
struct WasmStreamingSharedPtr {
  ptr: *mut c_void,
  _control: *mut c_void,
}

/// No call into WebAssembly is ever active.
pub(crate) fn terminate_active_call(_iso: *mut RealIsolate) {}

/// Throws `TypeError: WebAssembly is not available` in `ctx`.
///
/// # Safety
///
/// `ctx` is a live context of the current thread.
pub(crate) unsafe fn compile_module_object(
  ctx: *mut JSContext,
  _bytes: &[u8],
) -> JSValue {
  if ctx.is_null() {
    return jsv_exception();
  }
  unsafe {
    JS_ThrowTypeError(
      ctx,
      c"%s".as_ptr(),
      c"WebAssembly is not available".as_ptr(),
    )
  }
}

/// Contexts get no `WebAssembly` global.
pub(crate) fn install_webassembly(_ctx: *mut JSContext) {}

/// No streaming compilation is ever started, so the callback is not kept.
pub(crate) fn set_streaming_callback(_cb: Option<StreamingCallback>) {}

pub(crate) fn has_pending_streaming_task() -> bool {
  false
}

pub(crate) fn is_module_object(_this: *const Value) -> bool {
  false
}

pub(crate) fn is_module_value(_ctx: *mut JSContext, _value: JSValue) -> bool {
  false
}

pub(crate) fn module_object_get_compiled_module(
  _this: *const c_void,
) -> *mut c_void {
  ptr::null_mut()
}

pub(crate) fn module_object_from_compiled_module(
  _isolate: *mut c_void,
  _compiled_module: *const c_void,
) -> *const c_void {
  ptr::null()
}

/// Nothing was ever made to delete: `module_object_get_compiled_module`
/// gives only null.
pub(crate) fn compiled_module_delete(_this: *mut c_void) {}

pub(crate) fn compiled_module_wire_bytes(
  _this: *mut c_void,
  length: *mut c_void,
) -> *const c_void {
  if !length.is_null() {
    unsafe { *(length as *mut isize) = 0 };
  }
  ptr::null()
}

pub(crate) fn compiled_module_source_url(
  _this: *mut c_void,
  length: *mut c_void,
) -> *const c_void {
  if !length.is_null() {
    unsafe { *(length as *mut usize) = 0 };
  }
  ptr::null()
}

/// An incremental compilation holds nothing: its bytes are dropped as they
/// come and it is never resolved. The non-null token stands for it.
pub(crate) fn module_compilation_new() -> *mut c_void {
  Box::into_raw(Box::new(0u8)) as *mut c_void
}

pub(crate) fn module_compilation_delete(this: *mut c_void) {
  if !this.is_null() {
    unsafe { drop(Box::from_raw(this as *mut u8)) };
  }
}

pub(crate) fn module_compilation_on_bytes_received(
  _this: *mut c_void,
  _bytes: *const c_void,
  _size: usize,
) {
}

pub(crate) fn module_compilation_set_url(
  _this: *mut c_void,
  _url: *const c_void,
  _length: usize,
) {
}

pub(crate) fn module_compilation_abort(_this: *mut c_void) {}

pub(crate) fn module_compilation_finish(
  _this: *mut c_void,
  _isolate: *mut c_void,
  _caching_callback: *const c_void,
  _resolution_callback: *const c_void,
  _resolution_data: *mut c_void,
  _drop_resolution_data: *const c_void,
) {
}

/// Fills the shared pointer `that` with a null `WasmStreaming`.
pub(crate) fn streaming_unpack(_value: *const Value, that: *mut c_void) {
  if that.is_null() {
    return;
  }
  let sp = that as *mut WasmStreamingSharedPtr;
  unsafe {
    (*sp).ptr = ptr::null_mut();
    (*sp)._control = ptr::null_mut();
  }
}

pub(crate) fn streaming_shared_ptr_destruct(_this: *mut c_void) {}

pub(crate) fn streaming_on_bytes_received(
  _this: *mut c_void,
  _data: *const u8,
  _len: usize,
) {
}

pub(crate) fn streaming_set_url(
  _this: *mut c_void,
  _url: *const c_char,
  _len: usize,
) {
}

pub(crate) fn streaming_finish(
  _this: *mut c_void,
  _callback: Option<unsafe extern "C" fn(*mut c_void)>,
) {
}

pub(crate) fn streaming_abort(_this: *mut c_void, _exception: *const Value) {}
