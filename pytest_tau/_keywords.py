"""`-k` on benchmark items: domain names and trials match exactly.

pytest matches each `-k` word as a substring of an item's names, so `-k insurance` would
also pick another domain's task whose id contains "insurance", and `-k "retail and t1"`
would pick trials t10-t19. For benchmark items this plugin evaluates `-k` itself, with two
exact rules on top of pytest's:

- a word that is a domain name matches that domain's items only;
- a word `t<N>` matches trial N only.

Every other word matches as pytest's does (a substring of the item's names: task ids,
the test module, markers). Items that are not benchmark items are matched by pytest's own
rules, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

__all__ = ["select_by_keyword"]

_TRIAL = re.compile(r"t\d+")


def select_by_keyword(config: pytest.Config, items: list[pytest.Item], case_of: Callable[[pytest.Item], Any]) -> None:
    expression = (config.option.keyword or "").strip()
    cases = {item: case_of(item) for item in items}
    if not expression or not any(case is not None for case in cases.values()):
        return
    try:
        from _pytest.mark import KeywordMatcher
        from _pytest.mark.expression import Expression
    except ImportError:  # pytest moved them: its own -k applies
        return
    try:
        compiled = Expression.compile(expression)
    except Exception:
        return  # pytest reports the malformed expression itself
    domains = {case.domain.name.lower() for case in cases.values() if case is not None}
    remaining: list[pytest.Item] = []
    deselected: list[pytest.Item] = []
    for item in items:
        matcher = _matcher(KeywordMatcher.from_item(item), cases[item], domains)
        (remaining if compiled.evaluate(matcher) else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = remaining
    config.option.keyword = ""  # done: pytest's substring pass would undo the exact rules


def _matcher(standard: Callable[..., bool], case: Any, domains: set[str]) -> Callable[..., bool]:
    def matcher(word: str, /, **kwargs: Any) -> bool:
        lowered = word.lower()
        if case is not None and not kwargs:
            if lowered in domains:
                return bool(lowered == case.domain.name.lower())
            if _TRIAL.fullmatch(lowered):
                return bool(lowered == f"t{case.trial}")
        return bool(standard(word, **kwargs))

    return matcher
