"""``--agent-strategy http``: an in-house agent behind a small JSON protocol.

The protocol (documented in docs/writing-a-strategy.md, served by
`pytest_tau.testing.HttpAgentServer`), one session per item, session ids chosen by the
harness so that every request can be retried safely:

- ``PUT {url}/sessions/{session_id}`` with ``{"item", "domain", "task", "trial", "seed",
  "policy", "tools"}`` (``tools``: OpenAI function schemas) starts the session;
- ``POST {url}/sessions/{session_id}/turns`` with ``{"seq": n, "message": {"role": "user",
  "content": str}}`` or ``{"seq": n, "tool_results": [{"tool_call_id", "name", "content",
  "error"}]}`` answers ``{"content": str | null, "tool_calls": [{"id", "name",
  "arguments"}], "usage": {...}}``; a repeated ``seq`` must get the same answer again;
- ``DELETE {url}/sessions/{session_id}`` ends it (best effort, at the item's teardown).
"""

from __future__ import annotations

import contextlib
import uuid
from typing import TYPE_CHECKING, Any

from .._conversation import AgentStep, InfraError, RequestedCall, Usage
from .._deadline import CallDeadline, within
from ._retry import RemoteError, retry_after, with_retries

if TYPE_CHECKING:
    import httpx

    from .._strategies import StrategyContext
    from ._options import RemoteOptions

__all__ = ["HttpAgent", "parse_turn"]


def parse_turn(body: Any) -> tuple[str, list[RequestedCall], Usage]:
    """A turn answer: what the agent says, the calls it asks for, its usage. Raises ValueError."""
    if not isinstance(body, dict):
        raise ValueError("the answer is not a JSON object")
    content = body.get("content") or ""
    if not isinstance(content, str):
        raise ValueError("'content' must be a string or null")
    calls = []
    raw_calls = body.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ValueError("'tool_calls' must be a list")
    for index, raw in enumerate(raw_calls):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise ValueError(f"tool_calls[{index}] needs a string 'name'")
        arguments = raw.get("arguments", {})
        if not isinstance(arguments, (dict, str)):
            arguments = str(arguments)  # the environment answers it with a tool error
        call_id = raw.get("id") if isinstance(raw.get("id"), str) and raw.get("id") else f"call_{index}"
        calls.append(RequestedCall(id=str(call_id), name=raw["name"], arguments=arguments))
    usage = Usage()
    raw_usage = body.get("usage")
    if isinstance(raw_usage, dict):
        usage.calls = 1
        usage.prompt_tokens = int(raw_usage.get("prompt_tokens") or 0)
        usage.completion_tokens = int(raw_usage.get("completion_tokens") or 0)
        usage.cost = float(raw_usage.get("cost") or 0.0)
    return content, calls, usage


class HttpAgent:
    """One item's session with a remote agent speaking the pytest-tau HTTP protocol."""

    def __init__(self, context: StrategyContext, options: RemoteOptions) -> None:
        assert options.agent_url is not None  # checked at start
        self.context = context
        self.options = options
        self.usage = Usage()
        self.session_id = uuid.uuid4().hex
        self.base = f"{options.agent_url}/sessions/{self.session_id}"
        self._client: httpx.Client | None = None
        self._started = False
        self._seq = 0
        self._answered: set[str] = set()

    # -- the Agent protocol ----------------------------------------------------------
    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        if not self._started:
            self._request("PUT", self.base, self._start_body())
            self._started = True
        last = messages[-1]
        body: dict[str, Any]
        if last["role"] == "user":
            body = {"message": {"role": "user", "content": last["content"]}}
        else:
            results = [m for m in messages if m["role"] == "tool" and m["tool_call_id"] not in self._answered]
            self._answered.update(m["tool_call_id"] for m in results)
            body = {
                "tool_results": [
                    {"tool_call_id": m["tool_call_id"], "name": m["name"], "content": m["content"], "error": m["content"].startswith("Error:")}
                    for m in results
                ]
            }
        self._seq += 1
        body["seq"] = self._seq
        answer = self._request("POST", f"{self.base}/turns", body)
        try:
            content, calls, usage = parse_turn(answer)
        except ValueError as exc:
            raise InfraError(f"http agent {self.options.agent_url}: malformed turn answer: {exc}") from None
        self.usage.add(usage)
        return AgentStep(content=content, tool_calls=calls)

    def close(self) -> None:
        """End the session (best effort) and drop the connections."""
        if self._client is None:
            return
        if self._started:
            with contextlib.suppress(Exception):
                self._client.delete(self.base, timeout=min(self.options.timeout, 5.0))
        self._client.close()
        self._client = None

    # -- internals -------------------------------------------------------------------
    def _start_body(self) -> dict[str, Any]:
        context = self.context
        return {
            "item": context.item_id,
            "domain": context.domain.name,
            "task": context.task.id,
            "trial": context.trial,
            "seed": context.seed,
            "policy": context.policy,
            "tools": context.tool_schemas,
        }

    def _request(self, method: str, url: str, body: dict[str, Any]) -> Any:
        import httpx

        if self._client is None:
            self._client = httpx.Client(timeout=self.options.timeout)
        client = self._client

        def attempt() -> Any:
            try:
                # --remote-timeout bounds the whole request (a trickled answer too), not each read.
                response = within(self.options.timeout, lambda: client.request(method, url, json=body), "http agent")
            except (httpx.TimeoutException, CallDeadline):
                raise RemoteError(f"no complete answer within {self.options.timeout:g}s (--remote-timeout)") from None
            except httpx.TransportError as exc:
                raise RemoteError(f"{type(exc).__name__}: {exc}") from None
            if response.status_code == 429 or response.status_code >= 500:
                raise RemoteError(f"HTTP {response.status_code}", retry_after=retry_after(response.headers.get("Retry-After")))
            if response.status_code >= 400:
                raise RemoteError(f"HTTP {response.status_code}: {response.text[:300]}", retryable=False)
            try:
                return response.json() if response.content else {}
            except ValueError:
                raise RemoteError("the answer is not JSON") from None  # the seq makes a retry safe

        what = f"http agent {method} {url.removeprefix(self.options.agent_url or '')}"
        return with_retries(attempt, what=what, retries=self.options.retries, backoff=self.options.backoff)
