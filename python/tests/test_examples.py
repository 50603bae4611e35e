"""The Python examples (examples/python/) run against the installed package, and pass
``mypy --strict``: the agent loop over OpenAI's function-tool shape with a scripted model,
the MCP server driven by the MCP Python SDK's own client over stdio, and Python tools
called from a TypeScript and a Python program in one run.

Each example runs as its own process from a temporary directory (nothing from the source
tree on ``sys.path`` but the example's own folder). The examples need ``mcp`` (and mypy)
installed next to the package: ``pip install mcp mypy``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _scripts import run_python

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"


def run_example(name: str, tmp_path: Path) -> str:
    script = EXAMPLES / name
    assert script.is_file(), f"missing example {script}"
    done = run_python(script, tmp_path)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_examples_pass_mypy_strict() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed next to the package: pip install mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLES)],
        cwd=EXAMPLES.parents[1],  # the repository root: its pyproject.toml configures mypy
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in" in done.stdout


def test_the_agent_loop_runs_the_scripted_models_program_and_answers(tmp_path: Path) -> None:
    out = run_example("openai_agent_loop.py", tmp_path)
    assert "offered: ['run_code']" in out
    assert "the SDK in run_code's description: True" in out
    # The program's log line and return value, as the model read them in the tool message.
    answer = out.split("answer: ", 1)[1]
    assert answer.startswith("From the program's output: checked 3 cities\n")
    assert json.loads(answer.split("\n", 1)[1]) == {"city": "Lisbon", "high": 24.5}


async def test_the_mcp_server_serves_run_code_to_the_mcp_python_client(tmp_path: Path) -> None:
    try:
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
    except ImportError:
        pytest.fail("the MCP Python SDK is not installed next to the package: pip install mcp")
    params = StdioServerParameters(
        command=sys.executable, args=[str(EXAMPLES / "mcp_server.py")], cwd=str(tmp_path)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        assert [tool.name for tool in listed.tools] == ["run_code"]
        description = listed.tools[0].description or ""
        # The description carries the SDK of the server's Python tools.
        assert "declare const tools" in description
        assert "list_orders" in description and "order_total" in description
        assert "The orders of a customer." in description
        assert set(listed.tools[0].input_schema["required"]) == {"code", "description"}

        program = """
            const orders = await tools.list_orders({customer: "ada"});
            const totals = await Promise.all(orders.map((o) => tools.order_total({order_id: o.id})));
            console.log(`${orders.length} orders`);
            return totals.reduce((a, b) => a + b, 0);
        """
        result = await session.call_tool(
            "run_code", {"code": program, "description": "ada's total"}
        )
        assert not result.is_error, result
        assert result.content[0].text == "2 orders\n42.5"

        # A tool's exception reaches the program as ToolCallError; uncaught, the run fails
        # and the client gets an MCP tool error with codemode's text.
        failing = await session.call_tool(
            "run_code",
            {"code": 'return await tools.order_total({order_id: "Z-9"})', "description": "x"},
        )
        assert failing.is_error
        text = failing.content[0].text
        assert "Error: code run failed (exception): ToolCallError: KeyError: 'no order Z-9'" in text

        # Arguments outside the tool's schema are refused by the pipeline, with a path.
        invalid = await session.call_tool(
            "run_code",
            {"code": "return await tools.list_orders({customer: 7})", "description": "x"},
        )
        assert invalid.is_error
        assert "customer" in invalid.content[0].text


def test_python_tools_are_called_from_a_typescript_and_a_python_program_in_one_run(
    tmp_path: Path,
) -> None:
    out = run_example("two_languages.py", tmp_path)
    lines = out.splitlines()
    assert lines[0] == (
        "{'language': 'typescript', 'words': 4, 'loud': 'FROM TYPESCRIPT'} "
        "['word_count', 'shout']"
    )
    assert lines[1] == (
        "{'language': 'python', 'words': 5, 'loud': 'FROM PYTHON'} ['word_count', 'shout']"
    )
    assert lines[2] == (
        "the tools saw: ['called from a python program', 'from python', "
        "'from typescript', 'tools written in python']"
    )
