"""A fake of Dialogflow CX's ``detectIntent`` REST endpoint that plays the oracle with client-side tools.

    from pytest_tau.testing.cx_agent import CXOracleServer

    with CXOracleServer([domain]) as cx:
        ...  # pytest --agent-strategy dialogflow-cx --cx-agent {cx.agent} --cx-endpoint {cx.url}

Stdlib only, on 127.0.0.1, speaking the v3 REST JSON the public client sends
(``POST /v3/{session}:detectIntent``). A session is the oracle of the task named in the
first query's ``queryParams.parameters.pytest_tau``. When the oracle acts, the answer
carries its text and one ``toolCall`` (``tool``: a Tool resource of the agent,
``action``: the function's name, ``inputParameters``); each ``toolCallResult`` query gets the
next call, and the last result steps the oracle again, as a playbook waits for each client-side
tool. ``parallel=True`` asks for all of a step's calls in one answer. ``inject("503", "500",
"429", "hang", "drop", "malformed")`` fails the next requests (errors in Google's JSON
error shape); ``bad_arguments(item)`` makes the agent first call a tool of that item with
empty arguments (its result is logged in ``tool_results``, not shown to the oracle).
"""

from __future__ import annotations

import collections
import json
import re
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from .._conversation import RequestedCall
from ._loopback import JsonHandler, LoopbackServer
from ._oracle_sessions import OracleBook

__all__ = ["CXFault", "CXOracleServer"]

CXFault = Literal["503", "500", "429", "hang", "drop", "malformed"]
_STATUS = {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}
_PATH = re.compile(r"^/v3/(?P<agent>projects/[^/]+/locations/[^/]+/agents/[^/]+)/sessions/(?P<session>[^/:]+):detectIntent$")


@dataclass
class _Session:
    item: str
    bad: bool = False  # a call with bad arguments goes first, before the oracle's
    queued: list[RequestedCall] = field(default_factory=list)  # asked for, not yet sent
    waiting: list[RequestedCall] = field(default_factory=list)  # sent, result not back yet
    results: list[dict[str, Any]] = field(default_factory=list)  # tool messages for the oracle
    lock: threading.Lock = field(default_factory=threading.Lock)


class CXOracleServer(LoopbackServer):
    """The oracle behind a fake Dialogflow CX agent (a context manager)."""

    def __init__(
        self,
        domains: Iterable[Any],
        *,
        agent: str = "projects/tau-test/locations/global/agents/oracle",
        parallel: bool = False,
        hang: float = 30.0,
    ) -> None:
        self.agent = agent
        self.parallel = parallel
        self.hang = hang
        self.book = OracleBook(domains)
        self.queries: list[tuple[str, str, str]] = []  # (session id, "text"|"toolCallResult", language code)
        self.tool_results: list[tuple[str, bool, str]] = []  # (action, is error, output or error message)
        self._sessions: dict[str, _Session] = {}
        self._bad: set[str] = set()
        self._forced: collections.deque[CXFault] = collections.deque()
        self._lock = threading.Lock()
        super().__init__(self._make_handler())

    @property
    def url(self) -> str:
        """The ``--cx-endpoint`` (plain http: the client then sends no credentials)."""
        return self.base_url

    def tool_resource(self, name: str) -> str:
        """The Tool resource a registered function tool would have (a server-made id)."""
        return f"{self.agent}/tools/{uuid.uuid5(uuid.NAMESPACE_URL, name)}"

    def inject(self, *faults: CXFault) -> None:
        with self._lock:
            self._forced.extend(faults)

    def bad_arguments(self, item: str) -> None:
        with self._lock:
            self._bad.add(item)

    # -- the agent -----------------------------------------------------------------------
    def _open(self, session: str, params: Any) -> _Session | None:
        with self._lock:
            found = self._sessions.get(session)
        if found is not None:
            return found
        tag = params.get("pytest_tau") if isinstance(params, dict) else None
        if not isinstance(tag, dict):
            return None
        self.book.open(session, str(tag["domain"]), str(tag["task"]), int(tag.get("trial") or 0))
        with self._lock:
            state = self._sessions[session] = _Session(item=str(tag["item"]), bad=str(tag["item"]) in self._bad)
        return state

    def _act(self, session: str, state: _Session, new: list[dict[str, Any]]) -> list[dict[str, Any]]:
        step = self.book.step(session, new)
        if state.bad and step.tool_calls:  # a call the oracle never asked for, with arguments no tool accepts
            state.bad = False
            state.queued.append(RequestedCall(id="bad", name=step.tool_calls[0].name, arguments={}))
        state.queued.extend(step.tool_calls)
        messages = [{"text": {"text": [step.content]}}] if step.content else []
        return messages + self._dispatch(state)

    def _dispatch(self, state: _Session) -> list[dict[str, Any]]:
        count = len(state.queued) if self.parallel else min(1, len(state.queued))
        sent, state.queued = state.queued[:count], state.queued[count:]
        state.waiting.extend(sent)
        return [
            {"toolCall": {"tool": self.tool_resource(call.name), "action": call.name, "inputParameters": call.arguments}}
            for call in sent
        ]

    def _query(self, session: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        query_input = body.get("queryInput") or {}
        language = str(query_input.get("languageCode", ""))
        if not language:
            return 400, {"message": "queryInput.languageCode is required"}
        state = self._open(session, (body.get("queryParams") or {}).get("parameters"))
        if state is None:
            return 400, {"message": "this fake needs queryParams.parameters.pytest_tau on a session's first query"}
        with state.lock:  # one query at a time per session, as CX serializes a session
            if "text" in query_input:
                with self._lock:
                    self.queries.append((session, "text", language))
                if state.queued or state.waiting:
                    return 400, {"message": "tool results are pending"}
                messages = self._act(session, state, [{"role": "user", "content": str(query_input["text"].get("text", ""))}])
            elif "toolCallResult" in query_input:
                with self._lock:
                    self.queries.append((session, "toolCallResult", language))
                result = query_input["toolCallResult"]
                call = next((c for c in state.waiting if c.name == result.get("action")), None)
                if call is None or result.get("tool") != self.tool_resource(call.name):
                    return 400, {"message": f"no tool call waits for {result.get('action')!r} on {result.get('tool')!r}"}
                state.waiting.remove(call)
                is_error = "error" in result
                content = str(result["error"].get("message", "")) if is_error else str((result.get("outputParameters") or {}).get("result", ""))
                with self._lock:
                    self.tool_results.append((call.name, is_error, content))
                if call.id != "bad":
                    state.results.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": content})
                if state.queued:
                    messages = self._dispatch(state)
                elif state.waiting:
                    messages = []
                else:
                    results, state.results = state.results, []
                    messages = self._act(session, state, results) if results else []
            else:
                return 400, {"message": "queryInput needs text or toolCallResult"}
        return 200, {
            "responseId": uuid.uuid4().hex,
            "queryResult": {"languageCode": language, "responseMessages": messages},
        }

    def _make_handler(self) -> type[JsonHandler]:
        server = self

        class Handler(JsonHandler):
            def _error(self, status: int, message: str) -> None:
                error = {"error": {"code": status, "message": message, "status": _STATUS.get(status, "UNKNOWN")}}
                self._send(status, json.dumps(error).encode())

            def do_POST(self) -> None:
                raw = self.read_body()
                with server._lock:
                    fault = server._forced.popleft() if server._forced else None
                if fault in ("503", "500", "429"):
                    self._error(int(fault), "injected")
                    return
                if fault == "drop":
                    self.drop()
                    return
                if fault == "hang":
                    server._stopping.wait(server.hang)
                    self.close_connection = True
                    return
                match = _PATH.match(self.path.split("?", 1)[0])
                if match is None or match.group("agent") != server.agent:
                    self._error(404, f"no agent at {self.path}")
                    return
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    self._error(400, "the body is not JSON")
                    return
                status, answer = server._query(match.group("session"), body)
                if status != 200:
                    self._error(status, str(answer.get("message")))
                    return
                payload = json.dumps(answer).encode()
                self._send(200, payload[: len(payload) // 2] if fault == "malformed" else payload)

        return Handler
