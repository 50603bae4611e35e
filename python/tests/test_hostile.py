"""The adversarial suites of both runtimes, run through the installed package: every
program of ``fixtures/hostile/`` (TypeScript) and ``fixtures/python-hostile/`` (Python, in
confined workers started from this interpreter) must end as its header declares
(``// expect: kind|kind`` / ``# expect: ...``, optional ``message: text``), never return
``ESCAPED``, and leave the host healthy: a normal run works afterwards and no worker is left
behind. ``fixtures/exhaustion/`` runs each program in a host process of its own and bounds
its answer time and the host's peak resident memory, as the Rust tests do (with slack).

The budgets are the Rust suites' (tests/it/runtime/hostile.rs, tests/it/python/hostile.rs,
tests/it/runtime/exhaustion.rs).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import codemode

from _scripts import run_python

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@dataclass
class Fixture:
    name: str
    program: str
    expect: list[str]
    message: str | None


def load_fixtures(directory: str, extension: str, comment: str) -> list[Fixture]:
    """As ``load_fixtures`` of tests/it/runtime/hostile.rs: ``#@NAME`` lines are replaced by
    ``prelude/name.<ext>``; the header is the leading comment lines."""
    root = FIXTURES / directory
    fixtures = []
    for path in sorted(root.glob(f"*.{extension}")):
        lines = []
        for line in path.read_text().splitlines(keepends=True):
            stripped = line.rstrip()
            if stripped.startswith("#@"):
                lines.append((root / "prelude" / f"{stripped[2:].lower()}.{extension}").read_text())
            else:
                lines.append(line)
        program = "".join(lines)
        header: dict[str, str] = {}
        for line in program.splitlines():
            if not line.startswith(comment):
                break
            for key in ("expect", "message"):
                prefix = f"{comment} {key}: "
                if line.startswith(prefix) and key not in header:
                    header[key] = line[len(prefix) :].strip()
        assert "expect" in header, f"{path.name} has no `{comment} expect:` line"
        fixtures.append(
            Fixture(
                name=path.name,
                program=program,
                expect=[kind.strip() for kind in header["expect"].split("|")],
                message=header.get("message"),
            )
        )
    return fixtures


# Programs that Code Mode refuses before they run when they come through the pipeline (the
# Rust suites run the engine alone): the static check of a program's tool calls names the
# tool it does not have, with the error code here. The program never runs, so it cannot
# reach anything either.
REFUSED_BY_THE_PIPELINE = {"21-unknown-member.py": "UNKNOWN_TOOL"}


def verdict(fixture: Fixture, run: codemode.RunResult) -> str | None:
    """What is wrong with ``run`` for ``fixture`` (``None``: it ended as declared)."""
    refused = REFUSED_BY_THE_PIPELINE.get(fixture.name)
    if refused is not None:
        if run.ok or run.error_kind is not None or run.error_code != refused:
            return f"{fixture.name}: expected the pipeline to refuse it ({refused}): {run.text[:400]}"
        return None
    if run.ok:
        kind, text = "ok", json.dumps(run.value, ensure_ascii=False, separators=(",", ":"))
    else:
        kind = run.error_kind or f"refused ({run.error_code})"
        text = run.error_message or run.text
    shown = text[:400]
    if "ESCAPED" in text or "ESCAPED" in run.text:
        return f"{fixture.name}: ESCAPED: {shown}"
    if kind not in fixture.expect:
        return f"{fixture.name}: expected {fixture.expect}, got {kind}: {shown}"
    if fixture.message is not None and fixture.message not in text:
        return f"{fixture.name}: {kind} message should contain {fixture.message!r}: {shown}"
    return None


def make_registry(language: str) -> codemode.Registry:
    reg = codemode.Registry(
        mode="code",
        language=language,  # type: ignore[arg-type]
        compute_ms=1_000,
        wall_ms=3_000,
        heap_mb=64,
        max_output_bytes=1 << 20,
        max_call_bytes=1 << 20,
        warm_pool=2,
    )

    def echo(**args: Any) -> Any:
        return args

    reg.add_tool(
        echo,
        name="echo",
        description="Returns its arguments.",
        input_schema={"type": "object"},
        infer_output=False,
        parallel_safe=True,
    )
    return reg


def worker_processes() -> list[int]:
    """This process's Python worker children (started from this interpreter)."""
    me = str(os.getpid())
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        ppid = stat.rsplit(")", 1)[1].split()[1]
        if ppid == me and b"__python-worker" in cmdline:
            found.append(int(pid))
    return found


def children(parent: int) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[1] == str(parent):
            found.append(int(pid))
    return found


async def run_suite(
    reg: codemode.Registry, fixtures: list[Fixture], at_once: int, language: str
) -> list[str]:
    failures: list[str] = []
    for start in range(0, len(fixtures), at_once):
        chunk = fixtures[start : start + at_once]
        runs = await asyncio.gather(
            *(
                reg.run_code(f.program, description=f.name, language=language)  # type: ignore[arg-type]
                for f in chunk
            )
        )
        for fixture, run in zip(chunk, runs):
            wrong = verdict(fixture, run)
            if wrong is not None:
                failures.append(wrong)
            home = os.environ.get("HOME")
            if home and f"HOME={home}" in run.text:
                failures.append(f"{fixture.name}: saw the host's environment")
    return failures


async def test_hostile_typescript_programs_end_as_declared_through_the_package() -> None:
    fixtures = load_fixtures("hostile", "ts", "//")
    assert len(fixtures) >= 30
    reg = make_registry("typescript")
    failures = await run_suite(reg, fixtures, 3, "typescript")
    assert not failures, f"{len(failures)} hostile programs misbehaved:\n" + "\n".join(failures)
    healthy = await reg.run_code("return await tools.echo({ healthy: true });")
    assert healthy.value == {"healthy": True}, healthy.text


async def test_hostile_python_programs_end_as_declared_in_confined_workers() -> None:
    fixtures = load_fixtures("python-hostile", "py", "#")
    assert len(fixtures) >= 30
    reg = make_registry("python")
    started = time.monotonic()
    failures = await run_suite(reg, fixtures, 2, "python")
    took = time.monotonic() - started
    assert not failures, f"{len(failures)} hostile programs misbehaved:\n" + "\n".join(failures)
    healthy = await reg.run_code("return await tools.echo({'healthy': True})")
    assert healthy.value == {"healthy": True}, healthy.text
    # The pool settles: the template and this registry's pool (plus one starting), the
    # killed workers gone.
    def processes() -> list[int]:
        templates = worker_processes()
        return templates + [pid for t in templates for pid in children(t)]

    deadline = time.monotonic() + 20
    while len(processes()) > 1 + 2 + 1:
        assert time.monotonic() < deadline, f"workers left: {processes()}"
        await asyncio.sleep(0.05)
    print(f"{len(fixtures)} Python hostile programs in {took:.1f} s")


async def test_the_workers_are_this_interpreter_isolated_and_confined() -> None:
    reg = make_registry("python")
    run = await reg.run_code("return 1")
    assert run.ok, run.text
    # Workers come from a template (a fork server): this process's child, landlocked once;
    # each worker it forks adds its own seccomp filter and rlimits.
    templates = worker_processes()
    assert templates, "the pool's template runs"
    argv = Path(f"/proc/{templates[0]}/cmdline").read_bytes().split(b"\0")
    assert os.path.realpath(argv[0].decode()) == os.path.realpath(sys.executable)
    assert argv[1:5] == [b"-I", b"-S", b"-B", b"-c"]
    # The core's launcher (argv[5]) and its marker: nothing of this package is named (or, see
    # below, loaded) in a worker.
    assert argv[6] == b"__python-worker"
    assert codemode._native.__file__ is not None
    assert not any(codemode._native.__file__.encode() in arg for arg in argv)
    # A live ready worker (finished ones stay zombies until the template's next fork).
    deadline = time.monotonic() + 20
    worker, status = 0, ""
    while not status:
        assert time.monotonic() < deadline, "the pool keeps ready workers"
        for pid in [p for t in templates for p in children(t)]:
            try:
                text = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            if "\nState:\tZ" not in text:
                worker, status = pid, text
                break
        else:
            await asyncio.sleep(0.05)
    workers = [worker]
    maps = Path(f"/proc/{worker}/maps").read_text()
    assert os.path.basename(codemode._native.__file__) not in maps, "the package is not loaded"
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    assert fields["Seccomp"].strip() == "2", "a seccomp filter is installed"
    assert fields["NoNewPrivs"].strip() == "1"
    limits = Path(f"/proc/{workers[0]}/limits").read_text()
    assert any(
        line.startswith("Max file size") and line.split()[3] == "0" for line in limits.splitlines()
    ), limits
    # Its environment is empty (the host's is not passed on).
    assert Path(f"/proc/{workers[0]}/environ").read_bytes() == b""


# -- where confinement cannot be enforced --------------------------------------------------

# A host process where the kernel really refuses Landlock: before importing codemode it
# installs a seccomp filter (inherited by every process it starts, the workers too) that
# answers landlock_create_ruleset with ENOSYS, as a kernel without Landlock does. Then the
# package must refuse Python programs, as the command does, unless allow_unconfined.
WITHOUT_LANDLOCK = textwrap.dedent(
    """
    import ctypes, struct

    def no_landlock():
        libc = ctypes.CDLL(None, use_errno=True)
        def op(code, jt, jf, k):
            return struct.pack("HBBI", code, jt, jf, k)
        prog = b"".join([
            op(0x20, 0, 0, 4),                  # A = the architecture
            op(0x15, 0, 2, 0xC000003E),         # not x86_64: allow
            op(0x20, 0, 0, 0),                  # A = the system call's number
            op(0x15, 1, 0, 444),                # landlock_create_ruleset: ENOSYS
            op(0x06, 0, 0, 0x7FFF0000),         # allow
            op(0x06, 0, 0, 0x00050000 | 38),    # errno ENOSYS
        ])
        buf = ctypes.create_string_buffer(prog)
        class Fprog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        fprog = Fprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p))
        assert libc.prctl(38, 1, 0, 0, 0) == 0          # PR_SET_NO_NEW_PRIVS
        assert libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0, ctypes.get_errno()

    no_landlock()
    """
)


def test_python_programs_are_refused_where_landlock_is_not_enforced(tmp_path: Path) -> None:
    script = tmp_path / "host.py"
    script.write_text(
        WITHOUT_LANDLOCK
        + textwrap.dedent(
            """
            import asyncio, json, sys
            import codemode

            out = {}
            try:
                codemode.Registry(mode="code", language="python")
                out["registry"] = "not refused"
            except codemode.ConfigError as exc:
                out["registry"] = str(exc)
            ts = codemode.Registry(mode="code")
            run = asyncio.run(ts.run_code("print('RAN')\\nreturn 1", language="python"))
            out["run"] = [run.ok, run.error_kind, run.text]
            out["typescript"] = asyncio.run(ts.run_code("return 2")).value
            allowed = codemode.Registry(mode="code", language="python", allow_unconfined=True)
            run = asyncio.run(allowed.run_code("return 3"))
            out["allowed"] = [run.ok, run.value]
            print(json.dumps(out))
            """
        )
    )
    done = run_python(script, tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    refused = out["registry"]
    assert refused != "not refused"
    assert "landlock: none" in refused and "allow_unconfined=True" in refused, refused
    ok, kind, text = out["run"]
    assert not ok and kind == "worker-exit" and "landlock: none" in text, out["run"]
    assert "RAN" not in text
    # TypeScript programs do not need the workers' confinement; allow_unconfined runs anyway.
    assert out["typescript"] == 2
    assert out["allowed"] == [True, 3]


def test_the_command_refuses_python_programs_where_landlock_is_not_enforced(
    tmp_path: Path,
) -> None:
    command = shutil.which("codemode", path=str(Path(sys.executable).parent))
    assert command is not None
    script = tmp_path / "command.py"
    script.write_text(
        WITHOUT_LANDLOCK
        + textwrap.dedent(
            f"""
            import subprocess, sys
            done = subprocess.run([{command!r}, "run", "--lang", "python", "-"],
                                  input="print('RAN')\\nreturn 1\\n", capture_output=True,
                                  text=True, timeout=60)
            sys.stdout.write(str(done.returncode) + "\\n" + done.stdout + done.stderr)
            """
        )
    )
    done = run_python(script, tmp_path)
    assert done.returncode == 0, done.stderr
    status, _, output = done.stdout.partition("\n")
    assert status != "0", output
    assert "landlock: none" in output and "allow_unconfined" in output, output
    assert "RAN" not in output


# -- exhaustion: each program in a host process of its own -------------------------------------

HEAP_MB = 64
COMPUTE_MS = 2_000
WALL_MS = 4_000
RSS_SLACK = 64 << 20

PROBE = textwrap.dedent(
    """
    import asyncio, json, sys, time
    import codemode

    def hwm():
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    async def main():
        reg = codemode.Registry(mode="code", compute_ms=%d, wall_ms=%d, heap_mb=%d,
                                max_output_bytes=1 << 20, warm_pool=1)
        reg.add_tool(lambda **a: a, name="echo", description="echo",
                     input_schema={"type": "object"}, infer_output=False)
        warm = await reg.run_code("return 0")
        assert warm.ok, warm.text
        base = hwm()
        started = time.monotonic()
        run = await reg.run_code(open(sys.argv[1]).read())
        answer = time.monotonic() - started
        started = time.monotonic()
        nxt = await reg.run_code("return 41 + 1")
        next_s = time.monotonic() - started
        print(json.dumps({"kind": run.error_kind or "ok", "answer": answer, "next": next_s,
                          "next_ok": nxt.value == 42, "base": base, "hwm": hwm()}))

    asyncio.run(main())
    """
    % (COMPUTE_MS, WALL_MS, HEAP_MB)
)


def probe(path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", PROBE, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd="/",
    )


def test_exhaustion_programs_end_within_budgets_and_memory() -> None:
    paths = sorted((FIXTURES / "exhaustion").glob("*.ts"))
    assert len(paths) >= 10
    failures = []
    for start in range(0, len(paths), 2):
        pair = paths[start : start + 2]
        procs = [probe(path) for path in pair]
        for path, proc in zip(pair, procs):
            out, err = proc.communicate(timeout=120)
            if proc.returncode != 0:
                failures.append(f"{path.name}: the host died ({proc.returncode}): {err[-2000:]}")
                continue
            result = json.loads(out.strip().splitlines()[-1])
            wrong = []
            if result["kind"] not in ("worker-exit", "timeout"):
                wrong.append(f"ended as {result['kind']}")
            if result["answer"] > (WALL_MS + 2_000) / 1000:
                wrong.append(f"answered after {result['answer']:.2f} s")
            # The host's growth beyond its warmed-up peak: the heap budget plus slack.
            grown = result["hwm"] - result["base"]
            if grown > (HEAP_MB << 20) + RSS_SLACK:
                wrong.append(f"peak RSS grew by {grown >> 20} MiB")
            if not result["next_ok"] or result["next"] > 2:
                wrong.append(f"the next run took {result['next']:.2f} s (ok: {result['next_ok']})")
            print(path.name, result)
            if wrong:
                failures.append(f"{path.name}: {', '.join(wrong)} {result}")
    assert not failures, "exhaustion programs escaped:\n" + "\n".join(failures)
