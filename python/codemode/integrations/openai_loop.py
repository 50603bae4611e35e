"""A raw tool-call loop over OpenAI's API (Chat Completions or Responses), no framework::

    from codemode.integrations.openai_loop import answer_tool_calls, tools

    response = client.chat.completions.create(model=..., messages=messages, tools=tools(scope))
    message = response.choices[0].message
    messages.append(message)
    messages += await answer_tool_calls(scope, message.tool_calls)

:func:`answer_tool_calls` takes the tool calls as the SDK returns them (objects) or as
dicts: Chat Completions' ``tool_calls`` (answered by ``{"role": "tool", ...}`` messages)
or the Responses API's ``function_call`` output items (answered by
``function_call_output`` items). Each call runs through the scope's pipeline, in order;
the answer is codemode's text for the model (a failure's is ``Error: ...``: OpenAI's
tool outputs have no error flag). Nothing here imports ``openai``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._common import call, call_sync

if TYPE_CHECKING:
    from .._registry import Scope

__all__ = ["answer_tool_calls", "answer_tool_calls_sync", "tools"]


def tools(scope: Scope, *, responses: bool = False) -> list[dict[str, Any]]:
    """The ``tools`` parameter for the tools ``scope``'s model sees: Chat Completions'
    shape, or with ``responses`` the Responses API's (``{"type": "function", "name", ...}``)."""
    shaped = scope.tool_definitions("openai")
    if not responses:
        return shaped
    return [{"type": "function", **tool["function"]} for tool in shaped]


def _field(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _parts(item: Any) -> tuple[str, str, Any, bool]:
    """``(id, name, arguments, is_responses)`` of a tool call in either API's shape."""
    function = _field(item, "function")
    if function is not None:  # Chat Completions
        return (
            str(_field(item, "id")),
            str(_field(function, "name")),
            _field(function, "arguments"),
            False,
        )
    return (  # Responses: {"type": "function_call", "call_id", "name", "arguments"}
        str(_field(item, "call_id")),
        str(_field(item, "name")),
        _field(item, "arguments"),
        True,
    )


def _answer(call_id: str, text: str, responses: bool) -> dict[str, Any]:
    if responses:
        return {"type": "function_call_output", "call_id": call_id, "output": text}
    return {"role": "tool", "tool_call_id": call_id, "content": text}


async def answer_tool_calls(scope: Scope, tool_calls: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Runs each tool call (in order) and returns the messages (Chat Completions) or input
    items (Responses) that answer them; ``None`` or no calls: ``[]``."""
    answers: list[dict[str, Any]] = []
    for item in tool_calls or ():
        call_id, name, arguments, responses = _parts(item)
        result = await call(scope, name, arguments)
        answers.append(_answer(call_id, result.text, responses))
    return answers


def answer_tool_calls_sync(scope: Scope, tool_calls: Iterable[Any] | None) -> list[dict[str, Any]]:
    """:func:`answer_tool_calls` for code without an event loop (refused inside one)."""
    answers: list[dict[str, Any]] = []
    for item in tool_calls or ():
        call_id, name, arguments, responses = _parts(item)
        result = call_sync(scope, name, arguments)
        answers.append(_answer(call_id, result.text, responses))
    return answers
