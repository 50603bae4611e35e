"""The library's limits as the Python side applies them: the one place they are written in
Python.

They are the Rust library's numbers (``src/json/mod.rs``, ``src/tool/definition.rs``), which
the extension module exports as ``codemode._native.LIMITS``; a test checks that the two
agree. They are written out here because the pure-Python parts (``codemode._hints``) import
without the extension.

This module owns those numbers. It must not import anything: every module may use it.
"""

from __future__ import annotations

#: How deep a value may nest by default (``max_json_depth``; ``DEFAULT_VALUE_DEPTH``).
DEFAULT_VALUE_DEPTH = 5_000

#: The most ``max_json_depth`` may be set to (``MAX_DEPTH_CEILING`` less ``WRAP_DEPTH``, the
#: levels the library wraps a program's values in).
MAX_VALUE_DEPTH = 9_992

#: Integers beyond this change as JavaScript numbers (``MAX_SAFE_INTEGER``).
MAX_SAFE_INTEGER = 9_007_199_254_740_991

#: The longest tool name, in characters (``MAX_TOOL_NAME``).
MAX_TOOL_NAME = 128
