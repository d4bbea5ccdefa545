"""Tool calls a remote agent makes by itself (over MCP), handed to the conversation loop.

A remote A2A agent calls the item's tools during its turn, while the harness waits for
its answer. The bridge turns each such call into one agent step: ``step`` returns it as
a `RequestedCall`, the engine's loop runs it on the item's environment (so it lands in
the trajectory, transfers end the conversation, bad arguments are tool errors), and the
next ``step`` hands the result back to the waiting MCP request. The agent's final
answer arrives through the same queue.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import queue
import threading
from dataclasses import dataclass
from typing import Any, Literal

from .._conversation import RequestedCall
from ._mcp import ToolAnswer

__all__ = ["CallBridge", "Event"]


@dataclass(frozen=True)
class Event:
    kind: Literal["call", "said", "reply", "error"]
    call: RequestedCall | None = None
    text: str = ""
    error: BaseException | None = None


class CallBridge:
    """One item's queue of remote events; a `ToolSink` for its MCP endpoint."""

    def __init__(self) -> None:
        self._events: queue.Queue[Event] = queue.Queue()
        self._pending: dict[str, concurrent.futures.Future[ToolAnswer]] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._closed = False
        self.calls = 0

    # -- the MCP side (server thread) --------------------------------------------------
    def submit(self, name: str, arguments: dict[str, Any]) -> concurrent.futures.Future[ToolAnswer]:
        future: concurrent.futures.Future[ToolAnswer] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                future.set_result(ToolAnswer("Error: the conversation has ended", True))
                return future
            call_id = f"mcp_{next(self._ids)}"
            self._pending[call_id] = future
            self.calls += 1
        self._events.put(Event("call", call=RequestedCall(id=call_id, name=name, arguments=arguments)))
        return future

    # -- the agent's side --------------------------------------------------------------
    def reply(self, text: str) -> None:
        self._events.put(Event("reply", text=text))

    def say(self, text: str) -> None:
        """Text the agent streams before it acts (told to the user with its next calls)."""
        self._events.put(Event("said", text=text))

    def fail(self, error: BaseException) -> None:
        self._events.put(Event("error", error=error))

    def answer(self, messages: list[dict[str, Any]]) -> None:
        """Hand the results of pending calls (tool messages of the conversation) back."""
        with self._lock:
            if not self._pending:
                return
            for message in reversed(messages):
                if message["role"] != "tool":
                    break
                future = self._pending.pop(message["tool_call_id"], None)
                if future is not None:
                    future.set_result(ToolAnswer(message["content"], message["content"].startswith("Error:")))

    def next(self, timeout: float) -> Event | None:
        """The next event, with every call already queued behind a call; None on timeout."""
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        return event

    def more_calls(self) -> list[RequestedCall]:
        """Calls queued right now (an agent calling tools in parallel), without waiting."""
        calls: list[RequestedCall] = []
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return calls
            if event.kind != "call" or event.call is None:
                self._events.queue.appendleft(event)  # a reply stays first in line
                return calls
            calls.append(event.call)

    def close(self) -> None:
        """The conversation ended: pending and later calls answer with an error."""
        with self._lock:
            self._closed = True
            pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_result(ToolAnswer("Error: the conversation has ended", True))
