"""JSON text parsed without recursion: the one deep parser of the Python side.

CPython's ``json`` parser recurses and raises :class:`RecursionError` near the interpreter's
recursion limit (1,000 levels); the library's values nest up to ``max_json_depth`` (5,000 by
default). Whoever reads JSON text first tries the fast parser and, only when it gives up on
depth, calls :func:`loads_deep`, whose stack is a list on the heap.

One file, two users:

- the package: :func:`codemode._json.loads` falls back to it;
- the Python worker: ``src/runtime/python/launch.rs`` embeds this file at build time, and the
  worker's launcher runs it as the module ``_deep_json`` before ``bootstrap.py``, whose
  ``_loads`` falls back to it. It is loaded before the worker is confined and before any
  program runs, and binds what it uses then: a program that patches ``json`` or ``re``
  changes its own modules, not this parser (nor can it import this module: the import guard
  offers only the allowed ones).

This module owns parsing JSON text at any depth. It must not encode, apply a depth limit (the
callers check values against theirs) or import anything but the standard library's ``json``
and ``re``: the worker loads it alone, without the package.
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from typing import Any

__all__ = ["loads_deep"]

# The string scanner of the json module (C when available), not in its type stubs.
_scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
_JSONDecodeError = json.JSONDecodeError

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}


def _skip(text: str, at: int) -> int:
    """The position of the first character at or after ``at`` that is not whitespace."""
    return _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]  # `*`: always matches


def loads_deep(text: str) -> Any:
    """``json.loads(text)`` at any depth, with a stack of its own (slower than ``json``'s:
    for text the fast parser found too deep). Raises :class:`json.JSONDecodeError` (a
    :class:`ValueError`) where ``json.loads`` would; ``NaN`` and ``Infinity`` are not
    JSON here."""
    # Each open container: (the container, the key awaiting its value or None).
    stack: list[tuple[list[Any] | dict[str, Any], str | None]] = []
    at = _skip(text, 0)
    while True:
        # A value starts at `at`.
        value, opened, at = _value(text, at)
        if opened is not None:
            at = _skip(text, at)
            closing = "}" if isinstance(opened, dict) else "]"
            if text.startswith(closing, at):
                at += 1
                value = opened
            else:
                key = None
                if isinstance(opened, dict):
                    key, at = _key(text, at)
                stack.append((opened, key))
                at = _skip(text, at)
                continue
        # `value` is complete: store it, then close every container that ends here.
        while True:
            if not stack:
                at = _skip(text, at)
                if at != len(text):
                    raise _JSONDecodeError("Extra data", text, at)
                return value
            container, key = stack[-1]
            if isinstance(container, dict):
                assert key is not None
                container[key] = value
            else:
                container.append(value)
            at = _skip(text, at)
            if text.startswith(",", at):
                at = _skip(text, at + 1)
                if isinstance(container, dict):
                    key, at = _key(text, at)
                    stack[-1] = (container, key)
                    at = _skip(text, at)
                break
            closing = "}" if isinstance(container, dict) else "]"
            if not text.startswith(closing, at):
                raise _JSONDecodeError(f"Expecting ',' or '{closing}'", text, at)
            at += 1
            stack.pop()
            value = container


def _value(text: str, at: int) -> tuple[Any, list[Any] | dict[str, Any] | None, int]:
    """The value that starts at ``at``: a scalar, or the empty container it opens (then
    the value is None); the position after it (after the opening bracket)."""
    if at >= len(text):
        raise _JSONDecodeError("Expecting value", text, at)
    char = text[at]
    if char == "{":
        return None, {}, at + 1
    if char == "[":
        return None, [], at + 1
    if char == '"':
        string, at = _scanstring(text, at + 1)
        return string, None, at
    for word, literal in _LITERALS.items():
        if text.startswith(word, at):
            return literal, None, at + len(word)
    number = _NUMBER.match(text, at)
    if number is None:
        raise _JSONDecodeError("Expecting value", text, at)
    literal_text = number.group()
    value = float(literal_text) if number.group(1) or number.group(2) else int(literal_text)
    return value, None, number.end()


def _key(text: str, at: int) -> tuple[str, int]:
    """A member's key and its colon, from ``at``; the position after the colon."""
    if not text.startswith('"', at):
        raise _JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
    key, at = _scanstring(text, at + 1)
    at = _skip(text, at)
    if not text.startswith(":", at):
        raise _JSONDecodeError("Expecting ':' delimiter", text, at)
    return key, at + 1
