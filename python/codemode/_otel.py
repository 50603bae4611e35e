"""OpenTelemetry spans of calls and runs, in the host's own traces.

When the ``opentelemetry`` package is installed, :meth:`Scope.execute` and
:meth:`Scope.run_code` are spans (``execute_tool NAME``, with OpenTelemetry's GenAI
attributes: ``gen_ai.operation.name`` = ``execute_tool``, ``gen_ai.tool.name``, and on
failure ``error.type`` = the stable error code), children of whatever span is current where
they are awaited. A run's tool calls are spans under the run's, in call order: a Python
tool's is opened around the tool as it runs (so the tool's own spans nest under it; sync
tools run in a copy of the caller's context, as async ones do), any other's is recorded
from the run's sub-call record when the run ends, with its times. Nothing is recorded of
programs, arguments or results. Without ``opentelemetry`` nothing is imported and nothing
is done.

This module owns those spans; it must not change a call or its result, nor configure
OpenTelemetry (the host's tracer provider and exporters are used as they are).
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._results import RunResult, ToolResult

__all__ = ["call_span", "finish_call", "finish_run", "tool_span"]

#: The tracer, once looked up: ``False`` when ``opentelemetry`` is not installed.
_TRACER: Any = None

#: What the current context's innermost codemode call is: ``"execute"`` (a direct call:
#: its span is the tool's), or the run's record of the Python tools that opened their own
#: sub-call span (by name, in order).
_CALL: contextvars.ContextVar[str | list[str] | None] = contextvars.ContextVar(
    "codemode_otel_call", default=None
)


def _tracer() -> Any:
    global _TRACER
    if _TRACER is None:
        if importlib.util.find_spec("opentelemetry") is None:
            _TRACER = False
        else:
            from opentelemetry import trace

            from . import __version__

            _TRACER = trace.get_tracer("codemode", __version__)
    return _TRACER or None


def _attributes(name: str) -> dict[str, str]:
    return {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}


class CallSpan:
    """A call's span (or nothing, without ``opentelemetry``) and when it started."""

    def __init__(self, span: Any, started_ns: int) -> None:
        self.span = span
        self.started_ns = started_ns


@contextlib.contextmanager
def call_span(name: str, *, run: bool) -> Iterator[CallSpan]:
    """The span of a direct call of ``name`` (``run`` false) or of a run (``run_code``),
    current while the call is awaited."""
    tracer = _tracer()
    if tracer is None:
        yield CallSpan(None, 0)
        return
    with tracer.start_as_current_span(
        f"execute_tool {name}", attributes=_attributes(name), end_on_exit=True
    ) as span:
        token = _CALL.set([] if run else "execute")
        try:
            yield CallSpan(span, time.time_ns())
        finally:
            _CALL.reset(token)


def _failed(span: Any, code: str | None, message: str | None) -> None:
    from opentelemetry.trace import Status, StatusCode

    span.set_attribute("error.type", code or "_OTHER")
    span.set_status(Status(StatusCode.ERROR, message or code or "failed"))


def finish_call(call: CallSpan, result: ToolResult) -> None:
    """Marks a direct call's span with its outcome."""
    if call.span is None:
        return
    if not result.ok:
        _failed(call.span, result.error_code, result.error_message)


def finish_run(call: CallSpan, run: RunResult) -> None:
    """Marks a run's span with its outcome, and records the spans of its sub-calls no
    Python tool opened (with their times from the run's records)."""
    span = call.span
    if span is None:
        return
    span.set_attribute("codemode.run.sub_calls", len(run.sub_calls) + run.sub_calls_dropped)
    if run.error_kind is not None:
        span.set_attribute("codemode.run.failure_kind", run.error_kind)
    if not run.ok:
        _failed(span, run.error_code, run.error_message)
    opened = _CALL.get()
    live = list(opened) if isinstance(opened, list) else []
    tracer = _tracer()
    if tracer is None:
        return
    from opentelemetry import trace

    parent = trace.set_span_in_context(span)
    for sub in run.sub_calls:
        if sub.name in live:
            live.remove(sub.name)
            continue
        child = tracer.start_span(
            f"execute_tool {sub.name}",
            context=parent,
            attributes={**_attributes(sub.name), "gen_ai.tool.call.id": sub.call_id},
            start_time=call.started_ns + int(sub.submitted_ms * 1e6),
        )
        if not sub.ok:
            _failed(child, sub.error_code, sub.error_message)
        child.end(end_time=call.started_ns + int(sub.settled_ms * 1e6))


@contextlib.contextmanager
def tool_span(name: str) -> Iterator[None]:
    """Around a Python tool's body: within a run, its sub-call's span (current while the
    tool runs); in a direct call, nothing (the call's span is the tool's)."""
    opened = _CALL.get()
    tracer = _tracer() if isinstance(opened, list) else None
    if tracer is None or not isinstance(opened, list):
        yield
        return
    opened.append(name)
    token = _CALL.set(None)
    try:
        with tracer.start_as_current_span(f"execute_tool {name}", attributes=_attributes(name)):
            yield
    finally:
        _CALL.reset(token)
