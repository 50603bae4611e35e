"""The ``codemode`` command, as ``pip install codemode`` puts it on ``PATH``.

The command is the Rust one (the same code as the ``codemode`` binary built from source),
run inside this interpreter by the extension module: same subcommands, output and exit
statuses. Python programs (``run --language python``, ``serve`` of a Python configuration)
run in confined workers started from this interpreter (``sys.executable``).
"""

from __future__ import annotations

import signal
import sys

from codemode import _native


def main() -> None:
    """Runs the command with this process's arguments and exits with its status."""
    # The binary's signal dispositions: Ctrl-C ends the command (``run`` and ``serve``
    # install their own handler, which shuts down cleanly), not a KeyboardInterrupt that
    # Python would raise only once the command returned.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    status = _native._run_cli(["codemode", *sys.argv[1:]])
    sys.exit(status)


if __name__ == "__main__":
    main()
