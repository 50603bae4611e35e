"""What the acceptance asks of concurrency, cancellation and values from Python: overlap
bounded by the parallel limit, exclusive calls alone and in order, cancellation that ends
a run's sub-calls and leaks nothing, timeouts, non-JSON and too-deep values as clear
errors, tool exceptions reaching programs as ToolCallError.

Timings are generous: the suite must pass on a loaded 2-core machine."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import codemode

from _scripts import run_python


def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    return codemode.Registry(**options)


# -- scheduling -----------------------------------------------------------------------------


async def test_promise_all_overlap_is_bounded_by_the_parallel_limit() -> None:
    reg = make_registry(max_parallel_sub_calls=2)
    running = 0
    peak = 0

    @reg.tool(parallel_safe=True)
    async def slow(n: int) -> int:
        """Takes a while."""
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        try:
            await asyncio.sleep(0.4)
        finally:
            running -= 1
        return n

    loop = asyncio.get_running_loop()
    started = loop.time()
    run = await reg.run_code(
        "return await Promise.all([1, 2, 3, 4, 5, 6].map((n) => tools.slow({n})))"
    )
    elapsed = loop.time() - started
    assert run.ok, run.text
    assert run.value == [1, 2, 3, 4, 5, 6]
    assert peak == 2, f"{peak} calls overlapped under a limit of 2"
    # Three rounds of two: at least 1.2 s; not one after the other (2.4 s).
    assert 1.15 <= elapsed < 2.3, elapsed
    assert all(call.mode == "parallel" for call in run.sub_calls)


async def test_wake_ups_from_other_threads_are_never_lost() -> None:
    """Calls finishing on worker, tokio and engine threads wake the loop's driver thousands
    of times, many at once. A wake-up lost between the driver's socket and its flag (as in
    an earlier driver, which stalled here within a few hundred rounds) leaves a call
    pending for ever: each round must finish well inside its deadline."""
    reg = make_registry(warm_pool=2)

    @reg.tool(parallel_safe=True)
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    for round_ in range(400):
        calls = [reg.execute("add", {"a": i, "b": 1}) for i in range(40)]
        calls += [reg.run_code(f"return await tools.add({{a: {i}, b: 1}})") for i in range(8)]
        try:
            results = await asyncio.wait_for(asyncio.gather(*calls), 60)
        except asyncio.TimeoutError:
            pytest.fail(f"round {round_}: a call never finished (a lost wake-up)")
        assert all(result.ok for result in results)


async def test_a_quick_sync_call_never_waits_behind_a_slow_one() -> None:
    """Two sync calls handed to the workers at once, from two threads, while one worker
    spins for work: each must get a thread of its own (an earlier pool let both count on
    the one spinning worker, and the quick call waited for the slow one)."""
    reg = make_registry(max_parallel_sub_calls=4, warm_pool=1)

    @reg.tool(parallel_safe=True)
    def slow() -> None:
        """Takes a while."""
        time.sleep(0.5)

    @reg.tool(parallel_safe=True)
    def quick() -> int:
        """Answers at once."""
        return 1

    for attempt in range(12):
        await reg.execute("quick", {})  # a worker is left spinning for the next call
        run = await reg.run_code(
            "await Promise.all([tools.slow({}), tools.quick({}), tools.quick({})]); return 1"
        )
        assert run.ok, run.text
        # The body's own time (results commit in submission order, so every call of the
        # run settles after the slow one; that is the pipeline's contract, not the pool's).
        for call in run.sub_calls:
            if call.name == "quick":
                took = call.duration_ms
                assert took < 350, f"attempt {attempt}: a quick call's body took {took} ms"


def test_a_sync_tools_deep_c_recursion_has_a_python_threads_stack(tmp_path: Path) -> None:
    """A sync tool runs on a worker thread with at least the stack a Python thread has:
    the json module's C encoder over a 30,000-deep list (the recursion limit raised) fits
    a Python thread's 8 MiB and crashed the process on a 2 MiB thread. It does in the tool
    what it does on a Python thread of the same interpreter: 3.12 and later bound C
    recursion themselves (a RecursionError there, never a crash)."""
    script = tmp_path / "deep.py"
    script.write_text(
        textwrap.dedent(
            """
            import asyncio, json, sys, threading
            import codemode

            def dump(levels: int) -> int:
                value: list = []
                for _ in range(levels):
                    value = [value]
                limit = sys.getrecursionlimit()
                sys.setrecursionlimit(100_000)
                try:
                    return len(json.dumps(value))
                finally:
                    sys.setrecursionlimit(limit)

            def on_a_thread(out: list) -> None:
                try:
                    out.append(str(dump(30_000)))
                except RecursionError:
                    out.append("RecursionError")

            out: list = []
            thread = threading.Thread(target=on_a_thread, args=(out,))
            thread.start()
            thread.join()
            print(out[0])

            reg = codemode.Registry()

            @reg.tool
            def deep(levels: int) -> int:
                \"\"\"Dumps a deep list.\"\"\"
                return dump(levels)

            result = asyncio.run(reg.execute("deep", {"levels": 30_000}))
            if result.ok:
                print(result.value)
            else:
                print("RecursionError" if "RecursionError" in result.text else result.text)
            """
        )
    )
    done = run_python(script, tmp_path)
    assert done.returncode == 0, f"exit status {done.returncode}: {done.stderr[-500:]}"
    on_a_thread, in_the_tool = done.stdout.strip().splitlines()
    assert in_the_tool == on_a_thread
    if sys.version_info < (3, 12):
        assert in_the_tool == "60002"


async def test_sync_parallel_tools_overlap_on_worker_threads() -> None:
    reg = make_registry()
    threads: set[int] = set()

    @reg.tool(parallel_safe=True)
    def block(n: int) -> int:
        """Blocks its thread."""
        threads.add(threading.get_ident())
        time.sleep(0.5)
        return n

    started = time.monotonic()
    run = await reg.run_code("return await Promise.all([1, 2, 3].map((n) => tools.block({n})))")
    elapsed = time.monotonic() - started
    assert run.ok, run.text
    assert run.value == [1, 2, 3]
    assert elapsed < 1.4, f"the sync calls did not overlap: {elapsed:.2f}s"
    assert threading.get_ident() not in threads
    assert len(threads) == 3


async def test_exclusive_calls_run_alone_in_submission_order() -> None:
    reg = make_registry()
    events: list[tuple[str, int]] = []

    @reg.tool
    async def step(n: int) -> int:
        """An exclusive step."""
        events.append(("start", n))
        await asyncio.sleep(0.05)
        events.append(("end", n))
        return n

    run = await reg.run_code(
        "return await Promise.all([0, 1, 2, 3, 4].map((n) => tools.step({n})))"
    )
    assert run.ok, run.text
    assert run.value == [0, 1, 2, 3, 4]
    # Never two at once, and in the order the program submitted them.
    assert events == [(kind, n) for n in range(5) for kind in ("start", "end")]
    assert [call.mode for call in run.sub_calls] == ["exclusive"] * 5
    for before, after in zip(run.sub_calls, run.sub_calls[1:]):
        assert after.settled_ms >= before.settled_ms


async def test_an_exclusive_call_waits_for_the_parallel_ones_before_it() -> None:
    reg = make_registry()
    events: list[str] = []

    @reg.tool(parallel_safe=True)
    async def read(n: int) -> int:
        """Parallel."""
        events.append(f"read{n}+")
        await asyncio.sleep(0.2)
        events.append(f"read{n}-")
        return n

    @reg.tool
    async def write() -> str:
        """Exclusive."""
        events.append("write+")
        await asyncio.sleep(0.05)
        events.append("write-")
        return "w"

    run = await reg.run_code(
        "return await Promise.all([tools.read({n: 1}), tools.read({n: 2}), tools.write({})])"
    )
    assert run.ok, run.text
    assert events.index("write+") > max(events.index("read1-"), events.index("read2-"))
    assert events.index("read2+") < events.index("read1-")  # the reads overlapped


# -- failures reaching programs ---------------------------------------------------------------


async def test_a_python_exception_reaches_the_program_as_tool_call_error() -> None:
    reg = make_registry()

    class QuotaExceeded(Exception):
        pass

    @reg.tool
    async def fetch(url: str) -> str:
        """Fetches."""
        raise QuotaExceeded(f"no quota left for {url}")

    @reg.tool
    def parse(text: str) -> int:
        """Parses."""
        return int(text)

    run = await reg.run_code(
        """
        const seen = [];
        for (const call of [() => tools.fetch({url: "u"}), () => tools.parse({text: "x"})]) {
          try { await call(); } catch (e) {
            seen.push([e instanceof ToolCallError, e.name, e.toolName, e.message]);
          }
        }
        return seen;
        """
    )
    assert run.ok, run.text
    (is_a, name, tool, message), (_, _, tool2, message2) = run.value
    assert (is_a, name, tool) == (True, "ToolCallError", "fetch")
    assert message == "QuotaExceeded: no quota left for u"
    assert tool2 == "parse"
    assert message2.startswith("ValueError: invalid literal for int()")
    assert [call.error_code for call in run.sub_calls] == ["TOOL_FAILED", "TOOL_FAILED"]


async def test_an_uncaught_tool_error_fails_the_run_with_its_message() -> None:
    reg = make_registry()

    @reg.tool
    def explode() -> None:
        """Raises."""
        raise RuntimeError("kaboom")

    run = await reg.run_code("await tools.explode({}); return 1")
    assert not run.ok
    assert run.error_kind == "exception"
    assert "kaboom" in run.text
    with pytest.raises(codemode.ToolCallError) as caught:
        run.unwrap()
    assert caught.value.code == "CODE_RUN_FAILED"


async def test_a_tool_returning_a_non_json_value_is_an_error() -> None:
    reg = make_registry()

    @reg.tool
    def a_bytes() -> Any:
        """Returns bytes."""
        return b"\x00"

    @reg.tool
    def a_set() -> Any:
        """Returns a set: a list, as pydantic's JSON mode writes it."""
        return {1, 2}

    @reg.tool
    async def an_object() -> Any:
        """Returns an object."""
        return object()

    @reg.tool
    def nan() -> Any:
        """Returns NaN."""
        return {"x": [float("nan")]}

    for name in ("a_bytes", "an_object", "nan"):
        result = await reg.execute(name)
        assert not result.ok, name
        assert result.error_code == "INVALID_TOOL_OUTPUT", (name, result.text)
    result = await reg.execute("nan")
    assert "$.x[0]" in result.text
    assert sorted((await reg.execute("a_set")).value) == [1, 2]
    run = await reg.run_code(
        "try { await tools.a_bytes({}); } catch (e) { return e.message; }"
    )
    assert run.ok, run.text
    assert "bytes" in run.value
    assert run.sub_calls[0].error_code == "INVALID_TOOL_OUTPUT"


async def test_a_sync_tool_that_never_returns_ends_a_program_call_at_its_timeout() -> None:
    reg = make_registry()
    release = threading.Event()

    @reg.tool(timeout=0.3)
    def stuck() -> None:
        """Blocks until released."""
        release.wait(30)

    started = time.monotonic()
    try:
        run = await reg.run_code("try { await tools.stuck({}); } catch (e) { return e.message; }")
    finally:
        release.set()
    assert run.ok, run.text
    assert run.sub_calls[0].error_code == "TOOL_TIMEOUT"
    assert time.monotonic() - started < 10


# -- cancellation -----------------------------------------------------------------------------


async def test_cancelling_a_run_ends_every_sub_call_and_leaks_no_task() -> None:
    reg = make_registry()
    started = 0
    finished: list[int] = []
    all_started = asyncio.Event()

    @reg.tool(parallel_safe=True)
    async def wait(n: int) -> None:
        """Waits for a long time."""
        nonlocal started
        started += 1
        if started == 3:
            all_started.set()
        try:
            await asyncio.sleep(3600)
        finally:
            finished.append(n)

    baseline = len(asyncio.all_tasks())
    task = asyncio.ensure_future(
        reg.run_code("await Promise.all([1, 2, 3].map((n) => tools.wait({n}))); return 1")
    )
    await asyncio.wait_for(all_started.wait(), 20)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # Every tool's `finally` ran, and the loop is back to the tasks it had.
    for _ in range(100):
        if len(finished) == 3 and len(asyncio.all_tasks()) <= baseline:
            break
        await asyncio.sleep(0.05)
    assert sorted(finished) == [1, 2, 3]
    assert len(asyncio.all_tasks()) <= baseline, asyncio.all_tasks()
    # The registry still works after the cancelled run.
    assert (await reg.run_code("return 2")).value == 2


async def test_a_wait_for_timeout_cancels_a_native_call() -> None:
    reg = make_registry()
    cleaned = asyncio.Event()

    @reg.tool
    async def hang() -> None:
        """Hangs."""
        try:
            await asyncio.sleep(3600)
        finally:
            cleaned.set()

    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(reg.execute("hang"), 0.3)
    await asyncio.wait_for(cleaned.wait(), 10)


async def test_a_cancelled_run_does_not_disturb_the_others() -> None:
    reg = make_registry()
    gate = asyncio.Event()

    @reg.tool(parallel_safe=True)
    async def wait_for_gate(tag: str) -> str:
        """Waits for the gate."""
        await gate.wait()
        return tag

    doomed = asyncio.ensure_future(reg.run_code("return await tools.wait_for_gate({tag: 'x'})"))
    others = [
        asyncio.ensure_future(reg.run_code(f"return await tools.wait_for_gate({{tag: '{i}'}})"))
        for i in range(5)
    ]
    await asyncio.sleep(0.3)
    doomed.cancel()
    gate.set()
    runs = await asyncio.gather(*others)
    assert [run.value for run in runs] == [str(i) for i in range(5)]
    with pytest.raises(asyncio.CancelledError):
        await doomed


# -- deep values ------------------------------------------------------------------------------


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _depth(value: Any) -> int:
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0]
    return depth


async def test_values_deeper_than_pythons_recursion_limit_cross_both_ways() -> None:
    reg = make_registry()
    received: list[int] = []

    @reg.tool
    def echo(value: Any) -> Any:
        """Echoes."""
        received.append(_depth(value))
        return value

    depth = 3_000  # beyond Python's recursion limit, within the library's 5,000
    run = await reg.run_code(
        f"let v = 0; for (let i = 0; i < {depth}; i++) v = [v]; "
        "const back = await tools.echo({value: v}); "
        "let d = 0; let x = back; while (Array.isArray(x)) { d++; x = x[0]; } return [d, v];"
    )
    assert run.ok, run.text
    assert received == [depth]
    assert run.value[0] == depth
    assert _depth(run.value[1]) == depth
    result = await reg.execute("echo", {"value": _nested(depth)})
    assert result.ok, result.text
    assert _depth(result.value) == depth


async def test_values_deeper_than_the_limit_fail_with_a_clear_error() -> None:
    reg = make_registry(max_json_depth=200)

    @reg.tool
    def echo(value: Any) -> Any:
        """Echoes."""
        return value

    @reg.tool
    def deep() -> Any:
        """Returns a deep value."""
        return _nested(2_000)

    run = await reg.run_code("let v = 0; for (let i = 0; i < 2000; i++) v = [v]; return v;")
    assert not run.ok
    assert "deep" in run.text.lower() or "depth" in run.text.lower() or "nest" in run.text.lower()
    assert "RecursionError" not in run.text
    result = await reg.execute("echo", {"value": _nested(2_000)})
    assert not result.ok
    assert result.error_code == "INVALID_ARGS", result.text
    assert "RecursionError" not in result.text
    result = await reg.execute("deep")
    assert not result.ok
    assert "RecursionError" not in result.text
    # Beyond what even the Python half converts (5,000 levels): named, not a crash.
    result = await reg.execute("echo", {"value": _nested(6_000)})
    assert result.error_code == "INVALID_ARGS", result.text
    assert "deep" in result.text.lower() or "nest" in result.text.lower()
