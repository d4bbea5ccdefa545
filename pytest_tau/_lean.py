"""Cheaper model calls through litellm, without leaving it.

Profiled on a tool-calling conversation (bench/call_cost.py), almost half of the harness
CPU per call went to the openai SDK re-walking the request (policy, every tool schema,
the whole history) against its TypedDict annotations (`maybe_transform`), which for a
chat request made only of JSON values returns the same dict minus the unset
parameters. `install` swaps in a shortcut for exactly that case and leaves any other
request (files, dates, non-JSON values) to the SDK. The cost litellm already computed
for a response is read back instead of being computed a second time (`response_cost`).

Two more cuts (bench/call_cost.py, calling thread vs other threads): litellm hands every
successful call to a background thread that builds its standard logging payload (a second
cost calculation included) for callbacks; with no callback registered nobody reads it, so
`complete` marks the call as litellm does its own nested calls, which skips that hand-off
(any registered callback turns this off). A failed call (a 429 under a rate limit) had
litellm build the same payload synchronously for its failure callbacks, about 12 ms of
CPU per 429 (bench/rate_limit.py); with no callback that is skipped too. A model litellm has no price for (a local
server, a fine-tune) made litellm search its whole cost map on every call before giving
up; `price_unknown` gives such a model a price of 0 once, which is what it cost anyway.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar
from typing import Any

import orjson

__all__ = ["complete", "install", "json_native", "price_unknown", "response_cost"]

_INSTALLED = False
_PRICED: set[tuple[str, str | None]] = set()
_PRICING = threading.Lock()
# Set while one of our calls runs with nobody listening: litellm's failure logging is skipped.
_UNHEARD: ContextVar[bool] = ContextVar("tau_unheard", default=False)
# Where litellm keeps its callback lists: anything in one of them wants the logging.
_CALLBACK_LISTS = ("callbacks", "success_callback", "_async_success_callback", "input_callback",
                   "failure_callback", "_async_failure_callback", "service_callback")


# orjson refuses these instead of converting them: what serializes is plain JSON.
_PLAIN_JSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def json_native(value: Any) -> bool:
    """Made of dict (str keys), list, str, int, float, bool and None only; also tuples, enums and
    UUIDs, which reach the wire as the SDK would send them. Checked by serializing with orjson, in
    C: the Python walk it replaces cost about 0.5 ms of a 20 KB request's CPU."""
    try:
        orjson.dumps(value, option=_PLAIN_JSON)
    except TypeError:  # orjson.JSONEncodeError: a date, a model, a str subclass, a non-str key
        return False
    return True


def install() -> None:
    """Shortcut the openai SDK's request transform for chat requests of plain JSON (once)."""
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    try:
        from openai import _types
        from openai.resources.chat.completions import completions
        from openai.types.chat import completion_create_params
    except ImportError:  # another SDK layout: keep its own path
        return
    original = getattr(completions, "maybe_transform", None)
    if original is None:
        return
    chat_params = (
        completion_create_params.CompletionCreateParamsNonStreaming,
        completion_create_params.CompletionCreateParamsStreaming,
    )
    unset = (_types.NotGiven, _types.Omit)

    def maybe_transform(data: object, expected_type: object) -> Any:
        if expected_type in chat_params and type(data) is dict:
            given = {k: v for k, v in data.items() if not isinstance(v, unset)}
            if json_native(given):
                return given
        return original(data, expected_type)

    setattr(completions, "maybe_transform", maybe_transform)  # noqa: B010 - the SDK's module global
    _quiet_failures()


def _quiet_failures() -> None:
    try:
        from litellm.litellm_core_utils.litellm_logging import Logging
    except ImportError:  # another litellm layout: its own path
        return
    original = Logging.failure_handler

    def failure_handler(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _UNHEARD.get():
            return None
        return original(self, *args, **kwargs)

    Logging.failure_handler = failure_handler  # type: ignore[method-assign]


def response_cost(litellm: Any, response: Any) -> float:
    """The cost litellm put on the response while logging it, or computed when it did not."""
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost") if isinstance(hidden, dict) else None
    if cost is not None:
        try:
            return float(cost)
        except (TypeError, ValueError):
            pass
    try:
        return float(litellm.completion_cost(completion_response=response) or 0.0)
    except Exception:  # models without a price (local servers) cost nothing here
        return 0.0


def _listened(litellm: Any) -> bool:
    return any(getattr(litellm, name, None) for name in _CALLBACK_LISTS)


def complete(litellm: Any, kwargs: dict[str, Any]) -> Any:
    """`litellm.completion(**kwargs)`, without the background success logging when no
    callback is registered to receive it."""
    try:
        from litellm._internal_context import is_internal_call
    except ImportError:  # another litellm layout: its own path
        return litellm.completion(**kwargs)
    if _listened(litellm):
        return litellm.completion(**kwargs)
    token = is_internal_call.set(True)  # per thread: each conversation's thread has its own context
    unheard = _UNHEARD.set(True)
    try:
        return litellm.completion(**kwargs)
    finally:
        _UNHEARD.reset(unheard)
        is_internal_call.reset(token)


def price_unknown(litellm: Any, model: str, provider: str | None) -> None:
    """Once per model and process: if litellm knows no price for `model`, register it at 0."""
    if (model, provider) in _PRICED:
        return
    with _PRICING:
        if (model, provider) in _PRICED:
            return
        try:
            litellm.get_model_info(model=model, custom_llm_provider=provider)
        except Exception:  # litellm raises a bare Exception for a model it has no entry for
            try:
                _, resolved, _, _ = litellm.get_llm_provider(model, custom_llm_provider=provider)
            except Exception:  # an unknown provider fails on the call itself, with its own message
                resolved = None
            if resolved:
                import logging

                # register_model warns that cache pricing defaults to 0: so does everything here.
                quiet = logging.getLogger("LiteLLM")
                level = quiet.level
                quiet.setLevel(logging.ERROR)
                try:
                    litellm.register_model({model: {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0,
                                                    "litellm_provider": resolved, "mode": "chat"}})
                finally:
                    quiet.setLevel(level)
        _PRICED.add((model, provider))
