"""The README's Python quick start, run verbatim against the installed package.

The test reads README.md from the repository root (``CODEMODE_README`` names another
file), takes the first ``python`` block of its "## Python" section and the ``text`` block
after "It prints:", runs the first as a script from a temporary directory and compares its
output with the second, and checks the block with ``mypy --strict``. A missing section or
block fails the test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _scripts import run_python

README = Path(
    os.environ.get("CODEMODE_README", Path(__file__).resolve().parents[2] / "README.md")
)


def python_section() -> str:
    assert README.is_file(), f"no README at {README}"
    text = README.read_text(encoding="utf-8")
    found = re.search(r"^## Python\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert found, f'{README} has no "## Python" section'
    return found.group(1)


def fenced(section: str, language: str, after: str = "") -> str:
    start = section.find(after) if after else 0
    assert start >= 0, f"the Python section has no {after!r}"
    found = re.search(rf"^```{language}\n(.*?)^```$", section[start:], flags=re.S | re.M)
    assert found, f"the Python section has no ```{language} block" + (
        f" after {after!r}" if after else ""
    )
    return found.group(1)


def test_the_install_line_is_pip_install_codemode() -> None:
    assert fenced(python_section(), "sh").strip() == "pip install codemode"


def test_the_quick_start_runs_verbatim_and_prints_what_the_readme_says(
    tmp_path: Path,
) -> None:
    section = python_section()
    script = tmp_path / "quick_start.py"
    script.write_text(fenced(section, "python"), encoding="utf-8")
    done = run_python(script, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == fenced(section, "text", after="It prints:")


def test_the_quick_start_passes_mypy_strict(tmp_path: Path) -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed next to the package: pip install mypy")
    script = tmp_path / "quick_start.py"
    script.write_text(fenced(python_section(), "python"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
