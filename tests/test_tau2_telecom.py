"""τ²-bench's telecom domain (the `tau2` extra) through pytest-tau: dual control over τ²'s two DBs.

- Gold replay under our runner (each task from its own initial_state, τ²'s sync after every
  call) reaches, on all 114 base tasks, the agent DB and phone DB that τ²'s own environment
  reaches replaying the same gold calls as it replays a conversation (same hashes).
- Our verdict equals τ²'s own evaluator's reward (its EnvironmentEvaluator and ActionEvaluator,
  over our conversation turned into τ²'s messages) for the oracle (1 on all 114) and the
  do-nothing agent (0 on all 114).
- Through the plugin, with and without xdist: `-m tau2_telecom` with the oracle passes every
  task; a failure names τ²'s own task id.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed")

from pytest_tau import Environment, OracleAgent, ScriptedUser
from pytest_tau._agents import DoNothingAgent
from pytest_tau._conversation import Trajectory, run_conversation
from pytest_tau._scoring import judge
from pytest_tau.tau2._adapter import _task_id
from pytest_tau.tau2._build import build_domain
from pytest_tau.tau2._telecom import TelecomDomain, _agent_db, _user_db

EXAMPLE = "[mobile_data_issue]airplane_mode_on|user_abroad_roaming_enabled_off[PERSONA:None]"


@pytest.fixture(scope="module")
def domain() -> TelecomDomain:
    built = build_domain("telecom")
    assert isinstance(built, TelecomDomain)
    return built


def _tau2_env(tau2_task: Any) -> Any:
    """τ²'s own environment at the task's start (its `set_state`)."""
    from tau2.domains.telecom.environment import get_environment

    env = get_environment()
    initial = tau2_task.initial_state
    env.set_state(initial.initialization_data, initial.initialization_actions, [])
    return env


def _hashes(env: Environment) -> tuple[str, str]:
    from tau2.utils import get_dict_hash

    return get_dict_hash(_agent_db(env.state.db).model_dump()), get_dict_hash(_user_db(env.state.user_db).model_dump())


def test_base_set_ids_and_tools(domain: TelecomDomain) -> None:
    """114 tasks; ids are valid, unique and stable, and lead back to τ²'s; both sides' tools are τ²'s."""
    from tau2.domains.telecom.environment import get_environment, get_tasks

    ids = [task.id for task in domain.tasks]
    assert len(ids) == len(set(ids)) == 114
    assert all(re.fullmatch(r"[a-z0-9_]{1,64}", task_id) for task_id in ids)
    assert sorted(domain.id_map.values()) == sorted(task.id for task in get_tasks("base"))
    assert _task_id(EXAMPLE) == "mobile_data_issue_airplane_mode_on_user_abroad_roaming_25e67b46"
    assert domain.tau2_task(_task_id(EXAMPLE)).id == EXAMPLE
    assert _task_id("17") == "17"  # airline and retail ids stay as they are
    tau2_env = get_environment()
    assert {s["function"]["name"]: s for s in domain.tool_schemas()} == {t.name: t.openai_schema for t in tau2_env.get_tools()}
    assert {s["function"]["name"]: s for s in domain.user_tool_schemas()} == {t.name: t.openai_schema for t in tau2_env.get_user_tools()}
    env = Environment(domain, task=domain.task(_task_id(EXAMPLE)))
    assert env.call("toggle_airplane_mode", {}).error  # a phone tool is not the agent's
    assert not env.call("check_status_bar", {}, actor="user").error


def test_gold_replay_reaches_tau2s_end_state(domain: TelecomDomain) -> None:
    """Both DB hashes equal τ²'s on every task, replayed as τ² replays a conversation (each call,
    then its sync). τ²'s EnvironmentEvaluator builds its gold environment without syncing after
    the gold calls; telecom grades by env assertions, not DB, so that gold only bounds ours: its
    phone DB lags on the derived flags (line active, roaming allowed, data exceeded) on 71 tasks,
    and on the 6 overdue-bill tasks its `resume_line` fails (the phone's payment has not reached
    the bill), so its line stays suspended where ours, as in a real conversation, is resumed."""
    from tau2.data_model.message import ToolCall

    replay_matches, evaluator_synced, evaluator_user = 0, [], 0
    for task in domain.tasks:
        tau2_task = domain.tau2_task(task.id)
        env = Environment(domain, task=task)
        for action in task.gold_actions:
            env.call(action.name, dict(action.arguments), actor=action.actor)
        assert domain.gold(task.id).diff == env.state.diff()
        ours = _hashes(env)
        replayed = _tau2_env(tau2_task)
        for index, action in enumerate(tau2_task.evaluation_criteria.actions or []):
            replayed.get_response(ToolCall(id=str(index), name=action.name, arguments=action.arguments, requestor=action.requestor))
        replayed.sync_tools()
        replay_matches += ours == (replayed.get_db_hash(), replayed.get_user_db_hash())
        gold = _tau2_env(tau2_task)
        for action in tau2_task.evaluation_criteria.actions or []:
            with contextlib.suppress(Exception):  # τ²'s evaluator logs a failing gold call and goes on
                gold.make_tool_call(tool_name=action.name, requestor=action.requestor, **action.arguments)
        evaluator_user += ours[1] == gold.get_user_db_hash()
        gold.sync_tools()
        if ours != (gold.get_db_hash(), gold.get_user_db_hash()):
            evaluator_synced.append(task)
    assert replay_matches == 114
    assert evaluator_user == 43
    assert len(evaluator_synced) == 6
    for task in evaluator_synced:
        names = [a.name for a in task.gold_actions]
        assert "make_payment" in names and "resume_line" in names[names.index("make_payment") :]


def _tau2_messages(trajectory: Trajectory) -> list[Any]:
    """Our conversation's tool calls as τ²'s messages (what its evaluators read)."""
    from tau2.data_model.message import AssistantMessage, ToolCall, ToolMessage, UserMessage

    messages: list[Any] = []
    for index, call in enumerate(trajectory.calls):
        requestor = "user" if call.actor == "user" else "assistant"
        tool_call = ToolCall(id=str(index), name=call.name, arguments=call.arguments, requestor=requestor)
        message_class = UserMessage if requestor == "user" else AssistantMessage
        messages.append(message_class(role=requestor, tool_calls=[tool_call]))
        messages.append(ToolMessage(id=str(index), role="tool", content=call.result, requestor=requestor, error=call.error))
    return messages


def _tau2_reward(tau2_task: Any, trajectory: Trajectory) -> float:
    """τ²'s reward for our conversation, by its EnvironmentEvaluator's and ActionEvaluator's rules
    on τ²'s own pieces (their module imports pandas, which CI does not install): its environment
    re-plays our calls (`set_state` checks each tool message is what its tools answer), then its
    `run_env_assertion`s; ACTION, each gold action matched by `compare_with_tool_call`."""
    from tau2.domains.telecom.environment import get_environment

    criteria = tau2_task.evaluation_criteria
    initial = tau2_task.initial_state
    messages = _tau2_messages(trajectory)
    predicted = get_environment()
    predicted.set_state(initial.initialization_data, initial.initialization_actions, messages)
    reward = float(all(predicted.run_env_assertion(a, raise_assertion_error=False) for a in criteria.env_assertions or []))
    if "ACTION" in {getattr(b, "value", b) for b in criteria.reward_basis}:
        calls = [call for message in messages if getattr(message, "tool_calls", None) for call in message.tool_calls]
        reward *= float(all(any(action.compare_with_tool_call(call) for call in calls) for action in criteria.actions or []))
    return reward


def test_oracle_scores_1_and_do_nothing_0_as_tau2_grades_them(domain: TelecomDomain) -> None:
    disagreements = []
    scores: dict[str, list[float]] = {"oracle": [], "do-nothing": []}
    for task in domain.tasks:
        tau2_task = domain.tau2_task(task.id)
        for label, agent in (("oracle", OracleAgent(task)), ("do-nothing", DoNothingAgent())):
            env = Environment(domain, task=task)
            trajectory = run_conversation(env, agent, ScriptedUser(task), max_steps=60)
            ours = judge(domain, task, env, trajectory).reward
            scores[label].append(ours)
            theirs = _tau2_reward(tau2_task, trajectory)
            if ours != theirs:
                disagreements.append(f"{task.id} {label}: ours {ours}, τ²'s {theirs}")
    assert not disagreements, "\n".join(disagreements)
    assert sum(scores["oracle"]) == 114 and sum(scores["do-nothing"]) == 0


def test_sync_and_env_assertions(domain: TelecomDomain) -> None:
    """An agent-side write reaches the phone at once (τ²'s sync); an unmet env assertion fails the
    task with the assertion and τ²'s task id in the failure text."""
    task = next(t for t in domain.tasks if any(a.name == "refuel_data" for a in t.gold_actions))
    env = Environment(domain, task=task)
    assert _user_db(env.state.user_db).surroundings.mobile_data_usage_exceeded
    refuel = next(a for a in task.gold_actions if a.name == "refuel_data")
    assert not env.call(refuel.name, dict(refuel.arguments)).error
    assert not _user_db(env.state.user_db).surroundings.mobile_data_usage_exceeded

    trajectory = run_conversation(env, DoNothingAgent(), ScriptedUser(task), max_steps=60)
    verdict = judge(domain, task, env, trajectory)
    assert verdict.reward == 0.0 and verdict.failed_assertions  # type: ignore[attr-defined]
    text = verdict.explain()
    assert "τ² env assertions not met" in text and f"τ² task: {domain.tau2_task(task.id).id}" in text


# -- through the plugin -------------------------------------------------------------------


@pytest.fixture(params=[[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def project(request: pytest.FixtureRequest, pytester: pytest.Pytester) -> tuple[pytest.Pytester, list[str]]:
    (pytester.path / "tests_domains").mkdir()
    (pytester.path / "tests_domains" / "test_tau2.py").write_text("from pytest_tau.tau2 import test_tau2_telecom\n")
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return pytester, request.param


def test_marker_selects_telecom_oracle_scores_1(project: tuple[pytest.Pytester, list[str]]) -> None:
    pytester, xdist = project
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--run-dir", "run", *xdist, "-m", "tau2_telecom", "--agent-strategy", "oracle")
    assert result.ret == 0, result.stdout.str()[-3000:]
    summary: dict[str, Any] = json.loads((pytester.path / "run" / "summary.json").read_text())
    assert summary["domains"]["tau2_telecom"]["tasks"] == 114
    assert summary["pass_hat_k"]["1"] == 1.0


def test_domains_option_do_nothing_fails_naming_the_tau2_task(project: tuple[pytest.Pytester, list[str]]) -> None:
    pytester, xdist = project
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--run-dir", "run", *xdist, "--domains", "tau2_telecom", "--agent-strategy", "do-nothing", "--task-ids", _task_id(EXAMPLE)
    )
    assert result.ret == 1, result.stdout.str()[-3000:]
    assert f"τ² task: {EXAMPLE}" in result.stdout.str()
    summary: dict[str, Any] = json.loads((pytester.path / "run" / "summary.json").read_text())
    assert summary["domains"]["tau2_telecom"]["tasks"] == 1 and summary["pass_hat_k"]["1"] == 0.0


def test_the_project_module_exposes_telecom() -> None:
    text = (Path(__file__).parents[1] / "tests_domains" / "tau2" / "test_tau2.py").read_text()
    assert "test_tau2_telecom" in text
