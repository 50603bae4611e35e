"""The registry from Python: tools from type hints, native calls through the pipeline,
validation, failures as results, scopes, restrictions, guards, listeners, policies and
the approver, errors as exceptions with codes.

Run against the installed wheel (python/README.md)."""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import enum
from typing import Any, TypedDict

import pytest

import codemode

@dataclasses.dataclass
class Point:
    x: float
    y: float


class Box(TypedDict):
    low: Point
    high: Point


def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    return codemode.Registry(**options)


def test_the_installed_package_is_the_one_tested() -> None:
    # The compiled half is importable, so this is the built package, not the source tree
    # (which has no extension module).
    assert codemode._native.__file__ is not None  # type: ignore[attr-defined]
    assert codemode.__version__ == "0.1.0"
    assert "INVALID_ARGS" in codemode.ERROR_CODES


def test_the_limits_written_out_in_python_are_the_librarys() -> None:
    from codemode import _limits, _native

    written = {
        name: getattr(_limits, name)
        for name in dir(_limits)
        if name.isupper() and isinstance(getattr(_limits, name), int)
    }
    assert written == _native.LIMITS


# -- registration ---------------------------------------------------------------------------


def test_a_tool_is_registered_from_its_hints_and_docstring() -> None:
    reg = make_registry()

    @reg.tool
    def add(a: int, b: int = 2) -> int:
        """Add two numbers.

        Args:
            a: the first
            b: the second
        """
        return a + b

    assert add(1) == 3  # the decorator returns the function unchanged
    assert reg.tool_names() == ["add"]
    [definition] = reg.tool_definitions("anthropic")
    assert definition["name"] == "add"
    assert definition["description"] == "Add two numbers."
    schema = definition["input_schema"]
    assert schema["type"] == "object"
    assert schema["required"] == ["a"]
    assert schema["properties"]["a"]["type"] == "integer"
    assert schema["properties"]["a"]["description"] == "the first"
    assert schema["properties"]["b"]["default"] == 2


def test_a_function_that_cannot_be_a_tool_is_refused_naming_the_parameter() -> None:
    reg = make_registry()
    with pytest.raises(codemode.ToolDefinitionError) as caught:

        @reg.tool
        def bad(paths: bytes) -> None:
            """Has bytes."""

    assert "paths" in str(caught.value)
    assert caught.value.code == "INVALID_DEFINITION"
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, codemode.CodemodeError)
    assert reg.tool_names() == []


def test_a_name_registered_twice_in_one_layer_is_refused_with_a_code() -> None:
    reg = make_registry()

    def echo(text: str) -> str:
        return text

    def other(text: str) -> str:
        return text

    reg.add_tool(echo)
    reg.add_tool(echo)  # the same function again replaces it
    with pytest.raises(codemode.ToolDefinitionError) as caught:
        reg.add_tool(other, name="echo")
    assert caught.value.code == "INVALID_DEFINITION"
    assert "remove it first" in str(caught.value)


def test_an_explicit_schema_outside_the_subset_is_unsupported() -> None:
    reg = make_registry()

    def f(**kwargs: Any) -> None:
        pass

    with pytest.raises(codemode.UnsupportedSchemaError) as caught:
        reg.add_tool(
            f,
            name="f",
            input_schema={"type": "object", "properties": {"x": {"type": "string", "format": "uri"}}},
        )
    assert caught.value.code == "UNSUPPORTED_SCHEMA"
    assert "format" in str(caught.value)


def test_a_registration_is_disposed() -> None:
    reg = make_registry()

    def ping() -> str:
        return "pong"

    registration = reg.add_tool(ping)
    assert reg.tool_names() == ["ping"]
    assert registration.dispose() is True
    assert registration.dispose() is False
    assert reg.tool_names() == []

    @reg.tool
    def pong() -> str:
        """Pong."""
        return "ping"

    assert reg.remove_tool("pong") is True
    assert reg.remove_tool("pong") is False
    assert reg.tool_names() == []


def test_bad_settings_are_config_errors() -> None:
    with pytest.raises(codemode.ConfigError) as caught:
        codemode.Registry(mode="sideways")  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_CONFIG"
    with pytest.raises(codemode.ConfigError, match="compute_ms"):
        codemode.Registry(compute_ms=0)
    with pytest.raises(codemode.ConfigError, match="max_parallel_sub_calls"):
        codemode.Registry(max_parallel_sub_calls=0)


@pytest.mark.parametrize(
    ("settings", "named", "accepted"),
    [
        ({"wall_ms": -5}, "wall_ms", "a whole number of milliseconds from 1 to 604800000"),
        ({"wall_ms": 1.5}, "wall_ms", "(an int; None: the default), got 1.5 (float)"),
        ({"heap_mb": "64"}, "heap_mb", "a whole number of MiB from 16 to 65536"),
        ({"compute_ms": 2**70}, "compute_ms", "from 1 to 86400000"),
        ({"max_output_bytes": True}, "max_output_bytes", "got True (bool)"),
        ({"warm_pool": -1}, "warm_pool", "from 0 to 64, got -1"),
        ({"sdk_max_tokens": -1}, "sdk_max_tokens", "at least 0, got -1"),
        ({"max_json_depth": 0.5}, "max_json_depth", "(float)"),
        ({"max_call_bytes": 10}, "max_call_bytes", "from 1024 to"),
        ({"describe_max_tokens": 10}, "describe_max_tokens", "at least 500, got 10"),
        ({"describe_max_tokens": "5000"}, "describe_max_tokens", "got '5000' (str)"),
        ({"embedder_timeout_ms": 0}, "embedder_timeout_ms", "from 1 to 600000, got 0"),
        ({"embedder_index_timeout_ms": 2.5}, "embedder_index_timeout_ms", "(float)"),
    ],
)
def test_a_setting_of_the_wrong_type_or_sign_is_a_config_error_naming_it(
    settings: dict[str, Any], named: str, accepted: str
) -> None:
    with pytest.raises(codemode.ConfigError) as caught:
        codemode.Registry(**settings)
    assert caught.value.code == "INVALID_CONFIG"
    assert str(caught.value).startswith(named + " must be "), str(caught.value)
    assert accepted in str(caught.value)


def test_the_default_budgets_are_ten_seconds_of_cpu_and_a_minute_of_wall() -> None:
    import inspect

    from codemode._registry import DEFAULT_COMPUTE_MS, DEFAULT_WALL_MS

    assert (DEFAULT_COMPUTE_MS, DEFAULT_WALL_MS) == (10_000, 60_000)
    parameters = inspect.signature(codemode.Registry).parameters
    assert parameters["compute_ms"].default == 10_000
    assert parameters["wall_ms"].default == 60_000


def test_a_panic_in_the_rust_half_is_a_codemode_error() -> None:
    with pytest.raises(codemode.PanicError, match="on purpose") as caught:
        codemode._native._panic_for_tests("on purpose")  # type: ignore[attr-defined]
    assert isinstance(caught.value, codemode.CodemodeError)
    assert caught.value.code == "HOST_FAILED"


# -- native calls ----------------------------------------------------------------------------


async def test_sync_and_async_tools_execute_through_the_pipeline() -> None:
    reg = make_registry()

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    @reg.tool
    async def shout(text: str) -> str:
        """Shout."""
        await asyncio.sleep(0.01)
        return text.upper()

    result = await reg.execute("add", {"a": 1, "b": 2})
    assert result.ok and result.value == 3 and result.text == "3"
    assert result.error_code is None and result.duration_ms >= 0
    assert result.unwrap() == 3
    result = await reg.execute("shout", {"text": "hi"})
    assert (result.ok, result.value, result.text) == (True, "HI", "HI")


async def test_arguments_become_the_annotated_types() -> None:
    reg = make_registry()

    @reg.tool
    def area(box: Box) -> float:
        """Area of a box."""
        assert isinstance(box["low"], Point)
        return (box["high"].x - box["low"].x) * (box["high"].y - box["low"].y)

    result = await reg.execute("area", {"box": {"low": {"x": 0, "y": 0}, "high": {"x": 2, "y": 3}}})
    assert result.ok, result.text
    assert result.value == 6


async def test_invalid_arguments_are_reported_with_their_paths() -> None:
    reg = make_registry()

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    result = await reg.execute("add", {"a": "1"})
    assert not result.ok
    assert result.error_code == "INVALID_ARGS"
    assert "$.a: expected integer, got string" in result.text
    assert "$.b: required property is missing" in result.text
    assert result.value is None
    with pytest.raises(codemode.ToolCallError) as caught:
        result.unwrap()
    assert caught.value.code == "INVALID_ARGS"


async def test_arguments_without_a_json_form_are_an_error_result_like_other_bad_arguments() -> (
    None
):
    reg = make_registry()

    @reg.tool
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    for arguments, where in [({"a": b"1", "b": 1}, "$.a: a bytes"), ({"a": 2**60, "b": 1}, "$.a: integer")]:
        result = await reg.execute("add", arguments)
        assert not result.ok
        assert result.error_code == "INVALID_ARGS"
        assert result.text.startswith("Error: invalid arguments:\n- " + where), result.text
        assert result.content == [{"type": "text", "text": result.error_message}]
        with pytest.raises(codemode.ToolCallError) as caught:
            result.unwrap()
        assert caught.value.code == "INVALID_ARGS"
    # The same shape as arguments the schema refuses.
    refused = await reg.execute("add", {"a": 1, "b": "2"})
    assert refused.text.startswith("Error: invalid arguments:\n- $.b")


async def test_an_exception_in_a_tool_is_its_error_result() -> None:
    reg = make_registry()

    @reg.tool
    def explode(message: str) -> None:
        """Fails."""
        raise ValueError(message)

    @reg.tool
    async def explode_later() -> None:
        """Fails later."""
        await asyncio.sleep(0)
        raise KeyError("missing")

    result = await reg.execute("explode", {"message": "boom"})
    assert not result.ok
    assert result.error_code == "TOOL_FAILED"
    assert result.error_message == "ValueError: boom"
    assert result.text == "Error: ValueError: boom"
    result = await reg.execute("explode_later")
    assert (result.error_code, result.error_message) == ("TOOL_FAILED", "KeyError: 'missing'")


async def test_a_return_value_without_json_form_names_its_path() -> None:
    reg = make_registry()

    @reg.tool(infer_output=False)
    def odd() -> Any:
        """Returns bytes."""
        return {"items": [1, b"23"]}

    result = await reg.execute("odd")
    assert result.error_code == "INVALID_TOOL_OUTPUT"
    assert "$.items[1]: a bytes value is not JSON" in result.text


async def test_a_value_outside_the_output_schema_is_refused_by_the_pipeline() -> None:
    reg = make_registry()

    @reg.tool
    def count() -> int:
        """Counts wrongly."""
        return "three"  # type: ignore[return-value]

    result = await reg.execute("count")
    assert result.error_code == "INVALID_TOOL_OUTPUT"
    assert "expected integer" in result.text


async def test_unknown_tools_and_code_mode_scopes_refuse_direct_calls() -> None:
    reg = make_registry()

    @reg.tool
    def ping() -> str:
        """Ping."""
        return "pong"

    result = await reg.execute("nope")
    assert result.error_code == "UNKNOWN_TOOL"
    coder = reg.scope("coder", mode="code")
    result = await coder.execute("ping")
    assert result.error_code == "UNKNOWN_TOOL"
    assert (await reg.scope("native-agent").execute("ping")).value == "pong"


async def test_a_tool_that_never_returns_ends_at_its_timeout() -> None:
    reg = make_registry()
    cancelled = asyncio.Event()

    @reg.tool(timeout=0.3)
    async def hang() -> None:
        """Never returns."""
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    loop = asyncio.get_running_loop()
    started = loop.time()
    result = await reg.execute("hang")
    assert result.error_code == "TOOL_TIMEOUT", result.text
    assert loop.time() - started < 10
    await asyncio.wait_for(cancelled.wait(), 10)


async def test_a_sync_tool_that_never_returns_ends_at_its_timeout() -> None:
    import threading

    reg = make_registry()
    release = threading.Event()

    @reg.tool(timeout=0.3)
    def block() -> None:
        """Blocks its worker thread."""
        release.wait(30)

    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        result = await reg.execute("block")
        elapsed = loop.time() - started
        assert result.error_code == "TOOL_TIMEOUT", result.text
        # Answered at the timeout, not after the pipeline's 2 s grace for a body that
        # ignores cancellation (the function itself runs on, unread).
        assert elapsed < 2.0, elapsed
    finally:
        release.set()


async def test_cancelling_the_awaiting_task_cancels_the_call() -> None:
    reg = make_registry()
    started, cancelled = asyncio.Event(), asyncio.Event()

    @reg.tool
    async def slow() -> None:
        """Slow."""
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    task = asyncio.ensure_future(reg.execute("slow"))
    await asyncio.wait_for(started.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.wait_for(cancelled.wait(), 10)


async def test_a_sync_tool_runs_on_a_worker_thread_not_the_loop() -> None:
    import threading
    import time

    reg = make_registry()
    loop_thread = threading.get_ident()
    seen: list[int] = []

    @reg.tool
    def nap() -> str:
        """Sleeps."""
        seen.append(threading.get_ident())
        time.sleep(0.5)
        return "rested"

    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(tick())
    try:
        result = await reg.execute("nap")
    finally:
        ticker.cancel()
    assert result.value == "rested"
    assert seen and seen[0] != loop_thread
    assert ticks >= 10  # the loop kept running while the tool slept


async def test_async_tools_see_the_callers_contextvars() -> None:
    reg = make_registry()
    request: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")

    @reg.tool
    async def who() -> str:
        """Which request."""
        return request.get()

    request.set("req-7")
    assert (await reg.execute("who")).value == "req-7"


# -- scopes, restrictions, guards, listeners, policies ---------------------------------------


async def test_scopes_inherit_and_restrict() -> None:
    reg = make_registry()

    @reg.tool
    def read() -> str:
        """Read."""
        return "r"

    @reg.tool
    def write() -> str:
        """Write."""
        return "w"

    agent = reg.scope("agent")
    assert agent.label == "agent" and not agent.is_global and reg.is_global

    @agent.tool
    def own() -> str:
        """The agent's own."""
        return "o"

    assert agent.tool_names() == ["own", "read", "write"]
    assert reg.tool_names() == ["read", "write"]
    restriction = agent.restrict(deny=["write"])
    assert agent.tool_names() == ["own", "read"]
    assert (await agent.execute("write")).error_code == "UNKNOWN_TOOL"
    assert (await reg.execute("write")).value == "w"
    restriction.dispose()
    assert agent.tool_names() == ["own", "read", "write"]
    with pytest.raises(codemode.ToolDefinitionError):
        agent.restrict(allow=["no-such-tool"])
    with pytest.raises(codemode.ToolDefinitionError):
        reg.restrict(deny=["read"])  # the global layer inherits nothing
    agent.close()
    with pytest.raises(codemode.CodemodeError):
        agent.scope("under-a-closed-one")


async def test_guards_deny_and_fail_closed() -> None:
    reg = make_registry()

    @reg.tool
    def divide(a: float, b: float) -> float:
        """Divide."""
        return a / b

    calls: list[codemode.ToolCall] = []

    def no_zero(call: codemode.ToolCall) -> str | None:
        calls.append(call)
        return "b must not be 0" if call.arguments.get("b") == 0 else None

    guard = reg.guard(no_zero)
    assert (await reg.execute("divide", {"a": 1, "b": 2})).value == 0.5
    result = await reg.execute("divide", {"a": 1, "b": 0})
    assert result.error_code == "GUARD_DENIED"
    assert "b must not be 0" in result.text
    assert calls[0].name == "divide" and calls[0].arguments == {"a": 1, "b": 2}
    assert not calls[0].nested
    guard.dispose()

    def broken(call: codemode.ToolCall) -> str | None:
        raise RuntimeError("guard bug")

    reg.guard(broken)
    result = await reg.execute("divide", {"a": 1, "b": 2})
    assert result.error_code == "GUARD_DENIED"
    assert "RuntimeError: guard bug" in result.text


async def test_pre_execute_listeners_allow_deny_and_ask() -> None:
    asked: list[tuple[str, str | None]] = []

    async def approver(call: codemode.ToolCall, reason: str | None) -> bool:
        asked.append((call.name, reason))
        return call.arguments.get("ok") is True

    reg = make_registry(approver=approver)

    @reg.tool
    def act(ok: bool = False) -> str:
        """Acts."""
        return "done"

    def deny_unlucky(call: codemode.ToolCall) -> codemode.Deny | None:
        return codemode.Deny("unlucky") if call.arguments.get("ok") is None else None

    async def ask_always(call: codemode.ToolCall) -> codemode.Ask:
        await asyncio.sleep(0)
        return codemode.Ask("sure?")

    reg.on_pre_execute(deny_unlucky)
    reg.on_pre_execute(ask_always)
    # Approvals are asked for an agent's calls; a call of the global view has nobody.
    agent = reg.scope("agent")
    result = await agent.execute("act")
    assert result.error_code == "TOOL_DENIED" and "unlucky" in result.text
    result = await agent.execute("act", {"ok": True})
    assert result.ok and result.value == "done"
    result = await agent.execute("act", {"ok": False})
    assert result.error_code == "APPROVAL_DENIED"
    assert asked == [("act", "sure?"), ("act", "sure?")]
    result = await reg.execute("act", {"ok": True})
    assert result.error_code == "APPROVAL_DENIED" and "no agent" in result.text


async def test_a_listener_that_raises_fails_the_call() -> None:
    reg = make_registry()

    @reg.tool
    def ping() -> str:
        """Ping."""
        return "pong"

    def broken(call: codemode.ToolCall) -> None:
        raise LookupError("listener bug")

    reg.on_pre_execute(broken)
    result = await reg.execute("ping")
    assert result.error_code == "LISTENER_FAILED"
    assert "LookupError: listener bug" in result.text


async def test_tool_policies_deny_or_ask() -> None:
    reg = make_registry()

    @reg.tool(policy="deny")
    def rm() -> str:
        """Removes."""
        return "gone"

    @reg.tool(policy="ask")
    def deploy() -> str:
        """Deploys."""
        return "deployed"

    agent = reg.scope("agent")
    assert (await agent.execute("rm")).error_code == "TOOL_DENIED"
    result = await agent.execute("deploy")
    assert result.error_code == "APPROVAL_DENIED"  # no approver
    assert "no approval service" in result.text
    reg.set_approver(lambda call, reason: True)
    assert (await agent.execute("deploy")).value == "deployed"
    reg.set_policy("rm", None)
    assert (await agent.execute("rm")).value == "gone"


async def test_result_observers_see_every_final_result(capsys: pytest.CaptureFixture[str]) -> None:
    reg = make_registry()

    @reg.tool
    def ping() -> str:
        """Ping."""
        return "pong"

    seen: list[tuple[str, bool, str]] = []
    reg.on_result(lambda call, result: seen.append((call.name, result.ok, result.text)))

    def broken(call: codemode.ToolCall, result: codemode.ToolResult) -> None:
        raise ValueError("observer bug")

    reg.on_result(broken)
    await reg.execute("ping")
    await reg.execute("nope")
    assert seen[0] == ("ping", True, "pong")
    assert seen[1][:2] == ("nope", False)
    assert seen[1][2].startswith("Error: unknown tool")
    assert "observer bug" in capsys.readouterr().err


def test_async_guards_and_observers_are_refused() -> None:
    reg = make_registry()

    async def guard(call: codemode.ToolCall) -> None:
        return None

    with pytest.raises(TypeError):
        reg.guard(guard)  # type: ignore[arg-type]


# -- execute's arguments and result: plain data converted natively, the rest as text ---------


class _Mood(enum.Enum):
    CALM = "calm"


def _cycle() -> list[Any]:
    cycle: list[Any] = [1]
    cycle.append(cycle)
    return cycle


def _nested(depth: int) -> Any:
    value: Any = "bottom"
    for index in range(depth):
        value = [value] if index % 2 else {"next": value}
    return value


_ECHOED = [
    None,
    True,
    0,
    -(2**53 - 1),
    2**53 - 1,
    1.5,
    -0.0,
    1e300,
    2.0,
    "",
    "é\u2028\U0001f600",
    [],
    {},
    {"a": 1, "b": [None, False, 2.5, "x"], "c": {"d": {}}},
    _nested(30),  # within the native conversion's depth
    _nested(40),  # beyond it: the text path
    _nested(2000),
    (1, "two"),  # a tuple: the text path (a list)
    _Mood.CALM,  # an Enum: the text path (its value)
    {"when": dataclasses.make_dataclass("Point", ["x"])(3)},  # a dataclass: the text path
]


@pytest.mark.parametrize("value", _ECHOED, ids=range(len(_ECHOED)))
async def test_execute_passes_and_returns_the_json_of_plain_and_other_values(value: Any) -> None:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def echo(value: Any) -> Any:
        """Returns its value."""
        return value

    # codemode._json: the json module's own recursion stops short of the deep values.
    expected = codemode._json.dumps(codemode._hints.to_json(value))
    result = await reg.execute("echo", {"value": value})
    assert result.ok, result.text
    assert codemode._json.dumps(result.value) == expected
    assert isinstance(result, codemode.ToolResult)
    assert result.content == [{"type": "text", "text": result.text}]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"value": 2**53}, "$.value: integer 9007199254740992 is outside"),
        ({"value": float("nan")}, "$.value: nan is not JSON"),
        ({"value": "\ud800"}, "$.value: a string with a lone surrogate is not UTF-8 text"),
        ({"value": {1: "x"}}, "$.value: the dict key 1 is not a string"),
        ({"value": b"ab"}, "$.value: a bytes value is not JSON"),
        ([1, 2], "the arguments must be a mapping"),
        ({"value": _cycle()}, "the value contains itself"),
    ],
)
async def test_execute_refuses_arguments_without_json_form_naming_the_path(
    arguments: Any, message: str
) -> None:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def echo(value: Any) -> Any:
        """Returns its value."""
        return value

    result = await reg.execute("echo", arguments)
    assert not result.ok
    assert result.error_code == "INVALID_ARGS"
    assert message in result.text
