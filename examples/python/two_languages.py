"""Python tools called from a TypeScript program and from a Python program in one run.

One registry, one set of Python tools (a sync one and an async one): the same tools are
called by a TypeScript program (the embedded JavaScript engine) and by a Python program (a
confined CPython worker started from this interpreter), both at once from one event loop.
Each program sees its own SDK of the same tools (``reg.sdk("typescript")``,
``reg.sdk("python")``), and every call either program makes goes through the same pipeline.

Run: ``python examples/python/two_languages.py``
"""

from __future__ import annotations

import asyncio

import codemode

reg = codemode.Registry(mode="code")
seen: list[str] = []  # what the tools were called with, from either language


@reg.tool(parallel_safe=True)
def word_count(text: str) -> int:
    """The number of words in a text.

    Args:
        text: any text
    """
    seen.append(text)
    return len(text.split())


@reg.tool(parallel_safe=True)
async def shout(text: str) -> str:
    """The text in capitals.

    Args:
        text: any text
    """
    await asyncio.sleep(0.01)
    seen.append(text)
    return text.upper()


TYPESCRIPT = """\
const [n, loud] = await Promise.all([
  tools.word_count({text: "tools written in python"}),
  tools.shout({text: "from typescript"}),
]);
return {language: "typescript", words: n, loud};
"""

PYTHON = """\
import asyncio
n, loud = await asyncio.gather(
    tools.word_count({"text": "called from a python program"}),
    tools.shout({"text": "from python"}),
)
return {"language": "python", "words": n, "loud": loud}
"""


async def main() -> None:
    typescript, python = await asyncio.gather(
        reg.run_code(TYPESCRIPT, description="count and shout", language="typescript"),
        reg.run_code(PYTHON, description="count and shout", language="python"),
    )
    for run in (typescript, python):
        print(run.unwrap(), [call.name for call in run.sub_calls])
    print("the tools saw:", sorted(seen))


if __name__ == "__main__":
    asyncio.run(main())
