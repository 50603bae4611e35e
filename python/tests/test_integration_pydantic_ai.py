"""pydantic-ai (python/tests/requirements.txt pins it): ``toolset(scope)`` driven by
pydantic-ai's own offline ``FunctionModel`` through full tool-call loops: a program that
succeeds, one that fails and one whose tool call is denied (both reach the model as
``ModelRetry``'s retry prompt with codemode's text), and cancellation of the agent's run."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _adapters import DENIED, FAILURE, SLOW, SUCCESS, cancel_when_started, setup
from pydantic_ai import Agent
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from codemode.integrations.pydantic_ai import toolset


def scripted(program: str, seen: list[AgentInfo]) -> FunctionModel:
    """A model that calls ``run_code`` with ``program`` once, then answers with what the
    tool returned, or the retry prompt a ``ModelRetry`` made of it."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info)
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        part = last.parts[-1]
        if isinstance(part, ToolReturnPart):
            # A tool's ModelRetry comes back as its return part with outcome "retried".
            said = "retry" if part.outcome == "retried" else "returned"
            return ModelResponse(parts=[TextPart(f"{said}: {part.content}")])
        return ModelResponse(
            parts=[ToolCallPart("run_code", {"code": program, "description": "the task"})]
        )

    return FunctionModel(respond)


async def run(program: str) -> tuple[str, list[AgentInfo], Any]:
    state = setup()
    seen: list[AgentInfo] = []
    agent = Agent(scripted(program, seen), toolsets=[toolset(state.scope)])
    result = await agent.run("go")
    return str(result.output), seen, state


async def test_the_model_sees_codemodes_run_code_and_a_program_succeeds() -> None:
    output, seen, state = await run(SUCCESS)
    assert output == "returned: 5"
    (tool,) = seen[0].function_tools
    (definition,) = state.scope.tool_definitions("mcp")
    assert tool.name == "run_code"
    assert tool.description == definition["description"]
    assert "Add two numbers." in (tool.description or "")  # the SDK is in the description
    assert tool.parameters_json_schema == definition["inputSchema"]


async def test_a_failed_program_is_a_model_retry_with_codemodes_text() -> None:
    output, _, _ = await run(FAILURE)
    assert output.startswith("retry: Error: code run failed (exception): "), output
    assert "boom from the program" in output


async def test_a_denied_call_is_a_model_retry_naming_the_denial() -> None:
    output, _, _ = await run(DENIED)
    assert output.startswith("retry: Error: code run failed"), output
    assert "denied" in output.lower()


async def test_a_model_that_keeps_failing_ends_the_run_as_pydantic_ai_does() -> None:
    state = setup()

    def always_fails(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(
            parts=[ToolCallPart("run_code", {"code": FAILURE, "description": "fails"})]
        )

    agent = Agent(FunctionModel(always_fails), toolsets=[toolset(state.scope, max_retries=1)])
    with pytest.raises(UnexpectedModelBehavior, match="exceeded max retries"):
        await agent.run("go")


async def test_cancelling_the_agent_run_cancels_the_program_and_its_tool_call() -> None:
    state = setup()
    agent = Agent(scripted(SLOW, []), toolsets=[toolset(state.scope)])
    task: asyncio.Task[Any] = asyncio.ensure_future(agent.run("go"))
    await cancel_when_started(task, state)
