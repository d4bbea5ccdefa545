"""Every domain passes the machine checks of DOMAINS.md, and its generator reproduces its DB."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pytest_tau import discover_domains, fingerprint
from pytest_tau._validity import CHECKS

ROOT = Path(__file__).parents[1]
DOMAINS = discover_domains(ROOT)


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_domain_check(name: str, check: str) -> None:
    problems = CHECKS[check](DOMAINS[name])
    assert not problems, f"{name}: {check}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_generator_reproduces_the_db(name: str) -> None:
    """Compared through the DB schema, so how a generator spells absent fields does not matter."""
    domain = DOMAINS[name]
    generated = domain.db_model.model_validate(importlib.import_module(f"tests_domains.{name}.generate").generate())
    dump = lambda db: {"db": db.model_dump(mode="json")}  # noqa: E731
    assert fingerprint(dump(generated)) == fingerprint(dump(domain.initial_db))


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_tool_schemas(name: str, snapshot) -> None:
    assert DOMAINS[name].tool_schemas() == snapshot


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_gold_fingerprints(name: str, snapshot) -> None:
    """A change to a domain's behaviour shows up as a reviewed diff of these fingerprints."""
    domain = DOMAINS[name]
    assert {task.id: fingerprint(domain.gold(task.id).diff) for task in domain.tasks} == snapshot
