"""The exceptions of the ``codemode`` package.

Every failure of the library itself (a refused registration, a bad configuration, a scope
that no longer exists, a bug) is a :class:`CodemodeError` carrying the library's stable
error code in ``.code`` (``INVALID_DEFINITION``, ``UNSUPPORTED_SCHEMA``, ``INVALID_CONFIG``,
...). A failed *tool call* is not an exception: it is a result whose ``ok`` is false (see
:class:`codemode.ToolResult`); :meth:`codemode.ToolResult.unwrap` raises it as a
:class:`ToolCallError` when that is what a caller wants.

The Rust half raises these through :func:`error_for`.
"""

from __future__ import annotations

from typing import ClassVar

from . import _hints

__all__ = [
    "CodemodeError",
    "ConfigError",
    "HostError",
    "InvalidArgumentsError",
    "PanicError",
    "ToolCallError",
    "ToolDefinitionError",
    "UnsupportedSchemaError",
    "error_for",
]


class CodemodeError(Exception):
    """A failure of codemode; ``code`` is the library's stable error code."""

    default_code: ClassVar[str] = "HOST_FAILED"

    code: str
    message: str

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code if code is not None else type(self).default_code


class ToolDefinitionError(CodemodeError, _hints.ToolDefinitionError):
    """A function, schema or registration request cannot become a tool
    (``INVALID_DEFINITION``). Also a :class:`TypeError`."""

    default_code = "INVALID_DEFINITION"


class UnsupportedSchemaError(ToolDefinitionError):
    """A schema uses a keyword or combination outside the enforced subset
    (``UNSUPPORTED_SCHEMA``)."""

    default_code = "UNSUPPORTED_SCHEMA"


class ConfigError(CodemodeError, ValueError):
    """A setting is invalid (``INVALID_CONFIG``). Also a :class:`ValueError`."""

    default_code = "INVALID_CONFIG"


class InvalidArgumentsError(CodemodeError, ValueError):
    """Arguments passed to ``execute`` have no JSON form (``INVALID_ARGS``)."""

    default_code = "INVALID_ARGS"


class HostError(CodemodeError, RuntimeError):
    """The host could not do what was asked of it (``HOST_FAILED``)."""

    default_code = "HOST_FAILED"


class PanicError(HostError):
    """A bug in codemode's Rust half (a panic), caught at the boundary (``HOST_FAILED``)."""


class ToolCallError(CodemodeError):
    """A failed tool call, raised by :meth:`codemode.ToolResult.unwrap`; ``code`` is the
    call's error code (``TOOL_FAILED``, ``INVALID_ARGS``, ``TOOL_TIMEOUT``, ...)."""

    default_code = "TOOL_FAILED"


_BY_CODE: dict[str, type[CodemodeError]] = {
    "INVALID_DEFINITION": ToolDefinitionError,
    "UNSUPPORTED_SCHEMA": UnsupportedSchemaError,
    "INVALID_CONFIG": ConfigError,
    "INVALID_ARGS": InvalidArgumentsError,
    "HOST_FAILED": HostError,
}


def error_for(code: str, message: str) -> CodemodeError:
    """The exception for a library error with ``code`` (``PANIC``: a caught panic)."""
    if code == "PANIC":
        return PanicError(message, "HOST_FAILED")
    return _BY_CODE.get(code, CodemodeError)(message, code)
