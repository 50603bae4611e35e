"""The suite tests the INSTALLED package (a wheel built by maturin and installed with pip),
never the source tree: nothing here puts ``python/`` on ``sys.path``, and importing
``codemode`` from the source tree (which has no compiled extension) fails the run at once
with the way to run it (python/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

_SOURCE_TREE = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    try:
        import codemode
        import codemode._native  # noqa: F401
    except ImportError as exc:  # pragma: no cover - a misconfigured run
        raise pytest.UsageError(
            f"codemode is not installed ({exc}): build the wheel with maturin, pip install it "
            "into a virtual environment, and run pytest from outside the source tree "
            "(python/README.md)"
        ) from None
    where = Path(codemode.__file__).resolve()
    if _SOURCE_TREE in where.parents:
        raise pytest.UsageError(
            f"codemode was imported from the source tree ({where}), not the installed "
            "wheel: run pytest from outside the repository (python/README.md)"
        )
