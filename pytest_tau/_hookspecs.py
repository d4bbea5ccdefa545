"""Extension points of pytest-tau (registered with `pluginmanager.add_hookspecs`).

Implement them in an installed plugin (a ``pytest11`` entry point), a module given with
``-p``, or the ``conftest.py`` at the root of the run (strategies are checked in
``pytest_configure``, before conftest files further down are loaded). Every payload type
is exported by `pytest_tau`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ._conversation import Agent, User
    from ._results import ItemResult, RunSummary
    from ._strategies import StrategyContext, StrategyInfo

hookspec = pytest.hookspec


# -- strategies ---------------------------------------------------------------------------


@hookspec
def pytest_tau_declare_strategies(config: pytest.Config) -> Sequence[StrategyInfo]:
    """Declare the agent and user strategies this plugin provides.

    Called once per process (controller and every xdist worker) in ``pytest_configure``.
    Every name a plugin declares is accepted by ``--agent-strategy``/``--user-strategy``
    (and their ini options) and listed by ``pytest --tau-strategies`` and ``pytest -h``;
    any other name is a usage error that lists the known ones. Declaring a built-in's
    name again replaces it (the plugin must then also build it).
    """
    raise NotImplementedError  # a hookspec: never called itself


@hookspec(firstresult=True)
def pytest_tau_make_agent(config: pytest.Config, name: str, context: StrategyContext) -> Agent | None:
    """Build the agent of one item for the ``--agent-strategy`` called ``name``.

    Return None for names this plugin does not provide: the next plugin is asked, the
    built-ins last. Called during the item's setup, in the process that runs it. No model
    call may happen here; see `Agent` for what the harness calls and when.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def pytest_tau_make_user(config: pytest.Config, name: str, context: StrategyContext) -> User | None:
    """Build the simulated user of one item for the ``--user-strategy`` called ``name``.

    Return None for names this plugin does not provide. No model call may happen here;
    see `User`.
    """
    raise NotImplementedError


# -- results ------------------------------------------------------------------------------


@hookspec
def pytest_tau_item_result(config: pytest.Config, result: ItemResult) -> None:
    """Called on the controller as each item's result arrives (also under xdist)."""


@hookspec
def pytest_tau_run_summary(config: pytest.Config, summary: RunSummary) -> None:
    """Called on the controller once the run's summary (pass^k, cost) is known."""
