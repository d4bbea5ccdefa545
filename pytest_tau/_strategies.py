"""Strategies as plugins: what a strategy declares, what it is given, and the catalog.

An agent or user strategy is a name that some plugin declares through the
``pytest_tau_declare_strategies`` hook and builds through ``pytest_tau_make_agent`` or
``pytest_tau_make_user`` (firstresult hooks; the built-ins answer last). The catalog is
gathered once per process, in ``pytest_configure``, before the options are checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pytest

    from ._domain import Domain
    from ._settings import Settings
    from ._tasks import Task

__all__ = ["Role", "StrategyCatalog", "StrategyContext", "StrategyInfo", "gather_strategies"]

Role = Literal["agent", "user"]


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy a plugin provides, as it is listed and checked.

    ``role`` says which option takes it (``agent``: ``--agent-strategy``, ``user``:
    ``--user-strategy``); ``name`` is the value of that option; ``description`` is one
    line for the listing; ``uses_model`` says that it calls the model of its role
    (``--model`` for agents, ``--user-model`` for users), so the run checks that model
    and its API key at start and a model agent gets a model user by default.
    """

    role: Role
    name: str
    description: str
    uses_model: bool = False
    # An agent that calls no model itself but meets a model customer whenever a model is named
    # (--user-model or --model); without one, the scripted customer.
    wants_model_user: bool = False

    def __post_init__(self) -> None:
        if self.role not in ("agent", "user"):
            raise ValueError(f"strategy {self.name!r}: role must be 'agent' or 'user', not {self.role!r}")
        if not self.name or self.name != self.name.strip() or any(c.isspace() for c in self.name):
            raise ValueError(f"strategy name {self.name!r}: a non-empty word without spaces")


@dataclass(frozen=True)
class StrategyContext:
    """Everything a strategy gets to build the agent or the user of one item.

    Given to ``pytest_tau_make_agent`` and ``pytest_tau_make_user``. Building must not
    call a model: calls belong in ``Agent.step``, ``User.start`` and ``User.respond``.
    """

    #: The run's resolved options (model names, temperature, max steps, ...).
    settings: Settings
    #: The domain of the item: its tools, DB schema, policy and tasks.
    domain: Domain[Any]
    #: The task being played (the user's scenario, the gold actions, the required outputs).
    task: Task
    #: The trial number, from 0 to ``--trials`` - 1.
    trial: int
    #: The item's seed, derived from ``--seed``, domain, task and trial (pass it to a model).
    seed: int

    @property
    def item_id(self) -> str:
        """The item's id, ``<domain>-<task>-t<trial>``, as in ``-k`` and results.jsonl."""
        return f"{self.domain.name}-{self.task.id}-t{self.trial}"

    @property
    def policy(self) -> str:
        """The domain's policy (``policy.md``), for an agent's system prompt."""
        return self.domain.policy

    @property
    def tool_schemas(self) -> list[dict[str, Any]]:
        """The domain's tools as OpenAI function-calling schemas (``{"type": "function", ...}``)."""
        return self.domain.tool_schemas()


class StrategyCatalog:
    """Every declared strategy, by role and name.

    ``infos`` come built-ins first, then each plugin's in turn; a later declaration of
    a name (a plugin replacing a built-in) keeps the name's place and gives its description.
    """

    def __init__(self, infos: Iterable[StrategyInfo]) -> None:
        self._by_role: dict[Role, dict[str, StrategyInfo]] = {"agent": {}, "user": {}}
        for info in infos:
            self._by_role[info.role][info.name] = info

    def names(self, role: Role) -> list[str]:
        return list(self._by_role[role])

    def get(self, role: Role, name: str) -> StrategyInfo | None:
        return self._by_role[role].get(name)

    def model_names(self, role: Role) -> frozenset[str]:
        return frozenset(name for name, info in self._by_role[role].items() if info.uses_model)

    def model_user_agents(self) -> frozenset[str]:
        """Agent strategies that get a model user when a model is named (`StrategyInfo.wants_model_user`)."""
        return frozenset(name for name, info in self._by_role["agent"].items() if info.wants_model_user)

    def unknown(self, role: Role, name: str, source: str) -> str | None:
        """Why ``name`` is not a usable ``role`` strategy, or None."""
        if name in self._by_role[role]:
            return None
        known = ", ".join(self.names(role)) or "none"
        return (
            f"{source}: unknown {role} strategy {name!r}; known: {known} "
            "(plugins and conftest.py files add more: see pytest --tau-strategies)"
        )

    def describe(self) -> list[str]:
        """The listing of `pytest --tau-strategies` and `pytest -h`."""
        lines = []
        roles: tuple[tuple[Role, str], ...] = (("agent", "--agent-strategy"), ("user", "--user-strategy"))
        for role, option in roles:
            lines.append(f"{option}:")
            infos = list(self._by_role[role].values())
            width = max((len(info.name) for info in infos), default=0)
            for info in infos:
                model = " [model]" if info.uses_model else ""
                lines.append(f"  {info.name:<{width}}  {info.description}{model}")
        return lines


def gather_strategies(config: pytest.Config) -> StrategyCatalog:
    """Ask every registered plugin which strategies it provides."""
    answers: list[Iterable[StrategyInfo]] = config.hook.pytest_tau_declare_strategies(config=config)
    declared: list[StrategyInfo] = []
    # pluggy answers the last registered plugin first and the built-ins (trylast) last:
    # reversed, the built-ins come first and a plugin's declaration wins over theirs.
    for answer in reversed(answers):
        for info in answer or ():
            if not isinstance(info, StrategyInfo):
                raise TypeError(f"pytest_tau_declare_strategies must return StrategyInfo objects, got {info!r}")
            declared.append(info)
    return StrategyCatalog(declared)
