"""The OpenAI client: OpenAI itself, vLLM, llama.cpp and any server speaking the OpenAI chat API,
on httpx with the official `openai` SDK's errors, without litellm.

litellm cost 5 s of CPU to import and about 6 ms of CPU per call on a 21 KB request
(bench/call_floor.py). Here a request is what the SDK sends (its URL, key, organization and
project headers), prepared once and posted on httpx over our transport (_httppool: a pool
whose cost does not grow with the calls in flight, and whole-call deadlines), serialized by
orjson, the response read as JSON. A failed call raises the SDK's own errors
(`APIStatusError` and its kinds, `APITimeoutError`, `APIConnectionError`, made as its `post`
makes them), so the SDK is imported at the first failure only: its import is about 1 s of CPU
in each process, its typed `create` walks every request against its annotations and builds
pydantic models of every response, and its request builder redoes the URL and headers per
call (about 0.7 ms of CPU). Prices and context windows are litellm's, read from its map on
disk (_prices).
"""

from __future__ import annotations

import os
import threading
from typing import Any

import orjson

from ._deadline import CallDeadline, CallStopped
from ._model_client import (
    Answer,
    ChatRequest,
    ModelConfig,
    Verdict,
    fatal_for_status,
    unreachable,
    unreachable_reason,
)

__all__ = ["OPENAI_COMPATIBLE", "OpenAIClient", "UnreadableResponse", "check", "openai_compatible", "provider_and_name"]

# litellm provider names whose endpoints speak the OpenAI chat API as OpenAI does.
OPENAI_COMPATIBLE = ("openai", "hosted_vllm")
# Statuses worth another try: 408 request timeout, 429 rate limit, every 5xx.
_RETRY_STATUS = frozenset({408, 429})
_SDK_LOCK = threading.Lock()
OPENAI_BASE = "https://api.openai.com/v1"  # the SDK's default
_USER_AGENT = "pytest-tau (OpenAI-compatible chat completions)"


class UnreadableResponse(Exception):
    """A 200 whose body is not a chat completion (cut off, not JSON): retried."""


def provider_and_name(config: ModelConfig) -> tuple[str | None, str]:
    """The provider (explicit, or the model's `provider/` prefix) and the name the endpoint knows."""
    model = config.model
    prefix, _, rest = model.partition("/")
    if config.provider:
        return config.provider, rest if rest and prefix == config.provider else model
    if rest and prefix in OPENAI_COMPATIBLE:
        return prefix, rest
    return None, model


def openai_compatible(config: ModelConfig) -> bool:
    """Whether this model's endpoint speaks the OpenAI chat API (decided without litellm)."""
    provider, _ = provider_and_name(config)
    if provider is not None:
        return provider in OPENAI_COMPATIBLE
    from ._prices import known_providers, model_entry

    prefix, slash, _ = config.model.partition("/")
    if slash and prefix in known_providers():
        return False  # anthropic/..., bedrock/..., gemini/...: litellm's
    entry = model_entry(config.model, None)
    if entry is not None:
        return entry.get("litellm_provider") == "openai"
    return bool(config.api_base)  # a name only the server at --api-base knows


def _api_base(provider: str | None, config: ModelConfig) -> str | None:
    if config.api_base:
        return config.api_base
    if provider == "hosted_vllm":
        return os.environ.get("HOSTED_VLLM_API_BASE") or None
    return os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_BASE") or None


def _api_key(provider: str | None, base: str | None) -> str | None:
    if provider == "hosted_vllm" and os.environ.get("HOSTED_VLLM_API_KEY"):
        return os.environ["HOSTED_VLLM_API_KEY"]
    key = os.environ.get("OPENAI_API_KEY")
    if key:
        return key
    return "no-key" if base else None  # a self-hosted server often needs no key, but the SDK wants one


def check(config: ModelConfig, role: str) -> str | None:
    """Why this model cannot be used (no name, no address, missing key), or None. Imports nothing."""
    provider, name = provider_and_name(config)
    option = f"--{'user-' if role == 'user' else ''}api-base"
    if not name:
        return f"unknown {role} model {config.model!r}: name the model after the provider (openai/<model>)"
    base = _api_base(provider, config)
    if provider == "hosted_vllm" and not base:
        return f"the {role} model {config.model!r} needs {option} (the vLLM server's URL, …/v1) or HOSTED_VLLM_API_BASE"
    if _api_key(provider, base) is None:
        return f"missing API key for the {role} model {config.model!r}: set OPENAI_API_KEY"
    return None


class OpenAIClient:
    """One model at one endpoint; its HTTP client (the connection pool) is shared by the
    process's conversations."""

    # Its transport (_httppool) ends a call at the deadline of `_deadline.bounded` itself.
    bounds_calls = True

    def __init__(self, config: ModelConfig) -> None:
        import httpx

        from ._httppool import stack_transport

        self.config = config
        self.provider, self.name = provider_and_name(config)
        self._base = (_api_base(self.provider, config) or OPENAI_BASE).rstrip("/")
        self._key = _api_key(self.provider, self._base) or "no-key"
        # What the SDK sends: the key, the organization and project from its variables.
        headers = {"Authorization": f"Bearer {self._key}", "Accept": "application/json",
                   "Content-Type": "application/json", "User-Agent": _USER_AGENT}
        for variable, header in (("OPENAI_ORG_ID", "OpenAI-Organization"), ("OPENAI_PROJECT_ID", "OpenAI-Project")):
            if os.environ.get(variable):
                headers[header] = os.environ[variable]
        self._headers = httpx.Headers(headers).raw
        self._url = httpx.URL(self._base + "/chat/completions")
        self._timeouts = httpx.Timeout(config.timeout).as_dict()
        self._transport: httpx.HTTPTransport | None = None
        if _proxied():
            # HTTPS_PROXY and the like (NO_PROXY too) are httpx's to apply, on its own transports:
            # the harness bounds each call on a thread instead.
            self._http = httpx.Client(timeout=config.timeout, follow_redirects=True)
            self.bounds_calls = False
        else:
            self._transport = stack_transport()
            self._http = httpx.Client(transport=self._transport, timeout=config.timeout, follow_redirects=True)
        self._sdk: Any = None  # the openai SDK's client, made at the first failed call
        from ._prices import model_entry

        self._price = model_entry(self.name, self.provider or "openai")
        # OpenAI's reasoning models accept only their default temperature: leave it out for them.
        self._temperature = not (not config.api_base and self._price and self._price.get("supports_reasoning"))

    def close(self) -> None:
        self._http.close()

    def _openai(self) -> Any:
        """The openai SDK, for its errors, with its client of this endpoint (`self._sdk`):
        imported at the first failed call (about 1 s of CPU, which a run whose calls all
        succeed never pays)."""
        with _SDK_LOCK:  # the SDK's lazy module loading is not made for threads racing through it
            import openai

            if self._sdk is None:
                self._sdk = openai.OpenAI(api_key=self._key, base_url=self._base, max_retries=0, http_client=self._http)
        return openai

    def body(self, request: ChatRequest) -> dict[str, Any]:
        """The chat-completions request body."""
        from ._routes import chat_messages

        # Llama 3.x templates refuse two calls in one turn: such turns go as single calls.
        body: dict[str, Any] = {"model": self.name, "messages": chat_messages(self.name, request.messages)}
        if self._temperature:
            body["temperature"] = self.config.temperature
        body["seed"] = request.seed
        if self.config.max_tokens is not None:
            # OpenAI's own models (reasoning ones included) take max_completion_tokens; servers max_tokens.
            body["max_completion_tokens" if not self.config.api_base else "max_tokens"] = self.config.max_tokens
        if request.tools:
            body["tools"] = request.tools  # serialized here, never changed
            body["tool_choice"] = "auto"  # llama-cpp-python's function-calling formats drop tools without it
        return body

    def _post(self, http_request: Any) -> Any:
        """The response, read. On our transport straight (httpx's client adds cookies, auth
        flows and hooks this request has none of: about 0.3 ms of CPU); a redirect is left to
        the client to follow."""
        if self._transport is None:
            return self._http.send(http_request)
        response = self._transport.handle_request(http_request)
        try:
            response.read()
        finally:
            response.close()
        if response.is_redirect:
            return self._http.send(http_request)
        response.request = http_request  # the SDK's errors name it
        return response

    def send(self, request: ChatRequest) -> Answer:
        import httpx

        content = orjson.dumps(self.body(request), option=orjson.OPT_NON_STR_KEYS)
        http_request = httpx.Request(
            "POST", self._url, headers=self._headers, content=content, extensions={"timeout": self._timeouts}
        )
        # The SDK's errors, as its own `post` raises them.
        try:
            response = self._post(http_request)
        except (CallDeadline, CallStopped):
            raise
        except httpx.TimeoutException as exc:
            raise self._openai().APITimeoutError(request=http_request) from exc
        except Exception as exc:
            raise self._openai().APIConnectionError(request=http_request) from exc
        if response.status_code >= 400:
            self._openai()
            raise self._sdk._make_status_error_from_response(response)
        try:
            data = orjson.loads(response.content)
        except (orjson.JSONDecodeError, httpx.HTTPError) as exc:
            raise UnreadableResponse(f"the response is not JSON: {response.content[:200]!r}") from exc
        if not isinstance(data, dict) or ("error" in data and "choices" not in data):
            raise UnreadableResponse(f"the response is not a chat completion: {str(data)[:200]}")
        choices = data.get("choices") or []
        usage = data.get("usage") or {}
        from ._prices import call_cost

        first = choices[0] if isinstance(choices[0] if choices else None, dict) else None
        return Answer(
            message=_message_dict(first.get("message") or {}) if first is not None else None,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cost=call_cost(self._price, usage),
            finish_reason=first.get("finish_reason") if first is not None else None,
        )

    def classify(self, exc: BaseException, *, ever_answered: bool) -> Verdict:
        openai = self._openai()
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            fatal = fatal_for_status(self.config, status)
            if fatal is not None:
                return Verdict(retryable=False, fatal=fatal)
            return Verdict(
                retryable=status in _RETRY_STATUS or status >= 500,
                retry_after=_retry_after(exc.response.headers),
                rate_limited=status == 429,
            )
        if isinstance(exc, openai.APITimeoutError):
            return Verdict(retryable=True)
        if isinstance(exc, openai.APIConnectionError):
            if not ever_answered and unreachable(exc):
                return Verdict(retryable=False, fatal=unreachable_reason(self.config))
            return Verdict(retryable=True)
        # Unreadable bodies are retried; a bare ValueError would be a bug, never retried.
        return Verdict(retryable=isinstance(exc, (UnreadableResponse, ConnectionError, TimeoutError)))


def _proxied() -> bool:
    """Whether the environment names a proxy (httpx honours it only on its own transports)."""
    import urllib.request

    return any(scheme in urllib.request.getproxies() for scheme in ("http", "https", "all"))


def _retry_after(headers: Any) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (a number of seconds)."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return float(value) * scale
            except ValueError:
                continue
    return None


def _message_dict(message: dict[str, Any]) -> dict[str, Any]:
    """The assistant message as it goes back into history, reasoning content kept; the same
    shape the litellm client gives, so a recording replays through either."""
    result: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    tool_calls = message.get("tool_calls") or []
    if tool_calls:
        result["tool_calls"] = [
            {
                "id": call.get("id"),
                "type": "function",
                "function": {"name": (call.get("function") or {}).get("name"),
                             "arguments": (call.get("function") or {}).get("arguments") or ""},
            }
            for call in tool_calls
        ]
    # vLLM's reasoning parsers call it `reasoning_content` (newer releases: `reasoning`).
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if reasoning:
        result["reasoning_content"] = reasoning
    thinking = message.get("thinking_blocks")
    if thinking:
        result["thinking_blocks"] = thinking
    return result
