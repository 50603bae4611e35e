"""The ``codemode`` command installed by the wheel (``[project.scripts]``): the core's
command line run by the extension module, with Python programs' workers started from this
interpreter. Every test runs the installed script as a subprocess (the way a user or an
editor's MCP configuration does), never the source tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import codemode
from codemode import _native

BIN_DIR = Path(sys.executable).parent
COMMAND = shutil.which("codemode", path=str(BIN_DIR)) or str(BIN_DIR / "codemode")


def codemode_cmd(
    *args: str, cwd: Path, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [COMMAND, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.txt").write_text("gamma\n")
    return tmp_path


def test_the_script_is_on_the_environments_path_and_is_the_package() -> None:
    assert Path(COMMAND).is_file(), COMMAND
    text = Path(COMMAND).read_text()
    assert "codemode._cli" in text


def test_version_is_the_packages(workspace: Path) -> None:
    done = codemode_cmd("--version", cwd=workspace)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"codemode {_native.__version__}\n"
    assert done.stderr == ""
    assert codemode.__version__ == _native.__version__


def test_usage_errors_exit_2_on_stderr_and_help_exits_0(workspace: Path) -> None:
    bad = codemode_cmd("frobnicate", cwd=workspace)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "unrecognized subcommand 'frobnicate'" in bad.stderr
    usage = codemode_cmd("run", cwd=workspace)
    assert usage.returncode == 2
    assert "<FILE>" in usage.stderr
    helped = codemode_cmd("--help", cwd=workspace)
    assert helped.returncode == 0
    for sub in ("run", "sdk", "tools", "serve", "token"):
        assert f"  {sub}" in helped.stdout
    assert helped.stderr == ""


def test_run_a_typescript_program(workspace: Path) -> None:
    (workspace / "p.ts").write_text(
        "const listing = await tools.list_dir({ path: '.' });\n"
        "console.log('entries', listing.entries.length);\n"
        "return listing.entries.map((e: { name: string }) => e.name);\n"
    )
    done = codemode_cmd("run", "p.ts", cwd=workspace)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "entries 3"
    assert json.loads(done.stdout.split("\n", 1)[1]) == ["notes.txt", "p.ts", "sub"]


def test_run_a_python_program_in_a_confined_worker(workspace: Path) -> None:
    (workspace / "p.py").write_text(
        "import asyncio\n"
        "a, b = await asyncio.gather(\n"
        "    tools.read_file({'path': 'notes.txt'}),\n"
        "    tools.list_dir({'path': 'sub'}),\n"
        ")\n"
        "print('lines', a['lines_returned'] if 'lines_returned' in a else len(a))\n"
        "return {'names': [e['name'] for e in b['entries']], 'sum': 6 * 7}\n"
    )
    done = codemode_cmd("run", "p.py", "--json", cwd=workspace)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    text = json.dumps(out)
    assert "deep.txt" in text and "42" in text, text


def test_a_failed_python_program_exits_1_with_the_error(workspace: Path) -> None:
    (workspace / "bad.py").write_text("import os\nreturn os.getcwd()\n")
    done = codemode_cmd("run", "bad.py", cwd=workspace)
    assert done.returncode == 1
    assert "ImportError: module 'os' is not available in this sandbox" in done.stdout + done.stderr


def test_a_python_program_from_stdin_with_lang(workspace: Path) -> None:
    done = codemode_cmd("run", "--lang", "python", "-", cwd=workspace, stdin="print('hi')\nreturn [1, 2]\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hi\n")
    assert json.loads(done.stdout[3:]) == [1, 2]


def test_a_python_program_cannot_read_the_hosts_files(workspace: Path) -> None:
    """The real ``open`` reached through a function's globals (what the import guard
    cannot stop) is refused by the confinement of the worker started from this
    interpreter."""
    secret = workspace / "secret.txt"
    secret.write_text("TOP-SECRET")
    (workspace / "escape.py").write_text(
        "b = ToolCallError.__init__.__globals__['__builtins__']\n"
        "b = b if isinstance(b, dict) else b.__dict__\n"
        "try:\n"
        f"    return b['open']({str(secret)!r}).read()\n"
        "except BaseException as e:\n"
        "    return 'blocked: ' + type(e).__name__\n"
    )
    done = codemode_cmd("run", "escape.py", cwd=workspace)
    assert done.returncode == 0, done.stderr
    assert "TOP-SECRET" not in done.stdout
    assert "blocked: PermissionError" in done.stdout, done.stdout


def test_tools_and_sdk(workspace: Path) -> None:
    listed = codemode_cmd("tools", cwd=workspace)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("mode: native\n")
    for name in ("glob", "grep", "list_dir", "read_file"):
        assert f"\n{name} " in listed.stdout
    sdk_ts = codemode_cmd("sdk", cwd=workspace)
    assert sdk_ts.returncode == 0, sdk_ts.stderr
    assert "```ts\n" in sdk_ts.stdout and "list_dir" in sdk_ts.stdout
    sdk_py = codemode_cmd("sdk", "--lang", "python", cwd=workspace)
    assert sdk_py.returncode == 0, sdk_py.stderr
    assert "```python" in sdk_py.stdout and "class ToolCallError(Exception):" in sdk_py.stdout
    # Byte-stable: the same text twice.
    assert codemode_cmd("sdk", "--lang", "python", cwd=workspace).stdout == sdk_py.stdout


def test_a_broken_configuration_exits_2(workspace: Path) -> None:
    (workspace / "codemode.toml").write_text("mode = 'sideways'\n")
    done = codemode_cmd("tools", cwd=workspace)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("codemode: ")


def test_token_new_and_hash(workspace: Path) -> None:
    made = codemode_cmd("token", "new", cwd=workspace)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert len(token) >= 32
    hashed = codemode_cmd("token", "hash", cwd=workspace, stdin=token + "\n")
    assert hashed.returncode == 0, hashed.stderr
    assert hashed.stdout.strip() == hashlib.sha256(token.encode()).hexdigest()
    assert hashed.stdout.strip() in made.stderr


# -- serve over stdio, driven by the MCP SDK's client -----------------------------------------


def _is_error(result: Any) -> bool:
    # `is_error` in the SDK's 2.x, `isError` before.
    flag = getattr(result, "is_error", None)
    return bool(result.isError if flag is None else flag)


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def _serve_session(workspace: Path, steps: Any) -> Any:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=COMMAND, args=["serve"], cwd=str(workspace))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await steps(session)


async def test_serve_over_stdio_in_code_mode_with_python_programs(workspace: Path) -> None:
    pytest.importorskip("mcp")
    (workspace / "codemode.toml").write_text('mode = "code"\n\n[runtime]\nlanguage = "python"\n')

    async def steps(session: Any) -> Any:
        listed = await session.list_tools()
        names = [tool.name for tool in listed.tools]
        ok = await session.call_tool(
            "run_code",
            {
                "code": "r = await tools.list_dir({'path': 'sub'})\nprint('seen')\n"
                "return [e['name'] for e in r['entries']]",
                "description": "list sub",
            },
        )
        failed = await session.call_tool(
            "run_code", {"code": "import os\nreturn 1", "description": "import os"}
        )
        return listed, names, ok, failed

    listed, names, ok, failed = await _serve_session(workspace, steps)
    assert names == ["run_code"]
    assert "```python" in (listed.tools[0].description or "")
    assert not _is_error(ok), _text(ok)
    assert "seen" in _text(ok) and "deep.txt" in _text(ok)
    assert _is_error(failed)
    assert "not available in this sandbox" in _text(failed)


async def test_serve_over_stdio_native_tools(workspace: Path) -> None:
    pytest.importorskip("mcp")

    async def steps(session: Any) -> Any:
        listed = await session.list_tools()
        read = await session.call_tool("read_file", {"path": "notes.txt"})
        return [tool.name for tool in listed.tools], read

    names, read = await _serve_session(workspace, steps)
    assert sorted(names) == ["glob", "grep", "list_dir", "read_file"]
    assert not _is_error(read)
    assert "alpha" in _text(read) and "beta" in _text(read)


def _serving(workspace: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [COMMAND, "serve"],
        cwd=workspace,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    # The server answered: it is serving, its signal handler installed.
    line = proc.stdout.readline()
    assert json.loads(line)["id"] == 1
    return proc


def test_ctrl_c_ends_serve_cleanly(workspace: Path) -> None:
    proc = _serving(workspace)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=30)
    assert code == 0, proc.stderr.read() if proc.stderr else b""
    assert time.monotonic() - started < 30
    assert proc.stderr is not None
    assert b"KeyboardInterrupt" not in proc.stderr.read()


def test_sigterm_drains_serve_and_exits_0(workspace: Path) -> None:
    # SIGTERM drains (nothing is in flight here) and the command exits 0,
    # as docker stop and Kubernetes expect of a service.
    proc = _serving(workspace)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=30)
    assert code == 0, proc.stderr.read() if proc.stderr else b""


def test_serve_ends_when_its_client_closes_stdin(workspace: Path) -> None:
    proc = _serving(workspace)
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_the_extension_links_no_libpython() -> None:
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf is not installed")
    so = _native.__file__
    assert so is not None
    dynamic = subprocess.run([readelf, "-d", so], capture_output=True, text=True, check=True).stdout
    needed = [line for line in dynamic.splitlines() if "(NEEDED)" in line]
    assert needed, dynamic
    assert not any("libpython" in line for line in needed), needed


def test_no_worker_outlives_the_command(workspace: Path) -> None:
    (workspace / "p.py").write_text("return 1\n")
    done = codemode_cmd("run", "p.py", cwd=workspace)
    assert done.returncode == 0, done.stderr
    time.sleep(0.5)
    marker = "__python-worker"
    leftovers = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if marker in cmdline and "--cpu-seconds" in cmdline and cwd == "/":
            ppid = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
            if not Path(f"/proc/{ppid}").exists() or ppid == "1":
                leftovers.append(cmdline)
    assert leftovers == []
