"""JSON text in and out for values of any depth the library allows.

The library accepts values nested up to ``max_json_depth`` levels (5,000 by default), deeper
than CPython's ``json`` module can read or write: its C scanner and encoder recurse and
raise :class:`RecursionError` near the interpreter's recursion limit (1,000). :func:`loads`
and :func:`dumps` use the fast module and, only when it gives up on depth, fall back to a
walk with a stack of its own, so depth is bounded by the library's limit alone and a deep
value never surfaces as a ``RecursionError``.
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from typing import Any

# The string scanner of the json module (C when available), not in its type stubs.
scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")

__all__ = ["dumps", "loads"]

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}


def loads(text: str) -> Any:
    """``json.loads(text)``, at any depth."""
    try:
        return json.loads(text)
    except RecursionError:
        return _loads_deep(text)


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


def _error(text: str, at: int, what: str) -> json.JSONDecodeError:
    return json.JSONDecodeError(what, text, at)


def _loads_deep(text: str) -> Any:
    """An iterative parser of the JSON text ``text`` (which ``json.loads`` found too deep)."""
    # Each open container: (the container, the key awaiting its value or None).
    stack: list[tuple[list[Any] | dict[str, Any], str | None]] = []
    at = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    result: Any = None
    while True:
        # A value starts at `at`.
        if at >= len(text):
            raise _error(text, at, "Expecting value")
        char = text[at]
        value: Any
        opened: list[Any] | dict[str, Any] | None = None
        if char == "{":
            opened = {}
            at += 1
        elif char == "[":
            opened = []
            at += 1
        elif char == '"':
            value, at = scanstring(text, at + 1)
        else:
            for word, literal in _LITERALS.items():
                if text.startswith(word, at):
                    value, at = literal, at + len(word)
                    break
            else:
                number = _NUMBER.match(text, at)
                if number is None or number.end() == at:
                    raise _error(text, at, "Expecting value")
                literal_text = number.group()
                value = (
                    float(literal_text)
                    if number.group(1) or number.group(2)
                    else int(literal_text)
                )
                at = number.end()
        if opened is not None:
            at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
            closing = "}" if isinstance(opened, dict) else "]"
            if text.startswith(closing, at):
                at += 1
                value = opened
            else:
                key = None
                if isinstance(opened, dict):
                    key, at = _key(text, at)
                stack.append((opened, key))
                at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
                continue
        # `value` is complete: store it, then close every container that ends here.
        while True:
            if not stack:
                result = value
                at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
                if at != len(text):
                    raise _error(text, at, "Extra data")
                return result
            container, key = stack[-1]
            if isinstance(container, dict):
                assert key is not None
                container[key] = value
            else:
                container.append(value)
            at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
            if text.startswith(",", at):
                at = _WHITESPACE.match(text, at + 1).end()  # type: ignore[union-attr]
                if isinstance(container, dict):
                    key, at = _key(text, at)
                    stack[-1] = (container, key)
                    at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
                break
            closing = "}" if isinstance(container, dict) else "]"
            if not text.startswith(closing, at):
                raise _error(text, at, f"Expecting ',' or '{closing}'")
            at += 1
            stack.pop()
            value = container


def _key(text: str, at: int) -> tuple[str, int]:
    """A member's key and its colon, from `at`; the position after the colon."""
    if not text.startswith('"', at):
        raise _error(text, at, "Expecting property name enclosed in double quotes")
    key, at = scanstring(text, at + 1)
    at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
    if not text.startswith(":", at):
        raise _error(text, at, "Expecting ':' delimiter")
    return key, at + 1


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
