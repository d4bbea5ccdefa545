"""The real model paths over HTTP on 127.0.0.1: retries, bad tool calls, exhausted retries, secrets.

Each test runs through both model clients: the openai SDK (the default for an OpenAI-compatible
server, with and without xdist) and litellm (forced, without xdist)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pytest_tau._model_client import CLIENT_VARIABLE
from pytest_tau.testing import Faults, OpenAIServer, OracleModel, Reply, ToolCallReply

pytestmark = pytest.mark.parametrize(
    ("client", "tau"), [("openai", []), ("openai", ["-n", "2"]), ("litellm", [])],
    ids=["openai-no-xdist", "openai-xdist", "litellm-no-xdist"], indirect=True,
)


@pytest.fixture(autouse=True)
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(CLIENT_VARIABLE, request.param)  # the pytest run in a subprocess inherits it
    return str(request.param)


def model_args(server: OpenAIServer, *extra: str) -> list[str]:
    return ["--model", "openai/fake", "--api-base", server.url, "--llm-backoff", "0.01", *extra]


def test_infrastructure_faults_are_retried_and_scored_as_if_absent(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain]), Faults(hang=3.0)) as server:
        server.inject("429", "500", "503", "timeout", "drop", "malformed", "429")
        result = tau.run(*model_args(server, "--llm-timeout", "1"))
    result.assert_outcomes(passed=3)
    assert server.fault_log == {"429": 2, "500": 1, "503": 1, "timeout": 1, "drop": 1, "malformed": 1}


def test_malformed_tool_calls_come_back_as_tool_errors(tau, toy_domain) -> None:
    oracle = OracleModel([toy_domain])
    bad_calls = [ToolCallReply("find_member", "{not json"), ToolCallReply("no_such_tool", {}), ToolCallReply("get_book", {"book_id": 7})]

    def handler(request):
        messages = request["messages"]
        if request.get("tools") and not any(m["role"] == "assistant" for m in messages):
            return Reply(content=None, tool_calls=bad_calls)
        if request.get("tools") and sum(m["role"] == "assistant" for m in messages) == 1:
            return oracle.agent([m for m in messages if m["role"] != "assistant"])
        return oracle(request)

    with OpenAIServer(handler) as server:
        result = tau.run(*model_args(server))
    result.assert_outcomes(passed=3)
    trajectory = json.loads((tau.run_dir / "trajectories" / "toy-loan_dune-t0.json").read_text())
    errors = [c["result"] for c in trajectory["tool_calls"] if c["error"]]
    assert errors[0].startswith("Error: arguments are not valid JSON")
    assert errors[1].startswith("Error: unknown tool 'no_such_tool'")
    assert errors[2].startswith("Error: invalid arguments for get_book: book_id: Input should be a valid string")


def test_exhausted_retries_make_errors_not_failures(tau, toy_domain) -> None:
    oracle = OracleModel([toy_domain])

    with OpenAIServer(oracle, Faults(p503=1.0)) as server:
        result = tau.run(*model_args(server, "--llm-retries", "2", "--junitxml", "junit.xml"))
    result.assert_outcomes(errors=3)
    assert result.ret == 6  # incomplete, not "the model failed"
    result.stdout.fnmatch_lines(["toy * 3 * 3 * 3 *  -  ", "*INCOMPLETE: 3 item(s) ended in infrastructure errors*"])
    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["errors"] == 3 and summary["complete"] is False and summary["pass_hat_k"] == {"1": None}
    suite = ET.parse(tau.path / "junit.xml").getroot().find("testsuite")
    assert suite.get("errors") == "3" and suite.get("failures") == "0"
    assert len(server.fault_log) == 1 and server.fault_log["503"] == 3 * 3  # 3 items x (1 try + 2 retries)


def test_secrets_never_reach_what_the_run_writes(tau, toy_domain, monkeypatch) -> None:
    canary = "sk-canary0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    with OpenAIServer(OracleModel([toy_domain])) as server:
        base = server.url.replace("http://", f"http://user:{canary}@")
        result = tau.run("--model", f"openai/fake?api_key={canary}", "--api-base", base, "--junitxml", "junit.xml")
    result.assert_outcomes(passed=3)
    written = [result.stdout.str(), result.stderr.str()]
    written += [p.read_text() for p in tau.path.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".xml")]
    assert all(canary not in text for text in written)
    assert "***" in (tau.run_dir / "summary.json").read_text()


def test_rate_limits_with_retry_after_do_not_use_up_the_retries(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain]), Faults(retry_after=0.02)) as server:
        server.inject(*["429"] * 12)
        result = tau.run(*model_args(server, "--llm-retries", "1"))
    result.assert_outcomes(passed=3)
    assert server.fault_log["429"] == 12
