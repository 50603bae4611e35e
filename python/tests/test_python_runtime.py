"""Python programs from the host API: ``run_code(..., language="python")`` runs the program
in a confined worker process of this interpreter (``sys.executable``), calling sync and
async Python tools through the pipeline. Timings are generous (a loaded 2-core machine).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import codemode


def python_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 1)
    reg = codemode.Registry(mode="code", language="python", **options)
    tools(reg)
    return reg


def tools(reg: codemode.Registry) -> None:
    @reg.tool(parallel_safe=True)
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @reg.tool(parallel_safe=True)
    async def greet(name: str) -> str:
        """Greet someone."""
        await asyncio.sleep(0.01)
        return f"hello {name}"

    @reg.tool
    def fail(why: str) -> str:
        """Always fails."""
        raise ValueError(why)

    @reg.tool(parallel_safe=True)
    async def nap(seconds: float) -> float:
        """Sleeps."""
        await asyncio.sleep(seconds)
        return seconds


async def test_a_python_program_calls_sync_and_async_python_tools() -> None:
    reg = python_registry()
    run = await reg.run_code(
        "import asyncio\n"
        "total = await tools.add({'a': 1, 'b': 2})\n"
        "greeting, more = await asyncio.gather(\n"
        "    tools.greet({'name': 'ada'}),\n"
        "    tools.add({'a': total, 'b': 10}),\n"
        ")\n"
        "print('total is', total)\n"
        "return {'total': total, 'greeting': greeting, 'more': more}\n"
    )
    assert run.ok, run.text
    assert run.value == {"total": 3, "greeting": "hello ada", "more": 13}
    assert run.logs == ["total is 3"]
    assert [(c.name, c.arguments, c.ok, c.value) for c in run.sub_calls] == [
        ("add", {"a": 1, "b": 2}, True, 3),
        ("greet", {"name": "ada"}, True, "hello ada"),
        ("add", {"a": 3, "b": 10}, True, 13),
    ]


async def test_the_registry_language_is_the_default_and_the_sdk_is_pythons() -> None:
    reg = python_registry()
    assert reg.language == "python"
    sdk = reg.sdk()
    assert "```python" in sdk and "AddArgs" in sdk
    run = await reg.run_code("return 2 ** 10")
    assert run.value == 1024


async def test_both_languages_from_one_registry_at_once() -> None:
    reg = codemode.Registry(mode="code", warm_pool=1)
    tools(reg)
    ts, py = await asyncio.gather(
        reg.run_code("return await tools.add({a: 20, b: 22});", language="typescript"),
        reg.run_code("return await tools.add({'a': 40, 'b': 2})", language="python"),
    )
    assert (ts.value, py.value) == (42, 42), (ts.text, py.text)
    # The default stays TypeScript.
    again = await reg.run_code("const x: number = 1; return x;")
    assert again.value == 1, again.text


async def test_a_failing_tool_is_a_tool_call_error_in_the_program() -> None:
    reg = python_registry()
    run = await reg.run_code(
        "try:\n"
        "    await tools.fail({'why': 'no luck'})\n"
        "except ToolCallError as e:\n"
        "    return [e.toolName, str(e)]\n"
    )
    assert run.ok, run.text
    assert run.value[0] == "fail"
    assert "ValueError: no luck" in run.value[1]
    uncaught = await reg.run_code("await tools.fail({'why': 'boom'})")
    assert not uncaught.ok
    assert uncaught.error_kind == "exception"
    assert "boom" in uncaught.text


async def test_gathered_python_tool_calls_overlap() -> None:
    reg = python_registry()
    started = time.monotonic()
    run = await reg.run_code(
        "import asyncio\n"
        "return await asyncio.gather(*[tools.nap({'seconds': 0.5}) for _ in range(5)])\n"
    )
    took = time.monotonic() - started
    assert run.ok, run.text
    assert run.value == [0.5] * 5
    assert took < 2.4, f"5 naps of 0.5 s took {took:.2f} s"


async def test_compute_budget_ends_an_endless_loop() -> None:
    reg = python_registry(compute_ms=500, wall_ms=10_000)
    started = time.monotonic()
    run = await reg.run_code("while True:\n    pass\n")
    took = time.monotonic() - started
    assert run.error_kind == "timeout", run.text
    assert took < 8
    after = await reg.run_code("return 'alive'")
    assert after.value == "alive"


async def test_the_import_guard_and_the_confinement() -> None:
    reg = python_registry()
    guarded = await reg.run_code("import os\nreturn os.getcwd()")
    assert guarded.error_kind == "exception"
    assert "module 'os' is not available in this sandbox" in guarded.text
    escape = await reg.run_code(
        "import json\n"
        "real_os = [c for c in ().__class__.__base__.__subclasses__()"
        " if c.__name__ == '_wrap_close'][0].__init__.__globals__\n"
        "out = {}\n"
        "for what, attempt in [\n"
        "    ('listdir', lambda: real_os['listdir']('/')),\n"
        "    ('fork', lambda: real_os['fork']()),\n"
        "]:\n"
        "    try:\n"
        "        out[what] = 'ESCAPED ' + repr(attempt())\n"
        "    except BaseException as e:\n"
        "        out[what] = type(e).__name__\n"
        "try:\n"
        "    out['system'] = real_os['system']('true')\n"
        "except BaseException as e:\n"
        "    out['system'] = type(e).__name__\n"
        "return out\n"
    )
    assert escape.ok, escape.text
    # `os.system('true')` cannot start a shell: 127 << 8 (exec refused), or an error.
    assert escape.value["system"] != 0, escape.value
    assert "ESCAPED" not in escape.text
    assert escape.value["listdir"] == "PermissionError"
    assert escape.value["fork"] == "PermissionError"


async def test_the_gil_is_released_while_a_python_program_computes() -> None:
    reg = python_registry(compute_ms=5_000)
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        run = await reg.run_code("x = 0\nfor i in range(3_000_000):\n    x += i\nreturn x")
    finally:
        stop.set()
        thread.join()
    assert run.ok, run.text
    assert ticks > 20


async def test_cancelling_a_python_run_from_asyncio() -> None:
    reg = python_registry()
    task = asyncio.create_task(reg.run_code("await tools.nap({'seconds': 30})\nreturn 1"))
    await asyncio.sleep(1.0)
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 5
    after = await reg.run_code("return 'next'")
    assert after.value == "next"


async def test_an_unknown_language_is_refused() -> None:
    reg = python_registry()
    with pytest.raises(codemode.ConfigError):
        await reg.run_code("return 1", language="ruby")  # type: ignore[arg-type]
