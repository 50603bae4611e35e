"""The OpenAI Agents SDK (python/tests/requirements.txt pins it): ``tools(scope)`` in an
``Agent`` driven offline by a custom ``Model`` (the SDK's extension point) through full
tool-call loops: a program that succeeds, one that fails and one whose tool call is denied
(both answered with codemode's error text, the SDK's way of telling the model a tool
failed), and cancellation of the run."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from _adapters import DENIED, FAILURE, SLOW, SUCCESS, cancel_when_started, setup
from agents import Agent, ModelSettings, RunConfig, Runner
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from agents.tool import FunctionTool, Tool
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from codemode.integrations.openai_agents import tools


class Scripted(Model):
    """Calls ``run_code`` with the program once, then says what the tool answered."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.tools: list[Tool] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[Any, Any]],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: Any,
    ) -> ModelResponse:
        self.tools = tools
        outputs = [
            item
            for item in (input if isinstance(input, list) else [])
            if isinstance(item, dict) and item.get("type") == "function_call_output"
        ]
        if outputs:
            said = outputs[-1]["output"]
            message = ResponseOutputMessage(
                id="msg_1",
                type="message",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text=f"tool said: {said}", annotations=[])],
            )
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        call = ResponseFunctionToolCall(
            type="function_call",
            id="fc_1",
            call_id="call_1",
            name="run_code",
            arguments=json.dumps({"code": self.program, "description": "the task"}),
        )
        return ModelResponse(output=[call], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError


async def run(program: str) -> tuple[str, Scripted, Any]:
    state = setup()
    model = Scripted(program)
    agent = Agent(name="assistant", tools=tools(state.scope), model=model)
    result = await Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True))
    return str(result.final_output), model, state


async def test_the_model_sees_codemodes_run_code_and_a_program_succeeds() -> None:
    output, model, state = await run(SUCCESS)
    assert output == "tool said: 5"
    (tool,) = model.tools
    (definition,) = state.scope.tool_definitions("mcp")
    assert isinstance(tool, FunctionTool)
    assert tool.name == "run_code"
    assert tool.description == definition["description"]
    assert tool.params_json_schema == definition["inputSchema"]


async def test_a_failed_program_answers_codemodes_error_text() -> None:
    output, _, _ = await run(FAILURE)
    assert output.startswith("tool said: Error: code run failed (exception): "), output
    assert "boom from the program" in output


async def test_a_denied_call_answers_the_denial() -> None:
    output, _, _ = await run(DENIED)
    assert output.startswith("tool said: Error: code run failed"), output
    assert "denied" in output.lower()


async def test_arguments_that_are_not_json_are_an_error_answer_not_a_crash() -> None:
    state = setup()
    (tool,) = tools(state.scope)
    answer = await tool.on_invoke_tool(None, "{not json")  # type: ignore[arg-type]
    assert str(answer).startswith("Error: invalid arguments:"), answer


async def test_cancelling_the_run_cancels_the_program_and_its_tool_call() -> None:
    state = setup()
    agent = Agent(name="assistant", tools=tools(state.scope), model=Scripted(SLOW))
    task: asyncio.Task[Any] = asyncio.ensure_future(
        Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True))
    )
    await cancel_when_started(task, state)
