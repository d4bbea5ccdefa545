"""A domain's tools in the formats remote agents register them in: openai, mcp, cx."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ._mcp import mcp_tools

if TYPE_CHECKING:
    from .._domain import Domain

__all__ = ["CX_OUTPUT_SCHEMA", "FORMATS", "cx_tools", "export"]

Format = Literal["openai", "mcp", "cx"]
FORMATS: tuple[Format, ...] = ("openai", "mcp", "cx")

# Every tool answers with one string: the harness sends it back to Dialogflow CX as the
# output parameter `result`; a refused or malformed call comes back as ToolCallResult.error.
CX_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"result": {"type": "string", "description": "the tool's answer (JSON text)"}},
}


def cx_tools(domain: Domain[Any]) -> list[dict[str, Any]]:
    """Dialogflow CX ``Tool`` resources (client-side function tools) for ``tools.create``.

    The display name is the domain's tool name: CX asks for a function tool's call with it
    as ``ToolCall.action``, which is how ``--agent-strategy dialogflow-cx`` finds the tool.
    """
    return [
        {
            "displayName": tool["name"],
            "description": tool["description"] or tool["name"],
            "functionSpec": {"inputSchema": tool["inputSchema"], "outputSchema": CX_OUTPUT_SCHEMA},
        }
        for tool in mcp_tools(domain)
    ]


def export(domain: Domain[Any], format: Format) -> list[dict[str, Any]]:
    if format == "openai":
        return domain.tool_schemas()
    if format == "mcp":
        return mcp_tools(domain)
    return cx_tools(domain)
