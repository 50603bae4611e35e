"""The Python package's costs against what they compare to, measured in one run and in the
same minute (the machine's speed drifts: compare the ratios, round by round):

- ``execute``: one ``await scope.execute("noop", {})`` of a no-op Python tool from Python,
  against a plain Python call of the same function, and against the Rust host's
  ``Registry::execute`` of the same tool (timed from Rust, the GIL released). Target: the
  Python figure <= 30 us.
- ``run_code``: ``await scope.run_code("return 1")`` from Python against the Rust host's
  figure for the same (``Registry::execute`` of ``run_code``, as ``benches/runtime.rs``
  measures it: each run after a pause that lets the warm pool refill). Target: <= 0.5 ms.
- ``sub-call``: one ``await tools.x({})`` inside a program, (T(N) - T(0)) / N over N
  sequential calls, into a sync Python tool, an async Python tool and a Rust no-op tool
  (``codemode._native._bench_add_native_noop``). Target: Python <= 2x Rust.

    python benches/python_bench.py [--rounds R] [--calls N] [--json]

Run it with the interpreter of a virtual environment where the wheel (built in the
``wheel`` profile: ``maturin build``) is installed. Each round measures every figure once,
in turn; the report gives the median over the rounds of each figure and of each ratio taken
within a round (min and max beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import codemode
from codemode import _native

# The benchmark hooks of crates/codemode-py/src/bench.rs (not API: not in the stubs).
add_native_noop: Callable[[object, str], None] = getattr(_native, "_bench_add_native_noop")
time_execute: Callable[..., list[float]] = getattr(_native, "_bench_time_execute")
time_run_code: Callable[..., list[float]] = getattr(_native, "_bench_time_run_code")

# Before each timed run_code (untimed, both sides): the engine's warm pool refills, as
# benches/runtime.rs waits for it.
PAUSE_MS = 3.0


def noop() -> None:
    """Does nothing."""


async def anoop() -> None:
    """Does nothing, asynchronously."""


def median_of(samples: list[float]) -> float:
    return statistics.median(samples)


async def each_call(
    n: int, call: Callable[[], Awaitable[Any]], pause_ms: float = 0.0
) -> float:
    """The median seconds of ``n`` sequential awaited calls, each after ``pause_ms``."""
    times = []
    for _ in range(n):
        if pause_ms:
            await asyncio.sleep(pause_ms / 1000)
        started = time.perf_counter()
        await call()
        times.append(time.perf_counter() - started)
    return median_of(times)


def plain_call(n: int) -> float:
    """The seconds of one plain call of ``noop``, over ``n`` calls (a loop's overhead
    included: it is the floor of any call)."""
    f = noop
    started = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - started) / n


def loop_program(tool: str, n: int) -> str:
    return f"for (let i = 0; i < {n}; i++) await tools.{tool}({{}});\nreturn 1;"


async def run_seconds(scope: codemode.Scope, code: str) -> float:
    started = time.perf_counter()
    run = await scope.run_code(code, keep_sub_calls=0)
    took = time.perf_counter() - started
    if not run.ok:
        raise SystemExit(f"the program failed: {run.text}")
    return took


async def sub_call_seconds(scope: codemode.Scope, tool: str, n: int) -> float:
    """(T(N) - T(0)) / N, each T the median of 3 runs."""
    empty = median_of([await run_seconds(scope, loop_program(tool, 0)) for _ in range(3)])
    full = median_of([await run_seconds(scope, loop_program(tool, n)) for _ in range(3)])
    return (full - empty) / n


async def one_round(reg: codemode.Registry, code: codemode.Scope, calls: int) -> dict[str, float]:
    got: dict[str, float] = {}
    native = reg._native  # the _native.Scope the hooks take
    got["plain Python call"] = plain_call(calls * 100)
    got["execute, from Python"] = await each_call(calls, lambda: reg.execute("noop", {}))
    got["execute, from Python (async tool)"] = await each_call(
        calls, lambda: reg.execute("anoop", {})
    )
    got["execute, from Python (Rust tool)"] = await each_call(
        calls, lambda: reg.execute("rust_noop", {})
    )
    got["execute, Rust host (Python tool)"] = median_of(
        time_execute(native, "noop", "{}", calls)
    )
    got["execute, Rust host (Rust tool)"] = median_of(
        time_execute(native, "rust_noop", "{}", calls)
    )
    got["run_code return 1, from Python"] = await each_call(
        calls, lambda: code.run_code("return 1"), PAUSE_MS
    )
    got["run_code return 1, Rust host"] = median_of(
        time_run_code(code._native, "return 1", calls, PAUSE_MS)
    )
    # The Python API's calls carry a cancellation token; a Rust host's call may not.
    got["run_code return 1, Rust host + signal"] = median_of(
        time_run_code(code._native, "return 1", calls, PAUSE_MS, True)
    )
    got["sub-call, sync Python tool"] = await sub_call_seconds(code, "noop", calls)
    got["sub-call, async Python tool"] = await sub_call_seconds(code, "anoop", calls)
    got["sub-call, Rust tool"] = await sub_call_seconds(code, "rust_noop", calls)
    return got


RATIOS = [
    ("execute from Python / plain Python call", "execute, from Python", "plain Python call"),
    (
        "execute from Python: Python tool / Rust tool",
        "execute, from Python",
        "execute, from Python (Rust tool)",
    ),
    (
        "execute from Python / Rust host, same tool",
        "execute, from Python",
        "execute, Rust host (Python tool)",
    ),
    (
        "run_code return 1: from Python / Rust host",
        "run_code return 1, from Python",
        "run_code return 1, Rust host",
    ),
    (
        "run_code return 1: from Python / Rust host + signal",
        "run_code return 1, from Python",
        "run_code return 1, Rust host + signal",
    ),
    ("sub-call: sync Python tool / Rust tool", "sub-call, sync Python tool", "sub-call, Rust tool"),
    (
        "sub-call: async Python tool / Rust tool",
        "sub-call, async Python tool",
        "sub-call, Rust tool",
    ),
]


def fmt(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.3f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--calls", type=int, default=200, help="calls per figure per round")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    load_before = os.getloadavg()[0]

    reg = codemode.Registry(mode="native")
    reg.tool(noop)
    reg.tool(anoop)
    add_native_noop(reg._native, "rust_noop")
    code = reg.scope("bench", mode="code")

    await one_round(reg, code, max(10, options.calls // 10))  # warm-up
    rounds = [await one_round(reg, code, options.calls) for _ in range(options.rounds)]

    load_after = os.getloadavg()[0]
    figures = {name: [r[name] for r in rounds] for name in rounds[0]}
    ratios = {label: [r[a] / r[b] for r in rounds] for label, a, b in RATIOS}
    if options.json:
        print(json.dumps({"figures": figures, "ratios": ratios, "load": load_after}, indent=2))
        return
    print(
        f"codemode {codemode.__version__}, Python {sys.version.split()[0]}, "
        f"{options.rounds} rounds x {options.calls} calls, load average "
        f"{load_before:.2f} before, {load_after:.2f} after"
    )
    for name, values in figures.items():
        print(
            f"  {name:40} median {fmt(median_of(values)):>10}  "
            f"(min {fmt(min(values))}, max {fmt(max(values))})"
        )
    print("ratios, within each round:")
    for label, values in ratios.items():
        print(
            f"  {label:45} median {median_of(values):8.2f}x  "
            f"(min {min(values):.2f}x, max {max(values):.2f}x)"
        )


if __name__ == "__main__":
    asyncio.run(main())
