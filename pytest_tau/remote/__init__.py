"""Remote agents under test: a plain HTTP protocol and A2A; tools served over MCP.

Each remote agent is an agent strategy (``--agent-strategy http|a2a``)
declared and built by the ``tau_remote`` pytest plugin (`pytest_tau.remote.plugin`,
registered through the ``pytest11`` entry point); the engine knows nothing about them.
Nothing heavy is imported here: httpx, mcp, a2a-sdk load when an item builds its agent.
See ``docs/writing-a-strategy.md`` ("Remote agents") for the protocols.
"""

from __future__ import annotations

from ._options import RemoteOptions

__all__ = ["RemoteOptions"]
