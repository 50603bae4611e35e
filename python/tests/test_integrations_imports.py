"""``import codemode`` and ``codemode.integrations`` import no agent framework; an
adapter's module imports its own framework only (each checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = ("agents", "pydantic_ai", "langchain_core", "langgraph", "fastmcp", "openai", "anthropic")


def imported_after(statement: str) -> set[str]:
    code = (
        f"{statement}\nimport sys\n"
        f"print(' '.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_the_package_and_the_raw_loop_helpers_import_no_framework() -> None:
    assert imported_after("import codemode, codemode.integrations") == set()
    assert (
        imported_after(
            "import codemode.integrations.openai_loop, codemode.integrations.anthropic_loop"
        )
        == set()
    )


@pytest.mark.parametrize(
    ("module", "framework", "others"),
    [
        ("pydantic_ai", "pydantic_ai", {"agents", "langchain_core", "fastmcp"}),
        ("langchain", "langchain_core", {"agents", "pydantic_ai", "fastmcp"}),
        ("fastmcp", "fastmcp", {"agents", "langchain_core"}),
        ("openai_agents", "agents", {"langchain_core", "fastmcp"}),
    ],
)
def test_an_adapter_imports_its_own_framework_only(
    module: str, framework: str, others: set[str]
) -> None:
    pytest.importorskip(framework)
    imported = imported_after(f"import codemode.integrations.{module}")
    assert framework in imported
    assert not imported & others, imported
