"""An item's case (domain, task, trial, seed) and what every process builds for it: the
domain's loaded DBs, the agent and the user from the strategy plugins.

Apart from the plugin so that the modules the plugin uses (prefetching, reports) reach
these without importing it.
"""

from __future__ import annotations

import gc
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ._strategies import StrategyContext

if TYPE_CHECKING:
    from ._conversation import Agent, User
    from ._domain import Domain
    from ._settings import Settings
    from ._tasks import Task

__all__ = ["Case", "case_of", "load_domain", "loaded", "make_agent", "make_user"]


@dataclass(frozen=True)
class Case:
    """One (domain, task, trial)."""

    domain: Domain[Any]
    task: Task
    trial: int
    seed: int

    @property
    def item_id(self) -> str:
        return f"{self.domain.name}-{self.task.id}-t{self.trial}"


def case_of(item: pytest.Item) -> Case | None:
    """The item's case; None for an item that is not a domain test's."""
    callspec = getattr(item, "callspec", None)
    case = callspec.params.get("tau_case") if callspec is not None else None
    return case if isinstance(case, Case) else None


_LOAD_LOCK = threading.Lock()
_BROKEN: weakref.WeakKeyDictionary[Domain[Any], str] = weakref.WeakKeyDictionary()  # why a DB cannot be loaded


def loaded(domain: Domain[Any]) -> bool:
    return "initial_db" in domain.__dict__ and "initial_user_db" in domain.__dict__


def load_domain(domain: Domain[Any]) -> None:
    """Load and validate a domain's DBs once per process (from any thread), then keep them
    out of every later GC pass: they live as long as the process. Raises DomainError."""
    if loaded(domain):
        return
    from ._domain import DomainError

    with _LOAD_LOCK:  # cached_property has no lock from Python 3.12: load once, not once per thread
        if domain in _BROKEN:
            raise DomainError(_BROKEN[domain])  # read and validated once, not once per item
        try:
            domain.initial_db  # noqa: B018
            domain.initial_user_db  # noqa: B018
        except DomainError as exc:
            _BROKEN[domain] = str(exc)
            raise
        gc.freeze()


def _strategy_context(case: Case, settings: Settings) -> StrategyContext:
    return StrategyContext(settings=settings, domain=case.domain, task=case.task, trial=case.trial, seed=case.seed)


def make_user(config: pytest.Config, case: Case, settings: Settings) -> User | None:
    """The item's simulated user from the plugin that provides --user-strategy (None: no plugin built it)."""
    user: User | None = config.hook.pytest_tau_make_user(
        config=config, name=settings.user_strategy, context=_strategy_context(case, settings)
    )
    return user


def make_agent(config: pytest.Config, case: Case, settings: Settings) -> Agent | None:
    """The item's agent from the plugin that provides --agent-strategy (None: no plugin built it)."""
    agent: Agent | None = config.hook.pytest_tau_make_agent(
        config=config, name=settings.agent_strategy, context=_strategy_context(case, settings)
    )
    return agent
