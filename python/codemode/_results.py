"""What calls and runs return: :class:`ToolResult`, :class:`RunResult`, :class:`SubCall`,
and :class:`ToolCall` (what guards and listeners see of a call).

The Rust half hands each over as one JSON document (``crates/codemode-py/src/results.rs``);
``_from_json`` reads it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ._errors import ToolCallError

__all__ = ["RunResult", "ServerStatus", "SubCall", "ToolCall", "ToolResult"]


def _optional_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


@dataclasses.dataclass(frozen=True)
class ToolResult:
    """The outcome of one call, as the pipeline froze it.

    ``text`` is what a model reads (``Error: <message>`` for a failure); ``value`` the
    tool's JSON value (``None`` for a failure); ``error_code`` the library's stable code of a
    failure (``TOOL_FAILED``, ``INVALID_ARGS``, ``UNKNOWN_TOOL``, ``TOOL_TIMEOUT``, ...);
    ``content`` the model-facing content blocks; ``duration_ms`` the call's wall time.
    """

    ok: bool
    text: str
    value: Any = None
    error_code: str | None = None
    error_message: str | None = None
    content: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    duration_ms: float = 0.0

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> ToolResult:
        return cls(
            ok=bool(data["ok"]),
            text=str(data["text"]),
            value=data.get("value"),
            error_code=_optional_str(data, "error_code"),
            error_message=_optional_str(data, "error_message"),
            content=list(data.get("content", [])),
            duration_ms=float(data.get("duration_ms", 0.0)),
        )

    def unwrap(self) -> Any:
        """The value of a success; a failure raises :class:`ToolCallError` with its code."""
        if not self.ok:
            raise ToolCallError(self.error_message or self.text, self.error_code)
        return self.value


@dataclasses.dataclass(frozen=True)
class SubCall:
    """One tool call a program made (``await tools.x(...)``), in submission order.

    ``submitted_ms`` and ``settled_ms`` are relative to the start of the run;
    ``queued_ms`` is how long it waited for its turn, ``duration_ms`` how long it ran;
    ``mode`` is ``parallel`` or ``exclusive`` (``None``: the run ended before its turn).
    """

    index: int
    call_id: str
    name: str
    arguments: Any
    ok: bool
    text: str
    value: Any
    error_code: str | None
    error_message: str | None
    mode: str | None
    submitted_ms: float
    queued_ms: float
    duration_ms: float
    settled_ms: float

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> SubCall:
        return cls(
            index=int(data["index"]),
            call_id=str(data["call_id"]),
            name=str(data["name"]),
            arguments=data.get("arguments"),
            ok=bool(data["ok"]),
            text=str(data["text"]),
            value=data.get("value"),
            error_code=_optional_str(data, "error_code"),
            error_message=_optional_str(data, "error_message"),
            mode=_optional_str(data, "mode"),
            submitted_ms=float(data["submitted_ms"]),
            queued_ms=float(data["queued_ms"]),
            duration_ms=float(data["duration_ms"]),
            settled_ms=float(data["settled_ms"]),
        )


@dataclasses.dataclass(frozen=True)
class Progress:
    """One report of a running program's progress (``run_code(..., on_progress=...)``).

    ``done`` of ``total`` (when known) and ``message``: what the program passed to
    ``progress(done, total, message)``, or, when ``printed``, a line it printed (``message``;
    lines are coalesced: the latest every 250 ms, the last always delivered). A message is
    cut to 1,000 characters.
    """

    done: float
    total: float | None = None
    message: str | None = None
    printed: bool = False


@dataclasses.dataclass(frozen=True)
class RunResult:
    """The outcome of one ``run_code`` program.

    ``text`` is what a model reads: the logs and the rendered value, or
    ``Error: code run failed (<kind>): <message>``. ``value`` is what the program returned,
    ``logs`` what it printed (also when it failed), ``error_kind`` why it failed
    (``exception``, ``timeout``, ``abort``, ``worker-exit``, ``invalid-output``,
    ``output-limit``, ``type-error``; ``None`` on success or when it never ran),
    ``error_code`` the failure's code (``CODE_RUN_FAILED``, or the pipeline's for the
    ``run_code`` call itself), ``sub_calls`` every tool call it made.
    """

    ok: bool
    text: str
    value: Any = None
    logs: list[str] = dataclasses.field(default_factory=list)
    sub_calls: list[SubCall] = dataclasses.field(default_factory=list)
    error_kind: str | None = None
    error_code: str | None = None
    error_message: str | None = None
    typecheck: str | None = None
    duration_ms: float = 0.0
    sub_calls_dropped: int = 0

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> RunResult:
        return cls(
            ok=bool(data["ok"]),
            text=str(data["text"]),
            value=data.get("value"),
            logs=[str(line) for line in data.get("logs", [])],
            sub_calls=[SubCall._from_json(item) for item in data.get("sub_calls", [])],
            error_kind=_optional_str(data, "error_kind"),
            error_code=_optional_str(data, "error_code"),
            error_message=_optional_str(data, "error_message"),
            typecheck=_optional_str(data, "typecheck"),
            duration_ms=float(data.get("duration_ms", 0.0)),
            sub_calls_dropped=int(data.get("sub_calls_dropped", 0)),
        )

    def unwrap(self) -> Any:
        """The program's value; a failed run raises :class:`ToolCallError` with its code."""
        if not self.ok:
            raise ToolCallError(self.error_message or self.text, self.error_code)
        return self.value


@dataclasses.dataclass(frozen=True)
class ToolCall:
    """A call as guards and listeners see it: the tool's ``name``, the frozen
    ``arguments``, the call's id and the id of the top-level call it belongs to (a
    ``run_code`` program's calls are ``nested`` in it)."""

    name: str
    arguments: Any
    call_id: str
    root_call_id: str
    nested: bool

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> ToolCall:
        return cls(
            name=str(data["name"]),
            arguments=data.get("arguments"),
            call_id=str(data["call_id"]),
            root_call_id=str(data["root_call_id"]),
            nested=bool(data["nested"]),
        )


@dataclasses.dataclass(frozen=True)
class ServerStatus:
    """What became of one MCP server: ``ok`` with how many ``tools`` it serves, the tools
    registered under another name (``renamed``: name on the server -> registered name)
    and those left out (``skipped``: name -> why); or not ``ok``, with the ``message``
    saying why it could not be started."""

    name: str
    ok: bool
    tools: int = 0
    renamed: dict[str, str] = dataclasses.field(default_factory=dict)
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)
    message: str | None = None

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> ServerStatus:
        return cls(
            name=str(data["name"]),
            ok=bool(data["ok"]),
            tools=int(data.get("tools", 0)),
            renamed={str(a): str(b) for a, b in data.get("renamed", [])},
            skipped={str(a): str(b) for a, b in data.get("skipped", [])},
            message=_optional_str(data, "message"),
        )
