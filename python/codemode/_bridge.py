"""The adapters between Python callables and the Rust half.

Every callable the Rust half holds takes one argument and answers one value: JSON text,
or, for a tool, its arguments and its answer as plain JSON data when they are (the Rust
half converts those without text), so all conversions between Python objects and JSON
happen here:

- :func:`tool_adapter`: the tool's arguments become its keyword arguments
  (``ToolSpec.to_call_kwargs``), its return value JSON (``ToolSpec.to_json``); the answer
  is ``{"value": ...}`` or ``{"code": ..., "message": ...}``. An exception the tool raises
  is its error result (``TOOL_FAILED``, ``ExcType: message``); cancellation
  (``asyncio.CancelledError``) is not caught.
- :func:`guard_adapter`, :func:`pre_execute_adapter`, :func:`result_adapter`,
  :func:`approver_adapter`: the pipeline's hooks.
- :func:`progress_adapter`: a run's progress, from a Rust thread to the host's callback
  on the caller's event loop.
- :func:`schedule`: runs an async adapter's coroutine on the caller's event loop, from a
  Rust thread, with a thread-safe ``cancel()``; :func:`run_alone` runs one on a private
  loop when no caller's loop is known.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import sys
import threading
import traceback
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from . import _json, _otel
from ._hints import ToolArgumentError, ToolResultError, ToolSpec, to_json
from ._results import Progress, ToolCall, ToolResult

__all__ = [
    "Accept",
    "Allow",
    "Ask",
    "Block",
    "Deny",
    "Scheduled",
    "approver_adapter",
    "around_adapter",
    "describe",
    "guard_adapter",
    "post_execute_adapter",
    "pre_execute_adapter",
    "result_adapter",
    "run_alone",
    "schedule",
    "tool_adapter",
]


def describe(exc: BaseException) -> str:
    """``ExcType: message`` (what a model reads of a failed tool)."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _dumps(data: Any) -> str:
    return _json.dumps(data)


def _failure(code: str, message: str) -> str:
    return _dumps({"code": code, "message": message})


# ---------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------


# A tool adapter's argument: the arguments as JSON data (plain ones, converted by the Rust
# half) or as JSON text; its answer: ``{"value": data}`` (JSON data) or a failure's text.
Arguments = dict[str, Any] | str
Answer = dict[str, Any] | str


def _kwargs(spec: ToolSpec, arguments: Arguments) -> dict[str, Any] | str:
    try:
        data = _json.loads(arguments) if isinstance(arguments, str) else arguments
        return spec.to_call_kwargs(data)
    except ToolArgumentError as exc:
        return _failure("INVALID_ARGS", f"invalid arguments:\n- {exc}")


def _answer(spec: ToolSpec, value: Any) -> Answer:
    try:
        return {"value": spec.to_json(value)}
    except ToolResultError as exc:
        return _failure("INVALID_TOOL_OUTPUT", f"invalid tool output:\n- {exc}")


def tool_adapter(
    spec: ToolSpec, fn: Callable[..., Any]
) -> Callable[[Arguments], Answer] | Callable[[Arguments], Coroutine[Any, Any, Answer]]:
    """The adapter the Rust half calls for the tool ``fn`` described by ``spec``."""
    if spec.is_async:

        async def invoke_async(arguments: Arguments) -> Answer:
            kwargs = _kwargs(spec, arguments)
            if isinstance(kwargs, str):
                return kwargs
            try:
                with _otel.tool_span(spec.name):
                    value = await fn(**kwargs)
            except Exception as exc:
                return _failure("TOOL_FAILED", describe(exc))
            return _answer(spec, value)

        return invoke_async

    def invoke(arguments: Arguments) -> Answer:
        kwargs = _kwargs(spec, arguments)
        if isinstance(kwargs, str):
            return kwargs
        try:
            with _otel.tool_span(spec.name):
                value = fn(**kwargs)
                if inspect.isawaitable(value):
                    # A sync callable that returned an awaitable (a partial of a coroutine
                    # function the hints did not see through): run it here, on this
                    # worker thread.
                    value = run_alone(_awaited(value))
        except Exception as exc:
            return _failure("TOOL_FAILED", describe(exc))
        return _answer(spec, value)

    return invoke


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


# ---------------------------------------------------------------------------------------
# Guards, listeners, observers, the approver
# ---------------------------------------------------------------------------------------


class Allow:
    """A pre-execute decision: run the call (later listeners are not asked)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Allow()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Allow)

    def __hash__(self) -> int:
        return hash(Allow)


class Deny:
    """A pre-execute decision: refuse the call with ``reason`` (``TOOL_DENIED``)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Deny({self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deny) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash((Deny, self.reason))


class Ask:
    """A pre-execute decision: run the call only if the registry's approver says yes
    (``APPROVAL_DENIED`` otherwise)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Ask({self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ask) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash((Ask, self.reason))


Decision = Allow | Deny | Ask | None


_UNSET: Any = object()


class Accept:
    """A post-execute decision: keep the result, optionally replacing its ``value`` (a
    JSON value, checked against the tool's output schema again and rendered again) or its
    ``content`` (the text the model reads; the value stays) — not both."""

    __slots__ = ("content", "value")

    def __init__(self, *, value: Any = _UNSET, content: str | None = None) -> None:
        if value is not _UNSET and content is not None:
            raise ValueError("Accept replaces the value or the content, not both")
        self.value = value
        self.content = content

    @property
    def replaces_value(self) -> bool:
        """Whether this decision replaces the value."""
        return self.value is not _UNSET

    def __repr__(self) -> str:
        if self.replaces_value:
            return f"Accept(value={self.value!r})"
        if self.content is not None:
            return f"Accept(content={self.content!r})"
        return "Accept()"


class Block:
    """A post-execute decision: turn the result into a failure (``RESULT_BLOCKED``) whose
    text is ``feedback`` (what the model reads instead of the result)."""

    __slots__ = ("feedback",)

    def __init__(self, feedback: str) -> None:
        self.feedback = feedback

    def __repr__(self) -> str:
        return f"Block({self.feedback!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Block) and other.feedback == self.feedback

    def __hash__(self) -> int:
        return hash((Block, self.feedback))


def guard_adapter(fn: Callable[[ToolCall], str | None]) -> Callable[[str], str]:
    """A guard: ``fn(call)`` answers a reason to deny the call, or ``None``."""

    def guard(text: str) -> str:
        reason = fn(ToolCall._from_json(_json.loads(text)))
        if reason is None:
            return "null"
        if not isinstance(reason, str):
            return _dumps(f"the guard answered {reason!r}, not a reason (str) or None")
        return _dumps(reason)

    return guard


def _decision(decision: Any) -> str:
    if decision is None:
        return _dumps({"decision": "next"})
    if isinstance(decision, Allow):
        return _dumps({"decision": "allow"})
    if isinstance(decision, Deny):
        return _dumps({"decision": "deny", "reason": decision.reason})
    if isinstance(decision, Ask):
        return _dumps({"decision": "ask", "reason": decision.reason})
    raise TypeError(
        f"a pre-execute listener answers Allow(), Deny(reason), Ask() or None, not {decision!r}"
    )


def pre_execute_adapter(
    fn: Callable[[ToolCall], Any], is_async: bool
) -> Callable[[str], str] | Callable[[str], Coroutine[Any, Any, str]]:
    """A pre-execute listener: ``fn(call)`` answers a decision, or ``None`` to let the
    next listener decide."""
    if is_async:

        async def listener_async(text: str) -> str:
            return _decision(await fn(ToolCall._from_json(_json.loads(text))))

        return listener_async

    def listener(text: str) -> str:
        return _decision(fn(ToolCall._from_json(_json.loads(text))))

    return listener


def _post_decision(decision: Any) -> str:
    if decision is None:
        return _dumps({"decision": "next"})
    if isinstance(decision, Accept):
        if decision.replaces_value:
            try:
                value = to_json(decision.value)
            except ToolResultError as exc:
                raise TypeError(f"the replacement value has no JSON form: {exc}") from None
            return _dumps({"decision": "accept", "value": value})
        if decision.content is not None:
            return _dumps({"decision": "accept", "content": decision.content})
        return _dumps({"decision": "accept"})
    if isinstance(decision, Block):
        return _dumps({"decision": "block", "feedback": decision.feedback})
    raise TypeError(
        "a post-execute listener answers Accept(...), Block(feedback) or None, "
        f"not {decision!r}"
    )


def post_execute_adapter(
    fn: Callable[[ToolCall, ToolResult], Any], is_async: bool
) -> Callable[[str], str] | Callable[[str], Coroutine[Any, Any, str]]:
    """A post-execute listener: ``fn(call, result)`` answers a decision, or ``None`` to
    let the next listener decide."""

    def parts(text: str) -> tuple[ToolCall, ToolResult]:
        data = _json.loads(text)
        return ToolCall._from_json(data), ToolResult._from_json(data["result"])

    if is_async:

        async def listener_async(text: str) -> str:
            return _post_decision(await fn(*parts(text)))

        return listener_async

    def listener(text: str) -> str:
        return _post_decision(fn(*parts(text)))

    return listener


def around_adapter(
    fn: Callable[[ToolCall, Callable[[], Awaitable[ToolResult]]], Awaitable[ToolResult]],
) -> Callable[[str], Coroutine[Any, Any, str]]:
    """An around-dispatch wrapper: ``await fn(call, call_next)``, where ``await
    call_next()`` runs the rest of the chain (the tool) and gives its result; ``fn`` returns
    one of the results ``call_next`` gave it."""
    from . import _native

    async def wrapper(text: str) -> str:
        data = _json.loads(text)
        handle = int(data["next"])
        given: list[tuple[ToolResult, int]] = []

        async def call_next() -> ToolResult:
            answer = _json.loads(await _native._call_next(handle))
            result = ToolResult._from_json(answer)
            given.append((result, int(answer["index"])))
            return result

        returned = await fn(ToolCall._from_json(data), call_next)
        for result, index in given:
            if returned is result:
                return _dumps({"result": index})
        raise TypeError(
            "an around-dispatch wrapper returns a result call_next() gave it, "
            f"not {returned!r}"
        )

    return wrapper


def result_adapter(fn: Callable[[ToolCall, ToolResult], object]) -> Callable[[str], str]:
    """A result observer: ``fn(call, result)``; what it raises is printed, not raised."""

    def observer(text: str) -> str:
        data = _json.loads(text)
        try:
            fn(ToolCall._from_json(data), ToolResult._from_json(data["result"]))
        except Exception:
            print("codemode: a result observer raised:", file=sys.stderr)
            traceback.print_exc()
        return "null"

    return observer


def approver_adapter(
    fn: Callable[[ToolCall, str | None], Any], is_async: bool
) -> Callable[[str], str] | Callable[[str], Coroutine[Any, Any, str]]:
    """The approver: ``fn(call, reason)`` answers ``True`` to run an asked call once."""
    if is_async:

        async def approve_async(text: str) -> str:
            data = _json.loads(text)
            answer = await fn(ToolCall._from_json(data), data.get("reason"))
            return "true" if answer is True else "false"

        return approve_async

    def approve(text: str) -> str:
        data = _json.loads(text)
        answer = fn(ToolCall._from_json(data), data.get("reason"))
        return "true" if answer is True else "false"

    return approve


# ---------------------------------------------------------------------------------------
# Running coroutines for the Rust half
# ---------------------------------------------------------------------------------------


class Scheduled:
    """A coroutine scheduled on an event loop from another thread; ``cancel()`` may be
    called from any thread. ``done(ok, value)`` is called on the loop with the result, or
    ``ok=False`` and the exception (``asyncio.CancelledError`` when cancelled)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        coroutine: Coroutine[Any, Any, Any],
        done: Callable[[bool, Any], None],
    ) -> None:
        self._loop = loop
        self._coroutine: Coroutine[Any, Any, Any] | None = coroutine
        self._done = done
        self._task: asyncio.Task[Any] | None = None
        self._cancelled = False

    def _start(self) -> None:
        coroutine, self._coroutine = self._coroutine, None
        if coroutine is None:
            return
        if self._cancelled:
            coroutine.close()
            self._done(False, asyncio.CancelledError())
            return
        # The task copies the context this callback runs in: the caller's contextvars.
        self._task = self._loop.create_task(coroutine)
        self._task.add_done_callback(self._finish)

    def _finish(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            self._done(False, asyncio.CancelledError())
            return
        exc = task.exception()
        if exc is not None:
            self._done(False, exc)
        else:
            self._done(True, task.result())

    def _cancel(self) -> None:
        self._cancelled = True
        if self._task is not None:
            self._task.cancel()

    def cancel(self) -> None:
        """Cancels the task (thread-safe; returns at once)."""
        try:
            self._loop.call_soon_threadsafe(self._cancel)
        except RuntimeError:  # the loop is closed: nothing runs there any more
            pass


#: How long the Rust half's delivery of one progress report waits for the event loop to
#: take it (:func:`progress_adapter`); a loop that has not run it by then gets it later.
_PROGRESS_HANDOFF_SECONDS = 2.0


def progress_adapter(
    callback: Callable[[Progress], object],
) -> Callable[[float, float | None, str | None, bool], None]:
    """The callable the Rust half calls (on a worker thread) with each report of a run's
    progress: it runs ``callback(Progress(...))`` on the running event loop (the caller's)
    and returns once the callback has run, so that a busy loop holds back the Rust relay,
    whose bounded queue keeps the newest reports (memory stays bounded whatever the program
    reports); reports arrive in order, the last before the run's answer. A callback that
    raises is reported once on stderr (later failures are not printed) and the run goes on;
    one that returns an awaitable has it run as a task of the loop."""
    loop = asyncio.get_running_loop()
    failures = 0
    tasks: set[asyncio.Future[Any]] = set()

    def call(progress: Progress, handed: threading.Event) -> None:
        nonlocal failures
        try:
            answer = callback(progress)
            if inspect.isawaitable(answer):
                task = asyncio.ensure_future(answer)
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        except Exception as exc:
            failures += 1
            if failures == 1:
                print(
                    f"codemode: on_progress raised {describe(exc)} (later failures not shown)",
                    file=sys.stderr,
                )
        finally:
            handed.set()

    def deliver(done: float, total: float | None, message: str | None, printed: bool) -> None:
        handed = threading.Event()
        # Raises RuntimeError once the loop is closed: the Rust half then stops delivering.
        loop.call_soon_threadsafe(call, Progress(done, total, message, printed), handed)
        handed.wait(_PROGRESS_HANDOFF_SECONDS)

    return deliver


def schedule(
    loop: asyncio.AbstractEventLoop,
    context: contextvars.Context,
    coroutine: Coroutine[Any, Any, Any],
    done: Callable[[bool, Any], None],
) -> Scheduled:
    """Runs ``coroutine`` as a task of ``loop`` (in a copy of ``context``); thread-safe."""
    scheduled = Scheduled(loop, coroutine, done)
    try:
        loop.call_soon_threadsafe(scheduled._start, context=context)
    except BaseException:
        coroutine.close()
        raise
    return scheduled


def run_alone(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Runs ``coroutine`` to completion on a private event loop (this thread has none)."""
    return asyncio.run(coroutine)
