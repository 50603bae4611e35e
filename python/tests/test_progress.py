"""A run's progress to a Python host: ``run_code(..., on_progress=...)`` gets each
``progress(done, total, message)`` call of the program, in order, and the lines it prints,
coalesced (the last always among them), all on the caller's event loop and before the run
returns; what the run returns is the same with or without a callback; a callback that
raises or is async does not disturb the run."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Literal

import pytest

import codemode

TEN_STEPS_TS = (
    "for (let i = 1; i <= 10; i++) {\n"
    "  await new Promise((r) => setTimeout(r, 100));\n"
    "  await progress(i, 10, 'step ' + i);\n"
    "}\nreturn 'done';"
)
TEN_STEPS_PY = (
    "import asyncio\nfor i in range(1, 11):\n"
    "    await asyncio.sleep(0.1)\n"
    "    await progress(i, 10, f'step {i}')\n"
    "return 'done'"
)


def _agent() -> codemode.Scope:
    reg = codemode.Registry(warm_pool=0)
    return reg.scope("agent", mode="code")


@pytest.mark.parametrize(
    ("language", "code"), [("typescript", TEN_STEPS_TS), ("python", TEN_STEPS_PY)]
)
async def test_ten_progress_calls_arrive_in_order_on_the_callers_loop(
    language: Literal["typescript", "python"], code: str
) -> None:
    agent = _agent()
    seen: list[codemode.Progress] = []
    loop_thread = threading.get_ident()
    threads: set[int] = set()

    def on_progress(progress: codemode.Progress) -> None:
        threads.add(threading.get_ident())
        seen.append(progress)

    run = await agent.run_code(code, language=language, on_progress=on_progress)
    assert run.ok and run.value == "done", run.text
    made = [p for p in seen if not p.printed]
    assert [(p.done, p.total, p.message) for p in made] == [
        (float(i), 10.0, f"step {i}") for i in range(1, 11)
    ]
    assert threads == {loop_thread}


async def test_ten_thousand_lines_in_two_seconds_are_coalesced_the_last_delivered() -> None:
    agent = _agent()
    seen: list[codemode.Progress] = []
    code = (
        "const start = Date.now();\nlet i = 0;\n"
        "while (Date.now() - start < 2000 && i < 10000) {\n"
        "  console.log('line ' + i); i++;\n"
        "  if (i % 500 === 0) await new Promise((r) => setTimeout(r, 90));\n"
        "}\nconsole.log('last line');\nreturn i;"
    )
    started = time.monotonic()
    run = await agent.run_code(code, on_progress=seen.append)
    elapsed = time.monotonic() - started
    assert run.ok, run.text
    assert seen, "no progress at all"
    assert all(p.printed for p in seen)
    # At most one line every 250 ms of the run (about 2 s; longer on a loaded machine),
    # and the last: a few, not thousands.
    assert len(seen) <= elapsed / 0.25 + 2, (len(seen), elapsed)
    assert len(seen) < 100, len(seen)
    assert seen[-1].message == "last line"
    # What the model gets is unchanged by the callback.
    again = await agent.run_code(code)
    assert again.ok and again.logs[-1] == run.logs[-1] == "last line"


async def test_a_callback_that_raises_or_is_async_leaves_the_run_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent = _agent()
    calls = 0

    def broken(progress: codemode.Progress) -> None:
        nonlocal calls
        calls += 1
        raise ValueError("no thanks")

    code = "for (let i = 1; i <= 3; i++) await progress(i, 3);\nreturn 7;"
    run = await agent.run_code(code, on_progress=broken)
    assert run.ok and run.value == 7, run.text
    assert calls == 3
    err = capsys.readouterr().err
    assert err.count("on_progress raised ValueError: no thanks") == 1, err

    got: list[float] = []

    async def slow(progress: codemode.Progress) -> None:
        await asyncio.sleep(0.01)
        got.append(progress.done)

    run = await agent.run_code(code, on_progress=slow)
    assert run.ok and run.value == 7, run.text
    await asyncio.sleep(0.2)
    assert got == [1.0, 2.0, 3.0]


def test_the_sync_form_takes_a_callback_too() -> None:
    agent = _agent()
    seen: list[codemode.Progress] = []
    started = time.monotonic()
    run = agent.run_code_sync(
        "await progress(1, 2, 'half');\nconsole.log('printed');\nreturn 1;",
        on_progress=seen.append,
    )
    assert run.ok, run.text
    assert time.monotonic() - started < 30
    assert [(p.done, p.total, p.message, p.printed) for p in seen][0] == (1.0, 2.0, "half", False)
    assert seen[-1].message == "printed" and seen[-1].printed


async def test_a_slow_callback_gets_the_newest_reports_in_order_and_the_last() -> None:
    agent = _agent()
    seen: list[float] = []

    def slow(progress: codemode.Progress) -> None:
        time.sleep(0.005)  # holds the event loop, as a careless callback would
        seen.append(progress.done)

    run = await agent.run_code(
        "for (let i = 1; i <= 2000; i++) await progress(i, 2000);\nreturn 1;", on_progress=slow
    )
    assert run.ok, run.text
    assert seen[-1] == 2000.0
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    # 2,000 reports in well under the 10 s the callback would take for all of them: the
    # ones a busy loop could not take were dropped, not queued.
    assert len(seen) < 1000, len(seen)


async def test_no_callback_no_progress_and_the_program_still_runs() -> None:
    agent = _agent()
    run = await agent.run_code("await progress(1, 1, 'x');\nreturn 'fine';")
    assert run.ok and run.value == "fine", run.text
