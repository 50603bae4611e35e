"""A session's store from the Python package: ``Scope.session()`` passed with
``run_code(session=...)`` keeps values between the session's runs (both languages), not
another session's; without a session ``store`` fails with ``NO_SESSION``; the host reads
what the programs kept."""

from __future__ import annotations

import codemode


async def test_runs_of_one_session_share_its_store_and_the_host_can_read_it() -> None:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def list_issues() -> list[dict[str, object]]:
        """List the issues."""
        return [{"n": 1, "bug": True}, {"n": 2, "bug": False}]

    agent = reg.scope("agent", mode="code")
    session = agent.session()
    first = await agent.run_code(
        "const issues = await tools.list_issues({});\n"
        "await store.set('issues', issues);\nreturn issues.length;",
        session=session,
    )
    assert first.ok and first.value == 2, first.text
    second = await agent.run_code(
        "const issues = await store.get('issues');\n"
        "return issues.filter(i => i.bug).map(i => i.n);",
        session=session,
    )
    assert second.ok and second.value == [1], second.text
    assert second.sub_calls == []
    py = await agent.run_code(
        "issues = await store.get('issues')\nreturn [i['n'] for i in issues if not i['bug']]",
        language="python",
        session=session,
    )
    assert py.ok and py.value == [2], py.text
    assert session.keys() == ["issues"] and "issues" in session and len(session) == 1
    assert session.get("issues") == [{"n": 1, "bug": True}, {"n": 2, "bug": False}]
    assert session.get("nothing") is None
    assert session.bytes == len("issues") + len('[{"n":1,"bug":true},{"n":2,"bug":false}]')

    other = await agent.run_code(
        "return await store.get('issues') === undefined", session=agent.session()
    )
    assert other.ok and other.value is True, other.text
    alone = await agent.run_code(
        "try { await store.keys(); } catch (e) { return e.code; }"
    )
    assert alone.ok and alone.value == "NO_SESSION", alone.text
    assert session.delete("issues") and not session.delete("issues")
    assert len(session) == 0 and session.bytes == 0
