"""Notebooks: the Jupyter example (examples/python/notebook.ipynb) cell by cell in a real
``ipykernel``, started by ``jupyter_client``'s ``KernelManager`` with this interpreter
(the one the wheel is installed in): top-level ``await`` of ``run_code``, re-running the
cell that registers a tool (the same function again replaces it), and the synchronous
forms refusing inside the kernel's running loop; and the synchronous forms in a plain
script.

Needs ``ipykernel`` and ``jupyter_client`` (python/tests/requirements.txt)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _scripts import run_python
from jupyter_client.manager import KernelManager

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "notebook.ipynb"


class Kernel:
    """One ipykernel; :meth:`run` executes a cell and returns its output (stdout text and
    the ``text/plain`` of its result), or raises with the cell's error."""

    def __init__(self, cwd: Path) -> None:
        self.manager = KernelManager(kernel_name="python3")
        # This interpreter, not whatever `python3` a kernelspec names.
        self.manager.kernel_spec.argv = [  # type: ignore[union-attr]
            sys.executable,
            "-m",
            "ipykernel_launcher",
            "-f",
            "{connection_file}",
        ]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.manager.start_kernel(cwd=str(cwd), env=env)
        self.client = self.manager.blocking_client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=120)

    def run(self, code: str) -> str:
        outputs: list[str] = []
        errors: list[str] = []

        def hook(message: dict[str, Any]) -> None:
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                outputs.append(content["text"])
            elif kind == "execute_result":
                outputs.append(content["data"].get("text/plain", "") + "\n")
            elif kind == "error":
                errors.append(f"{content['ename']}: {content['evalue']}")

        reply = self.client.execute_interactive(code, timeout=120, output_hook=hook)
        if reply["content"]["status"] != "ok" or errors:
            raise AssertionError(f"the cell failed: {errors or reply['content']}\n{code}")
        return "".join(outputs)

    def close(self) -> None:
        try:
            self.client.stop_channels()
        finally:
            self.manager.shutdown_kernel(now=True)


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Kernel]:
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    started = Kernel(tmp_path)
    try:
        yield started
    finally:
        started.close()


def code_cells() -> list[str]:
    notebook = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    return [
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
    ]


def test_the_example_notebook_runs_in_a_real_kernel_and_a_rerun_cell_replaces_its_tool(
    kernel: Kernel,
) -> None:
    setup, register, run, refused_args, sync_refused = code_cells()
    assert kernel.run(setup) == ""
    assert kernel.run(register) == "['add']\n"
    # The cell again, as a user re-runs it: the same function replaces the tool.
    assert kernel.run(register) == "['add']\n"
    assert kernel.run(run) == "True 5\n"
    assert kernel.run(refused_args) == "INVALID_ARGS\n"
    refusal = kernel.run(sync_refused)
    assert refusal.startswith("run_code_sync() cannot run inside a running event loop"), refusal
    assert "await scope.run_code(...)" in refusal
    # The kernel's loop still works after the refusal.
    assert kernel.run(run) == "True 5\n"


def test_in_a_kernel_a_different_function_under_a_taken_name_says_how_to_replace_it(
    kernel: Kernel,
) -> None:
    setup, register, *_ = code_cells()
    kernel.run(setup)
    kernel.run(register)
    out = kernel.run(
        "try:\n"
        "    @reg.tool(name='add')\n"
        "    def plus(a: int, b: int) -> int:\n"
        "        return a + b\n"
        "except codemode.ToolDefinitionError as exc:\n"
        "    print(exc)\n"
    )
    assert "a tool named 'add' is already registered here, by __main__.add" in out, out
    assert "scope.remove_tool('add')" in out
    # Removing it first, as the message says, works.
    out = kernel.run(
        "reg.remove_tool('add')\n"
        "@reg.tool(name='add')\n"
        "def plus(a: int, b: int) -> int:\n"
        "    return a + b + 100\n"
        "print((await reg.execute('add', {'a': 1, 'b': 2})).value)\n"
    )
    assert out == "103\n"


def test_the_synchronous_forms_work_in_a_plain_script(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import asyncio\n"
        "import codemode\n"
        "reg = codemode.Registry(warm_pool=0)\n"
        "@reg.tool\n"
        "def add(a: int, b: int) -> int:\n"
        '    """Add."""\n'
        "    return a + b\n"
        "@reg.tool\n"
        "async def later(x: int) -> int:\n"
        '    """Sleeps, then answers."""\n'
        "    await asyncio.sleep(0.01)\n"
        "    return x\n"
        "print(reg.execute_sync('add', {'a': 1, 'b': 2}).value)\n"
        "run = reg.run_code_sync('return await tools.add({a: 1, b: 2}) + await tools.later({x: 4})')\n"
        "print(run.ok, run.value)\n"
        "print(reg.run_code_sync('return await tools.later({x: 5})').value)\n"
        "async def inside() -> None:\n"
        "    try:\n"
        "        reg.execute_sync('add', {'a': 1, 'b': 2})\n"
        "    except RuntimeError as exc:\n"
        "        print(exc)\n"
        "asyncio.run(inside())\n",
        encoding="utf-8",
    )
    done = run_python(script, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["3", "True 7", "5"]
    assert lines[3].startswith("execute_sync() cannot run inside a running event loop")
    assert "await scope.execute(...)" in lines[3]


def test_registering_the_same_function_again_replaces_it_and_another_still_errors() -> None:
    import codemode

    reg = codemode.Registry(warm_pool=0)

    def define(offset: int) -> Any:
        def add(a: int, b: int) -> int:
            """Add."""
            return a + b + offset

        return add

    reg.tool(define(0))
    reg.tool(define(10))  # the same module and qualified name: replaced
    assert reg.tool_names() == ["add"]
    assert reg.execute_sync("add", {"a": 1, "b": 2}).value == 13

    def add(a: int) -> int:
        """Another add."""
        return a

    with pytest.raises(codemode.ToolDefinitionError) as caught:
        reg.tool(add)
    assert "to replace it, remove it first: scope.remove_tool('add')" in str(caught.value)
    assert reg.execute_sync("add", {"a": 1, "b": 2}).value == 13  # the old one stays
    assert reg.remove_tool("add") is True
    reg.tool(add)
    assert reg.execute_sync("add", {"a": 4}).value == 4
