"""LangChain and LangGraph (python/tests/requirements.txt pins them): ``tools(scope)`` as
``StructuredTool`` s in a ReAct agent (``langchain.agents.create_agent``, a LangGraph
graph) driven offline by a fake chat model through full tool-call loops, async and sync: a
program that succeeds, one that fails and one whose tool call is denied (both a
``ToolMessage`` with ``status="error"`` and codemode's text), and cancellation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _adapters import DENIED, FAILURE, SLOW, SUCCESS, cancel_when_started, setup
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import StructuredTool

from codemode.integrations.langchain import tools


class ScriptedChat(BaseChatModel):
    """A fake chat model: calls ``run_code`` with ``program`` once, then says what the
    tool message said (and its status)."""

    program: str
    bound: list[Any] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.bound = list(tools)
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            reply = AIMessage(content=f"tool said ({last.status}): {last.content}")
        else:
            reply = AIMessage(
                content="",
                tool_calls=[
                    {
                        "name": "run_code",
                        "args": {"code": self.program, "description": "the task"},
                        "id": "call_1",
                        "type": "tool_call",
                    }
                ],
            )
        return ChatResult(generations=[ChatGeneration(message=reply)])


def final(result: dict[str, Any]) -> str:
    return str(result["messages"][-1].content)


async def run(program: str) -> tuple[str, ScriptedChat, Any]:
    state = setup()
    model = ScriptedChat(program=program)
    agent = create_agent(model, tools(state.scope))
    return final(await agent.ainvoke({"messages": [("user", "go")]})), model, state


async def test_the_model_sees_codemodes_run_code_and_a_program_succeeds() -> None:
    output, model, state = await run(SUCCESS)
    assert output == "tool said (success): 5"
    (tool,) = model.bound
    (definition,) = state.scope.tool_definitions("mcp")
    assert isinstance(tool, StructuredTool)
    assert (tool.name, tool.description) == ("run_code", definition["description"])
    assert tool.args_schema == definition["inputSchema"]


async def test_a_failed_program_is_a_tool_message_with_status_error() -> None:
    output, _, _ = await run(FAILURE)
    assert output.startswith("tool said (error): Error: code run failed (exception): "), output
    assert "boom from the program" in output


async def test_a_denied_call_is_a_tool_message_with_status_error() -> None:
    output, _, _ = await run(DENIED)
    assert output.startswith("tool said (error): Error: code run failed"), output
    assert "denied" in output.lower()


def test_the_sync_graph_and_a_sync_invoke_run_the_same_loop() -> None:
    state = setup()
    agent = create_agent(ScriptedChat(program=SUCCESS), tools(state.scope))
    assert final(agent.invoke({"messages": [("user", "go")]})) == "tool said (success): 5"
    agent = create_agent(ScriptedChat(program=FAILURE), tools(state.scope))
    assert final(agent.invoke({"messages": [("user", "go")]})).startswith(
        "tool said (error): Error: code run failed"
    )
    (tool,) = tools(state.scope)
    message = tool.invoke(
        {
            "name": "run_code",
            "args": {"code": SUCCESS, "description": "d"},
            "id": "c1",
            "type": "tool_call",
        }
    )
    assert isinstance(message, ToolMessage)
    assert (message.status, message.content) == ("success", "5")


async def test_a_sync_invoke_inside_a_running_loop_says_to_use_ainvoke() -> None:
    state = setup()
    (tool,) = tools(state.scope)
    with pytest.raises(RuntimeError, match="cannot run inside a running event loop"):
        tool.invoke({"code": SUCCESS, "description": "d"})


async def test_cancelling_the_agent_cancels_the_program_and_its_tool_call() -> None:
    state = setup()
    agent = create_agent(ScriptedChat(program=SLOW), tools(state.scope))
    task: asyncio.Task[Any] = asyncio.ensure_future(agent.ainvoke({"messages": [("user", "go")]}))
    await cancel_when_started(task, state)
