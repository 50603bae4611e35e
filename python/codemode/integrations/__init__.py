"""One-line adapters of a codemode scope for agent frameworks and model APIs.

Each module imports its framework and nothing else, so ``import codemode`` never imports
a framework, and an adapter's module is imported only when asked for:

- :mod:`codemode.integrations.openai_agents` — ``tools(scope)``: ``FunctionTool`` s for an
  OpenAI Agents SDK ``Agent`` (extra ``codemode[openai-agents]``).
- :mod:`codemode.integrations.pydantic_ai` — ``toolset(scope)``: a pydantic-ai toolset
  (extra ``codemode[pydantic-ai]``).
- :mod:`codemode.integrations.langchain` — ``tools(scope)``: LangChain ``StructuredTool`` s,
  sync and async, for LangChain and LangGraph agents (extra ``codemode[langchain]``).
- :mod:`codemode.integrations.fastmcp` — ``mount(scope, server)``: the scope's tools on an
  existing FastMCP server, with codemode's schemas and descriptions (extra
  ``codemode[fastmcp]``).
- :mod:`codemode.integrations.openai_loop` and :mod:`codemode.integrations.anthropic_loop`
  — a raw tool-call loop over the OpenAI or Anthropic API: the tool definitions, and the
  answers to a response's tool calls (no dependency).

Every adapter offers the tools the scope's model sees (in ``code`` mode: ``run_code``,
whose description carries the SDK), with codemode's schemas and descriptions, and runs each
call through the scope's pipeline (:meth:`codemode.Scope.execute`). A failed call or
program reaches the framework as its own kind of failure, with codemode's text for the
model: ``ModelRetry`` (pydantic-ai), a ``ToolMessage`` with status ``error`` (LangChain),
an ``isError`` result (FastMCP, Anthropic's ``is_error``), the error text as the tool's
output (the Agents SDK's and OpenAI's way). Cancelling the framework's task cancels the
call, the program and the tool calls it made. The tool list is the scope's when the
adapter is made: make it again after registering more tools.
"""
