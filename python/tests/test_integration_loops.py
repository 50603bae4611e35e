"""Raw tool-call loops (codemode.integrations.openai_loop and anthropic_loop): a scripted
model's tool calls, in the shapes the OpenAI SDK returns (Chat Completions' tool calls,
the Responses API's function_call items; the SDK's own objects) and Anthropic's content
blocks, answered through the pipeline: a program that succeeds, one that fails and one
whose tool call is denied (Anthropic's ``is_error``; OpenAI's outputs carry the error
text), the synchronous forms, and cancellation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from _adapters import DENIED, FAILURE, SLOW, SUCCESS, cancel_when_started, setup
from openai.types.chat import ChatCompletionMessageToolCall
from openai.types.responses import ResponseFunctionToolCall

from codemode.integrations import anthropic_loop, openai_loop


def chat_call(program: str, call_id: str = "call_1") -> ChatCompletionMessageToolCall:
    return ChatCompletionMessageToolCall.model_validate(
        {
            "id": call_id,
            "type": "function",
            "function": {
                "name": "run_code",
                "arguments": json.dumps({"code": program, "description": "the task"}),
            },
        }
    )


def tool_use(program: str, use_id: str = "toolu_1") -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": use_id,
        "name": "run_code",
        "input": {"code": program, "description": "the task"},
    }


async def test_openai_definitions_and_answers_to_chat_completions_tool_calls() -> None:
    state = setup()
    (tool,) = openai_loop.tools(state.scope)
    assert tool["type"] == "function" and tool["function"]["name"] == "run_code"
    (responses_tool,) = openai_loop.tools(state.scope, responses=True)
    assert responses_tool == {"type": "function", **tool["function"]}
    answers = await openai_loop.answer_tool_calls(
        state.scope, [chat_call(SUCCESS, "a"), chat_call(FAILURE, "b"), chat_call(DENIED, "c")]
    )
    assert [a["tool_call_id"] for a in answers] == ["a", "b", "c"]
    assert all(a["role"] == "tool" for a in answers)
    assert answers[0]["content"] == "5"
    assert answers[1]["content"].startswith("Error: code run failed (exception): ")
    assert "boom from the program" in answers[1]["content"]
    assert "denied" in answers[2]["content"].lower()
    assert await openai_loop.answer_tool_calls(state.scope, None) == []


async def test_openai_responses_function_calls_are_answered_with_function_call_outputs() -> None:
    state = setup()
    item = ResponseFunctionToolCall(
        type="function_call",
        call_id="fc",
        name="run_code",
        arguments=json.dumps({"code": SUCCESS, "description": "d"}),
    )
    as_dict = {"type": "function_call", "call_id": "fd", "name": "run_code", "arguments": "{"}
    answers = await openai_loop.answer_tool_calls(state.scope, [item, as_dict])
    assert answers[0] == {"type": "function_call_output", "call_id": "fc", "output": "5"}
    assert answers[1]["call_id"] == "fd"
    assert answers[1]["output"].startswith("Error: invalid arguments:")


async def test_anthropic_tool_results_carry_is_error_for_a_failed_or_denied_program() -> None:
    state = setup()
    (tool,) = anthropic_loop.tools(state.scope)
    assert tool["name"] == "run_code" and "input_schema" in tool
    content = [
        {"type": "text", "text": "Let me run that."},
        tool_use(SUCCESS, "u1"),
        tool_use(FAILURE, "u2"),
        tool_use(DENIED, "u3"),
    ]
    message = await anthropic_loop.answer_tool_uses(state.scope, content)
    assert message["role"] == "user"
    ok, failed, denied = message["content"]
    assert ok == {"type": "tool_result", "tool_use_id": "u1", "content": "5"}
    assert failed["is_error"] is True and "boom from the program" in failed["content"]
    assert denied["is_error"] is True and "denied" in denied["content"].lower()


def test_the_synchronous_forms_answer_the_same_in_a_script() -> None:
    state = setup()
    (answer,) = openai_loop.answer_tool_calls_sync(state.scope, [chat_call(SUCCESS)])
    assert answer["content"] == "5"
    message = anthropic_loop.answer_tool_uses_sync(state.scope, [tool_use(FAILURE)])
    assert message["content"][0]["is_error"] is True


async def test_cancelling_the_loop_cancels_the_program_and_its_tool_call() -> None:
    state = setup()
    task: asyncio.Task[Any] = asyncio.ensure_future(
        anthropic_loop.answer_tool_uses(state.scope, [tool_use(SLOW)])
    )
    await cancel_when_started(task, state)
    state = setup()
    task = asyncio.ensure_future(openai_loop.answer_tool_calls(state.scope, [chat_call(SLOW)]))
    await cancel_when_started(task, state)
