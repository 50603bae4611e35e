"""JSON text in and out for values of any depth the library allows.

The library accepts values nested up to ``max_json_depth`` levels (5,000 by default), deeper
than CPython's ``json`` module can read or write: its C scanner and encoder recurse and
raise :class:`RecursionError` near the interpreter's recursion limit (1,000). :func:`loads`
and :func:`dumps` use the fast module and, only when it gives up on depth, fall back to a
walk with a stack of its own, so depth is bounded by the library's limit alone and a deep
value never surfaces as a ``RecursionError``. The deep parser is ``_deep_json``'s, which the
Python worker shares; the deep writer is this module's own (the worker writes with its own
codec).
"""

from __future__ import annotations

import json
from typing import Any

from ._deep_json import loads_deep

__all__ = ["dumps", "loads"]


def loads(text: str) -> Any:
    """``json.loads(text)``, at any depth."""
    try:
        return json.loads(text)
    except RecursionError:
        return loads_deep(text)


# One encoder per setting, made once (``json.dumps`` with options makes one per call).
_ENCODERS = {
    ascii_only: json.JSONEncoder(ensure_ascii=ascii_only, allow_nan=False)
    for ascii_only in (False, True)
}


def dumps(data: Any, *, ensure_ascii: bool = False) -> str:
    """``json.dumps(data)`` (no NaN, compact separators of the default kind), at any
    depth."""
    try:
        return _ENCODERS[ensure_ascii].encode(data)
    except RecursionError:
        return _dumps_deep(data, ensure_ascii)


def _dumps_deep(data: Any, ensure_ascii: bool) -> str:
    """An iterative writer of `data` (JSON data: dicts with string keys, lists, scalars)."""
    out: list[str] = []
    # Work items: a value to write, or a literal piece of text.
    stack: list[tuple[bool, Any]] = [(True, data)]
    while stack:
        is_value, item = stack.pop()
        if not is_value:
            out.append(item)
            continue
        if isinstance(item, dict):
            pieces: list[tuple[bool, Any]] = [(False, "{")]
            for index, (key, value) in enumerate(item.items()):
                if not isinstance(key, str):
                    raise TypeError(f"keys must be str, not {type(key).__name__}")
                prefix = ", " if index else ""
                pieces.append(
                    (False, prefix + json.dumps(key, ensure_ascii=ensure_ascii) + ": ")
                )
                pieces.append((True, value))
            pieces.append((False, "}"))
            stack.extend(reversed(pieces))
        elif isinstance(item, (list, tuple)):
            pieces = [(False, "[")]
            for index, value in enumerate(item):
                if index:
                    pieces.append((False, ", "))
                pieces.append((True, value))
            pieces.append((False, "]"))
            stack.extend(reversed(pieces))
        else:
            out.append(json.dumps(item, ensure_ascii=ensure_ascii, allow_nan=False))
    return "".join(out)
