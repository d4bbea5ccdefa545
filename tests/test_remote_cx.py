"""``--agent-strategy dialogflow-cx``: the public CX client against a loopback fake of ``detectIntent`` playing the oracle.

End to end through pytest on the toy project (with and without xdist): scores, a remote
error as an item error, a stalled agent timing out, bad tool arguments as a tool error;
then every test task of airline and retail, 16 items at a time (called directly), and the
error classification and tool naming in isolation.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pytest

from pytest_tau import Domain, InfraError, ScriptedUser, Settings, StrategyContext, load_domain
from pytest_tau._scoring import play
from pytest_tau.export_tools import main as export_main
from pytest_tau.remote import RemoteOptions
from pytest_tau.remote._cx import DialogflowCXAgent, _restore_ints, session_id
from pytest_tau.testing.cx_agent import CXOracleServer

if TYPE_CHECKING:
    from tests.conftest import TauRunner


def results(tau: TauRunner) -> dict[str, dict[str, Any]]:
    lines = (tau.run_dir / "results.jsonl").read_text().splitlines()
    return {row["item"]: row for row in map(json.loads, lines)}


@pytest.fixture
def cx(toy_domain: Domain) -> Iterator[CXOracleServer]:
    with CXOracleServer([toy_domain], hang=20) as server:
        yield server


# Each run here is a subprocess: google's CX client registers its protobuf files in the process
# that imports it, and importing it again in this process (pytester drops a run's modules) fails.
def cx_args(server: CXOracleServer, *more: str) -> list[str]:
    return ["--agent-strategy", "dialogflow-cx", "--user-strategy", "scripted", "--cx-agent", server.agent, "--cx-endpoint", server.url, *more]


# -- through pytest, on the toy project --------------------------------------------------


def test_cx_oracle_scores_one(tau: TauRunner, cx: CXOracleServer) -> None:
    result = tau.run(*cx_args(cx, "--cx-language", "en-GB"), in_subprocess=True)
    assert result.ret == 0, result.stdout.str()
    rows = results(tau)
    assert len(rows) == 3 and all(row["reward"] == 1.0 for row in rows.values())
    sessions = {session for session, _, _ in cx.queries}
    assert len(sessions) == 3  # a fresh session per item, named after it
    assert {s.rsplit("-", 1)[0] for s in sessions} == {re.sub(r"[^A-Za-z0-9_-]+", "-", item)[:15] for item in rows}
    assert {language for _, _, language in cx.queries} == {"en-GB"}
    assert {kind for _, kind, _ in cx.queries} == {"text", "toolCallResult"}
    assert cx.tool_results and not any(error for _, error, _ in cx.tool_results)


def test_cx_remote_error_is_an_item_error_not_a_zero(tau: TauRunner, cx: CXOracleServer) -> None:
    cx.inject(*["503"] * 100)
    result = tau.run(*cx_args(cx, "--remote-retries", "1", "--remote-backoff", "0"), in_subprocess=True)
    assert result.ret == 6, result.stdout.str()  # incomplete, not "the agent failed"
    rows = results(tau)
    assert len(rows) == 3 and all(row["status"] == "error" for row in rows.values())
    assert "503 ServiceUnavailable" in result.stdout.str() and "after 2 attempts" in result.stdout.str()


def test_cx_stalled_agent_times_out_cleanly(tau: TauRunner, cx: CXOracleServer) -> None:
    cx.inject("hang")  # the first query of whichever item comes first never gets an answer
    started = time.monotonic()
    result = tau.run(*cx_args(cx, "--remote-timeout", "2"), in_subprocess=True)
    assert time.monotonic() - started < 60
    assert result.ret == 6, result.stdout.str()
    rows = results(tau)
    errors = [row for row in rows.values() if row["status"] == "error"]
    assert len(errors) == 1 and "no answer within 2s (--remote-timeout)" in result.stdout.str()
    assert sum(row["reward"] == 1.0 for row in rows.values()) == 2


def test_cx_bad_tool_arguments_are_a_tool_error_to_the_agent(tau: TauRunner, cx: CXOracleServer) -> None:
    cx.bad_arguments("toy-loan_dune-t0")
    result = tau.run(*cx_args(cx), in_subprocess=True)
    assert result.ret == 0, result.stdout.str()
    assert all(row["reward"] == 1.0 for row in results(tau).values())  # the failed call changed nothing
    errors = [(action, message) for action, error, message in cx.tool_results if error]
    assert len(errors) == 1 and errors[0][1].startswith(f"Error: invalid arguments for {errors[0][0]}")


def test_cx_strategy_needs_its_agent(tau: TauRunner) -> None:
    result = tau.run("--agent-strategy", "dialogflow-cx", "--user-strategy", "scripted", in_subprocess=True)
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--agent-strategy dialogflow-cx needs --cx-agent projects/P/locations/L/agents/A*"])
    bad = tau.run("--agent-strategy", "dialogflow-cx", "--user-strategy", "scripted", "--cx-agent", "agents/A", in_subprocess=True)
    assert bad.ret == 4
    bad.stderr.fnmatch_lines(["*--cx-agent must look like projects/P/locations/L/agents/A*"])
    tau.run("--tau-strategies", in_subprocess=True).stdout.fnmatch_lines(["*dialogflow-cx *client-side function tools*"])


# -- every test task of two real domains, 16 items at a time -------------------------------


def _context(domain: Domain, task: Any) -> StrategyContext:
    settings = Settings(agent_strategy="dialogflow-cx", user_strategy="scripted")
    return StrategyContext(settings=settings, domain=domain, task=task, trial=0, seed=0)


def _play_all(domain: Domain, options: RemoteOptions, tasks: list[Any]) -> dict[str, float]:
    def one(task: Any) -> tuple[str, float]:
        agent = DialogflowCXAgent(_context(domain, task), options)
        try:
            _, verdict = play(domain, task, agent, ScriptedUser(task))
        finally:
            agent.close()
        return task.id, verdict.reward

    with ThreadPoolExecutor(16) as pool:
        return dict(pool.map(one, tasks))


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_oracle_over_cx_scores_one_on_every_task(name: str) -> None:
    domain = load_domain(name)
    tasks = [t for t in domain.tasks if t.split == "test"]
    with CXOracleServer([domain]) as server:
        rewards = _play_all(domain, RemoteOptions(cx_agent=server.agent, cx_endpoint=server.url), tasks)
    assert len(rewards) == len(tasks) and {task: r for task, r in rewards.items() if r < 1} == {}
    assert len({session for session, _, _ in server.queries}) == len(tasks)  # no shared session
    assert server.tool_results and not any(error for _, error, _ in server.tool_results)


def test_calls_asked_for_at_once_are_answered_one_query_each() -> None:
    domain = load_domain("retail")
    tasks = [t for t in domain.tasks if t.split == "test" and len(t.gold_actions) > 1][:6]
    with CXOracleServer([domain], parallel=True) as server:
        rewards = _play_all(domain, RemoteOptions(cx_agent=server.agent, cx_endpoint=server.url), tasks)
    assert tasks and set(rewards.values()) == {1.0}
    assert sum(kind == "toolCallResult" for _, kind, _ in server.queries) == sum(len(t.gold_actions) for t in tasks)


# -- errors and names, one agent at a time ---------------------------------------------


def _agent(domain: Domain, server: CXOracleServer, **options: Any) -> DialogflowCXAgent:
    return DialogflowCXAgent(_context(domain, domain.tasks[0]), RemoteOptions(cx_agent=server.agent, cx_endpoint=server.url, **options))


def test_unavailable_and_dropped_connections_are_retried(toy_domain: Domain) -> None:
    with CXOracleServer([toy_domain]) as server:
        server.inject("503", "drop", "429")
        agent = _agent(toy_domain, server, backoff=0)
        step = agent.step([{"role": "user", "content": "hello"}])
        agent.close()
    assert step.tool_calls and step.tool_calls[0].name == toy_domain.tasks[0].gold_actions[0].name


@pytest.mark.parametrize(("fault", "message"), [("500", "500 InternalServerError"), ("malformed", "malformed answer")])
def test_what_may_have_advanced_the_session_is_not_retried(toy_domain: Domain, fault: Any, message: str) -> None:
    with CXOracleServer([toy_domain]) as server:
        server.inject(fault)
        agent = _agent(toy_domain, server, backoff=0)
        with pytest.raises(InfraError, match=message):
            agent.step([{"role": "user", "content": "hello"}])
        agent.close()
    assert len(server.queries) == (1 if fault == "malformed" else 0)  # one attempt, never a second


def test_a_hang_raises_infra_error_after_the_timeout(toy_domain: Domain) -> None:
    with CXOracleServer([toy_domain], hang=10) as server:
        server.inject("hang")
        agent = _agent(toy_domain, server, timeout=0.5)
        started = time.monotonic()
        with pytest.raises(InfraError, match=r"no answer within 0.5s"):
            agent.step([{"role": "user", "content": "hello"}])
        assert time.monotonic() - started < 5
        agent.close()


def test_exported_cx_tools_are_the_names_the_strategy_runs(capsys: pytest.CaptureFixture[str]) -> None:
    domain = load_domain("retail")
    assert export_main(["retail", "--format", "cx"]) == 0
    exported = json.loads(capsys.readouterr().out)
    with CXOracleServer([domain]) as server:
        agent = _agent(domain, server)
        for tool in exported:
            # CX names the function tool's action by its display name; the resource id is CX's own
            name = tool["displayName"]
            assert agent._tool_name(server.tool_resource(name), name) == name
            assert tool["functionSpec"]["inputSchema"]["type"] == "object"
    assert {tool["displayName"] for tool in exported} == set(domain.tools)


def test_session_ids_are_per_item_fresh_and_within_cx_limits() -> None:
    ids = {session_id("retail-some_long_task_name-t3") for _ in range(100)}
    assert len(ids) == 100 and all(len(i) <= 36 and re.fullmatch(r"[A-Za-z0-9_-]+", i) for i in ids)
    assert all(i.startswith("retail-some_lon") for i in ids)


def test_struct_numbers_get_their_int_type_back() -> None:
    assert _restore_ints({"n": 2.0, "x": 2.5, "l": [1.0, "a"], "d": {"k": 0.0}}) == {"n": 2, "x": 2.5, "l": [1, "a"], "d": {"k": 0}}


def test_the_endpoint_follows_the_agents_location() -> None:
    assert RemoteOptions(cx_agent="projects/p/locations/global/agents/a").cx_api_endpoint == "dialogflow.googleapis.com"
    assert RemoteOptions(cx_agent="projects/p/locations/europe-west3/agents/a").cx_api_endpoint == "europe-west3-dialogflow.googleapis.com"
    assert RemoteOptions(cx_agent="projects/p/locations/us/agents/a", cx_endpoint="http://127.0.0.1:9").cx_api_endpoint == "http://127.0.0.1:9"


def test_missing_google_credentials_are_an_item_error_at_once(toy_domain: Domain, monkeypatch: pytest.MonkeyPatch) -> None:
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError

    def no_adc(**kwargs: Any) -> Any:
        raise DefaultCredentialsError("Your default credentials were not found.")

    monkeypatch.setattr(google.auth, "default", no_adc)
    options = RemoteOptions(cx_agent="projects/p/locations/global/agents/a", backoff=0)
    agent = DialogflowCXAgent(_context(toy_domain, toy_domain.tasks[0]), options)
    with pytest.raises(InfraError, match=r"Google credentials \(ADC\): DefaultCredentialsError") as caught:
        agent.step([{"role": "user", "content": "hello"}])
    assert "attempts" not in str(caught.value)  # not retried
    agent.close()
