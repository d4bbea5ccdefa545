"""The remote strategies' options: command line over ini over defaults."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

__all__ = ["OPTIONS", "RemoteOptions"]

# (name, help, type): `--name` on the command line, `name` with underscores in the ini file.
OPTIONS: tuple[tuple[str, str, type], ...] = (
    ("agent-url", "base URL of a remote agent under test (--agent-strategy http or a2a)", str),
    ("remote-timeout", "seconds a remote agent may take to answer one request before it is an infrastructure error (default 60)", float),
    ("remote-retries", "retries of a remote request on connection errors, 429 and 5xx (default 4)", int),
    ("remote-backoff", "first retry delay of a remote request in seconds, doubled each retry, capped at 10 (default 0.5)", float),
    ("mcp-host", "address the harness's MCP tool server binds for a2a agents (default 127.0.0.1)", str),
    ("mcp-public-url", "base URL remote agents use to reach the MCP tool server, when not http://<mcp-host>:<port>", str),
    ("cx-agent", "the Dialogflow CX agent under test, projects/P/locations/L/agents/A (--agent-strategy dialogflow-cx)", str),
    (
        "cx-endpoint",
        "Dialogflow CX API endpoint (default: the agent's regional endpoint, L-dialogflow.googleapis.com; "
        "an http:// URL is a local fake, reached without credentials)",
        str,
    ),
    ("cx-language", "language code of the customer's messages to Dialogflow CX (default en)", str),
)

# A Dialogflow CX agent's resource name; the location picks the regional endpoint.
CX_AGENT = re.compile(r"projects/[^/\s]+/locations/(?P<location>[^/\s]+)/agents/[^/\s]+")


def dest(name: str) -> str:
    return "tau_" + name.replace("-", "_")


@dataclass(frozen=True)
class RemoteOptions:
    """What the remote strategies read: resolved once per process."""

    agent_url: str | None = None
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 0.5
    mcp_host: str = "127.0.0.1"
    mcp_public_url: str | None = None
    cx_agent: str | None = None
    cx_endpoint: str | None = None
    cx_language: str = "en"

    @classmethod
    def from_config(cls, config: pytest.Config) -> RemoteOptions:
        raw: dict[str, Any] = {}
        for name, _help, kind in OPTIONS:
            value = config.getoption(dest(name), None)
            if value is None:
                ini = config.getini(name.replace("-", "_"))
                value = kind(ini) if ini not in (None, "") else None
            raw[name] = value
        defaults = cls()
        return cls(
            agent_url=raw["agent-url"].rstrip("/") if raw["agent-url"] else None,
            timeout=raw["remote-timeout"] if raw["remote-timeout"] is not None else defaults.timeout,
            retries=raw["remote-retries"] if raw["remote-retries"] is not None else defaults.retries,
            backoff=raw["remote-backoff"] if raw["remote-backoff"] is not None else defaults.backoff,
            mcp_host=raw["mcp-host"] or defaults.mcp_host,
            mcp_public_url=raw["mcp-public-url"].rstrip("/") if raw["mcp-public-url"] else None,
            cx_agent=raw["cx-agent"].strip("/") if raw["cx-agent"] else None,
            cx_endpoint=raw["cx-endpoint"].rstrip("/") if raw["cx-endpoint"] else None,
            cx_language=raw["cx-language"] or defaults.cx_language,
        )

    @property
    def cx_api_endpoint(self) -> str:
        """Where the Dialogflow CX client connects: --cx-endpoint, else the agent's regional endpoint."""
        if self.cx_endpoint:
            return self.cx_endpoint
        match = CX_AGENT.fullmatch(self.cx_agent or "")
        location = match.group("location") if match else "global"
        return "dialogflow.googleapis.com" if location == "global" else f"{location}-dialogflow.googleapis.com"

    def problems(self, strategy: str) -> list[str]:
        """Why this run cannot use the remote ``strategy``, or nothing."""
        problems = []
        if strategy in ("http", "a2a") and not self.agent_url:
            problems.append(f"--agent-strategy {strategy} needs --agent-url (the agent's base URL)")
        if strategy == "dialogflow-cx":
            if not self.cx_agent:
                problems.append("--agent-strategy dialogflow-cx needs --cx-agent projects/P/locations/L/agents/A")
            elif not CX_AGENT.fullmatch(self.cx_agent):
                problems.append(f"--cx-agent must look like projects/P/locations/L/agents/A, not {self.cx_agent!r}")
        if self.timeout <= 0:
            problems.append("--remote-timeout must be positive")
        if self.retries < 0 or self.backoff < 0:
            problems.append("--remote-retries and --remote-backoff must not be negative")
        return problems
