"""Post-execute listeners (accept, replace, block) and around-dispatch wrappers from Python,
sync and async, on native calls and on a program's calls, with their order and their
failures.

Run against the installed wheel (python/README.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import codemode


def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    reg = codemode.Registry(**options)

    @reg.tool
    def ping(word: str = "pong") -> str:
        """Answers its word."""
        return word

    @reg.tool(output_schema={"type": "integer"})
    def count() -> int:
        """Counts."""
        return 3

    return reg


async def test_a_post_execute_listener_accepts_unchanged() -> None:
    reg = make_registry()
    seen: list[tuple[str, bool, Any]] = []

    def accept(call: codemode.ToolCall, result: codemode.ToolResult) -> codemode.Accept:
        seen.append((call.name, result.ok, result.value))
        return codemode.Accept()

    reg.on_post_execute(accept)
    result = await reg.execute("ping")
    assert (result.ok, result.value, result.text) == (True, "pong", "pong")
    assert seen == [("ping", True, "pong")]


async def test_a_post_execute_listener_replaces_the_value_or_the_content() -> None:
    reg = make_registry()

    def louder(call: codemode.ToolCall, result: codemode.ToolResult) -> codemode.Accept | None:
        if call.name == "ping" and result.ok:
            return codemode.Accept(value=str(result.value).upper())
        if call.name == "count":
            return codemode.Accept(content="three")
        return None

    registration = reg.on_post_execute(louder)
    result = await reg.execute("ping", {"word": "hey"})
    assert (result.value, result.text) == ("HEY", "HEY")
    result = await reg.execute("count")
    # The content is replaced for the model; the value stays.
    assert (result.value, result.text) == (3, "three")
    registration.dispose()
    assert (await reg.execute("ping", {"word": "hey"})).value == "hey"


async def test_a_replaced_value_is_checked_against_the_output_schema() -> None:
    reg = make_registry()
    reg.on_post_execute(lambda call, result: codemode.Accept(value="not a number"))
    result = await reg.execute("count")
    assert not result.ok
    assert result.error_code == "INVALID_TOOL_OUTPUT"


async def test_a_post_execute_listener_blocks_a_result() -> None:
    reg = make_registry()

    async def no_secrets(
        call: codemode.ToolCall, result: codemode.ToolResult
    ) -> codemode.Block | None:
        await asyncio.sleep(0)
        if result.ok and "secret" in str(result.value):
            return codemode.Block("that result holds a secret; ask for something else")
        return None

    reg.on_post_execute(no_secrets)
    result = await reg.execute("ping", {"word": "my secret"})
    assert not result.ok
    assert result.error_code == "RESULT_BLOCKED"
    assert result.value is None
    assert result.text == "Error: that result holds a secret; ask for something else"
    assert (await reg.execute("ping", {"word": "fine"})).value == "fine"


async def test_post_execute_listeners_see_a_programs_calls() -> None:
    reg = make_registry()
    seen: list[tuple[str, bool]] = []

    def block_ping(call: codemode.ToolCall, result: codemode.ToolResult) -> codemode.Block | None:
        seen.append((call.name, call.nested))
        return codemode.Block("no pings") if call.name == "ping" else None

    reg.on_post_execute(block_ping)
    run = await reg.run_code(
        "const n = await tools.count({}); "
        "try { await tools.ping({}); } catch (e) { return [n, e.name, e.message]; }"
    )
    assert run.ok, run.text
    assert run.value == [3, "ToolCallError", "no pings"]
    assert ("count", True) in seen and ("ping", True) in seen
    assert run.sub_calls[1].error_code == "RESULT_BLOCKED"


async def test_post_execute_listeners_run_in_order_and_none_delegates() -> None:
    reg = make_registry()
    order: list[str] = []

    def first(call: codemode.ToolCall, result: codemode.ToolResult) -> None:
        order.append("first")
        return None

    def second(call: codemode.ToolCall, result: codemode.ToolResult) -> codemode.Accept:
        order.append("second")
        return codemode.Accept(value="second")

    def third(call: codemode.ToolCall, result: codemode.ToolResult) -> codemode.Accept:
        order.append("third")
        return codemode.Accept(value="third")

    reg.on_post_execute(first)
    reg.on_post_execute(second)
    reg.on_post_execute(third)
    result = await reg.execute("ping")
    # `second` decided: the listeners after it are not asked.
    assert result.value == "second"
    assert order == ["first", "second"]


async def test_a_post_execute_listener_that_raises_or_answers_nonsense_fails_the_call() -> None:
    reg = make_registry()

    def broken(call: codemode.ToolCall, result: codemode.ToolResult) -> None:
        raise KeyError("listener bug")

    registration = reg.on_post_execute(broken)
    result = await reg.execute("ping")
    assert result.error_code == "LISTENER_FAILED"
    assert "KeyError" in result.text and "listener bug" in result.text
    registration.dispose()

    reg.on_post_execute(lambda call, result: "yes")
    result = await reg.execute("ping")
    assert result.error_code == "LISTENER_FAILED"
    assert "Accept" in result.text


def test_accept_replaces_one_thing() -> None:
    with pytest.raises(ValueError):
        codemode.Accept(value=1, content="one")
    assert repr(codemode.Accept(value=None)) == "Accept(value=None)"
    assert codemode.Block("x") == codemode.Block("x")


async def test_a_post_execute_listener_of_an_agent_scope_sees_only_its_calls() -> None:
    reg = make_registry()
    agent = reg.scope("agent")
    agent.on_post_execute(lambda call, result: codemode.Block("blocked in the agent"))
    assert (await reg.execute("ping")).ok
    result = await agent.execute("ping")
    assert result.error_code == "RESULT_BLOCKED"
    agent.close()
    assert (await reg.execute("ping")).ok


# -- around-dispatch ----------------------------------------------------------------------------


async def test_an_around_dispatch_wrapper_sees_the_call_and_its_result() -> None:
    reg = make_registry()
    log: list[str] = []

    async def timed(
        call: codemode.ToolCall, call_next: Callable[[], Awaitable[codemode.ToolResult]]
    ) -> codemode.ToolResult:
        log.append(f"before {call.name}")
        result = await call_next()
        log.append(f"after {call.name}: {result.value}")
        return result

    registration = reg.on_execute(timed)
    result = await reg.execute("ping", {"word": "hi"})
    assert (result.ok, result.value) == (True, "hi")
    assert log == ["before ping", "after ping: hi"]
    registration.dispose()
    await reg.execute("ping")
    assert len(log) == 2


async def test_around_dispatch_wrappers_nest_first_outermost_and_wrap_program_calls() -> None:
    reg = make_registry()
    log: list[str] = []

    def wrapper(tag: str) -> Any:
        async def wrap(
            call: codemode.ToolCall, call_next: Callable[[], Awaitable[codemode.ToolResult]]
        ) -> codemode.ToolResult:
            log.append(f"{tag}>")
            result = await call_next()
            log.append(f"<{tag}")
            return result

        return wrap

    reg.on_execute(wrapper("outer"))
    reg.on_execute(wrapper("inner"))
    run = await reg.run_code("return await tools.ping({word: 'x'})")
    assert run.ok and run.value == "x", run.text
    # run_code itself is dispatched too: its wrappers enclose the program's call's.
    assert log[:2] == ["outer>", "inner>"]
    assert log == ["outer>", "inner>", "outer>", "inner>", "<inner", "<outer", "<inner", "<outer"]


async def test_an_around_dispatch_wrapper_may_retry() -> None:
    reg = make_registry()
    attempts = 0

    @reg.tool
    def flaky() -> str:
        """Fails twice, then works."""
        nonlocal attempts
        attempts += 1
        if attempts < 3:
            raise ConnectionError("try again")
        return "finally"

    async def retry(
        call: codemode.ToolCall, call_next: Callable[[], Awaitable[codemode.ToolResult]]
    ) -> codemode.ToolResult:
        result = await call_next()
        for _ in range(5):
            if result.ok:
                break
            result = await call_next()
        return result

    reg.on_execute(retry)
    result = await reg.execute("flaky")
    assert (result.ok, result.value, attempts) == (True, "finally", 3)


async def test_an_around_dispatch_wrapper_that_raises_or_invents_a_result_fails_the_call() -> None:
    reg = make_registry()

    async def broken(
        call: codemode.ToolCall, call_next: Callable[[], Awaitable[codemode.ToolResult]]
    ) -> codemode.ToolResult:
        raise PermissionError("wrapper bug")

    registration = reg.on_execute(broken)
    result = await reg.execute("ping")
    assert result.error_code == "LISTENER_FAILED"
    assert "PermissionError: wrapper bug" in result.text
    registration.dispose()

    async def invents(
        call: codemode.ToolCall, call_next: Callable[[], Awaitable[codemode.ToolResult]]
    ) -> codemode.ToolResult:
        return codemode.ToolResult(ok=True, text="made up", value="made up")

    reg.on_execute(invents)
    result = await reg.execute("ping")
    assert result.error_code == "LISTENER_FAILED"
    assert "call_next" in result.text


def test_a_sync_around_dispatch_wrapper_is_refused() -> None:
    reg = make_registry()

    def sync(call: codemode.ToolCall, call_next: Any) -> Any:
        return None

    with pytest.raises(TypeError):
        reg.on_execute(sync)
