"""Prices, context windows and providers of known models, read from litellm's own map on disk.

litellm ships its price and context-window map as a JSON file inside the package; reading
that file costs about 50 ms, importing litellm about 5 s of CPU. So the OpenAI path prices
its calls with litellm's numbers without importing litellm. Read once per process.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
from pathlib import Path
from typing import Any

import orjson

__all__ = ["call_cost", "known_providers", "model_entry"]

_MAP_FILE = "model_prices_and_context_window_backup.json"
_LOCK = threading.Lock()
_MAP: dict[str, Any] | None = None


def _price_map() -> dict[str, Any]:
    global _MAP
    if _MAP is None:
        with _LOCK:
            if _MAP is None:
                _MAP = _read_map()
    return _MAP


def _read_map() -> dict[str, Any]:
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        path = Path(folder) / _MAP_FILE
        if path.is_file():
            try:
                loaded = orjson.loads(path.read_bytes())
            except (OSError, orjson.JSONDecodeError):
                return {}
            return {k: v for k, v in loaded.items() if isinstance(v, dict)}
    return {}  # litellm not installed: every model is unpriced (costs 0), as litellm would say


def model_entry(model: str, provider: str | None) -> dict[str, Any] | None:
    """The map's entry of `model` (a name as the provider knows it) at `provider`, or None."""
    prices: dict[str, dict[str, Any]] = _price_map()
    if provider:
        entry = prices.get(f"{provider}/{model}")
        if entry is not None:
            return entry
        entry = prices.get(model)
        return entry if entry is not None and entry.get("litellm_provider") == provider else None
    return prices.get(model)


@functools.cache
def known_providers() -> frozenset[str]:
    """Every provider the map names (anthropic, bedrock, gemini, openai, ...)."""
    return frozenset(str(entry.get("litellm_provider")) for entry in _price_map().values() if entry.get("litellm_provider"))


def call_cost(entry: dict[str, Any] | None, usage: dict[str, Any]) -> float:
    """One call's cost in dollars from an OpenAI-style `usage`; cached prompt tokens at the cache
    price where the map has one, as litellm prices them. An unpriced model costs 0."""
    if not entry:
        return 0.0
    prompt = int(usage.get("prompt_tokens") or 0)
    completion = int(usage.get("completion_tokens") or 0)
    details = usage.get("prompt_tokens_details") or {}
    cached = int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0
    input_price = float(entry.get("input_cost_per_token") or 0.0)
    cached_price = entry.get("cache_read_input_token_cost")
    cached_price = input_price if cached_price is None else float(cached_price)
    cached = min(cached, prompt)
    return (prompt - cached) * input_price + cached * cached_price + completion * float(entry.get("output_cost_per_token") or 0.0)
