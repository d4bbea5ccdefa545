"""Cheaper model calls through litellm, without leaving it.

Profiled on a tool-calling conversation (bench/call_cost.py), almost half of the harness
CPU per call went to the openai SDK re-walking the request (policy, every tool schema,
the whole history) against its TypedDict annotations (`maybe_transform`), which for a
chat request made only of JSON values returns the same dict minus the unset
parameters. `install` swaps in a shortcut for exactly that case and leaves any other
request (files, dates, non-JSON values) to the SDK. The cost litellm already computed
for a response is read back instead of being computed a second time (`response_cost`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["install", "json_native", "response_cost"]

_INSTALLED = False


def json_native(value: Any, depth: int = 0) -> bool:
    """Made of dict (str keys), list, str, int, float, bool and None only."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if depth > 64:
        return False
    if type(value) is dict:
        return all(type(k) is str and json_native(v, depth + 1) for k, v in value.items())
    if type(value) is list:
        return all(json_native(v, depth + 1) for v in value)
    return False


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
