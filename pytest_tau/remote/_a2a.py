"""``--agent-strategy a2a``: the agent under test is an A2A server; the harness plays the customer.

One A2A context per item (a fresh ``context_id``). The first message of the context has
two parts: a data part with the session (``{"pytest_tau": {"policy", "mcp": {"url",
"transport": "streamable-http"}, "tools", "item", "domain", "task", "trial"}}``) and a
text part with the customer's words; later messages carry the customer's words only.
Every message has ``metadata.pytest_tau_item``. The agent calls the item's tools on the
MCP endpoint of the session; each call becomes one step of the harness's conversation
(see `_bridge`). Its answer (a message, or a task's status message and artifacts) is
what it tells the customer. Streamed while it works (``streaming`` in its card), the
text of a working status update is told at once, with the tool calls that follow it: an
agent that says something and then transfers to a human is heard before the transfer
ends the conversation.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import TYPE_CHECKING, Any

from .._conversation import AgentStep, InfraError, Usage
from .._redact import redact
from ._bridge import CallBridge
from ._loop import background_loop

if TYPE_CHECKING:
    import concurrent.futures

    from .._strategies import StrategyContext
    from ._mcp import Endpoint, ToolServer
    from ._options import RemoteOptions

__all__ = ["SESSION_KEY", "A2AAgent", "reply_text"]

SESSION_KEY = "pytest_tau"


def reply_text(response: Any) -> tuple[str, str, str | None]:
    """One A2A event: (said while working, final text, task id to continue or None)."""
    from a2a.types import TaskState

    def text(parts: Any) -> str:
        return "\n".join(part.text for part in parts if part.text)

    final_states = (TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)
    follow = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)
    kind = response.WhichOneof("payload")
    if kind == "message":
        return "", text(response.message.parts), None
    if kind == "artifact_update":
        return "", text(response.artifact_update.artifact.parts), None
    if kind == "task" or kind == "status_update":
        status = response.task.status if kind == "task" else response.status_update.status
        task_id = response.task.id if kind == "task" else response.status_update.task_id
        said = text(status.message.parts) if status.HasField("message") else ""
        if status.state in (TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_CANCELED):
            raise RuntimeError(f"the agent's task ended {TaskState.Name(status.state)}: {said[:300]}")
        if status.state not in final_states:
            return said, "", None  # submitted/working: told now, before the calls that follow
        final = said
        if kind == "task":  # a whole task at once (no streaming): its artifacts too
            final = "\n".join(t for t in [*(text(a.parts) for a in response.task.artifacts), said] if t)
        return "", final, task_id if status.state in follow else None
    return "", "", None


class A2AAgent:
    """One item's A2A context, with the item's tools on its own MCP endpoint."""

    def __init__(self, context: StrategyContext, options: RemoteOptions, tool_server: ToolServer) -> None:
        self.context = context
        self.options = options
        self.tool_server = tool_server
        self.usage = Usage()
        self.context_id = uuid.uuid4().hex
        self.bridge = CallBridge()
        self._endpoint: Endpoint | None = None
        self._client: Any = None
        self._inflight: concurrent.futures.Future[str] | None = None
        self._task_id: str | None = None
        self._opened = False

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        if self._endpoint is None:
            self._endpoint = self.tool_server.add(self.context.domain, self.bridge)
        self.bridge.answer(messages)
        if self._inflight is None:
            text = messages[-1]["content"] if messages[-1]["role"] == "user" else ""
            future = background_loop().submit(self._send(text))
            future.add_done_callback(self._finished)
            self._inflight = future
        said: list[str] = []
        while True:
            event = self.bridge.next(self.options.timeout)
            if event is None:
                self._cancel()
                raise InfraError(
                    f"a2a agent {self.options.agent_url}: neither answered nor called a tool within {self.options.timeout:g}s (--remote-timeout)"
                )
            if event.kind == "said":
                said.append(event.text)
                continue
            if event.kind == "call":
                assert event.call is not None
                return AgentStep(content="\n".join(said), tool_calls=[event.call, *self.bridge.more_calls()])
            self._inflight = None
            if event.kind == "error":
                raise InfraError(redact(f"a2a agent {self.options.agent_url}: {event.error}"))
            return AgentStep(content="\n".join(t for t in [*said, event.text] if t))

    def close(self) -> None:
        self._cancel()
        self.bridge.close()
        if self._endpoint is not None:
            self.tool_server.remove(self._endpoint)
            self._endpoint = None
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                background_loop().submit(client.close()).result(5)

    # -- internals -------------------------------------------------------------------
    def _cancel(self) -> None:
        future, self._inflight = self._inflight, None
        if future is not None:
            future.cancel()

    def _finished(self, future: concurrent.futures.Future[str]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            self.bridge.fail(error)
        else:
            self.bridge.reply(future.result())

    def _message(self, text: str) -> Any:
        from a2a.helpers.proto_helpers import new_data_part, new_text_part
        from a2a.types import Message, Role
        from google.protobuf import struct_pb2

        parts = []
        if not self._opened:
            assert self._endpoint is not None
            context = self.context
            session = {
                "policy": context.policy,
                "mcp": {"url": self._endpoint.url, "transport": "streamable-http", "headers": self._endpoint.headers},
                "tools": [schema["function"]["name"] for schema in context.tool_schemas],
                "item": context.item_id,
                "domain": context.domain.name,
                "task": context.task.id,
                "trial": context.trial,
            }
            parts.append(new_data_part({SESSION_KEY: session}, media_type="application/json"))
        parts.append(new_text_part(text))
        metadata = struct_pb2.Struct()
        metadata.update({"pytest_tau_item": self.context.item_id})
        return Message(
            role=Role.ROLE_USER,
            parts=parts,
            message_id=uuid.uuid4().hex,
            context_id=self.context_id,
            task_id=self._task_id or "",
            metadata=metadata,
        )

    async def _connect(self) -> Any:
        import httpx
        from a2a.client import ClientConfig, create_client

        if self._client is None:
            http = httpx.AsyncClient(timeout=httpx.Timeout(self.options.timeout, read=None))
            self._client = await create_client(str(self.options.agent_url), ClientConfig(streaming=True, httpx_client=http))
        return self._client

    async def _send(self, text: str) -> str:
        from a2a.types import SendMessageRequest

        message = self._message(text)  # one message id for every retry of it
        attempt = 0
        while True:
            calls_before = self.bridge.calls
            try:
                client = await self._connect()
                texts: list[str] = []
                follow: str | None = None
                async for response in client.send_message(SendMessageRequest(message=message)):
                    said, final, task_id = reply_text(response)
                    if said:
                        self.bridge.say(said)
                    if final:
                        texts.append(final)
                    follow = task_id or follow
                self._opened = True
                self._task_id = follow
                return "\n".join(texts)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # Retry only what cannot have half-happened: no tool was called meanwhile.
                if attempt >= self.options.retries or self.bridge.calls != calls_before:
                    raise RuntimeError(f"{type(exc).__name__}: {exc}" + (f" (after {attempt + 1} attempts)" if attempt else "")) from None
                self._client = None
                await asyncio.sleep(min(self.options.backoff * 2**attempt, 10.0))
                attempt += 1
