"""Secrets never reach results, trajectories, JUnit, summaries or logs.

Redacted: the values of environment variables whose names say they are secrets, keys
embedded in model strings or URLs (user-info, `key=`/`token=` query values, `sk-...`
style tokens), wherever the run writes text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

__all__ = ["json_redactor", "redact", "redact_json"]

MASK = "***"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_PATTERNS = (
    re.compile(r"(?<=://)[^/@\s:]+:[^/@\s]+(?=@)"),  # user:password@host
    re.compile(r"(?i)(?<=[?&;])((?:api[_-]?)?key|token|secret|access_token|sig)=[^&\s\"'(),;]+"),
    re.compile(r"\b(?:sk|rk|pk|rpa|hf|gsk|xai)[-_][A-Za-z0-9_\-]{12,}"),
    re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._\-]{12,}"),
)


def _env_secrets() -> re.Pattern[str] | None:
    """One pattern matching every secret-looking environment value, read now."""
    values = {value for name, value in os.environ.items() if _SECRET_NAME.search(name) and len(value) >= 8}
    if not values:
        return None
    return re.compile("|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)))


def _mask(match: re.Match[str]) -> str:
    text = match.group(0)
    return text.split("=", 1)[0] + "=" + MASK if "=" in text else MASK


def _redact(text: str, secrets: re.Pattern[str] | None) -> str:
    if not text:
        return text
    if secrets is not None:
        text = secrets.sub(MASK, text)
    for pattern in _PATTERNS:
        text = pattern.sub(_mask, text)
    return text


def redact(text: str) -> str:
    """The text with every known secret replaced by ***."""
    return _redact(text, _env_secrets())


def redact_json(value: Any) -> Any:
    """Redact every string inside a JSON-able value (the environment is read once)."""
    return json_redactor()(value)


def json_redactor() -> Callable[[Any], Any]:
    """`redact_json` with the environment read now, once, for many values in a row."""
    secrets = _env_secrets()

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return _redact(item, secrets)
        if isinstance(item, dict):
            return {key: walk(inner) for key, inner in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(inner) for inner in item]
        return item

    return walk
