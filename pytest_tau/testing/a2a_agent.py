"""An A2A server (built with a2a-sdk) that plays the oracle and calls the tools over MCP.

    from pytest_tau.testing.a2a_agent import A2AOracleServer

    with A2AOracleServer([domain]) as agent:
        ...  # pytest --agent-strategy a2a --agent-url {agent.url}

On the first message of a context it reads the session data part (``pytest_tau``: the
MCP endpoint, the domain and task), then for each customer message it steps the task's
`OracleAgent` and makes the calls it asks for on the MCP endpoint (with the mcp package's
client), and answers with what the oracle says. ``stall(item)`` makes an item's messages hang
(a remote agent that stops answering); ``fail_next(n)`` answers the next n requests with
HTTP 500. Needs the ``remote`` extra.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterable
from typing import Any

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Role
from google.protobuf.json_format import MessageToDict

from ._oracle_sessions import OracleBook

__all__ = ["A2AOracleServer"]


class _OracleExecutor(AgentExecutor):
    def __init__(self, server: A2AOracleServer) -> None:
        self.server = server
        self.endpoints: dict[str, dict[str, Any]] = {}  # context -> the session's "mcp" (url, headers)

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        from ..remote._mcp import mcp_client

        message = context.message
        assert message is not None
        context_id = context.context_id or message.context_id
        text = "\n".join(part.text for part in message.parts if part.text)
        for part in message.parts:
            if part.HasField("data"):
                data = MessageToDict(part.data)
                session = data.get("pytest_tau") if isinstance(data, dict) else None
                if session:
                    self.server.book.open(context_id, session["domain"], session["task"], int(session.get("trial", 0)))
                    self.endpoints[context_id] = session["mcp"]
        item = MessageToDict(message.metadata).get("pytest_tau_item") if message.HasField("metadata") else None
        if item in self.server._stalled:
            await asyncio.sleep(3600)
        if not self.server.book.has(context_id):
            await event_queue.enqueue_event(new_text_message("I need the pytest_tau session first.", context_id=context_id, role=Role.ROLE_AGENT))
            return
        step = self.server.book.step(context_id, [{"role": "user", "content": text}])
        if not step.tool_calls:
            await event_queue.enqueue_event(new_text_message(step.content, context_id=context_id, role=Role.ROLE_AGENT))
            return
        # Say it, then act (as a person would before a transfer): a task whose working
        # status carries the text, the MCP calls, then completion.
        task = new_task_from_user_message(message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, context_id)
        await updater.start_work(new_text_message(step.content, context_id=context_id, task_id=task.id, role=Role.ROLE_AGENT))
        endpoint = self.endpoints[context_id]
        async with mcp_client(endpoint["url"], endpoint.get("headers") or {}) as tools:
            for call in step.tool_calls:
                arguments = call.arguments if isinstance(call.arguments, dict) else {}
                result = await tools.call_tool(call.name, arguments)
                self.server.tool_results.append((call.name, bool(result.is_error)))
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        return None


class A2AOracleServer:
    """The oracle as an A2A agent on 127.0.0.1 (a context manager)."""

    def __init__(self, domains: Iterable[Any], *, host: str = "127.0.0.1") -> None:
        self.book = OracleBook(domains)
        self.tool_results: list[tuple[str, bool]] = []  # (tool, is_error) of every MCP call
        self._stalled: set[str] = set()
        self._failures = 0
        self._lock = threading.Lock()
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, 0))
        self._socket.listen(128)
        self._socket.setblocking(False)
        self._ready = threading.Event()
        self._uvicorn: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def stall(self, item: str) -> None:
        """Never answer the messages of this item (``<domain>-<task>-t<trial>``)."""
        self._stalled.add(item)

    def fail_next(self, count: int) -> None:
        """Answer the next ``count`` JSON-RPC requests with HTTP 500."""
        with self._lock:
            self._failures += count

    def _app(self) -> Any:
        from starlette.applications import Starlette

        card = AgentCard(
            name="pytest-tau oracle",
            description="Performs each task's gold actions over the harness's MCP tools",
            version="1.0",
            supported_interfaces=[AgentInterface(protocol_binding="JSONRPC", protocol_version="1.0", url=self.url)],
            capabilities=AgentCapabilities(streaming=True),
            default_input_modes=["text/plain", "application/json"],
            default_output_modes=["text/plain"],
            skills=[AgentSkill(id="customer-service", name="customer service", description="serves a customer under a policy", tags=["tau"])],
        )
        handler = DefaultRequestHandler(agent_executor=_OracleExecutor(self), task_store=InMemoryTaskStore(), agent_card=card)
        inner = Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")])

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["method"] == "POST":
                with self._lock:
                    fail = self._failures > 0
                    self._failures -= int(fail)
                if fail:
                    await send({"type": "http.response.start", "status": 500, "headers": [(b"content-type", b"text/plain")]})
                    await send({"type": "http.response.body", "body": b"injected"})
                    return
            await inner(scope, receive, send)

        return app

    def _run(self) -> None:
        import uvicorn

        async def main() -> None:
            config = uvicorn.Config(self._app(), lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=1)
            self._uvicorn = uvicorn.Server(config)
            self._loop = asyncio.get_running_loop()
            self._ready.set()
            await self._uvicorn.serve(sockets=[self._socket])

        asyncio.run(main())

    def start(self) -> A2AOracleServer:
        self._thread = threading.Thread(target=self._run, name="tau-a2a-oracle", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        return self

    def stop(self) -> None:
        if self._uvicorn is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(setattr, self._uvicorn, "should_exit", True)
            self._loop.call_soon_threadsafe(setattr, self._uvicorn, "force_exit", True)
        if self._thread is not None:
            self._thread.join(10)
        self._socket.close()

    def __enter__(self) -> A2AOracleServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
