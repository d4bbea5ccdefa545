"""Lean processes: a model client (the openai SDK, litellm) is imported where model calls are made, and only there."""

from __future__ import annotations

import json

import pytest

from pytest_tau.testing import OpenAIServer, OracleModel

# Every process writes, at session end, whether litellm was imported in it.
RECORDER = '''
import json, sys
from pathlib import Path

LOADED = {}

def _loaded(session):
    from pytest_tau._case import case_of
    return any("initial_db" in c.domain.__dict__ for c in map(case_of, session.items) if c is not None)

def pytest_collection_finish(session):
    LOADED["collected"] = _loaded(session)

def pytest_sessionfinish(session):
    # Not PYTEST_XDIST_WORKER: an outer xdist run (-n 2 over tests/) leaks it into this one.
    name = getattr(session.config, "workerinput", {}).get("workerid", "controller")
    out = Path(session.config.rootpath, "modules")
    out.mkdir(exist_ok=True)
    record = {"litellm": "litellm" in sys.modules, "openai": "pytest_tau._openai_client" in sys.modules, "sdk": "openai" in sys.modules, "at_collection": LOADED.get("collected"), "at_end": _loaded(session)}
    (out / (name + ".json")).write_text(json.dumps(record))
'''


def _records(tau) -> dict[str, dict[str, bool]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted((tau.path / "modules").glob("*.json"))}


def _imported(tau) -> dict[str, bool]:
    return {name: record["litellm"] or record["openai"] for name, record in _records(tau).items()}


def test_controller_of_a_model_run_imports_no_model_client(tau, toy_domain) -> None:
    (tau.path / "conftest.py").write_text(RECORDER)
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, in_subprocess=True)
    result.assert_outcomes(passed=3)
    assert len(server.requests) > 0
    clients = {name: (record["openai"], record["sdk"], record["litellm"]) for name, record in _records(tau).items()}
    # An OpenAI-compatible server: the openai client, never litellm (5 s of CPU to import), and
    # not even the openai SDK (1 s) while every call succeeds: it is imported for its errors.
    if tau.xdist:
        # The controller checked nothing itself and called nothing; the workers did both.
        assert clients == {"controller": (False, False, False), "gw0": (True, False, False), "gw1": (True, False, False)}
    else:
        assert clients == {"controller": (True, False, False)}


def test_worker_loads_a_domain_at_its_first_item(tau) -> None:
    (tau.path / "conftest.py").write_text(RECORDER)
    result = tau.run(in_subprocess=True)
    result.assert_outcomes(passed=3)
    records = _records(tau)
    if tau.xdist:
        workers = [records["gw0"], records["gw1"]]
        assert [w["at_collection"] for w in workers] == [False, False]
        assert any(w["at_end"] for w in workers)  # loaded where the toy items ran
    else:
        # One process runs what it collected: loaded after selection, so a broken DB is a collection error.
        assert records["controller"]["at_collection"] is True


def test_model_problem_found_by_a_worker_fails_once_at_start(tau) -> None:
    (tau.path / "conftest.py").write_text(RECORDER)
    result = tau.run("--model", "no-such-model-xyz", in_subprocess=True)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.str().count("unknown agent and user model 'no-such-model-xyz'") == 1
    assert "passed" not in result.stdout.str()
    if tau.xdist:
        assert not _imported(tau).get("controller", False)


def test_compact_db_is_the_same_db_with_shared_values(toy_domain) -> None:
    from pydantic import BaseModel

    from pytest_tau._compact import compact

    raw = json.loads(toy_domain.db_path.read_text())
    plain = toy_domain.db_model.model_validate(raw)
    held = toy_domain.db_model.model_validate(json.loads(toy_domain.db_path.read_text()))
    compact(held)
    assert held.model_dump(mode="json") == plain.model_dump(mode="json")
    assert held.model_dump(mode="json", exclude_unset=True) == raw  # the fields-sets are still each record's own
    records = [r for name in type(held).model_fields for r in getattr(held, name).base.values()]
    assert all(isinstance(r, BaseModel) for r in records) and len(records) > 1
    by_fields: dict[tuple[type, frozenset[str]], set[int]] = {}
    for record in records:
        by_fields.setdefault((type(record), frozenset(record.model_fields_set)), set()).add(id(record.__pydantic_fields_set__))
    assert all(len(ids) == 1 for ids in by_fields.values())  # one fields-set object per model and set of fields
    assert len(by_fields) < len(records)
    strings: dict[str, list[int]] = {}
    for record in records:
        for value in record.__dict__.values():
            if isinstance(value, str):
                strings.setdefault(value, []).append(id(value))
    assert any(len(ids) > 1 for ids in strings.values())  # some value repeats across records ("M2")...
    assert all(len(set(ids)) == 1 for ids in strings.values())  # ...and every repeated value is one object


def test_changing_an_environment_record_leaves_the_shared_fields_set_alone(toy_domain) -> None:
    from pytest_tau._environment import Environment

    env = Environment(toy_domain)
    table_name = next(iter(type(toy_domain.initial_db).model_fields))
    table = env.state.tables[table_name]
    key = next(iter(table.base))
    base = table.base[key]
    mine = table[key]
    assert mine.__pydantic_fields_set__ is not base.__pydantic_fields_set__
    mine.__pydantic_fields_set__.add("not-a-field")
    assert "not-a-field" not in base.__pydantic_fields_set__
