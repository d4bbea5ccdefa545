"""Extension points of pytest-tau (registered with `pluginmanager.add_hookspecs`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary

hookspec = pytest.hookspec


@hookspec
def pytest_tau_item_result(config: pytest.Config, result: ItemResult) -> None:
    """Called on the controller as each item's result arrives (also under xdist)."""


@hookspec
def pytest_tau_run_summary(config: pytest.Config, summary: RunSummary) -> None:
    """Called on the controller once the run's summary (pass^k, cost) is known."""
