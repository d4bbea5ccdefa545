"""Binding a domain to pytest: the one test function a domain's test module exposes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._domain import AnyDomain

__all__ = ["DOMAIN_ATTRIBUTE", "domain_test"]

DOMAIN_ATTRIBUTE = "pytest_tau_domain"


def domain_test(domain: AnyDomain) -> Callable[..., None]:
    """The test function for a domain: one item per (task, trial), parametrized by the plugin.

        # tests_domains/retail/test_retail.py
        from pytest_tau import domain_test
        from tests_domains.retail.domain import DOMAIN

        test_retail = domain_test(DOMAIN)

    The test body plays the conversation through the `tau_run` fixture (in the call
    phase, so `--durations` shows it there) and asserts the verdict: a wrong final state,
    a missing output or a forbidden call is a *failure* that says which; a model service
    that fails past its retries makes the item an *error*, not a failure.
    """

    def test(tau_run: Any) -> None:
        tau_run.assert_passed()

    test.__name__ = f"test_{domain.name}"
    test.__qualname__ = test.__name__
    test.__doc__ = f"Every task of the {domain.name} domain, once per trial."
    setattr(test, DOMAIN_ATTRIBUTE, domain)
    return test
