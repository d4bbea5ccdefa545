"""What a model client provides: one request sent, one answer normalized, one error judged.

`LLM` (in _llm) owns everything that must behave the same whatever the provider: the retry
loop and backoff, `Retry-After`, the per-process rate gate, record/replay, usage. A client
owns what differs: how a request reaches the provider and what its errors mean. Two exist:
the official `openai` SDK for OpenAI-compatible endpoints (_openai_client) and litellm for
every other provider (_litellm_client). Nothing here imports either.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "CLIENT_VARIABLE", "FATAL_PREFIX", "Answer", "ChatRequest", "ClientName", "ModelClient", "ModelConfig",
    "Verdict", "fatal_for_status", "forced_client", "unreachable", "unreachable_reason",
]

ClientName = Literal["openai", "litellm"]
# Forces one client for every model of the run (`openai` or `litellm`); unset: chosen per model.
CLIENT_VARIABLE = "PYTEST_TAU_MODEL_CLIENT"


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
    # Most tokens of one answer (--max-tokens); None sends no limit.
    max_tokens: int | None = None

    def __repr__(self) -> str:
        # Shown in tracebacks (`self = LLM(config=ModelConfig(...))`): redact keys in the strings.
        from ._redact import redact

        return redact(
            f"ModelConfig(model={self.model!r}, provider={self.provider!r}, api_base={self.api_base!r}, "
            f"temperature={self.temperature!r}, timeout={self.timeout!r}, retries={self.retries!r})"
        )

    @property
    def where(self) -> str:
        """The endpoint named in errors."""
        return self.api_base or self.provider or "its provider"


@dataclass
class ChatRequest:
    """One chat completion: the conversation so far, the tools, the item's seed."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    seed: int


@dataclass
class Answer:
    """A provider's answer, normalized: the first choice's assistant message as it goes back
    into history (None when the response carried no choice), tokens and cost."""

    message: dict[str, Any] | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    # The choice's finish_reason: "length" means the answer was cut at max_tokens.
    finish_reason: str | None = None


@dataclass(frozen=True)
class Verdict:
    """What a failed call means: retry it (after `retry_after` seconds when the provider said),
    give up on this call, or stop the run (`fatal`: no retry can fix it)."""

    retryable: bool
    fatal: str | None = None
    retry_after: float | None = None
    rate_limited: bool = False  # a 429: its Retry-After waits do not use up the retries
    context_overflow: bool = False  # the prompt does not fit the model's window: the model's limit, not a fault


class ModelClient(Protocol):
    # True: `send` honours `_deadline.bounded` itself (its transport is ours); False: the
    # harness bounds the call with `_deadline.within` (a thread per call).
    bounds_calls: bool

    def send(self, request: ChatRequest) -> Answer:
        """Make one call, no retry; raise what the provider's library raised."""
        ...

    def classify(self, exc: BaseException, *, ever_answered: bool) -> Verdict:
        """Judge an exception `send` raised; `ever_answered`: this model answered before."""
        ...


# Errors no retry can fix: the run stops at once.
FATAL_PREFIX = "cannot use the model: "
_UNREACHABLE = ("connection refused", "name or service not known", "nodename nor servname", "getaddrinfo failed",
                "no address associated", "temporary failure in name resolution", "errno 111", "errno -2")


def fatal_for_status(config: ModelConfig, status: int | None) -> str | None:
    """The reason a rejected key (401/403) or an unknown model (404) stops the run, else None."""
    reasons = {401: "the API key was rejected (401)", 403: "access denied (403)", 404: "no such model or endpoint (404)"}
    if status not in reasons:
        return None
    return f"{FATAL_PREFIX}{config.model!r} at {config.where}: {reasons[status]}"


def unreachable(exc: BaseException) -> bool:
    """Nobody listens at the address, or the host name does not resolve (anywhere in the
    cause chain: both libraries wrap the socket error)."""
    chain: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and len(chain) < 12:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if any(isinstance(c, (ConnectionRefusedError, socket.gaierror)) for c in chain):
        return True
    return any(marker in str(c).lower() for c in chain for marker in _UNREACHABLE)


def unreachable_reason(config: ModelConfig) -> str:
    return f"{FATAL_PREFIX}{config.model!r}: cannot reach {config.where} (connection refused or unknown host)"


def forced_client() -> ClientName | None:
    """The client named by PYTEST_TAU_MODEL_CLIENT, if any."""
    value = os.environ.get(CLIENT_VARIABLE, "").strip().lower()
    if value in ("", "auto"):
        return None
    if value not in ("openai", "litellm"):
        raise ValueError(f"{CLIENT_VARIABLE}={value!r}: use openai, litellm or auto")
    return value  # type: ignore[return-value]
