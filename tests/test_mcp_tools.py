"""The harness's MCP tool server: per-item endpoints, tool errors, the serve_tools and export_tools CLIs."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from typing import Any

import httpx
import pytest

from pytest_tau import Domain, Environment
from pytest_tau.remote._mcp import EnvironmentSink, ToolServer, mcp_client
from pytest_tau.remote._schemas import export


async def _calls(url: str, calls: list[tuple[str, dict[str, Any]]], headers: dict[str, str]) -> tuple[list[str], list[tuple[bool, str]]]:
    async with mcp_client(url, headers) as client:
        listed = await client.list_tools()
        answers = []
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            answers.append((bool(result.is_error), result.content[0].text))  # type: ignore[union-attr]
        return [tool.name for tool in listed.tools], answers


def test_calls_land_in_the_items_environment_and_bad_arguments_are_tool_errors(toy_domain: Domain) -> None:
    first, second = Environment(toy_domain), Environment(toy_domain)
    with ToolServer() as server:
        one = server.add(toy_domain, EnvironmentSink(first))
        two = server.add(toy_domain, EnvironmentSink(second))
        assert one.url != two.url and one.url.startswith("http://127.0.0.1:")
        names, answers = asyncio.run(
            _calls(one.url, [("get_book", {"book_id": "B1"}), ("get_book", {"book": 3}), ("no_such_tool", {}), ("loan_book", {"member_id": "M1", "book_id": "B1"})], one.headers)
        )
        assert names == sorted(toy_domain.tools)
        assert answers[0][0] is False and json.loads(answers[0][1])["book_id"] == "B1"
        assert answers[1][0] is True and answers[1][1].startswith("Error: invalid arguments for get_book")
        assert answers[2][0] is True and "unknown tool" in answers[2][1]
        assert [call.name for call in first.calls] == ["get_book", "get_book", "no_such_tool", "loan_book"]
        assert second.calls == []  # endpoints are bound to their own item
        listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        accept = {"Accept": "application/json, text/event-stream"}
        for headers in ({}, {"Authorization": "Bearer wrong"}, two.headers):  # the URL alone, a wrong or another item's secret
            refused = httpx.post(one.url, json=listing, headers={**accept, **headers})
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert [call.name for call in first.calls] == ["get_book", "get_book", "no_such_tool", "loan_book"]
        server.remove(one)
        gone = httpx.post(one.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers={"Accept": "application/json, text/event-stream"})
        assert gone.status_code == 404


@pytest.mark.parametrize("format", ["openai", "mcp", "cx"])
def test_export_formats(toy_domain: Domain, format: Any) -> None:
    tools = export(toy_domain, format)
    assert len(tools) == len(toy_domain.tools)
    if format == "openai":
        assert tools[0]["type"] == "function"
    elif format == "mcp":
        assert {"name", "description", "inputSchema"} <= set(tools[0])
    else:
        assert tools[0]["functionSpec"]["inputSchema"]["type"] == "object"
        assert tools[0]["functionSpec"]["outputSchema"]["properties"]["result"]["type"] == "string"


def test_export_tools_cli(pytester: pytest.Pytester) -> None:

    from tests.conftest import TOY_PROJECT

    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    result = pytester.run(sys.executable, "-m", "pytest_tau.export_tools", "toy", "--format", "mcp")
    assert result.ret == 0
    assert {tool["name"] for tool in json.loads(result.stdout.str())} >= {"get_book", "loan_book"}


def test_serve_tools_reports_the_verdict(pytester: pytest.Pytester) -> None:

    from tests.conftest import TOY_PROJECT

    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    result = pytester.run(sys.executable, "-m", "pytest_tau.serve_tools", "toy", "--task", "loan_dune", "--seconds", "0.1", stdin=b"")
    assert result.ret == 1  # nothing was called: reward 0, with the diff
    result.stdout.fnmatch_lines(["MCP (streamable HTTP): http://127.0.0.1:*/items/*/mcp", "header: Authorization: Bearer *", "*", "*", "0 tool calls; reward 0", "*books*B1*"])
