"""MCP servers as tool sources from Python, and ``codemode.toml`` loaded as the command
loads it: a real MCP server (a script on the official Python SDK, ``mcp``, run by a Python
that has it) started by ``add_mcp_server`` and by ``Registry.from_config``, its tools
called natively and from a program, settings checked as the file's are.

The server's Python: ``$CODEMODE_TEST_MCP_PYTHON``, else the repository's test tools
(``tests/tools/venv``, made by ``.ci/tools``), else this interpreter when it has ``mcp``.
None of them is an error, not a skip."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import codemode

_REPO = Path(__file__).resolve().parents[2]

SERVER = textwrap.dedent(
    '''
    import os
    import sys

    from mcp.server.mcpserver import MCPServer

    server = MCPServer("py-test")
    marker = os.environ.get("MARKER")


    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b


    @server.tool()
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()


    @server.tool()
    def fail(message: str) -> str:
        """Always fails."""
        raise ValueError(message)


    @server.tool()
    def pid() -> int:
        """The server's process id."""
        return os.getpid()


    if marker:
        with open(marker, "w") as out:
            out.write(str(os.getpid()))
    server.run("stdio")
    '''
)


def _has_mcp(python: str) -> bool:
    probe = subprocess.run(
        [python, "-c", "import mcp.server.mcpserver"], capture_output=True, timeout=60
    )
    return probe.returncode == 0


def _server_python() -> str:
    candidates = [
        os.environ.get("CODEMODE_TEST_MCP_PYTHON"),
        str(_REPO / "tests" / "tools" / "venv" / "bin" / "python"),
        sys.executable,
    ]
    for python in candidates:
        if python and Path(python).exists() and _has_mcp(python):
            return python
    raise RuntimeError(
        "no Python with the `mcp` package for the MCP server: run .ci/tools, or set "
        "CODEMODE_TEST_MCP_PYTHON, or install mcp into the test environment"
    )


@pytest.fixture(scope="module")
def server_python() -> str:
    return _server_python()


@pytest.fixture
def server_script(tmp_path: Path) -> Path:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    return script


def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    return codemode.Registry(**options)


async def test_an_mcp_server_is_a_tool_source(server_python: str, server_script: Path) -> None:
    reg = make_registry()
    async with await reg.add_mcp_server(
        "py", command=[server_python, str(server_script)]
    ) as server:
        assert sorted(server.tool_names) == ["add", "fail", "pid", "shout"]
        assert [(s.name, s.ok, s.tools) for s in server.status] == [("py", True, 4)]
        assert sorted(reg.tool_names()) == ["add", "fail", "pid", "shout"]
        result = await reg.execute("add", {"a": 2, "b": 40})
        assert result.ok, result.text
        # The SDK's server gives a non-object return value as structured `{"result": ...}`.
        assert result.value == {"result": 42}
        assert result.text == "42"
        # The server checks its own schema (as with the command); its refusal is a failure.
        bad = await reg.execute("add", {"a": "two", "b": 40})
        assert (bad.ok, bad.error_code) == (False, "TOOL_FAILED")
        assert "a" in bad.text
        failed = await reg.execute("fail", {"message": "no luck"})
        assert not failed.ok
        assert failed.error_code == "TOOL_FAILED"
        assert "fail" in failed.text  # the SDK's server does not pass the exception's text
    # Closed: the tools are gone.
    assert reg.tool_names() == []


async def test_a_program_calls_mcp_tools_next_to_python_tools(
    server_python: str, server_script: Path
) -> None:
    reg = make_registry()

    @reg.tool
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    async with await reg.add_mcp_server("py", command=[server_python, str(server_script)]):
        run = await reg.run_code(
            """
            const sum = (await tools.add({a: 1, b: 2})).result;
            const [loud, twice] = await Promise.all([tools.shout({text: "hi"}), tools.double({n: sum})]);
            try { await tools.fail({message: "m"}); } catch (e) { return [loud, twice, e.name]; }
            """
        )
        assert run.ok, run.text
        assert run.value == [{"result": "HI"}, 6, "ToolCallError"]
        assert [call.name for call in run.sub_calls] == ["add", "shout", "double", "fail"]
        assert "tools.shout" in reg.sdk() or "shout" in reg.sdk()


async def test_a_name_the_scope_already_sees_is_prefixed_with_the_server(
    server_python: str, server_script: Path
) -> None:
    reg = make_registry()

    @reg.tool
    def add(a: int, b: int) -> int:
        """The local add."""
        return -1

    async with await reg.add_mcp_server(
        "py", command=[server_python, str(server_script)], include=["add", "shout"]
    ) as server:
        assert sorted(server.tool_names) == ["py__add", "shout"]
        assert server.status[0].renamed == {"add": "py__add"}
        assert (await reg.execute("add", {"a": 1, "b": 1})).value == -1
        assert (await reg.execute("py__add", {"a": 1, "b": 1})).value == {"result": 2}
        assert "pid" not in reg.tool_names()


async def test_per_tool_settings_apply_policies(server_python: str, server_script: Path) -> None:
    asked: list[str] = []

    def approver(call: codemode.ToolCall, reason: str | None) -> bool:
        asked.append(call.name)
        return False

    reg = make_registry(approver=approver)
    async with await reg.add_mcp_server(
        "py",
        command=[server_python, str(server_script)],
        tools={"shout": {"policy": "ask"}, "pid": {"policy": "deny"}},
    ):
        agent = reg.scope("agent")  # approvals are asked for an agent's calls
        shout = await agent.execute("shout", {"text": "x"})
        assert (shout.ok, shout.error_code) == (False, "APPROVAL_DENIED")
        assert asked == ["shout"]
        denied = await agent.execute("pid", {})
        assert (denied.ok, denied.error_code) == (False, "TOOL_DENIED")
        assert (await agent.execute("add", {"a": 1, "b": 2})).value == {"result": 3}


async def _until_gone(pid: int, what: str) -> None:
    """Waits (up to 10 s) until the process ``pid`` has ended."""
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        await asyncio.sleep(0.1)
    pytest.fail(f"the server process {pid} outlived {what}")


async def test_closing_ends_the_server_process(
    server_python: str, server_script: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pid"
    reg = make_registry()
    server = await reg.add_mcp_server(
        "py", command=[server_python, str(server_script)], env={"MARKER": str(marker)}
    )
    pid = int(marker.read_text())
    assert (await reg.execute("pid", {})).value == {"result": pid}
    await server.close()
    await _until_gone(pid, "close()")
    assert reg.tool_names() == []


async def test_servers_added_to_a_closed_scope_are_refused_and_ended(
    server_python: str, server_script: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pid"
    reg = make_registry()
    agent = reg.scope("agent")
    agent.close()
    with pytest.raises(codemode.ToolDefinitionError) as caught:
        await agent.add_mcp_server(
            "py", command=[server_python, str(server_script)], env={"MARKER": str(marker)}
        )
    assert caught.value.code == "INVALID_DEFINITION"
    await _until_gone(int(marker.read_text()), "the refusal")
    assert reg.tool_names() == []


async def test_a_server_that_cannot_start_is_a_host_error(tmp_path: Path) -> None:
    reg = make_registry()
    with pytest.raises(codemode.HostError) as caught:
        await reg.add_mcp_server(
            "broken", command=[str(tmp_path / "no-such-program")], startup_timeout=10
        )
    assert caught.value.code == "HOST_FAILED"
    assert "broken" in str(caught.value)
    assert reg.tool_names() == []


async def test_settings_the_file_refuses_are_config_errors(
    server_python: str, server_script: Path
) -> None:
    reg = make_registry()
    with pytest.raises(codemode.ConfigError) as caught:
        await reg.add_mcp_server("two words", command=["x"])
    assert caught.value.code == "INVALID_CONFIG"
    with pytest.raises(codemode.ConfigError):
        await reg.add_mcp_server("both", command=["x"], url="http://127.0.0.1:9/mcp")
    with pytest.raises(codemode.ConfigError) as caught:
        await reg.add_mcp_server(
            "py", command=[server_python, str(server_script)], include=["nope"]
        )
    assert "nope" in str(caught.value)
    assert reg.tool_names() == []


async def test_mcp_tools_can_be_added_to_an_agent_scope_only(
    server_python: str, server_script: Path
) -> None:
    reg = make_registry()
    agent = reg.scope("agent", mode="code")
    other = reg.scope("other")
    async with await agent.add_mcp_server("py", command=[server_python, str(server_script)]):
        assert "add" in agent.tool_names()
        assert "add" not in other.tool_names()
        assert reg.tool_names() == []
        run = await agent.run_code("return (await tools.add({a: 20, b: 22})).result")
        assert run.value == 42, run.text


DYNAMIC_SERVER = textwrap.dedent(
    '''
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer("py-dynamic")


    @server.tool()
    async def grow(name: str, ctx: Context) -> str:
        """Adds a tool `name`, then says the tool list changed."""

        def grown() -> str:
            return f"{name} works"

        server.add_tool(grown, name=name, description="A tool added while serving.")
        await ctx.session.send_tool_list_changed()
        return name


    @server.tool()
    async def drop(name: str, ctx: Context) -> str:
        """Removes the tool `name`, then says the tool list changed."""
        server.remove_tool(name)
        await ctx.session.send_tool_list_changed()
        return name


    server.run("stdio")
    '''
)


async def _until(condition: Any, what: str) -> None:
    """Waits (up to 30 s: the re-list is asynchronous) until `condition()` holds."""
    deadline = asyncio.get_running_loop().time() + 30
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.05)


async def test_a_servers_changed_tool_list_is_followed_in_its_scope(
    server_python: str, tmp_path: Path
) -> None:
    script = tmp_path / "dynamic.py"
    script.write_text(DYNAMIC_SERVER)
    reg = make_registry()
    agent = reg.scope("agent")
    server = await agent.add_mcp_server(
        "dyn",
        command=[server_python, str(script)],
        tools={"locked": {"policy": "deny"}},
    )
    async with server:
        assert server.tool_names == ["drop", "grow"]
        run = await agent.run_code('return await tools.grow({name: "late"})')
        assert run.ok, run.text
        # The server said its list changed: the scope lists it again and follows.
        await _until(lambda: "late" in agent.tool_names(), "the grown tool")
        assert server.tool_names == ["drop", "grow", "late"]
        assert "late" not in reg.tool_names()
        assert "  late: " in agent.sdk()
        run = await agent.run_code("return await tools.late({})")
        assert run.ok, run.text
        assert "late works" in run.text
        # `[mcp.tools.NAME]` settings apply to a tool the server lists later.
        run = await agent.run_code('return await tools.grow({name: "locked"})')
        assert run.ok, run.text
        await _until(lambda: "locked" in agent.tool_names(), "the second grown tool")
        denied = await agent.execute("locked", {})
        assert (denied.ok, denied.error_code) == (False, "TOOL_DENIED"), denied.text
        # A tool the server drops leaves the scope.
        run = await agent.run_code('return await tools.drop({name: "late"})')
        assert run.ok, run.text
        await _until(lambda: "late" not in agent.tool_names(), "the dropped tool to go")
        assert server.tool_names == ["drop", "grow", "locked"]

        # A name the scope's own tools took after the start is taken at a re-list too.
        def later() -> str:
            """A tool of the scope's own."""
            return "local"

        agent.tool(later)
        run = await agent.run_code('return await tools.grow({name: "later"})')
        assert run.ok, run.text
        await _until(lambda: "dyn__later" in agent.tool_names(), "the renamed tool")
        assert server.tool_names == ["drop", "dyn__later", "grow", "locked"]
        assert (await agent.execute("later", {})).value == "local"
    # Closed: the servers' tools are gone and stay gone.
    assert agent.tool_names() == ["later"]
    assert server.tool_names == []


# -- codemode.toml ----------------------------------------------------------------------------


async def test_from_config_builds_what_the_command_builds(
    server_python: str, server_script: Path, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    config = tmp_path / "codemode.toml"
    config.write_text(
        textwrap.dedent(
            f"""
            mode = "code"

            [builtin]
            root = "."
            enabled = ["read_file"]

            [policy]
            shout = "deny"

            [[mcp]]
            name = "py"
            command = [{server_python!r}, {str(server_script)!r}]
            """
        ).replace("'", '"')
    )
    reg = await codemode.Registry.from_config(config)
    assert reg.mode == "code"
    assert reg.language == "typescript"
    assert [(s.name, s.ok) for s in reg.servers] == [("py", True)]
    assert {"read_file", "add", "shout"} <= set(reg.tool_names())
    # In code mode the model is given run_code alone.
    assert [t["function"]["name"] for t in reg.tool_definitions()] == ["run_code"]
    run = await reg.run_code(
        """
        const file = await tools.read_file({path: "notes.txt"});
        const sum = (await tools.add({a: file.total_lines, b: 1})).result;
        try { await tools.shout({text: "x"}); } catch (e) { return [sum, e.message]; }
        """
    )
    assert run.ok, run.text
    total, denied = run.value
    assert total == 4
    assert "denies" in denied


async def test_from_config_reports_a_server_that_cannot_start(tmp_path: Path) -> None:
    config = tmp_path / "codemode.toml"
    config.write_text(
        '[builtin]\nroot = "."\n\n[[mcp]]\nname = "gone"\ncommand = ["/nonexistent/server"]\n'
        "startup_timeout_ms = 5000\n"
    )
    reg = await codemode.Registry.from_config(config)
    [status] = reg.servers
    assert (status.name, status.ok) == ("gone", False)
    assert status.message
    assert "read_file" in reg.tool_names()  # the other tools still work


async def test_a_bad_config_names_its_place(tmp_path: Path) -> None:
    config = tmp_path / "codemode.toml"
    config.write_text('mode = "code"\n\n[runtime]\nheap_mb = "lots"\n')
    with pytest.raises(codemode.ConfigError) as caught:
        await codemode.Registry.from_config(config)
    assert caught.value.code == "INVALID_CONFIG"
    assert f"{config}:4:" in str(caught.value)


async def test_from_config_without_a_file_uses_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("x\n")
    reg = await codemode.Registry.from_config()
    assert reg.mode == "native"
    assert "read_file" in reg.tool_names()
    result = await reg.execute("read_file", {"path": "a.txt"})
    assert result.ok, result.text
