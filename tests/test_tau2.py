"""τ²-bench's airline and retail tasks (the `tau2` extra) through pytest-tau.

- Gold replay under our runner reaches, on every task, the DB that τ²'s own environment code
  reaches (its `get_environment`, `make_tool_call`, `get_db_hash`): the same hash.
- The oracle scores 1 on every task; the do-nothing agent scores what τ²'s rules give it (0, except
  the tasks whose gold leaves the DB as it is and that ask nothing to be said: τ² passes those).
- Through the plugin: `-m tau2_airline` / `--domains` select them, with and without xdist, and a
  run of our own domains never imports τ².
"""

from __future__ import annotations

import contextlib
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed")

from pytest_tau import Environment, OracleAgent, ScriptedUser
from pytest_tau._agents import DoNothingAgent
from pytest_tau._conversation import run_conversation
from pytest_tau._scoring import judge
from pytest_tau.tau2 import LazyTau2Domain
from pytest_tau.tau2._adapter import Tau2Domain
from pytest_tau.tau2._build import build_domain

ROOT = Path(__file__).parents[1]
COUNTS = {"airline": 50, "retail": 114}
CHUNK = 25  # tasks per test item, so that -n 2 shares the work


@pytest.fixture(scope="module")
def domains() -> dict[str, Tau2Domain]:
    return {name: build_domain(name) for name in COUNTS}


def _tau2_gold_hash(name: str, raw_db: dict[str, Any], tau2_task: Any) -> str:
    """τ²'s gold DB, computed as τ²'s evaluator does: a fresh environment, the gold actions, its hash."""
    module = importlib.import_module(f"tau2.domains.{name}.environment")
    db_class = importlib.import_module(f"tau2.domains.{name}.data_model")
    db = getattr(db_class, "FlightDB" if name == "airline" else "RetailDB").model_validate(raw_db)
    env = module.get_environment(db=db)
    for action in tau2_task.evaluation_criteria.actions or []:
        with contextlib.suppress(Exception):  # τ²'s evaluator logs a failing gold action and goes on
            env.make_tool_call(tool_name=action.name, requestor=action.requestor, **action.arguments)
    hash_: str = env.get_db_hash()
    return hash_


def _our_hash(domain: Tau2Domain, env: Environment) -> str:
    """The hash τ² would compute of our environment's final DB (its tables materialized)."""
    from tau2.utils import get_dict_hash

    db = type(domain.initial_db).model_construct(None, **{name: dict(table.items()) for name, table in env.state.tables.items()})
    hash_: str = get_dict_hash(db.model_dump())
    return hash_


def _chunks() -> list[tuple[str, int]]:
    return [(name, start) for name, count in COUNTS.items() for start in range(0, count, CHUNK)]


def test_task_counts(domains: dict[str, Tau2Domain]) -> None:
    """τ²'s base task sets, whole: 50 airline, 114 retail."""
    assert {name: len(domain.tasks) for name, domain in domains.items()} == COUNTS
    assert all(domain.name == f"tau2_{name}" for name, domain in domains.items())


@pytest.mark.parametrize(("name", "start"), _chunks(), ids=[f"{n}-{s}" for n, s in _chunks()])
def test_gold_oracle_and_do_nothing_agree_with_tau2(domains: dict[str, Tau2Domain], name: str, start: int) -> None:
    domain = domains[name]
    raw_db = domain.initial_db.model_dump()
    from tau2.utils import get_dict_hash

    initial_hash = get_dict_hash(raw_db)
    disagreements = []
    for task in domain.tasks[start : start + CHUNK]:
        tau2_task = domain.tau2_task(task.id)
        gold_hash = _tau2_gold_hash(name, raw_db, tau2_task)
        env = Environment(domain)
        trajectory = run_conversation(env, OracleAgent(task), ScriptedUser(task), max_steps=30)
        oracle = judge(domain, task, env, trajectory)
        if _our_hash(domain, env) != gold_hash:
            disagreements.append(f"{task.id}: gold replay under our runner does not reach τ²'s gold DB")
        if oracle.reward != 1.0:
            disagreements.append(f"{task.id}: oracle scored {oracle.reward}: {oracle.explain()}")
        env = Environment(domain)
        trajectory = run_conversation(env, DoNothingAgent(), ScriptedUser(task), max_steps=30)
        nothing = judge(domain, task, env, trajectory)
        # τ²'s rules for an agent that calls nothing and says nothing of use: the DB matches gold
        # only when gold changes nothing, and COMMUNICATE passes only with nothing to communicate.
        expected = float(gold_hash == initial_hash and not tau2_task.evaluation_criteria.communicate_info)
        if nothing.reward != expected:
            disagreements.append(f"{task.id}: do-nothing scored {nothing.reward}, τ² gives {expected}")
    assert not disagreements, "\n".join(disagreements)


def test_do_nothing_passes_only_the_tasks_tau2_passes(domains: dict[str, Tau2Domain]) -> None:
    """Under τ²'s rules (DB and COMMUNICATE) an agent that does nothing passes a task whose gold
    leaves the DB as it is (read-only gold, a refusal, or gold writes that τ²'s own tools reject)
    and that asks nothing to be told: 19 airline and 7 retail tasks of the pinned data. Every
    other task scores 0."""
    passed: dict[str, list[str]] = {}
    for name, domain in domains.items():
        passed[name] = []
        for task in domain.tasks:
            env = Environment(domain)
            trajectory = run_conversation(env, DoNothingAgent(), ScriptedUser(task), max_steps=30)
            if judge(domain, task, env, trajectory).reward == 1.0:
                passed[name].append(task.id)
            else:
                assert judge(domain, task, env, trajectory).reward == 0.0
    for name, ids in passed.items():
        for task_id in ids:
            assert not domains[name].tau2_task(task_id).evaluation_criteria.communicate_info
            assert domains[name].gold(task_id).diff == {}
    assert {name: len(ids) for name, ids in passed.items()} == {"airline": 19, "retail": 7}


def test_grading_follows_the_reward_basis(domains: dict[str, Tau2Domain]) -> None:
    """COMMUNICATE is τ²'s substring rule (commas dropped, case folded); a premature end scores 0;
    ACTION matches on compare_args; NL_ASSERTION is reported as not scored, never passed."""
    from pytest_tau._conversation import InfraError

    domain = domains["retail"]
    task = next(t for t in domain.tasks if t.required_outputs and t.gold_actions)
    info = task.required_outputs[0].value

    class Saying:
        def __init__(self, text: str) -> None:
            self.inner = OracleAgent(task)
            self.text = text
            self.usage = self.inner.usage

        def step(self, messages: list[dict[str, Any]]) -> Any:
            from pytest_tau._conversation import AgentStep

            step = self.inner.step(messages)
            return AgentStep(content=self.text, tool_calls=step.tool_calls)

    def score(text: str, max_steps: int = 30, t: Any = task) -> Any:
        env = Environment(domain)
        return judge(domain, t, env, run_conversation(env, Saying(text), ScriptedUser(t), max_steps=max_steps))

    assert score(f"OK: {info.upper()}!").reward == 1.0
    assert score("OK, nothing to report").reward == 0.0
    assert score("OK, nothing to report").missing_outputs == [info]
    if info.replace(".", "").isdigit() and len(info.split(".")[0]) > 3:
        whole = info.split(".")[0]
        assert score(f"{whole[:-3]},{whole[-3:]}{info[len(whole):]}").reward == 1.0  # "1,093.34": commas dropped
    premature = score(f"{info}", max_steps=1)
    assert premature.reward == 0.0 and "premature" in premature.explain()

    tau2_task = domain.tau2_task(task.id)
    with_action = tau2_task.model_copy(deep=True)
    with_action.evaluation_criteria.reward_basis = ["DB", "ACTION"]
    domain.tau2_tasks[tau2_task.id] = with_action
    try:
        assert score(info).reward == 1.0
        action = with_action.evaluation_criteria.actions[0]
        action.arguments = {**action.arguments, **{k: "else" for k in list(action.arguments)[:1]}}
        assert score(info).missing_actions
        with_action.evaluation_criteria.reward_basis = ["DB", "NL_ASSERTION"]
        with pytest.raises(InfraError, match="LLM judge"):
            score(info)
    finally:
        domain.tau2_tasks[tau2_task.id] = tau2_task


def test_tools_are_tau2s_own(domains: dict[str, Tau2Domain]) -> None:
    """The agent sees τ²'s schemas and τ²'s tool messages, errors included."""
    domain = domains["airline"]
    from tau2.domains.airline.environment import get_environment

    theirs = {tool.name: tool.openai_schema for tool in get_environment().get_tools()}
    assert {schema["function"]["name"]: schema for schema in domain.tool_schemas()} == theirs
    env = Environment(domain)
    call = env.call("get_reservation_details", {"reservation_id": "NOPE00"})
    assert call.error and call.result == "Error: Reservation NOPE00 not found"
    user_id = next(iter(domain.initial_db.users))
    call = env.call("get_user_details", json.dumps({"user_id": user_id}))
    assert not call.error and json.loads(call.result)["user_id"] == user_id


# -- through the plugin -------------------------------------------------------------------


@pytest.fixture(params=[[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def project(request: pytest.FixtureRequest, pytester: pytest.Pytester) -> tuple[pytest.Pytester, list[str]]:
    """A project whose one test module exposes the τ² domains, as docs/tau2.md says."""
    (pytester.path / "tests_domains").mkdir()
    (pytester.path / "tests_domains" / "test_tau2.py").write_text("from pytest_tau.tau2 import test_tau2_airline, test_tau2_retail\n")
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return pytester, request.param


def _summary(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((path / "summary.json").read_text())
    return data


def test_marker_selects_a_tau2_domain_oracle_scores_1(project: tuple[pytest.Pytester, list[str]]) -> None:
    pytester, xdist = project
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--run-dir", "run", *xdist, "-m", "tau2_airline", "--agent-strategy", "oracle")
    assert result.ret == 0, result.stdout.str()[-3000:]
    summary = _summary(pytester.path / "run")
    assert list(summary["domains"]) == ["tau2_airline"]
    assert summary["domains"]["tau2_airline"]["tasks"] == 50
    assert summary["pass_hat_k"]["1"] == 1.0


def test_domains_option_do_nothing_scores_0(project: tuple[pytest.Pytester, list[str]]) -> None:
    pytester, xdist = project
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--run-dir", "run", *xdist, "--domains", "tau2_retail", "--agent-strategy", "do-nothing", "--task-ids", "5,6,7"
    )
    assert result.ret == 1, result.stdout.str()[-3000:]
    summary = _summary(pytester.path / "run")
    assert summary["domains"]["tau2_retail"]["tasks"] == 3
    assert summary["pass_hat_k"]["1"] == 0.0


def test_unnamed_tau2_domains_are_not_collected_nor_imported(pytester: pytest.Pytester) -> None:
    """A run of the project's own domains never imports τ² (nor builds its domains)."""
    (pytester.path / "tests_domains").mkdir()
    (pytester.path / "tests_domains" / "test_tau2.py").write_text("from pytest_tau.tau2 import test_tau2_airline, test_tau2_retail\n")
    (pytester.path / "conftest.py").write_text(
        "import sys\n"
        "def pytest_collection_finish(session):\n"
        "    print('TAU2 IMPORTED' if 'tau2' in sys.modules else 'TAU2 NOT IMPORTED')\n"
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "-s", "tests_domains")
    result.stdout.fnmatch_lines(["TAU2 NOT IMPORTED"])
    assert "tau2_airline" not in result.stdout.str()


def test_lazy_domain_names() -> None:
    assert LazyTau2Domain("tau2_retail").name == "tau2_retail"
    assert (ROOT / "tests_domains" / "tau2" / "test_tau2.py").is_file()
