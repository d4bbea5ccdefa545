"""Secrets never reach results, trajectories, JUnit, summaries or logs.

Redacted: the values of environment variables whose names say they are secrets, and every
credential form a model string, a URL or an echoed request can carry: URL user-info
(`https://TOKEN@host`, `user:password@`), query values whose name says key, token, secret,
password, signature, code, session or auth (`?api_key=`, `&x-api-key=`, `&code=`), header
values (`Authorization: Basic ...`/`Bearer ...`, `x-api-key: ...`, `api-key: ...`, in a
header dump or a printed dict) and provider-style tokens (`sk-...`), wherever the run
writes text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

__all__ = ["RedactingFilter", "json_redactor", "redact", "redact_json", "redact_log_handlers"]

MASK = "***"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
# Names of query parameters and headers that carry credentials (any name containing these words).
_SECRET_WORDS = r"key|token|secret|passw(?:or)?d|sig(?:nature)?|credential|auth(?:orization)?|code|session|cookie"
# Each pattern keeps its group 1 (the name, the scheme) and masks the rest of the match.
_PATTERNS = (
    # user-info in a URL: https://TOKEN@host, https://user:password@host
    re.compile(r"(://)[^/@\s\"'<>]+(?=@)"),
    # query values: ?api_key=..., &x-api-key=..., ;code=..., &X-Amz-Signature=...
    re.compile(rf"(?i)((?<=[?&;])[\w.\-]*(?:{_SECRET_WORDS})[\w.\-]*=)[^&\s\"'(),;<>]+"),
    # headers, echoed or printed as a dict: Authorization: Basic ..., 'x-api-key': '...', api-key: ...
    # (the value must look like a credential, so prose such as "Authorization: ask the caller" stays)
    re.compile(
        r"(?i)(\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:basic|bearer|token|digest|aws4-hmac-sha256)\s+)"
        r"[^\s\"',;}]+"
    ),
    re.compile(
        r"(?i)(\b(?:x-)?[\w-]*(?:api[-_]?key|auth[-_]?token|access[-_]?token|subscription[-_]key|secret|authorization)"
        r"[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9+/=._\-]{8,}"
    ),
    re.compile(r"(?i)(\b(?:basic|bearer) )[A-Za-z0-9+/._\-]{8,}=*"),
    # provider-style tokens anywhere: sk-..., hf_..., gsk_...
    re.compile(r"()\b(?:sk|rk|pk|rpa|hf|gsk|xai)[-_][A-Za-z0-9_\-]{12,}"),
)


# What any of _PATTERNS needs somewhere in the text (a superset, case aside): most text a run
# writes (tool results, a customer's words) has none of it and skips the six passes.
_MAYBE = re.compile(
    r"(?i)://|=|authoriz|basic |bearer |api[-_]?key|auth[-_]?token|access[-_]?token|subscription[-_]key|secret"
    r"|(?:sk|rk|pk|rpa|hf|gsk|xai)[-_]"
)


def _env_secrets() -> re.Pattern[str] | None:
    """One pattern matching every secret-looking environment value, read now."""
    values = {value for name, value in os.environ.items() if _SECRET_NAME.search(name) and len(value) >= 8}
    if not values:
        return None
    return re.compile("|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)))


def _mask(match: re.Match[str]) -> str:
    return match.group(1) + MASK


def _redact(text: str, secrets: re.Pattern[str] | None) -> str:
    if not text:
        return text
    if secrets is not None:
        text = secrets.sub(MASK, text)
    if not _MAYBE.search(text):
        return text
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


class RedactingFilter:
    """A logging filter for handlers: a record's message and traceback go out redacted
    (a provider's debug log or an httpx error names the URL, user-info included)."""

    def filter(self, record: Any) -> bool:
        import logging

        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: leave it to logging
            return True
        record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if getattr(record, "stack_info", None):
            record.stack_info = redact(record.stack_info)
        return True


def redact_log_handlers(config: Any) -> None:
    """Put `RedactingFilter` on pytest's log handlers: the log file, live logs, captured logs."""
    plugin = config.pluginmanager.get_plugin("logging-plugin")
    if plugin is None:
        return
    shared = RedactingFilter()
    for name in ("log_file_handler", "log_cli_handler", "caplog_handler", "report_handler"):
        handler = getattr(plugin, name, None)
        if handler is not None and hasattr(handler, "addFilter"):
            handler.addFilter(shared)
