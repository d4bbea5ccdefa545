"""The model layer: litellm behind a small interface, imported only when a model is used.

The harness owns the retry policy: litellm's own retries are off (`max_retries=0`),
every call has an explicit timeout, and only infrastructure errors (429, 5xx, timeouts,
dropped connections, unreadable responses) are retried, with exponential backoff that
honours `Retry-After`. When the retries run out the call raises `InfraError`, which
makes the item an error, never an agent failure.
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from ._conversation import InfraError, RequestedCall, Usage

__all__ = ["FATAL_PREFIX", "LLM", "Completion", "ModelConfig", "Tape", "check_model", "fatal_reason", "import_litellm"]

_BACKOFF_CAP = 60.0


def import_litellm() -> Any:
    """Import litellm with its network fetches turned off (cost map, hub)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    from ._lean import install

    install()  # per-call CPU: see _lean
    return litellm


@dataclass(frozen=True)
class ModelConfig:
    """Which model to call and how."""

    model: str
    provider: str | None = None
    api_base: str | None = None
    temperature: float = 0.0
    timeout: float = 120.0
    retries: int = 8
    backoff: float = 1.0
    # 429s that say when to come back (Retry-After) wait that long, within this budget of
    # seconds per call, without using up `retries`: saturating a rate limit is not a failure.
    rate_limit_patience: float = 600.0

    def __repr__(self) -> str:
        # Shown in tracebacks (`self = LLM(config=ModelConfig(...))`): redact keys in the strings.
        from ._redact import redact

        return redact(
            f"ModelConfig(model={self.model!r}, provider={self.provider!r}, api_base={self.api_base!r}, "
            f"temperature={self.temperature!r}, timeout={self.timeout!r}, retries={self.retries!r})"
        )


def check_model(config: ModelConfig, role: str) -> str | None:
    """Why this model cannot be used (unknown provider, missing key), or None."""
    litellm = import_litellm()
    try:
        _, provider, _, _ = litellm.get_llm_provider(
            config.model, custom_llm_provider=config.provider, api_base=config.api_base
        )
    except Exception:  # litellm raises BadRequestError with a long help text
        return (
            f"unknown {role} model {config.model!r}: litellm cannot tell its provider; "
            f"prefix it (openai/..., anthropic/..., hosted_vllm/...) or pass --{'user-' if role == 'user' else ''}model-provider"
        )
    if config.api_base:
        return None  # OpenAI-compatible servers (vLLM) often need no key
    env = litellm.validate_environment(model=config.model if not config.provider else f"{provider}/{config.model}")
    if not env.get("keys_in_environment", False):
        missing = ", ".join(env.get("missing_keys") or []) or "the provider's API key"
        return f"missing API key for the {role} model {config.model!r}: set {missing}"
    return None


@dataclass
class Completion:
    """One model answer, normalized."""

    content: str
    tool_calls: list[RequestedCall]
    message: dict[str, Any]
    usage: Usage


def _retryable(litellm: Any, exc: BaseException) -> bool:
    retry_types = (
        litellm.RateLimitError,
        litellm.InternalServerError,
        litellm.ServiceUnavailableError,
        litellm.BadGatewayError,
        litellm.APIConnectionError,
        litellm.Timeout,  # not a subclass of litellm's APIConnectionError
    )
    if isinstance(exc, retry_types):
        return True
    status = getattr(exc, "status_code", None)
    if isinstance(exc, litellm.APIError) and (status is None or status >= 500):
        return True
    # Unreadable bodies and dropped connections reach us as InternalServerError (above);
    # a bare ValueError would be a bug, never retried.
    return isinstance(exc, (ConnectionError, TimeoutError))


# Errors no retry can fix: the run stops at once (see `fatal_reason`).
FATAL_PREFIX = "cannot use the model: "
_UNREACHABLE = ("connection refused", "name or service not known", "nodename nor servname", "getaddrinfo failed",
                "no address associated", "temporary failure in name resolution", "errno 111", "errno -2")


def fatal_reason(litellm: Any, exc: BaseException, config: ModelConfig, *, ever_answered: bool) -> str | None:
    """A one-line reason when this error means the model cannot be used at all, else None:
    a rejected key (401/403), an unknown model (404), an endpoint nobody listens on."""
    where = config.api_base or config.provider or "its provider"
    if isinstance(exc, litellm.AuthenticationError) or getattr(exc, "status_code", None) == 401:
        return f"{FATAL_PREFIX}{config.model!r} at {where}: the API key was rejected (401)"
    if isinstance(exc, litellm.PermissionDeniedError) or getattr(exc, "status_code", None) == 403:
        return f"{FATAL_PREFIX}{config.model!r} at {where}: access denied (403)"
    if isinstance(exc, litellm.NotFoundError) or getattr(exc, "status_code", None) == 404:
        return f"{FATAL_PREFIX}{config.model!r} at {where}: no such model or endpoint (404)"
    if not ever_answered:
        # litellm wraps a refused connection in InternalServerError: look down the cause chain.
        import socket

        chain: list[BaseException] = []
        cause: BaseException | None = exc
        while cause is not None and len(chain) < 12:
            chain.append(cause)
            cause = cause.__cause__ or cause.__context__
        refused = any(isinstance(c, (ConnectionRefusedError, socket.gaierror)) for c in chain)
        if refused or any(marker in str(c).lower() for c in chain for marker in _UNREACHABLE):
            return f"{FATAL_PREFIX}{config.model!r}: cannot reach {where} (connection refused or unknown host)"
    return None


def _retry_after(exc: BaseException) -> float | None:
    # litellm keeps the provider's headers in `litellm_response_headers` (its `response`
    # is a synthetic one without them).
    headers = getattr(exc, "litellm_response_headers", None) or getattr(getattr(exc, "response", None), "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after") or headers.get("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _message_dict(message: Any) -> dict[str, Any]:
    """The assistant message as it goes back into history, reasoning content kept."""
    result: dict[str, Any] = {"role": "assistant", "content": getattr(message, "content", None)}
    tool_calls = getattr(message, "tool_calls", None) or []
    if tool_calls:
        result["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments or ""},
            }
            for call in tool_calls
        ]
    reasoning = getattr(message, "reasoning_content", None)
    if reasoning:
        result["reasoning_content"] = reasoning
    thinking = getattr(message, "thinking_blocks", None)
    if thinking:
        result["thinking_blocks"] = thinking
    return result


class Tape:
    """Record (`--record DIR`) or replay (`--replay DIR`) model calls.

    A call's key is the sha256 of the whole request (model, messages, tools, sampling
    settings, seed) and the item (domain, task, trial); one file per call, so xdist
    workers never share a file. Replay makes zero network calls and never imports litellm.
    """

    def __init__(self, folder: Path, mode: Literal["record", "replay"]) -> None:
        self.folder = Path(folder)
        self.mode = mode

    def key(self, request: dict[str, Any]) -> str:
        return hashlib.sha256(orjson.dumps(request, option=orjson.OPT_SORT_KEYS)).hexdigest()

    def load(self, key: str) -> dict[str, Any] | None:
        path = self.folder / f"{key}.json"
        return orjson.loads(path.read_bytes()) if path.exists() else None

    def save(self, key: str, completion: dict[str, Any], item: str) -> None:
        from ._redact import redact_json

        self.folder.mkdir(parents=True, exist_ok=True)
        document = redact_json({"item": item, "completion": completion})
        # Per process and thread: conversations of one process record at the same time.
        temporary = self.folder / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        temporary.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
        temporary.replace(self.folder / f"{key}.json")  # atomic: a crash never leaves half a file


@dataclass
class LLM:
    """Calls one model with the harness's retry policy; counts tokens and cost."""

    config: ModelConfig
    seed: int = 0
    sleep: Any = time.sleep
    usage: Usage = field(default_factory=Usage)
    retries_used: int = 0
    tape: Tape | None = None
    item: str = ""

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Completion:
        if self.tape is None:
            return self._call(messages, tools)
        request = {
            "item": self.item,
            "model": self.config.model,
            "provider": self.config.provider,
            "temperature": self.config.temperature,
            "seed": self.seed,
            "messages": messages,
            "tools": tools or [],
        }
        key = self.tape.key(request)
        if self.tape.mode == "replay":
            recorded = self.tape.load(key)
            if recorded is None:
                raise InfraError(
                    f"--replay {self.tape.folder}: no recorded response for this request of item {self.item} "
                    f"(call {self.usage.calls + 1}); the recording was made with other settings, tasks or code"
                )
            completion = _completion_from_json(recorded["completion"])
            self.usage.add(completion.usage)
            return completion
        completion = self._call(messages, tools)
        self.tape.save(key, _completion_to_json(completion), self.item)
        return completion

    def _call(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion:
        litellm = import_litellm()
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
            "timeout": self.config.timeout,
            "max_retries": 0,
            "seed": self.seed,
        }
        if tools:
            kwargs["tools"] = tools
        if self.config.provider:
            kwargs["custom_llm_provider"] = self.config.provider
        if self.config.api_base:
            kwargs["api_base"] = self.config.api_base
            if not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = "no-key"  # OpenAI-compatible servers need some key
        from ._lean import complete, price_unknown
        from ._ratelimit import GATE

        price_unknown(litellm, self.config.model, self.config.provider)
        jitter = random.Random(self.seed)
        attempt = 0
        waited_for_rate_limit = 0.0
        own_hold = 0.0
        endpoint = (self.config.model, self.config.provider, self.config.api_base)
        while True:
            if GATE.stopping.is_set():
                raise InfraError("the run is stopping: model call not made")
            # Another conversation of this process got a 429: wait with it (no stampede).
            GATE.wait(self.sleep, jitter.random(), own_hold)
            probing = GATE.begin_call(endpoint)
            if endpoint in GATE.fatal:  # another conversation found this model unusable
                GATE.end_call(endpoint, probing, answered=False)
                raise InfraError(GATE.fatal[endpoint])
            try:
                response = complete(litellm, kwargs)
                choice = response.choices[0]
                message = choice.message
                GATE.end_call(endpoint, probing, answered=True)
                break
            except Exception as exc:
                fatal = fatal_reason(litellm, exc, self.config, ever_answered=self.usage.calls > 0)
                if fatal is not None:
                    from ._redact import redact

                    GATE.fatal[endpoint] = redact(fatal)
                    GATE.end_call(endpoint, probing, answered=False)
                    raise InfraError(redact(fatal)) from None
                GATE.end_call(endpoint, probing, answered=False)
                if not _retryable(litellm, exc):
                    raise InfraError(f"{type(exc).__name__}: {exc}"[:800]) from None
                retry_after = _retry_after(exc)
                self.retries_used += 1
                self.usage.retries += 1
                if retry_after is not None and isinstance(exc, litellm.RateLimitError):
                    own_hold = GATE.hold(retry_after)
                    delay = retry_after * (1.0 + jitter.random())  # spread the herd
                    if waited_for_rate_limit + delay <= self.config.rate_limit_patience:
                        waited_for_rate_limit += delay
                        self.sleep(delay)
                        continue
                if attempt >= self.config.retries:
                    raise InfraError(
                        f"model call failed after {attempt + 1} attempts: {type(exc).__name__}: {exc}"[:800]
                    ) from None
                delay = min(_BACKOFF_CAP, self.config.backoff * 2**attempt) * (0.5 + jitter.random())
                delay = max(delay, retry_after or 0.0)
                attempt += 1
                self.sleep(delay)
        usage = Usage(calls=1)
        raw_usage = getattr(response, "usage", None)
        if raw_usage is not None:
            usage.prompt_tokens = int(getattr(raw_usage, "prompt_tokens", 0) or 0)
            usage.completion_tokens = int(getattr(raw_usage, "completion_tokens", 0) or 0)
        from ._lean import response_cost

        usage.cost = response_cost(litellm, response)
        self.usage.add(usage)
        message_dict = _message_dict(message)
        calls = [
            RequestedCall(id=tc["id"] or f"call_{i}", name=tc["function"]["name"] or "", arguments=tc["function"]["arguments"])
            for i, tc in enumerate(message_dict.get("tool_calls", []))
        ]
        return Completion(content=message_dict.get("content") or "", tool_calls=calls, message=message_dict, usage=usage)


def _completion_to_json(completion: Completion) -> dict[str, Any]:
    return {
        "content": completion.content,
        "tool_calls": [asdict(call) for call in completion.tool_calls],
        "message": completion.message,
        "usage": completion.usage.to_json(),
    }


def _completion_from_json(data: dict[str, Any]) -> Completion:
    return Completion(
        content=data["content"],
        tool_calls=[RequestedCall(**call) for call in data["tool_calls"]],
        message=data["message"],
        usage=Usage(**data["usage"]),
    )
