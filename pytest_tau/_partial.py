"""Partial runs: a selection that leaves out items of the domains it runs.

`-k`, `--deselect`, `--lf` and `--sw` (and `-m` with a marker that is not a domain) can run
part of a domain: pass^k over those items is not the domain's pass^k, and a gate that
judged it would pass a model on the tasks it happened to get right last time. Selecting
whole domains (`--domains`, `-m retail`, `-k retail`) is not partial; neither are the
items pytest-tau leaves out itself (`--resume` skips finished items, `--shard` runs a
slice that `merge` puts back together).

Every process that collects records what was deselected; under xdist the workers collect
and send their finding to the controller in `workeroutput`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

__all__ = ["PLUGIN_NAME", "PartialRun", "deselected_by_tau"]

PLUGIN_NAME = "tau-partial"
WORKER_OUTPUT = "tau_partial"
_OWN_KEY = pytest.StashKey[set[str]]()


def deselected_by_tau(config: pytest.Config, items: Iterable[pytest.Item]) -> None:
    """Mark items pytest-tau itself leaves out (before calling `pytest_deselected`): not partial."""
    config.stash.setdefault(_OWN_KEY, set()).update(item.nodeid for item in items)


def _selection_options(config: pytest.Config) -> str:
    option = config.option
    used = []
    for flag, value in (
        # pytest-tau's own -k pass empties option.keyword once it has selected: look at the arguments too.
        ("-k", getattr(option, "keyword", "") or any(a.startswith("-k") for a in config.invocation_params.args)),
        ("-m", getattr(option, "markexpr", "")),
        ("--deselect", getattr(option, "deselect", None)),
        ("--lf", getattr(option, "lf", False)),
        ("--sw", getattr(option, "stepwise", False) or getattr(option, "stepwise_skip", False)),
    ):
        if value:
            used.append(flag)
    return ", ".join(used) or "a plugin's selection"


def _last_failed_only(config: pytest.Config, items: list[pytest.Item]) -> str | None:
    """`--lf` keeps the failures while it collects each file (no deselection to see): with
    failures on record, a run with --lf is the last failures, not the benchmark."""
    if not config.getoption("lf", False):
        return None
    plugin = config.pluginmanager.get_plugin("lfplugin")
    failed = getattr(plugin, "lastfailed", None) or {}
    rerun = [item for item in items if item.nodeid in failed]
    if not rerun:
        return None
    return f"--lf ran only the {len(rerun)} item(s) that failed last time"


class PartialRun:
    """Finds whether the run leaves out items of domains it runs, and says which selection did."""

    def __init__(self, config: pytest.Config, domain_and_item: Callable[[pytest.Item], tuple[str, str] | None]) -> None:
        self.config = config
        self.domain_and_item = domain_and_item
        self.deselected: list[tuple[str, str]] = []
        self.local: str | None = None
        self.remote: str | None = None

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        own = self.config.stash.get(_OWN_KEY, set())
        for item in items:
            found = self.domain_and_item(item)
            if found is not None and item.nodeid not in own:
                self.deselected.append(found)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        ran = {found[0] for item in session.items if (found := self.domain_and_item(item)) is not None}
        left_out = sorted({item for domain, item in self.deselected if domain in ran})
        if left_out:
            domains = sorted({domain for domain, _ in self.deselected if domain in ran})
            self.local = (
                f"{_selection_options(self.config)} left out {len(left_out)} item(s) of the domain(s) it ran "
                f"({', '.join(domains)}), e.g. {left_out[0]}"
            )
        if self.local is None and ran:
            self.local = _last_failed_only(self.config, session.items)
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None and self.local:
            workeroutput[WORKER_OUTPUT] = self.local

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        reason = (getattr(node, "workeroutput", None) or {}).get(WORKER_OUTPUT)
        if reason and self.remote is None:
            self.remote = str(reason)

    def reason(self) -> str | None:
        return self.local or self.remote
