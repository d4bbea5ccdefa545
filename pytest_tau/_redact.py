"""Secrets never reach results, trajectories, JUnit, summaries or logs.

Redacted: the values of environment variables whose names say they are secrets, keys
embedded in model strings or URLs (user-info, `key=`/`token=` query values, `sk-...`
style tokens), wherever the run writes text.
"""

from __future__ import annotations

import os
import re
from typing import Any

__all__ = ["redact", "redact_json"]

MASK = "***"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_PATTERNS = (
    re.compile(r"(?<=://)[^/@\s:]+:[^/@\s]+(?=@)"),  # user:password@host
    re.compile(r"(?i)(?<=[?&;])((?:api[_-]?)?key|token|secret|access_token|sig)=[^&\s\"']+"),
    re.compile(r"\b(?:sk|rk|pk|rpa|hf|gsk|xai)[-_][A-Za-z0-9_\-]{12,}"),
    re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._\-]{12,}"),
)


def _env_secrets() -> list[str]:
    values = {value for name, value in os.environ.items() if _SECRET_NAME.search(name) and len(value) >= 8}
    return sorted(values, key=len, reverse=True)


def redact(text: str) -> str:
    """The text with every known secret replaced by ***."""
    if not text:
        return text
    for secret in _env_secrets():
        if secret in text:
            text = text.replace(secret, MASK)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: (m.group(0).split("=", 1)[0] + "=" + MASK) if "=" in m.group(0) else MASK, text)
    return text


def redact_json(value: Any) -> Any:
    """Redact every string inside a JSON-able value."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_json(item) for item in value]
    return value
