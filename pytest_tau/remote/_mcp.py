"""The harness's MCP tool server: an item's tools over streamable HTTP, one endpoint per item.

One server per process (started on first use, on ``--mcp-host``, an ephemeral port) in a
background thread with its own event loop; each endpoint is ``{base}/items/{token}/mcp``
with an unguessable token, bound to one item's `ToolSink`, and answers only requests that
carry its own secret as ``Authorization: Bearer <secret>`` (`Endpoint.headers`, handed to
the remote agent beside the URL): a URL that leaks into a log is not enough to call tools. The MCP session manager runs
stateless (every request stands alone), so no state is shared between items beyond the
routing table. A call with bad arguments, an unknown tool or a tool's refusal is a tool
result with ``isError: true``, as with native calls; every call goes through the sink,
so it lands in the item's environment and trajectory.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import secrets
import socket
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from .._domain import Domain
    from .._environment import Environment

__all__ = ["Endpoint", "EnvironmentSink", "ToolAnswer", "ToolServer", "ToolSink", "mcp_client", "mcp_tools"]


class ToolAnswer(NamedTuple):
    """A tool result as the remote agent sees it."""

    text: str
    error: bool


class ToolSink(Protocol):
    """Where an endpoint's calls go: runs one call, answers through a future (any thread)."""

    def submit(self, name: str, arguments: dict[str, Any]) -> concurrent.futures.Future[ToolAnswer]: ...


class EnvironmentSink:
    """Runs calls straight on an environment (``serve_tools``; one call at a time)."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._lock = threading.Lock()

    def submit(self, name: str, arguments: dict[str, Any]) -> concurrent.futures.Future[ToolAnswer]:
        with self._lock:
            call = self.env.call(name, arguments)
        future: concurrent.futures.Future[ToolAnswer] = concurrent.futures.Future()
        future.set_result(ToolAnswer(call.result, call.error))
        return future


def mcp_tools(domain: Domain[Any]) -> list[dict[str, Any]]:
    """The domain's tools as MCP ``tools/list`` entries (``name``, ``description``, ``inputSchema``)."""
    tools = []
    for schema in domain.tool_schemas():
        function = schema["function"]
        tools.append({"name": function["name"], "description": function.get("description", ""), "inputSchema": function["parameters"]})
    return tools


@dataclass
class Endpoint:
    """One item's MCP endpoint."""

    token: str
    url: str
    domain: Domain[Any]
    sink: ToolSink
    secret: str = ""

    @property
    def headers(self) -> dict[str, str]:
        """What a client sends with every request to this endpoint."""
        return {"Authorization": f"Bearer {self.secret}"}


def mcp_client(url: str, headers: dict[str, str]) -> Any:
    """An `mcp.Client` of a streamable HTTP endpoint that sends `headers` with every request."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    return Client(streamable_http_client(url, http_client=create_mcp_http_client(headers=headers)))


class ToolServer:
    """Serves every endpoint of this process over MCP streamable HTTP (start, add, remove, stop)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, public_url: str | None = None) -> None:
        self.host = host
        self.port = port
        self.public_url = public_url
        self._endpoints: dict[str, Endpoint] = {}
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._uvicorn: Any = None
        self._failure: BaseException | None = None
        self._socket: socket.socket | None = None

    @property
    def base_url(self) -> str:
        if self.public_url:
            return self.public_url
        assert self._socket is not None, "start() the server first"
        host, port = self._socket.getsockname()[:2]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}"

    def add(self, domain: Domain[Any], sink: ToolSink) -> Endpoint:
        token = secrets.token_urlsafe(16)
        endpoint = Endpoint(token, f"{self.base_url}/items/{token}/mcp", domain, sink, secrets.token_urlsafe(24))
        with self._lock:
            self._endpoints[token] = endpoint
        return endpoint

    def remove(self, endpoint: Endpoint) -> None:
        with self._lock:
            self._endpoints.pop(endpoint.token, None)

    # -- lifecycle ---------------------------------------------------------------------
    def start(self) -> ToolServer:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(128)
        sock.setblocking(False)
        self._socket = sock
        self._thread = threading.Thread(target=self._run, name="tau-mcp-tools", daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the MCP tool server did not start within 30 s")
        if self._failure is not None:
            raise RuntimeError(f"the MCP tool server failed to start: {self._failure!r}")
        return self

    def stop(self) -> None:
        if self._uvicorn is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(setattr, self._uvicorn, "should_exit", True)
        if self._thread is not None:
            self._thread.join(10)
        if self._socket is not None:
            self._socket.close()

    def __enter__(self) -> ToolServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the server --------------------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:
            self._failure = exc
            self._ready.set()

    async def _main(self) -> None:
        import uvicorn
        from mcp.server.lowlevel.server import Server
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        server: Server[Any] = Server("pytest-tau", on_list_tools=self._list_tools, on_call_tool=self._call_tool)
        manager = StreamableHTTPSessionManager(server, stateless=True, json_response=True)

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                return
            parts = scope["path"].strip("/").split("/")
            endpoint = self._endpoint(parts[1]) if len(parts) == 3 and parts[0] == "items" and parts[2] == "mcp" else None
            if endpoint is None:
                await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
                await send({"type": "http.response.body", "body": b"no such pytest-tau endpoint (the item has ended?)"})
                return
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, f"Bearer {endpoint.secret}".encode()):
                headers = [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": b"this endpoint needs its Authorization: Bearer header"})
                return
            await manager.handle_request(scope, receive, send)

        config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=2)
        self._uvicorn = uvicorn.Server(config)
        self._loop = asyncio.get_running_loop()
        async with manager.run():
            self._ready.set()
            assert self._socket is not None
            await self._uvicorn.serve(sockets=[self._socket])

    def _endpoint(self, token: str) -> Endpoint | None:
        with self._lock:
            return self._endpoints.get(token)

    def _endpoint_of(self, ctx: Any) -> Endpoint | None:
        request = getattr(ctx, "request", None)
        path = str(request.url.path) if request is not None else ""
        parts = path.strip("/").split("/")
        return self._endpoint(parts[1]) if len(parts) == 3 else None

    async def _list_tools(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types

        endpoint = self._endpoint_of(ctx)
        if endpoint is None:
            return types.ListToolsResult(tools=[])
        return types.ListToolsResult(
            tools=[types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"]) for t in mcp_tools(endpoint.domain)]
        )

    async def _call_tool(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types

        endpoint = self._endpoint_of(ctx)
        if endpoint is None:
            answer = ToolAnswer("Error: this item's tools are closed", True)
        else:
            arguments = params.arguments if isinstance(params.arguments, dict) else {}
            answer = await asyncio.wrap_future(endpoint.sink.submit(str(params.name), arguments))
        return types.CallToolResult(content=[types.TextContent(type="text", text=answer.text)], is_error=answer.error)
