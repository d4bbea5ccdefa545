"""The litellm client: every provider that is not OpenAI-compatible (Anthropic, Bedrock, Gemini...).

litellm's own retries are off (`max_retries=0`): the harness's loop in `LLM` retries. litellm
is imported at the first call, never at collection (5 s of CPU).
"""

from __future__ import annotations

import os
from typing import Any

from ._model_client import Answer, ChatRequest, ModelConfig, Verdict, fatal_for_status, unreachable, unreachable_reason

__all__ = ["LiteLLMClient", "check", "import_litellm"]


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


def check(config: ModelConfig, role: str) -> str | None:
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


class LiteLLMClient:
    """`litellm.completion`, one call at a time, for one model."""

    bounds_calls = False  # litellm's HTTP clients are its own: the harness bounds each call on a thread

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self._litellm = import_litellm()
        from ._lean import price_unknown

        price_unknown(self._litellm, config.model, config.provider)

    def request_kwargs(self, request: ChatRequest) -> dict[str, Any]:
        """litellm's keyword arguments for one request."""
        config = self.config
        kwargs: dict[str, Any] = {
            "model": config.model,
            "messages": request.messages,
            "temperature": config.temperature,
            "timeout": config.timeout,
            "max_retries": 0,
            "seed": request.seed,
        }
        if request.tools:
            kwargs["tools"] = request.tools
        if config.provider:
            kwargs["custom_llm_provider"] = config.provider
        if config.api_base:
            kwargs["api_base"] = config.api_base
            if not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = "no-key"  # OpenAI-compatible servers need some key
        from ._routes import litellm_request

        # What the provider refuses left out, the tools a copy of their own (see _routes).
        return litellm_request(self._litellm, kwargs, max_tokens=config.max_tokens)

    def send(self, request: ChatRequest) -> Answer:
        from ._lean import complete, response_cost

        response = complete(self._litellm, self.request_kwargs(request))
        choices = getattr(response, "choices", None) or []
        raw_usage = getattr(response, "usage", None)
        return Answer(
            message=_message_dict(choices[0].message) if choices else None,
            prompt_tokens=int(getattr(raw_usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(raw_usage, "completion_tokens", 0) or 0),
            cost=response_cost(self._litellm, response),
            finish_reason=getattr(choices[0], "finish_reason", None) if choices else None,
        )

    def classify(self, exc: BaseException, *, ever_answered: bool) -> Verdict:
        litellm = self._litellm
        if isinstance(exc, litellm.ContextWindowExceededError):
            return Verdict(retryable=False, context_overflow=True)
        fatal = _fatal_reason(litellm, exc, self.config, ever_answered=ever_answered)
        if fatal is not None:
            return Verdict(retryable=False, fatal=fatal)
        return Verdict(
            retryable=_retryable(litellm, exc),
            retry_after=_retry_after(exc),
            rate_limited=isinstance(exc, litellm.RateLimitError),
        )


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


def _fatal_reason(litellm: Any, exc: BaseException, config: ModelConfig, *, ever_answered: bool) -> str | None:
    """A rejected key (401/403), an unknown model (404), an endpoint nobody listens on."""
    status = getattr(exc, "status_code", None)
    if isinstance(exc, litellm.AuthenticationError):
        status = 401
    elif isinstance(exc, litellm.PermissionDeniedError):
        status = 403
    elif isinstance(exc, litellm.NotFoundError):
        status = 404
    reason = fatal_for_status(config, status)
    if reason is not None:
        return reason
    # litellm wraps a refused connection in InternalServerError: `unreachable` reads the cause chain.
    if not ever_answered and unreachable(exc):
        return unreachable_reason(config)
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
