"""The ``tau_remote`` pytest plugin: remote agents as agent strategies.

Declares ``http``, ``a2a`` and ``dialogflow-cx`` through ``pytest_tau_declare_strategies``
and builds them through ``pytest_tau_make_agent``; adds their options; checks them at
start; ends each item's remote session at its teardown and the MCP tool server at the
end of the process. Inert unless one of its strategies is chosen.
"""

from __future__ import annotations

import importlib.util
import threading
from typing import TYPE_CHECKING, Any, Protocol

import pytest

from .._strategies import StrategyInfo
from ._options import OPTIONS, RemoteOptions, dest

if TYPE_CHECKING:
    from .._conversation import Agent
    from .._strategies import StrategyContext
    from ._cx import DialogflowCXAgent

__all__ = ["STRATEGIES", "RemoteStrategies"]

STRATEGIES: tuple[StrategyInfo, ...] = (
    StrategyInfo("agent", "http", "a remote agent speaking pytest-tau's JSON protocol at --agent-url", wants_model_user=True),
    StrategyInfo("agent", "a2a", "a remote A2A agent at --agent-url; the harness serves the tools over MCP", wants_model_user=True),
    StrategyInfo("agent", "dialogflow-cx", "a Dialogflow CX agent (--cx-agent) with client-side function tools; needs the cx extra", wants_model_user=True),
)
NAMES = frozenset(info.name for info in STRATEGIES)
STATE_KEY = pytest.StashKey["RemoteStrategies"]()


class Closable(Protocol):
    def close(self) -> None: ...


class RemoteStrategies:
    """Builds the remote agents and ends their sessions; one per process."""

    def __init__(self, options: RemoteOptions) -> None:
        self.options = options
        self._open: dict[str, list[Closable]] = {}
        self._lock = threading.Lock()
        self._tool_server: Any = None

    def make_agent(self, name: str, context: StrategyContext) -> Agent:
        from ._a2a import A2AAgent
        from ._http import HttpAgent

        agent: HttpAgent | A2AAgent | DialogflowCXAgent
        if name == "http":
            agent = HttpAgent(context, self.options)
        elif name == "dialogflow-cx":
            from ._cx import DialogflowCXAgent

            agent = DialogflowCXAgent(context, self.options)
        else:
            agent = A2AAgent(context, self.options, self.tool_server())
        with self._lock:
            self._open.setdefault(context.item_id, []).append(agent)
        return agent

    def tool_server(self) -> Any:
        """The process's MCP tool server, started on first use."""
        with self._lock:
            if self._tool_server is None:
                from ._mcp import ToolServer

                self._tool_server = ToolServer(host=self.options.mcp_host, public_url=self.options.mcp_public_url).start()
            return self._tool_server

    def end_item(self, item_id: str) -> None:
        with self._lock:
            agents = self._open.pop(item_id, [])
        for agent in agents:
            agent.close()

    def close(self) -> None:
        with self._lock:
            agents = [agent for group in self._open.values() for agent in group]
            self._open.clear()
            server, self._tool_server = self._tool_server, None
        for agent in agents:
            agent.close()
        if server is not None:
            server.stop()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tau", "pytest-tau benchmark")
    for name, help_text, kind in OPTIONS:
        ini = name.replace("-", "_")
        group.addoption(f"--{name}", dest=dest(name), default=None, type=kind, help=f"{help_text} [ini: {ini}]")
        parser.addini(ini, help=help_text, type="string", default=None)


@pytest.hookimpl(optionalhook=True)  # the hook is declared by the tau plugin, which `-p no:tau` leaves out
def pytest_tau_declare_strategies(config: pytest.Config) -> list[StrategyInfo]:
    return list(STRATEGIES)


@pytest.hookimpl(optionalhook=True)
def pytest_tau_make_agent(config: pytest.Config, name: str, context: StrategyContext) -> Agent | None:
    if name not in NAMES:
        return None
    return config.stash[STATE_KEY].make_agent(name, context)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """After the `tau` plugin resolved the settings: a remote strategy without its options stops the run."""
    from ..plugin import SETTINGS_KEY

    options = RemoteOptions.from_config(config)
    config.stash[STATE_KEY] = RemoteStrategies(options)
    settings = config.stash.get(SETTINGS_KEY, None)
    if settings is None or settings.agent_strategy not in NAMES or config.option.help or config.option.collectonly:
        return
    problems = options.problems(settings.agent_strategy)
    if settings.agent_strategy == "dialogflow-cx" and not _installed("google.cloud.dialogflowcx_v3"):
        problems.append("--agent-strategy dialogflow-cx needs google-cloud-dialogflow-cx: pip install 'pytest-tau[cx]'")
    if problems:
        raise pytest.UsageError("pytest-tau: " + "; ".join(problems))


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a missing parent package
        return False


def pytest_runtest_teardown(item: pytest.Item) -> None:
    state = item.config.stash.get(STATE_KEY, None)
    callspec = getattr(item, "callspec", None)
    case = callspec.params.get("tau_case") if callspec is not None else None
    item_id = getattr(case, "item_id", None)
    if state is not None and isinstance(item_id, str):
        state.end_item(item_id)


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE_KEY, None)
    if state is not None:
        state.close()
