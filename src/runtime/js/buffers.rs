//! The budget of `ArrayBuffer` memory on real V8.
//!
//! V8 allocates the backing store of every `ArrayBuffer` (and so of every typed array)
//! outside its heap, through the isolate's array-buffer allocator, and its heap limit does
//! not cover that memory: with V8's default allocator a program could take a gigabyte with
//! `new ArrayBuffer(2 ** 30)` under a 64 MiB heap budget. (On QuickJS the backing stores come
//! from the engine's own allocator and count against its memory limit.) Each isolate gets an
//! allocator of its own here that refuses what would take the isolate's buffers past its
//! budget: V8 then throws a `RangeError` in the program, and the refusal also stops the run
//! as a heap exhaustion (through the same path as the near-heap-limit callback), so the run
//! ends as it does on QuickJS.
//!
//! This module owns the allocator and its accounting; it must not know about runs beyond
//! telling the natives that a refusal happened.

use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use deno_core::v8;

use super::natives;

/// What one isolate's buffers may take, and what they take.
struct BufferBudget {
    limit: usize,
    used: AtomicUsize,
}

impl BufferBudget {
    /// Charges `len` bytes; `false` (nothing charged) when that would pass the limit.
    fn charge(&self, len: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(len).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn release(&self, len: usize) {
        // Never below zero: V8 frees exactly what it allocated, but a wrong length must not
        // wrap the counter and refuse every later buffer.
        let _ = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                Some(used.saturating_sub(len))
            });
    }
}

/// The allocator for one isolate: buffers up to `limit_bytes` in all.
pub(crate) fn allocator(limit_bytes: usize) -> v8::UniqueRef<v8::Allocator> {
    let budget = Arc::new(BufferBudget {
        limit: limit_bytes,
        used: AtomicUsize::new(0),
    });
    // SAFETY: the handle is a pointer from `Arc::into_raw`, valid until V8 calls `drop` on
    // it, which it does exactly once, when the allocator is destroyed, after its last use;
    // `drop_budget` turns it back into the `Arc` it came from. Every callback of the vtable
    // only reads through the handle (the counter is atomic: V8 may allocate and free from
    // its own threads) and has the signature the vtable asks for.
    unsafe { v8::new_rust_allocator(Arc::into_raw(budget), &VTABLE) }
}

static VTABLE: v8::RustAllocatorVtable<BufferBudget> = v8::RustAllocatorVtable {
    allocate,
    allocate_uninitialized,
    free,
    drop: drop_budget,
};

/// A zeroed block of `len` bytes, or null past the budget (V8 then throws a `RangeError`).
unsafe extern "C" fn allocate(budget: &BufferBudget, len: usize) -> *mut c_void {
    if !budget.charge(len) {
        natives::buffers_exhausted();
        return std::ptr::null_mut();
    }
    // SAFETY: calloc with any count and size is sound; a null answer is handled below.
    let block = unsafe { libc::calloc(len.max(1), 1) };
    if block.is_null() {
        budget.release(len);
    }
    block
}

/// As [`allocate`], without zeroing.
unsafe extern "C" fn allocate_uninitialized(budget: &BufferBudget, len: usize) -> *mut c_void {
    if !budget.charge(len) {
        natives::buffers_exhausted();
        return std::ptr::null_mut();
    }
    // SAFETY: malloc with any size is sound; a null answer is handled below.
    let block = unsafe { libc::malloc(len.max(1)) };
    if block.is_null() {
        budget.release(len);
    }
    block
}

/// Frees a block [`allocate`] or [`allocate_uninitialized`] made.
unsafe extern "C" fn free(budget: &BufferBudget, data: *mut c_void, len: usize) {
    // SAFETY: V8 frees only blocks this allocator handed it (from malloc or calloc), each
    // once, with the length it asked for.
    unsafe { libc::free(data) };
    budget.release(len);
}

/// Releases the allocator's handle.
unsafe extern "C" fn drop_budget(budget: *const BufferBudget) {
    // SAFETY: `budget` is the pointer `allocator` got from `Arc::into_raw`, and V8 calls this
    // once, when it destroys the allocator.
    drop(unsafe { Arc::from_raw(budget) });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_charges_up_to_its_limit_and_releases() {
        let budget = BufferBudget {
            limit: 100,
            used: AtomicUsize::new(0),
        };
        assert!(budget.charge(60));
        assert!(!budget.charge(41), "past the limit");
        assert!(budget.charge(40));
        assert!(!budget.charge(1));
        budget.release(100);
        assert!(budget.charge(100));
        assert!(
            !budget.charge(usize::MAX),
            "an overflowing charge is refused"
        );
        budget.release(usize::MAX);
        assert_eq!(budget.used.load(Ordering::Acquire), 0, "never below zero");
    }
}
