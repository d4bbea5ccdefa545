"""Remote agents under test: the http and a2a strategies against local doubles that play the oracle.

End to end through pytest on the toy project (with and without xdist), faults and stalls
as item errors, and the oracle through each protocol scoring 1 on every task of airline
and retail, 16 items at a time (called directly, not through pytester).
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pytest

from pytest_tau import Domain, InfraError, ScriptedUser, Settings, StrategyContext, load_domain
from pytest_tau._scoring import play
from pytest_tau.remote import RemoteOptions
from pytest_tau.remote._a2a import A2AAgent
from pytest_tau.remote._http import HttpAgent
from pytest_tau.remote._mcp import ToolServer
from pytest_tau.testing import HttpAgentServer
from pytest_tau.testing.a2a_agent import A2AOracleServer

if TYPE_CHECKING:
    from tests.conftest import TauRunner


def results(tau: TauRunner) -> dict[str, dict[str, Any]]:
    lines = (tau.run_dir / "results.jsonl").read_text().splitlines()
    return {row["item"]: row for row in map(json.loads, lines)}


@pytest.fixture
def http_agent(toy_domain: Domain) -> Iterator[HttpAgentServer]:
    with HttpAgentServer([toy_domain]) as server:
        yield server


@pytest.fixture
def a2a_agent(toy_domain: Domain) -> Iterator[A2AOracleServer]:
    with A2AOracleServer([toy_domain]) as server:
        yield server


# -- through pytest, on the toy project --------------------------------------------------


def test_http_oracle_scores_one(tau: TauRunner, http_agent: HttpAgentServer) -> None:
    result = tau.run("--agent-strategy", "http", "--user-strategy", "scripted", "--agent-url", http_agent.url)
    assert result.ret == 0, result.stdout.str()
    rows = results(tau)
    assert len(rows) == 3 and all(row["reward"] == 1.0 for row in rows.values())
    starts = http_agent.starts
    assert {s["item"] for s in starts} == set(rows)  # one session per item
    assert all("# " in s["policy"] or s["policy"] for s in starts) and all(s["tools"][0]["type"] == "function" for s in starts)
    assert len(http_agent.book) == 0  # every session ended at its item's teardown


def test_http_faults_are_retried(tau: TauRunner, http_agent: HttpAgentServer) -> None:
    http_agent.inject("500", "drop", "429", "malformed", "hang")
    # Five faults may all meet one request (items run concurrently, in any order): six retries see it through.
    result = tau.run("--agent-strategy", "http", "--user-strategy", "scripted", "--agent-url", http_agent.url, "--remote-timeout", "1",
                     "--remote-backoff", "0", "--remote-retries", "6")
    assert result.ret == 0, result.stdout.str()
    assert all(row["reward"] == 1.0 for row in results(tau).values())


def _dropped(port: int) -> str:
    import httpx

    try:
        httpx.Client(timeout=5).get(f"http://127.0.0.1:{port}/")
    except httpx.TransportError as exc:
        return f"httpx {type(exc).__name__}"
    except Exception as exc:  # what the agent's retries would not recognise
        return f"{type(exc).__module__} {type(exc).__name__}"
    return "answered"


def test_a_dropped_connection_stays_an_httpx_error_after_an_in_process_run() -> None:
    """An in-process pytester run drops the modules it imported when it ends. httpx's map of
    httpcore's errors must survive that, or the http agent's retries miss a dropped connection
    (the tests keep httpcore imported: tests/conftest.py)."""
    server = socket.create_server(("127.0.0.1", 0))

    def drop_every_connection() -> None:
        while True:
            connection, _ = server.accept()
            connection.recv(65536)
            connection.close()

    threading.Thread(target=drop_every_connection, daemon=True).start()
    port = server.getsockname()[1]
    saved = dict(sys.modules)
    first = _dropped(port)
    sys.modules.clear()
    sys.modules.update(saved)  # what the in-process run does at its end
    assert (first, _dropped(port)) == ("httpx RemoteProtocolError", "httpx RemoteProtocolError")


def test_http_agent_down_is_an_item_error_not_a_zero(tau: TauRunner, http_agent: HttpAgentServer) -> None:
    http_agent.inject(*["500"] * 100)
    result = tau.run("--agent-strategy", "http", "--user-strategy", "scripted", "--agent-url", http_agent.url, "--remote-retries", "1", "--remote-backoff", "0")
    assert result.ret == 6, result.stdout.str()  # incomplete, not "the agent failed"
    rows = results(tau)
    assert rows and all(row["status"] == "error" for row in rows.values())
    assert "HTTP 500" in result.stdout.str()


def test_remote_strategy_needs_its_url(tau: TauRunner) -> None:
    result = tau.run("--agent-strategy", "a2a", "--user-strategy", "scripted")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--agent-strategy a2a needs --agent-url*"])
    listed = tau.run("--tau-strategies")
    listed.stdout.fnmatch_lines(["*http *JSON protocol*", "*a2a *MCP*"])


def test_a2a_oracle_scores_one(tau: TauRunner, a2a_agent: A2AOracleServer) -> None:
    result = tau.run("--agent-strategy", "a2a", "--user-strategy", "scripted", "--agent-url", a2a_agent.url)
    assert result.ret == 0, result.stdout.str()
    rows = results(tau)
    assert len(rows) == 3 and all(row["reward"] == 1.0 for row in rows.values())
    assert {name for name, _ in a2a_agent.tool_results} >= {"find_member", "loan_book"}  # over MCP


def test_a2a_agent_that_stops_answering_times_out_cleanly(tau: TauRunner, a2a_agent: A2AOracleServer) -> None:
    a2a_agent.stall("toy-loan_dune-t0")
    result = tau.run("--agent-strategy", "a2a", "--user-strategy", "scripted", "--agent-url", a2a_agent.url, "--remote-timeout", "15")
    assert result.ret == 6, result.stdout.str()
    rows = results(tau)
    errors = [row for row in rows.values() if row["status"] == "error"]
    assert [row["item"] for row in errors] == ["toy-loan_dune-t0"] and "neither answered nor called a tool" in result.stdout.str()
    assert sum(row["reward"] == 1.0 for row in rows.values()) == 2


def test_a2a_server_errors_are_retried(tau: TauRunner, a2a_agent: A2AOracleServer) -> None:
    a2a_agent.fail_next(2)
    result = tau.run("--agent-strategy", "a2a", "--user-strategy", "scripted", "--agent-url", a2a_agent.url, "--remote-backoff", "0")
    assert result.ret == 0, result.stdout.str()


# -- the oracle through each protocol, every task of two real domains, 16 at a time ----------


def _context(domain: Domain, task: Any) -> StrategyContext:
    settings = Settings(agent_strategy="http", user_strategy="scripted")
    return StrategyContext(settings=settings, domain=domain, task=task, trial=0, seed=0)


def _play_all(domain: Domain, make: Any) -> dict[str, float]:
    def one(task: Any) -> tuple[str, float]:
        agent = make(_context(domain, task))
        try:
            _, verdict = play(domain, task, agent, ScriptedUser(task))
        finally:
            agent.close()
        return task.id, verdict.reward

    with ThreadPoolExecutor(16) as pool:
        return dict(pool.map(one, [t for t in domain.tasks if t.split == "test"]))


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_oracle_over_http_scores_one_on_every_task(name: str) -> None:
    domain = load_domain(name)
    with HttpAgentServer([domain]) as server:
        options = RemoteOptions(agent_url=server.url)
        rewards = _play_all(domain, lambda context: HttpAgent(context, options))
    assert rewards and {task: r for task, r in rewards.items() if r < 1} == {}


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_oracle_over_a2a_and_mcp_scores_one_on_every_task(name: str) -> None:
    domain = load_domain(name)
    with A2AOracleServer([domain]) as server, ToolServer() as tools:
        options = RemoteOptions(agent_url=server.url)
        rewards = _play_all(domain, lambda context: A2AAgent(context, options, tools))
    assert rewards and {task: r for task, r in rewards.items() if r < 1} == {}
    assert server.tool_results  # the calls went over MCP


def test_a2a_stall_raises_infra_error_directly(toy_domain: Domain) -> None:
    task = toy_domain.tasks[0]
    with A2AOracleServer([toy_domain]) as server, ToolServer() as tools:
        server.stall(f"toy-{task.id}-t0")
        agent = A2AAgent(_context(toy_domain, task), RemoteOptions(agent_url=server.url, timeout=0.5), tools)
        with pytest.raises(InfraError, match="neither answered"):
            agent.step([{"role": "user", "content": "hello"}])
        agent.close()


def test_remote_agents_meet_a_model_customer_when_a_model_is_named() -> None:
    """The scripted customer's lines hold what a careful agent asks (validate's script_answers), so
    an offline remote run needs no model; naming one gives the agent a model customer."""
    from pytest_tau._settings import Settings

    def user(**raw: str) -> str:
        return Settings.resolve({"agent_strategy": "http", **raw}, model_users={"llm"}, model_user_agents={"http"}).user_strategy

    assert user() == "scripted"
    assert user(user_model="gpt-4o") == user(model="gpt-4o") == "llm"
    assert user(user_strategy="scripted", user_model="gpt-4o") == "scripted"
    explicit = Settings.resolve({"agent_strategy": "http", "user_strategy": "llm"}, model_users={"llm"}, model_user_agents={"http"})
    assert explicit.problems() == ["--user-strategy llm needs --user-model or --model"]
