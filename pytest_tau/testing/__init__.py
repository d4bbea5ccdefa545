"""Testing helpers: a scriptable OpenAI-compatible server on 127.0.0.1, with faults.

    from pytest_tau.testing import OpenAIServer, Reply, Faults

    with OpenAIServer(lambda request: Reply(content="hello")) as server:
        ...  # point litellm (model "openai/anything") at server.url

The handler gets each chat-completion request body and returns a `Reply`. `Faults`
injects what real services do under load: latency, a requests-per-second limit answered
with 429 and Retry-After, random 429/500/503, responses slower than the client's
timeout, dropped connections and malformed JSON bodies; `server.inject(...)` forces a
fault on the next requests. `OracleModel` is a deterministic model for whole runs: as
the agent it performs a task's gold actions, as the user it says the task's script.

Remote agents under test, each playing the oracle: `HttpAgentServer` (the HTTP agent
protocol, here), `pytest_tau.testing.a2a_agent.A2AOracleServer` (an A2A server that calls
the tools over MCP) and `pytest_tau.testing.cx_agent.CXOracleServer` (a fake of Dialogflow
CX's ``detectIntent`` REST endpoint with client-side tool calls).
"""

from __future__ import annotations

import collections
import itertools
import json
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from .._outputs import spoken
from ._loopback import JsonHandler, LoopbackServer
from .http_agent import HttpAgentServer

__all__ = ["FaultKind", "Faults", "HttpAgentServer", "OpenAIServer", "OracleModel", "Reply", "ToolCallReply", "prompt_tokens"]

FaultKind = Literal["429", "500", "503", "timeout", "drop", "malformed", "empty_choices", "trickle"]


@dataclass(frozen=True)
class ToolCallReply:
    name: str
    arguments: dict[str, Any] | str  # a str is sent as-is: malformed JSON is allowed


@dataclass(frozen=True)
class Reply:
    """What the fake model answers."""

    content: str | None = None
    tool_calls: list[ToolCallReply] = field(default_factory=list)
    reasoning_content: str | None = None
    prompt_tokens: int | None = None  # None: counted from the request, as a server would
    completion_tokens: int = 5
    finish_reason: str | None = None  # None: "tool_calls" or "stop", as the reply has calls or not


def prompt_tokens(request: dict[str, Any]) -> int:
    """The fakes' token count of a request: a quarter of the characters of its messages and tools."""
    from .._routes import prompt_characters

    return max(1, prompt_characters(request.get("messages", []), request.get("tools")) // 4)


Handler = Callable[[dict[str, Any]], Reply]


@dataclass
class Faults:
    """Fault rates (0..1 per request) and limits; `seed` makes the dice repeatable."""

    latency: float = 0.0
    rate_limit_rps: float | None = None
    retry_after: float | str = 0.05  # a str is sent as written ("inf", "-5", an HTTP date)
    p429: float = 0.0
    p500: float = 0.0
    p503: float = 0.0
    ptimeout: float = 0.0
    pdrop: float = 0.0
    pmalformed: float = 0.0
    pempty: float = 0.0  # a 200 whose `choices` is empty
    hang: float = 5.0  # how long a 'timeout' response stalls (longer than the client's timeout)
    trickle_interval: float = 0.5  # 'trickle': seconds between the bytes of the answer
    status: int | None = None  # answer every request with this HTTP error (401, 403, 404, ...)
    seed: int = 0


def _header(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value:g}"


class _Bucket:
    """A token bucket: `rps` requests per second, bursts of at most one second's worth."""

    def __init__(self, rps: float) -> None:
        self.rps = rps
        self.tokens = rps
        self.stamp = time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.rps, self.tokens + (now - self.stamp) * self.rps)
            self.stamp = now
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return True
            return False


class OpenAIServer(LoopbackServer):
    """An OpenAI-compatible chat-completions server on 127.0.0.1 (a context manager)."""

    def __init__(self, handler: Handler, faults: Faults | None = None) -> None:
        self.handler = handler
        self.faults = faults or Faults()
        self.requests: list[dict[str, Any]] = []
        self.fault_log: collections.Counter[str] = collections.Counter()
        self.served = 0
        self._forced: collections.deque[FaultKind] = collections.deque()
        self._random = random.Random(self.faults.seed)
        self._bucket = _Bucket(self.faults.rate_limit_rps) if self.faults.rate_limit_rps else None
        self._lock = threading.Lock()
        self._ids = itertools.count()
        super().__init__(self._make_handler())

    @property
    def url(self) -> str:
        """The base URL to pass as api_base (…/v1)."""
        return f"{self.base_url}/v1"

    def inject(self, *kinds: FaultKind) -> None:
        """Force these faults on the next requests, in order."""
        with self._lock:
            self._forced.extend(kinds)

    # -- internals ---------------------------------------------------------------------
    def _pick_fault(self) -> FaultKind | None:
        with self._lock:
            if self._forced:
                return self._forced.popleft()
            f = self.faults
            roll = self._random.random()
            for kind, p in (("429", f.p429), ("500", f.p500), ("503", f.p503), ("timeout", f.ptimeout), ("drop", f.pdrop), ("malformed", f.pmalformed), ("empty_choices", f.pempty)):
                if roll < p:
                    return kind  # type: ignore[return-value]
                roll -= p
        return None

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        used = prompt_tokens(body) if reply.prompt_tokens is None else reply.prompt_tokens
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{next(self._ids)}",
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments),
                    },
                }
                for call in reply.tool_calls
            ]
        if reply.reasoning_content:
            message["reasoning_content"] = reply.reasoning_content
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")}],
            "usage": {
                "prompt_tokens": used,
                "completion_tokens": reply.completion_tokens,
                "total_tokens": used + reply.completion_tokens,
            },
        }

    def _make_handler(self) -> type[JsonHandler]:
        server = self

        class RequestHandler(JsonHandler):
            def _error(self, status: int, kind: str, headers: dict[str, str] | None = None) -> None:
                payload = json.dumps({"error": {"message": f"injected {kind}", "type": kind, "code": status}})
                self._send(status, payload.encode(), headers)

            def do_GET(self) -> None:  # /v1/models, for clients that probe
                self._send(200, json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode())

            def do_POST(self) -> None:
                body = json.loads(self.read_body() or b"{}")
                if server.faults.latency:
                    time.sleep(server.faults.latency)
                if server._bucket is not None and not server._bucket.take():
                    server.fault_log["rate_limited"] += 1
                    self._error(429, "rate_limit", {"Retry-After": _header(server.faults.retry_after)})
                    return
                if server.faults.status is not None:
                    server.fault_log[str(server.faults.status)] += 1
                    self._error(server.faults.status, "injected")
                    return
                fault = server._pick_fault()
                if fault is not None:
                    server.fault_log[fault] += 1
                if fault in ("429", "500", "503"):
                    headers = {"Retry-After": _header(server.faults.retry_after)} if fault == "429" else None
                    self._error(int(fault), "injected", headers)
                    return
                if fault == "drop":
                    self.drop()
                    return
                if fault == "timeout":
                    time.sleep(server.faults.hang)
                with server._lock:
                    server.requests.append(body)
                try:
                    reply = server.handler(body)
                except Exception as exc:  # a broken handler is a 500 the test can see
                    server.fault_log["handler_error"] += 1
                    self._send(500, json.dumps({"error": {"message": f"handler failed: {exc!r}"}}).encode())
                    return
                if fault == "malformed":
                    self._send(200, b'{"id": "chatcmpl-broken", "choices": [{"message": ')
                    return
                completion = server._completion(body, reply)
                if fault == "empty_choices":
                    self._send(200, json.dumps({**completion, "choices": []}).encode())
                    return
                with server._lock:
                    server.served += 1
                if fault == "trickle":
                    self.trickle(json.dumps(completion).encode(), server.faults.trickle_interval)
                    return
                self._send(200, json.dumps(completion).encode())

        return RequestHandler


# -- a deterministic model for whole runs -----------------------------------------------

_USER_MARKER = "# Who you are and what you want\n"


class OracleModel:
    """Plays every party of a run for the given domains' tasks, deterministically.

    As the user it finds the task by the instructions in its system prompt and says the
    task's script, then ###STOP### (the opening carries a `[task <domain>/<id>]` tag;
    a react user gets a thought first; a verification request is answered OK). As the
    agent it finds the task by that tag: with native tools it calls every gold action in
    its first step and tells the required outputs; as a text (act/react) agent it takes
    one gold action per step, then responds with the outputs. Then it asks whether
    there is anything else. Dual control: the agent makes the agent's gold calls and asks
    the customer for the rest; the user, offered its own tools, makes the customer's gold
    calls in its first answer to the agent (the two sides' tools never read each other's
    DB, so this order reaches the gold state).
    """

    def __init__(self, domains: Iterable[Any]) -> None:
        self.by_instructions: dict[str, tuple[str, Any]] = {}
        self.by_tag: dict[str, Any] = {}
        for domain in domains:
            for task in domain.tasks:
                self.by_instructions[task.user.instructions] = (domain.name, task)
                self.by_tag[f"[task {domain.name}/{task.id}]"] = task

    def __call__(self, request: dict[str, Any]) -> Reply:
        messages = request.get("messages", [])
        system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
        if not system and messages and messages[0]["content"].startswith("You check a simulated customer"):
            return Reply(content="VERDICT: OK")
        if _USER_MARKER in system:
            return self.user(messages, offered=bool(request.get("tools")))
        if request.get("tools"):
            return self.agent(messages)
        return self.text_agent(messages)

    def user(self, messages: list[dict[str, Any]], *, offered: bool = False) -> Reply:
        from .._users import USER_TOOL_GUIDELINES

        system = messages[0]["content"]
        instructions = system.split(_USER_MARKER, 1)[-1].split("\nAnswer in exactly this format", 1)[0]
        domain_name, task = self.by_instructions[instructions.split(USER_TOOL_GUIDELINES, 1)[0].strip()]
        said = sum(1 for m in messages if m["role"] == "assistant" and not m.get("tool_calls"))
        own = [a for a in task.gold_actions if a.actor == "user"]
        if offered and own and said >= 1 and not any(m["role"] == "tool" for m in messages):
            return Reply(tool_calls=[ToolCallReply(a.name, dict(a.arguments)) for a in own])
        lines = task.user.script
        if said == 0:
            line = f"{lines[0]} [task {domain_name}/{task.id}]"
        else:
            line = lines[said] if said < len(lines) else "###STOP###"
        if "User Response:" in system:
            return Reply(content=f"Thought: I want to get this done.\nUser Response: {line}")
        return Reply(content=line)

    def _task(self, messages: list[dict[str, Any]]) -> Any:
        opening = next(m["content"] for m in messages if m["role"] == "user")
        return next(task for tag, task in self.by_tag.items() if tag in opening)

    @staticmethod
    def _told(task: Any) -> str:
        outputs = "; ".join(spoken(output, 1) for output in task.required_outputs)
        told = f"Here is what I found: {outputs}." if outputs else "I have taken care of your request."
        asked = [a.name for a in task.gold_actions if a.actor == "user"]
        return told + (f" On your side, please do these steps: {', '.join(asked)}." if asked else "")

    @staticmethod
    def _own(task: Any) -> list[Any]:
        return [a for a in task.gold_actions if a.actor == "agent"]

    def agent(self, messages: list[dict[str, Any]]) -> Reply:
        task = self._task(messages)
        if any(m["role"] == "assistant" for m in messages):
            return Reply(content="Is there anything else I can help you with?")
        return Reply(
            content=self._told(task),
            tool_calls=[ToolCallReply(a.name, dict(a.arguments)) for a in self._own(task)],
        )

    def text_agent(self, messages: list[dict[str, Any]]) -> Reply:
        task = self._task(messages[1:])
        done = sum(1 for m in messages if m["role"] == "assistant")
        actions = self._own(task)
        if done < len(actions):
            action = {"name": actions[done].name, "arguments": dict(actions[done].arguments)}
        elif done == len(actions):
            action = {"name": "respond", "arguments": {"content": self._told(task)}}
        else:
            action = {"name": "respond", "arguments": {"content": "Is there anything else I can help you with?"}}
        return Reply(content=f"Thought: next step.\nAction: {json.dumps(action)}")
