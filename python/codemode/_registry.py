"""The registry and its scopes: :class:`Registry` (the global layer, plus what belongs to
the whole registry: policies, the approver, Code Mode's settings) and :class:`Scope` (one
layer: the global one, or an agent scope).

Tools, restrictions, guards and listeners are registered through a scope and apply to its
calls and those of the scopes under it. ``execute`` and ``run_code`` are coroutines: the
Rust half runs them on its own threads (the GIL is released while it works), async tools
run on the event loop that awaits the call, sync tools on a worker thread, and cancelling
the awaiting task cancels the call and every call a program made.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, cast, overload

from . import _hints, _json, _limits, _native, _otel
from ._bridge import (
    approver_adapter,
    around_adapter,
    guard_adapter,
    post_execute_adapter,
    pre_execute_adapter,
    progress_adapter,
    result_adapter,
    tool_adapter,
)
from ._errors import ConfigError, InvalidArgumentsError, ToolDefinitionError
from ._results import Progress, RunResult, ServerStatus, ToolCall, ToolResult

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["McpServers", "Registration", "Registry", "Scope", "ToolOptions"]

Mode = Literal["native", "code", "both"]
Language = Literal["typescript", "python"]
Policy = Literal["allow", "deny", "ask"]
ToolFormat = Literal["openai", "anthropic", "mcp"]

F = TypeVar("F", bound=Callable[..., Any])


class ToolOptions(TypedDict, total=False):
    """The options of ``@scope.tool(...)`` (see :meth:`Scope.add_tool`)."""

    name: str | None
    description: str | None
    input_schema: Mapping[str, Any] | None
    output_schema: Mapping[str, Any] | None
    infer_output: bool
    parallel_safe: bool
    timeout: float | None
    policy: Policy | None


class Registration:
    """One registration (a tool, restriction, guard or listener); :meth:`dispose` undoes
    exactly it."""

    __slots__ = ("_disposer", "_on_dispose", "what")

    def __init__(
        self,
        disposer: _native.Disposer,
        what: str,
        on_dispose: Callable[[], object] | None = None,
    ) -> None:
        self._disposer = disposer
        self._on_dispose = on_dispose
        self.what = what

    def dispose(self) -> bool:
        """Undoes the registration; whether anything was removed (``False`` the second
        time)."""
        removed = self._disposer.dispose()
        if removed and self._on_dispose is not None:
            self._on_dispose()
        return removed

    def __repr__(self) -> str:
        return f"<Registration {self.what}>"


def _no_running_loop(what: str, instead: str) -> None:
    """Raises ``RuntimeError`` when an event loop runs in this thread: a synchronous call
    cannot wait for a coroutine there without blocking the loop the call itself needs."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError(
        f"{what}() cannot run inside a running event loop (a Jupyter cell, an async "
        f"function): use `{instead}` there instead (a Jupyter cell can await at its top "
        "level)"
    )


def _identity(fn: Callable[..., Any]) -> tuple[str, str]:
    """What makes a function "the same" across a re-run notebook cell or a reloaded
    module: its module and qualified name (a partial: its function's)."""
    inner = getattr(fn, "func", fn)
    module = getattr(inner, "__module__", None) or "?"
    name = getattr(inner, "__qualname__", None) or type(inner).__qualname__
    return (str(module), str(name))


def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)
    )


def _embedder_adapter(embedder: Callable[[list[str]], Any]) -> Callable[[str], Any]:
    """The adapter the native side calls: the texts as JSON text in, the vectors as plain
    lists of floats out (a numpy array, a tuple or any sequence of numbers becomes one)."""

    def adapter(texts_json: str) -> list[list[float]]:
        texts = json.loads(texts_json)
        vectors = embedder(texts)
        if hasattr(vectors, "tolist"):
            vectors = vectors.tolist()
        return [[float(x) for x in vector] for vector in vectors]

    return adapter


def _arguments_text(arguments: Mapping[str, Any] | None) -> str:
    try:
        data = _hints.to_json({} if arguments is None else arguments)
    except _hints.ToolResultError as exc:
        raise InvalidArgumentsError(f"{exc} (the arguments have no JSON form)") from None
    if not isinstance(data, dict):
        raise InvalidArgumentsError(
            f"$: the arguments must be a mapping (a JSON object), not {type(data).__name__}"
        )
    return _json.dumps(data)


def _invalid_arguments(problem: str) -> ToolResult:
    """The ``INVALID_ARGS`` result of a call whose arguments have no JSON form, worded as
    the pipeline words arguments its schema refuses."""
    message = f"invalid arguments:\n- {problem}"
    return ToolResult(
        ok=False,
        text=f"Error: {message}",
        error_code="INVALID_ARGS",
        error_message=message,
        content=[{"type": "text", "text": message}],
    )


def _toml_value(value: Any, what: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # A JSON string without \\u escapes of non-ASCII text is a TOML basic string.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        text = json.dumps(value, allow_nan=False)
        return text
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item, what) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{_toml_value(str(k), what)} = {_toml_value(v, what)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    raise ConfigError(f"{what}: {value!r} is not a string, number, boolean, list or table")


def _mcp_entry(entry: Mapping[str, Any], tools: Mapping[str, Mapping[str, Any]]) -> str:
    """The ``[[mcp]]`` entry of ``entry`` (and its ``[mcp.tools.NAME]`` tables) as TOML."""
    lines = ["[[mcp]]"]
    for key, value in entry.items():
        lines.append(f"{key} = {_toml_value(value, key)}")
    for tool, settings in tools.items():
        lines.append(f"[mcp.tools.{_toml_value(str(tool), 'tools')}]")
        for key, value in settings.items():
            if key == "timeout":
                key, value = "timeout_ms", float(value) * 1000.0
            lines.append(f"{key} = {_toml_value(value, f'tools[{tool!r}]')}")
    return "\n".join(lines) + "\n"


class McpServers:
    """MCP servers started by :meth:`Scope.add_mcp_server`: their status, the names their
    tools are registered under, and :meth:`close`. Usable as ``async with``. The scope
    follows the servers' changes to their tool lists until it is closed."""

    def __init__(self, native: _native.McpServers) -> None:
        self._native = native
        self.status: list[ServerStatus] = [
            ServerStatus._from_json(item) for item in json.loads(native.status())
        ]

    @property
    def tool_names(self) -> list[str]:
        """The names the servers' tools are registered under now, sorted: a server that
        says its tools changed (``notifications/tools/list_changed``) is listed again, and
        this scope's tools follow."""
        return self._native.tool_names()

    async def close(self) -> None:
        """Unregisters the servers' tools and ends the servers (a stdio server's processes
        are killed)."""
        await self._native.close()

    async def __aenter__(self) -> McpServers:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<codemode.McpServers {[s.name for s in self.status]!r} tools={self.tool_names!r}>"


class Session:
    """One session's store: JSON values the programs of the runs given it
    (``run_code(..., session=...)``) keep between runs, as ``store``. The host can read what
    they kept (:meth:`keys`, :meth:`get`), :meth:`delete` and :meth:`clear`. Made by
    :meth:`Scope.session`; it lives as long as this object does."""

    def __init__(self, native: _native.Session) -> None:
        self._native = native

    def keys(self) -> list[str]:
        """The keys, in the order of their UTF-8 bytes."""
        return self._native.keys()

    def get(self, key: str) -> Any:
        """The value under ``key`` (``None`` when there is none)."""
        text = self._native.get_text(key)
        return None if text is None else _json.loads(text)

    def delete(self, key: str) -> bool:
        """Removes ``key``; whether it was there."""
        return self._native.delete(key)

    def clear(self) -> None:
        """Removes every key."""
        self._native.clear()

    @property
    def bytes(self) -> int:
        """The bytes it holds: keys plus values' JSON text."""
        return self._native.bytes

    def __len__(self) -> int:
        return len(self._native)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._native.keys()

    def __repr__(self) -> str:
        return f"<codemode.Session {len(self)} keys, {self.bytes} bytes>"


class Scope:
    """One layer of a :class:`Registry`: the global layer (the registry itself) or an agent
    scope made by :meth:`scope`. A scope sees the tools of the layers above it (filtered by
    their restrictions) and its own."""

    def __init__(self, native: _native.Scope, registry: Registry | None) -> None:
        self._native = native
        self._registry_ref = registry
        # The tools registered through this scope object, with the identity of each one's
        # function (module and qualified name: what a re-run notebook cell keeps).
        self._tools: dict[str, tuple[Registration, tuple[str, str]]] = {}

    @property
    def _registry(self) -> Registry:
        if self._registry_ref is None:
            if isinstance(self, Registry):
                return self
            raise RuntimeError("a scope without its registry")  # pragma: no cover
        return self._registry_ref

    # -- identity -------------------------------------------------------------------------

    @property
    def label(self) -> str:
        """The scope's label (``global`` for the global layer)."""
        return self._native.label

    @property
    def is_global(self) -> bool:
        """Whether this is the global layer."""
        return self._native.is_global

    @property
    def mode(self) -> Mode:
        """How this scope presents its tools: ``native``, ``code`` or ``both``."""
        return cast(Mode, self._native.mode)

    def __repr__(self) -> str:
        return f"<codemode.Scope {self.label!r} mode={self.mode}>"

    def scope(self, label: str, *, mode: Mode | None = None) -> Scope:
        """An agent scope under this one (``mode``: how it presents; by default as this
        one does)."""
        return Scope(self._native.create_scope(label, mode), self._registry)

    def close(self) -> None:
        """Closes this agent scope: its registrations, listeners and scopes go."""
        self._native.close()

    def __enter__(self) -> Scope:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.is_global:
            self.close()

    # -- tools ----------------------------------------------------------------------------

    @overload
    def tool(self, fn: F, /) -> F: ...

    @overload
    def tool(self, fn: None = None, /, **options: Unpack[ToolOptions]) -> Callable[[F], F]: ...

    def tool(
        self, fn: F | None = None, /, **options: Unpack[ToolOptions]
    ) -> F | Callable[[F], F]:
        """Registers a function as a tool (``@scope.tool`` or ``@scope.tool(...)``) and
        returns it unchanged. See :meth:`add_tool` for the options."""

        def register(fn: F) -> F:
            self.add_tool(fn, **options)
            return fn

        if fn is not None:
            return register(fn)
        return register

    def add_tool(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: Mapping[str, Any] | None = None,
        output_schema: Mapping[str, Any] | None = None,
        infer_output: bool = True,
        parallel_safe: bool = False,
        timeout: float | None = None,
        policy: Policy | None = None,
    ) -> Registration:
        """Registers ``fn`` (sync or async) as a tool of this scope.

        The name, description and input schema come from the function (its name, its
        docstring, its type hints; see :func:`codemode.tool_spec`), the output schema from
        its return annotation (``infer_output=False``: any JSON value). ``parallel_safe``
        lets its calls overlap with other parallel calls (else each runs alone);
        ``timeout`` (seconds) ends a call with ``TOOL_TIMEOUT``; ``policy`` (``allow``,
        ``deny``, ``ask``) applies to the tool's name registry-wide (``ask`` needs the
        registry's approver). Raises :class:`codemode.ToolDefinitionError` when the
        function cannot be a tool.

        Registering the same function again through this scope (same module and qualified
        name: a re-run notebook cell, a reloaded module) replaces its tool; a different
        function under a name already taken raises :class:`codemode.ToolDefinitionError`
        saying how to replace it (``remove_tool(name)`` first).
        """
        try:
            spec = _hints.tool_spec(
                fn,
                name=name,
                description=description,
                input_schema=input_schema,
                output_schema=output_schema,
                infer_output=infer_output,
            )
        except ToolDefinitionError:
            raise
        except _hints.ToolDefinitionError as exc:
            raise ToolDefinitionError(str(exc)) from None
        if timeout is not None and not timeout > 0:
            raise ToolDefinitionError(
                f"tool {spec.name!r}: timeout must be a positive number of seconds"
            )
        identity = _identity(fn)
        taken = self._tools.get(spec.name)
        if taken is not None:
            previous, previous_identity = taken
            if previous_identity != identity:
                raise ToolDefinitionError(
                    f"a tool named {spec.name!r} is already registered here, by "
                    f"{'.'.join(previous_identity)}, not {'.'.join(identity)}; to replace "
                    f"it, remove it first: scope.remove_tool({spec.name!r}) (or "
                    "registration.dispose()), or register this one under another name="
                )
            # The same function again (a re-run notebook cell, a reloaded module): the new
            # definition replaces the old one.
            previous.dispose()
        try:
            disposer = self._register(spec, fn, timeout, parallel_safe)
        except ToolDefinitionError as exc:
            if "is already registered" in str(exc):
                raise ToolDefinitionError(
                    f"{exc}; to replace it, remove it first (remove_tool({spec.name!r}) on "
                    "the scope that registered it, or its registration's dispose()), or "
                    "register this one under another name="
                ) from None
            raise
        if policy is not None:
            self._registry.set_policy(spec.name, policy)
        tool = spec.name
        registration = Registration(
            disposer, f"tool {tool!r}", lambda: self._forget(tool, registration)
        )
        self._tools[tool] = (registration, identity)
        return registration

    def _forget(self, name: str, registration: Registration) -> None:
        taken = self._tools.get(name)
        if taken is not None and taken[0] is registration:
            del self._tools[name]

    def _register(
        self,
        spec: _hints.ToolSpec,
        fn: Callable[..., Any],
        timeout: float | None,
        parallel_safe: bool,
    ) -> _native.Disposer:
        return self._native.register(
            name=spec.name,
            description=spec.description,
            input_schema=json.dumps(spec.input_schema, allow_nan=False),
            output_schema=(
                None
                if spec.output_schema is None
                else json.dumps(spec.output_schema, allow_nan=False)
            ),
            invoke=tool_adapter(spec, fn),
            is_async=spec.is_async,
            timeout_ms=None if timeout is None else timeout * 1000.0,
            parallel=parallel_safe,
        )

    def remove_tool(self, name: str) -> bool:
        """Unregisters the tool ``name`` registered through this scope object; whether it
        was there."""
        taken = self._tools.get(name)
        return taken is not None and taken[0].dispose()

    def tool_names(self) -> list[str]:
        """The names of the tools this scope sees, sorted."""
        return self._native.tool_names()

    # -- visibility and policy --------------------------------------------------------------

    def restrict(
        self,
        *,
        allow: Sequence[str] | None = None,
        deny: Sequence[str] | None = None,
    ) -> Registration:
        """Restricts what this agent scope inherits: ``allow`` keeps only those tools,
        ``deny`` removes them; restrictions intersect; its own tools stay visible."""
        disposer = self._native.restrict(
            None if allow is None else list(allow), None if deny is None else list(deny)
        )
        return Registration(disposer, "restriction")

    def guard(self, fn: Callable[[ToolCall], str | None]) -> Registration:
        """Adds a guard: ``fn(call)`` (sync) answers a reason to deny the call
        (``GUARD_DENIED``), or ``None``. Guards run after the pre-execute listeners and
        nothing overrides their denial; one that raises denies."""
        if _is_async(fn):
            raise TypeError("a guard is a plain (sync) function")
        return Registration(self._native.guard(guard_adapter(fn)), "guard")

    def on_pre_execute(self, fn: Callable[[ToolCall], Any]) -> Registration:
        """Adds a ``tools/pre-execute`` listener: ``fn(call)`` (sync or async) answers
        :class:`codemode.Allow`, :class:`codemode.Deny`, :class:`codemode.Ask`, or ``None``
        to let the next listener decide. One that raises fails the call
        (``LISTENER_FAILED``)."""
        is_async = _is_async(fn)
        return Registration(
            self._native.on_pre_execute(pre_execute_adapter(fn, is_async), is_async),
            "pre-execute listener",
        )

    def on_post_execute(self, fn: Callable[[ToolCall, ToolResult], Any]) -> Registration:
        """Adds a ``tools/post-execute`` listener: ``fn(call, result)`` (sync or async) sees
        each call's result before it is final and answers :class:`codemode.Accept` (keep
        it, or replace its ``value`` or ``content``), :class:`codemode.Block` (the model
        reads the feedback instead; ``RESULT_BLOCKED``), or ``None`` to let the next
        listener decide. One that raises fails the call (``LISTENER_FAILED``)."""
        is_async = _is_async(fn)
        return Registration(
            self._native.on_post_execute(post_execute_adapter(fn, is_async), is_async),
            "post-execute listener",
        )

    def on_execute(
        self,
        fn: Callable[[ToolCall, Callable[[], Awaitable[ToolResult]]], Awaitable[ToolResult]],
    ) -> Registration:
        """Adds a ``tools/execute`` (around-dispatch) wrapper, a middleware around each
        allowed call's dispatch: ``async def fn(call, call_next)`` awaits ``call_next()``
        (the rest of the chain: later wrappers, then the tool, its output check and
        timeout) as many times as it likes (a retry) and returns one of the
        :class:`codemode.ToolResult` objects it got. The first registered wrapper is the
        outermost. One that raises, or returns anything else, fails the call
        (``LISTENER_FAILED``)."""
        if not _is_async(fn):
            raise TypeError("an around-dispatch wrapper is an async function")
        return Registration(self._native.on_execute(around_adapter(fn)), "around-dispatch wrapper")

    def on_result(self, fn: Callable[[ToolCall, ToolResult], object]) -> Registration:
        """Adds an observer of every final result: ``fn(call, result)`` (sync; what it
        raises is printed and ignored)."""
        if _is_async(fn):
            raise TypeError("a result observer is a plain (sync) function")
        return Registration(self._native.on_result(result_adapter(fn)), "result observer")

    # -- MCP servers ------------------------------------------------------------------------

    async def add_mcp_server(
        self,
        name: str,
        *,
        command: Sequence[str] | None = None,
        url: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        startup_timeout: float | None = None,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] | None = None,
        tools: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> McpServers:
        """Starts an MCP server and registers its tools in this scope: a process speaking
        MCP on its standard streams (``command``, with ``env`` and ``cwd``) or a
        streamable-HTTP endpoint (``url``, with ``headers``). The settings are those of an
        ``[[mcp]]`` entry of ``codemode.toml`` and are checked the same way: ``timeout``
        bounds each call and ``startup_timeout`` the start (seconds), ``include`` /
        ``exclude`` pick tools by their names on the server, ``tools`` sets per-tool
        ``policy`` / ``concurrency_safe`` / ``timeout``. A tool keeps its name unless this
        scope already sees one by that name (then it is ``<server>__<tool>``).

        Raises :class:`codemode.ConfigError` for settings ``codemode.toml`` would refuse,
        and :class:`codemode.HostError` when the server cannot be started or listed. The
        returned :class:`McpServers` closes it (also as an ``async with`` block)."""
        entry: dict[str, Any] = {"name": name}
        if command is not None:
            entry["command"] = list(command)
        if url is not None:
            entry["url"] = url
        if env is not None:
            entry["env"] = dict(env)
        if cwd is not None:
            entry["cwd"] = os.fspath(cwd)
        if headers is not None:
            entry["headers"] = dict(headers)
        if timeout is not None:
            entry["timeout_ms"] = float(timeout) * 1000.0
        if startup_timeout is not None:
            entry["startup_timeout_ms"] = float(startup_timeout) * 1000.0
        if include is not None:
            entry["include"] = list(include)
        if exclude is not None:
            entry["exclude"] = list(exclude)
        table = _mcp_entry(entry, tools or {})
        place = os.path.join(os.getcwd(), f"add_mcp_server({name!r})")
        native = await self._native.add_mcp_servers(table, place)
        return McpServers(native)

    # -- calls ------------------------------------------------------------------------------

    async def execute(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolResult:
        """Runs one call of the tool ``name`` through the pipeline, as this scope's model
        would (in ``code`` mode only ``run_code`` is callable). A failed call is a result
        (``ok`` false, with ``error_code``), not an exception."""
        # The native half converts plain arguments itself, and the rest with
        # `_arguments_text` (which raises for what has no JSON form: that call never
        # starts, and is answered as the pipeline answers arguments its schema refuses).
        with _otel.call_span(name, run=False) as span:
            try:
                result: ToolResult = await self._native.execute(
                    name, {} if arguments is None else arguments
                )
            except InvalidArgumentsError as exc:
                result = _invalid_arguments(exc.message)
            _otel.finish_call(span, result)
            return result

    def session(self) -> Session:
        """A new session: an empty store, within the registry's store bounds, that the runs
        given it (``run_code(..., session=...)``) share as ``store``. It lives as long as
        the object does."""
        return Session(self._native.session())

    async def run_code(
        self,
        code: str,
        *,
        description: str = "a program",
        language: Language | None = None,
        keep_sub_calls: int | None = None,
        session: Session | None = None,
        on_progress: Callable[[Progress], object] | None = None,
    ) -> RunResult:
        """Runs ``code`` (the body of an async function; ``await tools.x(args)`` calls a
        tool of this scope through the pipeline) and returns the run. A failed program is a
        result (``ok`` false, ``error_kind``), not an exception. ``keep_sub_calls`` bounds
        how many sub-call records the result keeps. ``language`` (default: the registry's)
        picks the runtime: ``typescript``, or ``python`` (a confined worker process of this
        interpreter). ``session`` (from :meth:`session`) is the store the program reaches
        as ``store``, kept for the session's next runs; without one, ``store`` calls fail
        with ``NO_SESSION``. ``on_progress`` is called on this event loop with a
        :class:`Progress` for each ``progress(done, total, message)`` call of the program
        and for the lines it prints (coalesced: the latest every 250 ms), in order, the
        last before this returns; what the run returns is the same with or without it."""
        native = None if session is None else session._native
        deliver = None if on_progress is None else progress_adapter(on_progress)
        with _otel.call_span("run_code", run=True) as span:
            text = await self._native.run_code(
                code, description, keep_sub_calls, language, native, deliver
            )
            run = RunResult._from_json(_json.loads(text))
            _otel.finish_run(span, run)
            return run

    # -- synchronous forms (scripts; not inside a running event loop) ----------------------

    def execute_sync(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolResult:
        """:meth:`execute` for code without an event loop (a script, a REPL): runs the call
        on a fresh loop (``asyncio.run``) and returns its result. Inside a running loop (a
        Jupyter cell, an ``async def``) it raises ``RuntimeError``: ``await`` :meth:`execute`
        there (a Jupyter cell can ``await`` at its top level)."""
        _no_running_loop("execute_sync", "await scope.execute(...)")
        return asyncio.run(self.execute(name, arguments))

    def run_code_sync(
        self,
        code: str,
        *,
        description: str = "a program",
        language: Language | None = None,
        keep_sub_calls: int | None = None,
        session: Session | None = None,
        on_progress: Callable[[Progress], object] | None = None,
    ) -> RunResult:
        """:meth:`run_code` for code without an event loop (a script, a REPL): runs the
        program on a fresh loop (``asyncio.run``; async tools run on it) and returns the
        run. Inside a running loop (a Jupyter cell, an ``async def``) it raises
        ``RuntimeError``: ``await`` :meth:`run_code` there (a Jupyter cell can ``await`` at
        its top level)."""
        _no_running_loop("run_code_sync", "await scope.run_code(...)")
        return asyncio.run(
            self.run_code(
                code,
                description=description,
                language=language,
                keep_sub_calls=keep_sub_calls,
                session=session,
                on_progress=on_progress,
            )
        )

    # -- presentation -----------------------------------------------------------------------

    def sdk(self, language: Language | None = None) -> str:
        """The SDK text of this scope's tools (TypeScript or Python): the instructions and
        one fenced block declaring ``tools``, byte-stable for an unchanged tool set."""
        return self._native.sdk(language or self._registry.language)

    def _assembly(self) -> dict[str, Any]:
        data = json.loads(self._native.assemble())
        assert isinstance(data, dict)
        return data

    def system_prompt(self) -> str:
        """The prompt sections this scope's model needs besides its tools (in ``code`` and
        ``both`` mode: the code-only rule and the SDK; empty in ``native`` mode)."""
        return "\n\n".join(section["text"] for section in self._assembly()["sections"])

    def tool_definitions(
        self, format: ToolFormat = "openai", *, include_sdk: bool = True
    ) -> list[dict[str, Any]]:
        """The tools this scope's model is given, in the shape a model API takes:
        ``openai`` (``{"type": "function", "function": {...}}``), ``anthropic``
        (``{"name", "description", "input_schema"}``) or ``mcp`` (``{"name",
        "description", "inputSchema", "outputSchema"?}``). In ``code`` mode that is
        ``run_code`` alone. With ``include_sdk`` (always for ``mcp``) ``run_code``'s
        description carries the SDK; without it, put :meth:`system_prompt` in the
        system prompt instead."""
        assembly = self._assembly()
        key = "self_describing" if include_sdk or format == "mcp" else "tools"
        tools: list[dict[str, Any]] = assembly[key]
        outputs: dict[str, Any] = assembly["outputs"]
        shaped: list[dict[str, Any]] = []
        for tool in tools:
            name, description, parameters = (
                tool["name"],
                tool["description"],
                tool["parameters"],
            )
            if format == "openai":
                shaped.append(
                    {
                        "type": "function",
                        "function": {
                            "name": name,
                            "description": description,
                            "parameters": parameters,
                        },
                    }
                )
            elif format == "anthropic":
                shaped.append(
                    {"name": name, "description": description, "input_schema": parameters}
                )
            elif format == "mcp":
                entry = {"name": name, "description": description, "inputSchema": parameters}
                output = outputs.get(name)
                # MCP allows object-rooted output schemas only; the transport has none.
                if isinstance(output, dict) and output.get("type") == "object":
                    entry["outputSchema"] = output
                shaped.append(entry)
            else:
                raise ValueError(f"format must be 'openai', 'anthropic' or 'mcp', not {format!r}")
        return shaped


#: The CPU time (ms) a program of a :class:`Registry` may spend by default: ten seconds is
#: far more than a program that orchestrates tool calls needs (their time is not CPU time
#: of the program), and a runaway loop costs the model's turn ten seconds, not a minute.
DEFAULT_COMPUTE_MS = 10_000
#: The wall-clock time (ms) of a program by default: one minute, what an agent loop can wait
#: for one tool call; a longer job passes ``wall_ms=`` (and tools their own ``timeout=``).
DEFAULT_WALL_MS = 60_000

#: The numeric settings of :class:`Registry`: what each counts and the range accepted
#: (``None``: no upper bound here; the engine's own ranges, ``runtime.*`` in
#: ``codemode.toml``, are the same numbers).
_SETTING_RANGES: dict[str, tuple[str, int, int | None]] = {
    "compute_ms": ("milliseconds of CPU time", 1, 86_400_000),
    "wall_ms": ("milliseconds", 1, 604_800_000),
    "heap_mb": ("MiB", 16, 65_536),
    "max_output_bytes": ("bytes", 1024, 1024 * 1024 * 1024),
    "max_call_bytes": ("bytes", 1024, 1024 * 1024 * 1024),
    "max_json_depth": ("levels", 1, _limits.MAX_VALUE_DEPTH),
    "max_parallel_sub_calls": ("calls", 1, 1024),
    "warm_pool": ("engines", 0, 64),
    "sdk_max_tokens": ("tokens", 0, None),
    "describe_max_tokens": ("tokens", 500, None),
    "embedder_timeout_ms": ("milliseconds", 1, 600_000),
    "embedder_index_timeout_ms": ("milliseconds", 1, 600_000),
}


def _check_setting(setting: str, value: object) -> None:
    """Raises :class:`ConfigError` naming ``setting`` and what it accepts, unless ``value``
    is ``None`` or a whole number in its range."""
    if value is None:
        return
    unit, low, high = _SETTING_RANGES[setting]
    accepted = (
        f"a whole number of {unit} from {low} to {high}"
        if high is not None
        else f"a whole number of {unit}, at least {low}"
    )
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(
            f"{setting} must be {accepted} (an int; None: the default), "
            f"got {value!r} ({type(value).__name__})"
        )
    if value < low or (high is not None and value > high):
        raise ConfigError(f"{setting} must be {accepted}, got {value}")


class Registry(Scope):
    """A tool registry with Code Mode: the global layer of its scopes.

    ``mode`` is how scopes present their tools unless they say otherwise (``native``:
    every tool; ``code``: ``run_code`` and the SDK; ``both``). ``language`` is the
    default language of programs (``run_code(language=...)`` picks per run) and of the
    SDK: ``typescript``, or ``python`` (each program in a worker process of this
    interpreter, ``sys.executable``, confined by Landlock, seccomp and rlimits; where they
    cannot be enforced Python programs are refused, as the command refuses them, unless
    ``allow_unconfined``: a ``python`` registry raises :class:`ConfigError`). The limits
    of each program: ``compute_ms`` (CPU time; default 10 s, ``DEFAULT_COMPUTE_MS``),
    ``wall_ms`` (default 60 s, ``DEFAULT_WALL_MS``; :meth:`from_config` keeps
    ``codemode.toml``'s, the command's 60 s and 600 s), ``heap_mb``,
    ``max_output_bytes``, ``max_call_bytes`` (one tool call's arguments),
    ``max_json_depth``; ``max_parallel_sub_calls`` bounds how many of a program's calls
    overlap; ``warm_pool`` engines are kept ready; ``typecheck`` (``off``, ``warn``,
    ``refuse``) type-checks TypeScript programs before they run; ``sdk_max_tokens``
    replaces a larger SDK by a compact index, whose tools the model reads with
    ``describe_tools``: ``describe_max_tokens`` bounds one of its answers (default half of
    ``sdk_max_tokens``), and ``embedder(texts) -> vectors`` (sync; a list of float lists or
    a 2-D array, one vector per text) adds semantic ranking to its search, its vectors
    cached under ``embedder_model``; an embedder that fails or takes longer than
    ``embedder_timeout_ms`` (a query, default 2,000) or ``embedder_index_timeout_ms`` (the
    tools not embedded yet, default 30,000) leaves the search lexical, never failing it. A
    numeric setting that is not an ``int`` in its range raises :class:`ConfigError` naming
    it and what it accepts.
    ``approver(call, reason)`` (sync or async) answers ``True`` to run a call a policy asks
    about.
    """

    def __init__(
        self,
        *,
        mode: Mode = "native",
        language: Language = "typescript",
        compute_ms: int | None = DEFAULT_COMPUTE_MS,
        wall_ms: int | None = DEFAULT_WALL_MS,
        heap_mb: int | None = None,
        max_output_bytes: int | None = None,
        max_call_bytes: int | None = None,
        max_json_depth: int | None = None,
        max_parallel_sub_calls: int | None = None,
        warm_pool: int | None = None,
        typecheck: Literal["off", "warn", "refuse"] = "off",
        sdk_max_tokens: int | None = None,
        describe_max_tokens: int | None = None,
        embedder: Callable[[list[str]], Any] | None = None,
        embedder_model: str = "python",
        embedder_timeout_ms: int | None = None,
        embedder_index_timeout_ms: int | None = None,
        approver: Callable[[ToolCall, str | None], Any] | None = None,
        allow_unconfined: bool = False,
    ) -> None:
        if embedder is not None and (
            not callable(embedder) or inspect.iscoroutinefunction(embedder)
        ):
            raise ConfigError("embedder must be a sync callable: embedder(texts) -> vectors")
        if language not in ("typescript", "python"):
            raise ConfigError(f"language must be 'typescript' or 'python', not {language!r}")
        if compute_ms is None:
            compute_ms = DEFAULT_COMPUTE_MS
        if wall_ms is None:
            wall_ms = DEFAULT_WALL_MS
        numbers = {
            "compute_ms": compute_ms,
            "wall_ms": wall_ms,
            "heap_mb": heap_mb,
            "max_output_bytes": max_output_bytes,
            "max_call_bytes": max_call_bytes,
            "max_json_depth": max_json_depth,
            "max_parallel_sub_calls": max_parallel_sub_calls,
            "warm_pool": warm_pool,
            "sdk_max_tokens": sdk_max_tokens,
            "describe_max_tokens": describe_max_tokens,
            "embedder_timeout_ms": embedder_timeout_ms,
            "embedder_index_timeout_ms": embedder_index_timeout_ms,
        }
        for setting, value in numbers.items():
            _check_setting(setting, value)
        try:
            native = _native.Registry(
                {
                    "mode": mode,
                    "compute_ms": compute_ms,
                    "wall_ms": wall_ms,
                    "heap_mb": heap_mb,
                    "max_output_bytes": max_output_bytes,
                    "max_call_bytes": max_call_bytes,
                    "warm_pool": warm_pool,
                    "max_json_depth": max_json_depth,
                    "max_parallel_sub_calls": max_parallel_sub_calls,
                    "typecheck": typecheck,
                    "sdk_max_tokens": sdk_max_tokens,
                    "describe_max_tokens": describe_max_tokens,
                    "embedder": None if embedder is None else _embedder_adapter(embedder),
                    "embedder_model": embedder_model,
                    "embedder_timeout_ms": embedder_timeout_ms,
                    "embedder_index_timeout_ms": embedder_index_timeout_ms,
                    "language": language,
                    "allow_unconfined": allow_unconfined,
                }
            )
        except ConfigError as exc:
            if language == "python" and not allow_unconfined and "allow_unconfined" in str(exc):
                raise ConfigError(
                    f"{exc} (from Python: codemode.Registry(..., allow_unconfined=True))"
                ) from None
            raise
        self._adopt(native, language, [])
        if approver is not None:
            self.set_approver(approver)

    def _adopt(
        self, native: _native.Registry, language: Language, servers: list[ServerStatus]
    ) -> None:
        self.language: Language = language
        self.servers: list[ServerStatus] = servers
        self._native_registry = native
        super().__init__(native.global_scope(), None)

    @classmethod
    async def from_config(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        approver: Callable[[ToolCall, str | None], Any] | None = None,
    ) -> Registry:
        """The registry a ``codemode.toml`` describes, built as the ``codemode`` command
        builds it: its mode, runtime budgets, built-in and command tools, policies, and its
        ``[[mcp]]`` servers started (a server that cannot start is reported in
        :attr:`servers`, not raised; the other tools still work). ``path`` ``None``:
        ``./codemode.toml`` if it exists, else the defaults (the built-in file tools over
        the working directory). Raises :class:`codemode.ConfigError` (with the file, line
        and column) for a configuration the command refuses."""
        native, servers, language = await _native.Registry.from_config(
            None if path is None else os.fspath(path)
        )
        registry = cls.__new__(cls)
        registry._adopt(
            native,
            cast(Language, language),
            [ServerStatus._from_json(item) for item in json.loads(servers)],
        )
        if approver is not None:
            registry.set_approver(approver)
        return registry

    def __repr__(self) -> str:
        return f"<codemode.Registry mode={self.mode} tools={self.tool_names()!r}>"

    def set_policy(self, name: str, policy: Policy | None) -> None:
        """Sets the policy of calls of the tool ``name`` (in every scope): ``allow``,
        ``deny`` (``TOOL_DENIED``) or ``ask`` (the approver decides; ``APPROVAL_DENIED``
        without one); ``None`` removes it."""
        self._native_registry.set_policy(name, policy)

    def set_approver(self, approver: Callable[[ToolCall, str | None], Any] | None) -> None:
        """Installs the approver of asked calls (``None``: asked calls are denied)."""
        if approver is None:
            self._native_registry.set_approver(None, False)
            return
        is_async = _is_async(approver)
        self._native_registry.set_approver(approver_adapter(approver, is_async), is_async)
