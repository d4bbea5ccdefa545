"""--temperature: the sampling temperature every model request carries, agent's and user's."""

from __future__ import annotations

import pytest

from pytest_tau.testing import OpenAIServer, OracleModel


@pytest.mark.parametrize(("args", "expected"), [((), 0.0), (("--temperature", "0.7"), 0.7)], ids=["default", "0.7"])
def test_temperature_reaches_agent_and_user_requests(tau, toy_domain, args, expected) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, *args)
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines([f"*temperature {expected}*"])
    agent = [r for r in server.requests if r.get("tools")]
    user = [r for r in server.requests if not r.get("tools")]
    assert agent and user
    assert {r.get("temperature") for r in server.requests} == {expected}


def test_temperature_out_of_range_is_a_usage_error(tau) -> None:
    result = tau.run("--temperature", "3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest-tau: --temperature: Input should be less than or equal to 2*"])
