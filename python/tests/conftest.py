"""Makes ``codemode._hints`` importable from the source tree when no installed package
(a built wheel) provides it."""

from __future__ import annotations

import sys
from pathlib import Path


def _ensure_importable() -> None:
    try:
        import codemode._hints  # noqa: F401
    except ImportError:
        for name in [m for m in sys.modules if m == "codemode" or m.startswith("codemode.")]:
            del sys.modules[name]
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


_ensure_importable()
