"""Running a Python script in a fresh interpreter, as a user would: this interpreter (the
test venv's, with the installed wheel), no ``PYTHONPATH``, a generous timeout for a loaded
2-core machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TIMEOUT = 120  # seconds


def run_python(script: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``script`` with this interpreter in ``cwd``; its output, whatever its status."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
