"""Every domain passes the machine checks of DOMAINS.md, and its generator reproduces its DB."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pytest_tau import discover_domains, dump_db, fingerprint
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
    """`generate()` gives db.json byte for byte (written with `dump_db`)."""
    domain = DOMAINS[name]
    generated = importlib.import_module(f"tests_domains.{name}.generate").generate()
    assert dump_db(generated) == domain.db_path.read_bytes()


def _has_user_generator(name: str) -> bool:
    generator = ROOT / "tests_domains" / name / "generate.py"
    return generator.is_file() and "def generate_user(" in generator.read_text()


@pytest.mark.parametrize("name", sorted(filter(_has_user_generator, DOMAINS)))
def test_generator_reproduces_the_user_db(name: str) -> None:
    """A dual-control domain's user DB (the customer's side) comes from the same seeded generator."""
    domain = DOMAINS[name]
    generated = importlib.import_module(f"tests_domains.{name}.generate").generate_user()
    assert dump_db(generated) == (domain.fixtures / "user_db.json").read_bytes()


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_task_builder_reproduces_the_tasks(name: str) -> None:
    """`make_tasks.build()` (a `TaskWriter`) gives tasks.json byte for byte: generators that nothing
    runs break silently, and every figure in a task comes from replaying its gold actions."""
    domain = DOMAINS[name]
    writer = importlib.import_module(f"tests_domains.{name}.make_tasks").build()
    assert writer.render() == (domain.fixtures / "tasks.json").read_bytes()


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_tool_schemas(name: str, snapshot) -> None:
    assert DOMAINS[name].tool_schemas() == snapshot


@pytest.mark.parametrize("name", sorted(name for name, domain in DOMAINS.items() if domain.dual_control))
def test_user_tool_schemas(name: str, snapshot) -> None:
    """Dual control: the customer's tools are pinned like the agent's."""
    assert DOMAINS[name].user_tool_schemas() == snapshot


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_gold_fingerprints(name: str, snapshot) -> None:
    """A change to a domain's behaviour shows up as a reviewed diff of these fingerprints."""
    domain = DOMAINS[name]
    assert {task.id: fingerprint(domain.gold(task.id).compared) for task in domain.tasks} == snapshot
