"""Type stubs of ``codemode._native``, the Rust half (``crates/codemode-py``).

The callables passed in are the adapters of ``codemode._bridge``: one JSON text in, one
JSON text out (a coroutine function when ``is_async``). Awaitables resolve to JSON text
the Python half parses (``codemode._results``).
"""

from collections.abc import Awaitable, Callable
from typing import Any, final

__version__: str
ERROR_CODES: list[str]

def _panic_for_tests(message: str) -> None: ...
@final
class Completion:
    def __call__(self, ok: bool, value: object) -> None: ...

@final
class Disposer:
    def dispose(self) -> bool: ...

@final
class Scope:
    @property
    def label(self) -> str: ...
    @property
    def is_global(self) -> bool: ...
    @property
    def mode(self) -> str: ...
    def create_scope(self, label: str, mode: str | None = None) -> Scope: ...
    def register(
        self,
        *,
        name: str,
        description: str,
        input_schema: str,
        output_schema: str | None,
        invoke: Callable[[str], Any],
        is_async: bool,
        timeout_ms: float | None = None,
        parallel: bool = False,
    ) -> Disposer: ...
    def restrict(
        self, allow: list[str] | None = None, deny: list[str] | None = None
    ) -> Disposer: ...
    def guard(self, guard: Callable[[str], str]) -> Disposer: ...
    def on_pre_execute(self, listener: Callable[[str], Any], is_async: bool = False) -> Disposer: ...
    def on_result(self, observer: Callable[[str], str]) -> Disposer: ...
    def tool_names(self) -> list[str]: ...
    def sdk(self, language: str = "typescript") -> str: ...
    def assemble(self) -> str: ...
    def close(self) -> None: ...
    def execute(self, name: str, arguments: str) -> Awaitable[str]: ...
    def run_code(
        self, code: str, description: str, keep_sub_calls: int | None = None
    ) -> Awaitable[str]: ...

@final
class Registry:
    def __init__(
        self,
        *,
        mode: str = "native",
        compute_ms: int | None = None,
        wall_ms: int | None = None,
        heap_mb: int | None = None,
        max_output_bytes: int | None = None,
        warm_pool: int | None = None,
        max_json_depth: int | None = None,
        max_parallel_sub_calls: int | None = None,
        typecheck: str = "off",
        sdk_max_tokens: int | None = None,
    ) -> None: ...
    @property
    def mode(self) -> str: ...
    def global_scope(self) -> Scope: ...
    def set_policy(self, name: str, policy: str | None) -> None: ...
    def set_approver(self, approver: Callable[[str], Any] | None, is_async: bool = False) -> None: ...
