"""Calls from any asyncio event loop: the default loop (its thread polls the calls, through
the driver the package keeps on the loop), a loop that cannot keep it (as uvloop's cannot:
the calls then run as tokio tasks), and loops on other threads, several at once."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import codemode


class NoDriverLoop(asyncio.SelectorEventLoop):
    """A loop that refuses the package's attribute."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_codemode_driver":
            raise AttributeError(name)
        super().__setattr__(name, value)


def make_registry() -> codemode.Registry:
    reg = codemode.Registry(mode="both", warm_pool=0)

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @reg.tool
    async def slow(seconds: float) -> str:
        """Sleeps."""
        await asyncio.sleep(seconds)
        return "slept"

    return reg


async def calls(reg: codemode.Registry) -> None:
    result = await reg.execute("add", {"a": 2, "b": 3})
    assert result.ok and result.value == 5, result
    refused = await reg.execute("add", {"a": "x"})
    assert refused.error_code == "INVALID_ARGS", refused
    run = await reg.run_code("return await tools.add({a: 1, b: 1})")
    assert run.value == 2, run
    # Cancelling a call from asyncio ends it (and its sub-calls) promptly.
    started = time.monotonic()
    task = asyncio.ensure_future(reg.run_code("return await tools.slow({seconds: 30})"))
    await asyncio.sleep(0.3)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the cancelled run answered")
    assert time.monotonic() - started < 10
    # Many at once from one loop.
    runs = await asyncio.gather(
        *(reg.run_code(f"return await tools.add({{a: {i}, b: 1}})") for i in range(20))
    )
    assert [run.value for run in runs] == [i + 1 for i in range(20)]


def test_calls_from_the_default_loop_keep_the_driver_on_the_loop() -> None:
    reg = make_registry()
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(calls(reg))
        assert hasattr(loop, "_codemode_driver")
    finally:
        loop.close()


def test_calls_from_a_loop_that_cannot_keep_the_driver_run_as_tokio_tasks() -> None:
    reg = make_registry()
    loop = NoDriverLoop()
    try:
        loop.run_until_complete(calls(reg))
        assert not hasattr(loop, "_codemode_driver")
    finally:
        loop.close()


def test_loops_on_several_threads_call_one_registry_at_once() -> None:
    reg = make_registry()
    errors: list[BaseException] = []

    def worker(kind: type[asyncio.AbstractEventLoop]) -> None:
        loop = kind()
        try:
            loop.run_until_complete(calls(reg))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            loop.close()

    threads = [
        threading.Thread(target=worker, args=(kind,))
        for kind in (asyncio.SelectorEventLoop, NoDriverLoop, asyncio.SelectorEventLoop)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors
