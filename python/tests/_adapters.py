"""What the adapter tests share: a registry whose agent scope presents in ``code`` mode,
and the four programs each framework's offline model sends through ``run_code``."""

from __future__ import annotations

import asyncio
import dataclasses

import codemode

#: A program that succeeds (its value is 5), one that throws, one that calls a denied tool.
SUCCESS = "return await tools.add({a: 2, b: 3})"
FAILURE = 'throw new Error("boom from the program")'
DENIED = 'return await tools.rm({path: "/"})'
#: A program that waits in a tool until its run is cancelled.
SLOW = "return await tools.wait_forever({})"


@dataclasses.dataclass
class Setup:
    registry: codemode.Registry
    scope: codemode.Scope
    started: asyncio.Event
    cancelled: asyncio.Event


def setup() -> Setup:
    """Made inside the test's event loop (the events belong to it)."""
    reg = codemode.Registry(warm_pool=0)
    started, cancelled = asyncio.Event(), asyncio.Event()

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @reg.tool(policy="deny")
    def rm(path: str) -> None:
        """Removes a path."""

    @reg.tool
    async def wait_forever() -> None:
        """Waits until cancelled."""
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    return Setup(reg, reg.scope("agent", mode="code"), started, cancelled)


async def cancel_when_started(task: asyncio.Task[object], state: Setup) -> None:
    """Cancels ``task`` once the slow tool runs; checks the task ends cancelled and the
    cancellation reached the tool."""
    await asyncio.wait_for(state.started.wait(), 60)
    task.cancel()
    try:
        await asyncio.wait_for(task, 60)
    except asyncio.CancelledError:
        pass
    else:  # pragma: no cover - a failure
        raise AssertionError("the framework's run finished instead of being cancelled")
    await asyncio.wait_for(state.cancelled.wait(), 30)
