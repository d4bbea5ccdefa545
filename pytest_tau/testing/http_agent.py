"""A reference server of pytest-tau's HTTP agent protocol that plays the oracle.

    from pytest_tau.testing import HttpAgentServer

    with HttpAgentServer([domain]) as agent:
        ...  # pytest --agent-strategy http --agent-url {agent.url}

Stdlib only, on 127.0.0.1. Each session is the oracle of the task named when it starts
(``domain``/``task`` of the ``PUT``); answers are cached by ``seq``, as the protocol asks,
so retried requests get the same answer. ``inject("500", "hang", "drop", "malformed")``
fails the next requests; a ``hang`` stalls until the client has given up (or the server
stops). Read it as the protocol's executable specification.
"""

from __future__ import annotations

import collections
import json
import threading
from collections.abc import Iterable
from typing import Any, Literal

from ._loopback import JsonHandler, LoopbackServer
from ._oracle_sessions import OracleBook

__all__ = ["HttpAgentServer", "HttpFault"]

HttpFault = Literal["500", "429", "hang", "drop", "malformed", "trickle"]


class HttpAgentServer(LoopbackServer):
    """The oracle behind the HTTP agent protocol (a context manager)."""

    def __init__(self, domains: Iterable[Any], *, host: str = "127.0.0.1", hang: float = 30.0) -> None:
        self.book = OracleBook(domains)
        self.hang = hang
        self.trickle_interval = 0.5  # 'trickle': seconds between the bytes of an answer
        self.requests: list[tuple[str, str]] = []  # (method, path), in order
        self.starts: list[dict[str, Any]] = []  # every PUT body
        self._answers: dict[tuple[str, int], bytes] = {}
        self._forced: collections.deque[HttpFault] = collections.deque()
        self._lock = threading.Lock()
        super().__init__(self._make_handler(), host)

    @property
    def url(self) -> str:
        return self.base_url

    def inject(self, *faults: HttpFault) -> None:
        """Fail the next requests with these faults, in order."""
        with self._lock:
            self._forced.extend(faults)

    # -- the protocol ------------------------------------------------------------------
    def _start(self, session: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        for key in ("domain", "task", "policy", "tools"):
            if key not in body:
                return 400, {"error": f"missing {key!r}"}
        try:
            self.book.open(session, str(body["domain"]), str(body["task"]), int(body.get("trial") or 0))
        except KeyError as exc:
            return 404, {"error": str(exc)}
        with self._lock:
            self.starts.append(body)
        return 200, {"session_id": session}

    def _turn(self, session: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if not self.book.has(session):
            return 404, {"error": f"no session {session}"}
        new: list[dict[str, Any]] = []
        if isinstance(body.get("message"), dict):
            new.append({"role": "user", "content": str(body["message"].get("content", ""))})
        for result in body.get("tool_results") or []:
            new.append({"role": "tool", "tool_call_id": result["tool_call_id"], "name": result["name"], "content": result["content"]})
        if not new:
            return 400, {"error": "a turn carries a 'message' or 'tool_results'"}
        step = self.book.step(session, new)
        calls = [{"id": call.id, "name": call.name, "arguments": call.arguments} for call in step.tool_calls]
        return 200, {"content": step.content or None, "tool_calls": calls, "usage": {"prompt_tokens": 0, "completion_tokens": 0}}

    def _make_handler(self) -> type[JsonHandler]:
        server = self

        class Handler(JsonHandler):
            def _handle(self, method: str) -> None:
                raw = self.read_body()
                with server._lock:
                    server.requests.append((method, self.path))
                    fault = server._forced.popleft() if server._forced else None
                if fault in ("500", "429"):
                    self._send(int(fault), b'{"error": "injected"}')
                    return
                if fault == "drop":
                    self.drop()
                    return
                if fault == "hang":
                    server._stopping.wait(server.hang)
                    self.close_connection = True
                    return
                parts = [p for p in self.path.split("/") if p]
                if len(parts) < 2 or parts[0] != "sessions":
                    self._send(404, b'{"error": "unknown path"}')
                    return
                session = parts[1]
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    self._send(400, b'{"error": "the body is not JSON"}')
                    return
                if method == "PUT" and len(parts) == 2:
                    status, answer = server._start(session, body)
                elif method == "DELETE" and len(parts) == 2:
                    status, answer = (200, {}) if server.book.close(session) else (404, {"error": "no such session"})
                elif method == "POST" and len(parts) == 3 and parts[2] == "turns":
                    key = (session, int(body.get("seq") or 0))
                    with server._lock:
                        cached = server._answers.get(key)
                    if cached is not None:  # a retry: the same answer again
                        self._send(200, cached)
                        return
                    status, answer = server._turn(session, body)
                    if status == 200:
                        payload = json.dumps(answer).encode()
                        with server._lock:
                            server._answers[key] = payload
                        if fault == "malformed":
                            self._send(200, payload[: len(payload) // 2])
                            return
                        if fault == "trickle":  # the answer a byte at a time: each read is quick
                            self.trickle(payload, server.trickle_interval)
                            return
                        self._send(200, payload)
                        return
                else:
                    status, answer = 405, {"error": f"{method} {self.path}"}
                self._send(status, json.dumps(answer).encode())

            def do_PUT(self) -> None:
                self._handle("PUT")

            def do_POST(self) -> None:
                self._handle("POST")

            def do_DELETE(self) -> None:
                self._handle("DELETE")

        return Handler
