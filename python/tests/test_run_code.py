"""Code Mode from Python: TypeScript programs calling sync and async Python tools through
the pipeline, overlap, failures by kind, cancellation from asyncio, many runs from one
loop, and the GIL released while a program computes.

Timings are generous: the suite must pass on a loaded 2-core machine."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import codemode

def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    return codemode.Registry(**options)


def tools(reg: codemode.Registry) -> None:
    @reg.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @reg.tool
    async def greet(name: str) -> str:
        """Greet someone."""
        await asyncio.sleep(0.01)
        return f"hello {name}"


async def test_a_program_calls_sync_and_async_python_tools() -> None:
    reg = make_registry()
    tools(reg)
    agent = reg.scope("agent-1", mode="code")
    run = await agent.run_code(
        """
        const sum: number = await tools.add({a: 1, b: 2});
        const greeting = await tools.greet({name: "ada"});
        console.log("sum is", sum);
        return {sum, greeting};
        """
    )
    assert run.ok, run.text
    assert run.value == {"sum": 3, "greeting": "hello ada"}
    assert run.logs == ["sum is 3"]
    assert run.error_kind is None and run.error_code is None
    assert run.text.startswith("sum is 3\n{")
    assert [(c.index, c.name, c.arguments, c.ok, c.value) for c in run.sub_calls] == [
        (1, "add", {"a": 1, "b": 2}, True, 3),
        (2, "greet", {"name": "ada"}, True, "hello ada"),
    ]
    for call in run.sub_calls:
        assert call.call_id.endswith(f":code:{call.index}")
        assert call.duration_ms >= 0 and call.settled_ms >= call.submitted_ms
        assert call.mode == "exclusive"
    assert run.duration_ms > 0


async def test_a_failed_sub_call_rejects_inside_the_program() -> None:
    reg = make_registry()
    tools(reg)
    run = await reg.run_code(
        """
        try { await tools.add({a: "x", b: 1}); } catch (e) { return [e.name, e.toolName, e.message]; }
        """
    )
    assert run.ok, run.text
    name, tool, message = run.value
    assert (name, tool) == ("ToolCallError", "add")
    assert "$.a: expected integer, got string" in message
    assert run.sub_calls[0].error_code == "INVALID_ARGS"


async def test_failures_have_their_kind_and_keep_their_logs() -> None:
    reg = make_registry(compute_ms=300)
    run = await reg.run_code('console.log("before"); throw new Error("boom");')
    assert not run.ok
    assert run.error_code == "CODE_RUN_FAILED"
    assert run.error_kind == "exception"
    assert run.logs == ["before"]
    assert run.text.startswith("Error: code run failed (exception): ")
    assert "boom" in run.text
    run = await reg.run_code("while (true) {}")
    assert (run.ok, run.error_kind) == (False, "timeout")
    run = await reg.run_code("return await tools.nope({})")
    assert not run.ok and run.error_code == "UNKNOWN_TOOL"
    assert run.error_kind is None  # refused before it ran


@pytest.mark.parametrize("language", ["typescript", "python"])
async def test_a_value_over_the_output_cap_says_its_size_not_u64_max(language: str) -> None:
    reg = make_registry(max_output_bytes=10_000)
    code = "return 'y'.repeat(20_000)" if language == "typescript" else "return 'y' * 20_000"
    try:
        run = await reg.run_code(code, language=language)  # type: ignore[arg-type]
    except codemode.ConfigError as exc:  # no confinement here: the Python engine refuses
        pytest.skip(str(exc))
    assert (run.ok, run.error_kind) == (False, "output-limit"), run.text
    assert str(2**64 - 1) not in run.text
    if language == "typescript":
        # The check stops at what the cap leaves (10,000 less the empty logs' `[]`).
        assert "a return value of more than 9998 bytes" in run.text, run.text
    else:
        assert "a return value of 20002 bytes" in run.text, run.text


async def test_a_runaway_loop_stops_at_the_default_ten_seconds_of_cpu() -> None:
    reg = make_registry()
    # CPU time, not the wall clock: on a loaded 2-core machine 10 s of CPU took 33 s of
    # wall time. QuickJS runs on this process's threads, so the process's CPU time holds
    # the loop's.
    cpu_started = time.process_time()
    run = await reg.run_code("while (true) {}")
    cpu = time.process_time() - cpu_started
    assert (run.ok, run.error_kind) == (False, "timeout"), run.text
    # The CPU budget ended it (not the 60 s wall budget), at its default of 10 s.
    assert "compute budget exceeded" in run.text, run.text
    assert "10000 ms of CPU time" in run.text, run.text
    assert 9.5 <= cpu < 30, cpu  # not the engine's 60 s of CPU


async def test_promise_all_overlaps_slow_parallel_async_tools() -> None:
    reg = make_registry()

    @reg.tool(parallel_safe=True)
    async def slow(label: str) -> str:
        """Takes a second."""
        await asyncio.sleep(1.0)
        return label

    loop = asyncio.get_running_loop()
    started = loop.time()
    run = await reg.run_code(
        "return await Promise.all([tools.slow({label: 'a'}), tools.slow({label: 'b'})])"
    )
    elapsed = loop.time() - started
    assert run.ok, run.text
    assert run.value == ["a", "b"]
    assert elapsed < 1.8, f"the calls did not overlap: {elapsed:.2f}s"
    assert [call.mode for call in run.sub_calls] == ["parallel", "parallel"]


async def test_a_tool_that_never_returns_ends_the_call_at_its_timeout() -> None:
    reg = make_registry()

    @reg.tool(timeout=0.3)
    async def hang() -> None:
        """Never returns."""
        await asyncio.sleep(3600)

    run = await reg.run_code(
        "try { await tools.hang({}); } catch (e) { return e.message; }"
    )
    assert run.ok, run.text
    assert "timed out" in run.value or "timeout" in run.value.lower()
    assert run.sub_calls[0].error_code == "TOOL_TIMEOUT"


async def test_cancelling_a_run_from_asyncio_ends_it_and_its_sub_calls() -> None:
    reg = make_registry()
    started, cancelled = asyncio.Event(), asyncio.Event()

    @reg.tool
    async def wait_forever() -> None:
        """Waits."""
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    task = asyncio.ensure_future(reg.run_code("await tools.wait_forever({}); return 1"))
    await asyncio.wait_for(started.wait(), 20)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.wait_for(cancelled.wait(), 10)


async def test_cancelling_a_computing_run_stops_the_program() -> None:
    reg = make_registry()
    calls: list[str] = []

    @reg.tool
    def mark(text: str) -> None:
        """Marks."""
        calls.append(text)

    task = asyncio.ensure_future(
        reg.run_code(
            """
            const end = Date.now() + 2000;
            while (Date.now() < end) {}
            await tools.mark({text: "after"});
            """
        )
    )
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(2.5)
    assert calls == []  # the program was stopped before it got there


async def test_fifty_concurrent_runs_from_one_loop() -> None:
    reg = make_registry()
    tools(reg)
    runs = await asyncio.gather(
        *(
            reg.run_code(f"return await tools.add({{a: {i}, b: await tools.greet({{name: 'x'}}) === 'hello x' ? 1 : 0}})")
            for i in range(50)
        )
    )
    assert [run.value for run in runs] == [i + 1 for i in range(50)]
    assert all(run.ok and len(run.sub_calls) == 2 for run in runs)


async def test_other_python_threads_run_while_a_program_computes() -> None:
    reg = make_registry()
    stop = threading.Event()
    count = 0

    def spin() -> None:
        nonlocal count
        while not stop.is_set():
            count += 1

    thread = threading.Thread(target=spin)
    thread.start()
    try:
        before = count
        started = time.monotonic()
        run = await reg.run_code(
            "const end = Date.now() + 1500; let n = 0; while (Date.now() < end) { n++; } return n > 0"
        )
        during = count - before
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
    assert run.ok and run.value is True, run.text
    assert elapsed >= 1.4
    # The spinning thread kept the GIL busy the whole time: it counted.
    assert during > 10_000, during
