"""A process that used the package exits cleanly: the interpreter finalizing while codemode's
threads still held (or were about to take) the GIL crashed it (SIGSEGV or "PyGILState_Release:
thread state must be current") in about two runs of three of this script before the fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from _scripts import run_python

SCRIPT = textwrap.dedent(
    """
    import asyncio
    import codemode

    reg = codemode.Registry(mode="both")

    @reg.tool
    def noop() -> None:
        \"\"\"Does nothing.\"\"\"

    @reg.tool
    async def anoop() -> None:
        \"\"\"Does nothing, asynchronously.\"\"\"

    async def main() -> None:
        for _ in range(50):
            await reg.execute("noop", {})
            await reg.execute("anoop", {})
        run = await reg.run_code("await tools.noop({}); await tools.anoop({}); return 1")
        assert run.value == 1, run

    asyncio.run(main())
    print("done")
    """
)


# The process exits while a sync tool still runs on its worker thread (its call timed out)
# and while other workers sleep with their thread states kept: the exit waits for the
# running one (at most 2 s), and the sleeping ones never take the GIL again.
WHILE_A_TOOL_RUNS = textwrap.dedent(
    """
    import asyncio, time
    import codemode

    reg = codemode.Registry(mode="native")

    @reg.tool
    def slow() -> None:
        \"\"\"Takes a while.\"\"\"
        time.sleep(0.3)

    @reg.tool(parallel_safe=True)
    def noop() -> None:
        \"\"\"Does nothing.\"\"\"

    async def main() -> None:
        await asyncio.gather(*(reg.execute("noop", {}) for _ in range(8)))
        try:
            await asyncio.wait_for(reg.execute("slow", {}), 0.05)
        except asyncio.TimeoutError:
            pass

    asyncio.run(main())
    print("done")
    """
)


@pytest.mark.parametrize("name", ["after-calls", "while-a-tool-runs"])
def test_processes_that_used_the_package_exit_cleanly(tmp_path: Path, name: str) -> None:
    script = tmp_path / "exit.py"
    script.write_text(SCRIPT if name == "after-calls" else WHILE_A_TOOL_RUNS, encoding="utf-8")
    failures = []
    for _ in range(12):
        done = run_python(script, tmp_path)
        if done.returncode != 0 or done.stdout != "done\n":
            failures.append(f"exit status {done.returncode}: {done.stderr[-500:]}")
    assert not failures, f"{len(failures)} of 12 runs failed; first: {failures[0]}"
