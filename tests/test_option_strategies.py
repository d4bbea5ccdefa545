"""--agent-strategy and --user-strategy: known names only, clear errors otherwise."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest


def test_unknown_agent_strategy_on_command_line(tau) -> None:
    result = tau.run("--agent-strategy", "telepathy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*pytest-tau: --agent-strategy: unknown agent strategy 'telepathy'; "
        "known: tool-calling, act, react, few-shot, oracle, do-nothing, http, a2a, dialogflow-cx (*see pytest --tau-strategies)*"
    ])


def test_unknown_user_strategy_in_ini(tau) -> None:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\nuser_strategy = telepathy\n")
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*pytest-tau: --user-strategy (pytest.ini: user_strategy): unknown user strategy 'telepathy'; "
        "known: llm, react, verify, reflection, human, scripted (*"
    ])


def test_model_strategy_without_model(tau) -> None:
    result = tau.run("--agent-strategy", "tool-calling")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent-strategy tool-calling needs --model*"])


def test_bad_number_in_ini(tau) -> None:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\ntrials = many\n")
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest-tau: --trials (pytest.ini: trials): Input should be a valid integer*many*"])


def test_do_nothing_agent_scores_zero(tau) -> None:
    result = tau.run("--agent-strategy", "do-nothing")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["toy * 0.000"])


@pytest.mark.parametrize("agent", ["tool-calling", "act", "react", "few-shot"])
def test_model_agent_strategies_over_local_server(tau, toy_domain, agent) -> None:
    from pytest_tau.testing import OpenAIServer, OracleModel

    if agent == "few-shot":
        add_train_task(tau.path)
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--agent-strategy", agent)
    result.assert_outcomes(passed=3)
    agent_requests = [r for r in server.requests if "# Policy" in r["messages"][0]["content"]]
    assert all(bool(r.get("tools")) == (agent in ("tool-calling", "few-shot")) for r in agent_requests)
    examples = ["# Example conversations" in r["messages"][0]["content"] for r in agent_requests]
    assert all(examples) if agent == "few-shot" else not any(examples)


def add_train_task(project: Path) -> None:
    tasks_file = project / "fixtures" / "toy" / "tasks.json"
    tasks = json.loads(tasks_file.read_text())
    train = {**tasks["tasks"][0], "id": "loan_dune_train", "split": "train"}
    tasks_file.write_text(json.dumps({"tasks": [*tasks["tasks"], train]}))


def test_few_shot_without_train_tasks_is_refused_before_any_call(tau) -> None:
    """Few-shot with no train task to show would run zero-shot under its name (τ² domains have none)."""
    from pytest_tau.testing import OpenAIServer, Reply

    with OpenAIServer(lambda request: Reply(content="hello")) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--agent-strategy", "few-shot")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent-strategy few-shot shows oracle conversations of a domain's train tasks, and toy has none*"])
    assert server.requests == []


@pytest.mark.parametrize("user", ["llm", "react", "verify", "reflection"])
def test_model_user_strategies_over_local_server(tau, toy_domain, user) -> None:
    from pytest_tau.testing import OpenAIServer, OracleModel

    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--user-strategy", user)
    result.assert_outcomes(passed=3)
    checks = [r for r in server.requests if r["messages"][0]["content"].startswith("You check a simulated customer")]
    assert bool(checks) == (user in ("verify", "reflection"))


def test_react_user_thoughts_never_reach_the_agent(tau, toy_domain) -> None:
    from pytest_tau.testing import OpenAIServer, OracleModel

    with OpenAIServer(OracleModel([toy_domain])) as server:
        tau.run("--model", "openai/fake", "--api-base", server.url, "--user-strategy", "react").assert_outcomes(passed=3)
    agent_requests = [r for r in server.requests if r.get("tools")]
    assert agent_requests and all("Thought:" not in str(r["messages"]) for r in agent_requests)


def test_act_format_errors_are_fed_back_not_sent_to_the_user(tau, toy_domain) -> None:
    import json

    from pytest_tau.testing import OpenAIServer, OracleModel, Reply

    oracle = OracleModel([toy_domain])
    garbled: set[str] = set()

    def handler(request):
        system = request["messages"][0]["content"]
        if "# How to answer" in system:
            key = request["messages"][1]["content"]
            if key not in garbled:
                garbled.add(key)
                return Reply(content="Sure! I will look into it.")  # no Action: line
        return oracle(request)

    with OpenAIServer(handler) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--agent-strategy", "act")
    result.assert_outcomes(passed=3)
    trajectory = json.loads((tau.run_dir / "trajectories" / "toy-loan_dune-t0.json").read_text())
    first = next(m for m in trajectory["messages"] if m["role"] == "assistant")
    assert first["format_errors"] == ['Format error: no "Action:" line. Answer again, in the required format.']
    told_user = [m.get("content") or "" for m in trajectory["messages"] if m["role"] == "assistant"]
    assert all("Sure! I will look into it." not in text for text in told_user)


def test_human_user_types_at_the_terminal(tau) -> None:
    if tau.xdist:
        result = tau.run("--user-strategy", "human", "-s")
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines(["*--user-strategy human cannot run under xdist*"])
        return
    result = tau.run("--user-strategy", "human")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--user-strategy human needs -s*"])
    lines = "\n".join(["I'd like to borrow B1.", "###STOP###"] * 3) + "\n"
    result = tau.pytester.run(
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--run-dir", str(tau.run_dir), "-s",
        "--user-strategy", "human", stdin=lines.encode(),
    )
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*=== task fines_then_loan ===*", "*agent> Here is what I found: $4.50.*"])
