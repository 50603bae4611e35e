"""A raw tool-call loop over Anthropic's Messages API, no framework::

    from codemode.integrations.anthropic_loop import answer_tool_uses, tools

    response = client.messages.create(model=..., messages=messages, tools=tools(scope), ...)
    messages.append({"role": "assistant", "content": response.content})
    messages.append(await answer_tool_uses(scope, response.content))

:func:`answer_tool_uses` takes a response's content blocks (the SDK's objects or dicts),
runs each ``tool_use`` block through the scope's pipeline, in order, and returns the
``user`` message of ``tool_result`` blocks that answers them: codemode's text, with
``is_error`` set for a failed call or program. Nothing here imports ``anthropic``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._common import call, call_sync

if TYPE_CHECKING:
    from .._registry import Scope
    from .._results import ToolResult

__all__ = ["answer_tool_uses", "answer_tool_uses_sync", "tools"]


def tools(scope: Scope) -> list[dict[str, Any]]:
    """The ``tools`` parameter for the tools ``scope``'s model sees."""
    return scope.tool_definitions("anthropic")


def _field(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _uses(content: Iterable[Any]) -> list[tuple[str, str, Any]]:
    return [
        (str(_field(block, "id")), str(_field(block, "name")), _field(block, "input"))
        for block in content
        if _field(block, "type") == "tool_use"
    ]


def _block(use_id: str, result: ToolResult) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": use_id, "content": result.text}
    if not result.ok:
        block["is_error"] = True
    return block


async def answer_tool_uses(scope: Scope, content: Iterable[Any]) -> dict[str, Any]:
    """The ``user`` message answering every ``tool_use`` block of ``content``."""
    blocks = [
        _block(use_id, await call(scope, name, arguments))
        for use_id, name, arguments in _uses(content)
    ]
    return {"role": "user", "content": blocks}


def answer_tool_uses_sync(scope: Scope, content: Iterable[Any]) -> dict[str, Any]:
    """:func:`answer_tool_uses` for code without an event loop (refused inside one)."""
    blocks = [
        _block(use_id, call_sync(scope, name, arguments))
        for use_id, name, arguments in _uses(content)
    ]
    return {"role": "user", "content": blocks}
