// Copyright 2018-2026 the Deno authors. MIT license.

pub mod any_value;
pub mod bigint;
pub mod buffer;
pub mod bytestring;
pub mod detached_buffer;
mod external_pointer;
mod global_value;
pub mod string_or_buffer;
pub mod transl8;
pub mod u16string;
pub mod v8slice;
mod value;
pub use external_pointer::ExternalPointer;
pub use global_value::GlobalValue;
pub use value::Value;
