"""--model-provider: a bare model name is routed through the named litellm provider."""

from __future__ import annotations

import pytest

from pytest_tau.testing import OpenAIServer, OracleModel


def test_model_provider_routes_a_bare_model_name(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "my-model", "--model-provider", "openai", "--api-base", server.url)
    result.assert_outcomes(passed=3)
    assert server.requests
    assert {r["model"] for r in server.requests} == {"my-model"}


def test_unknown_provider_fails_once_at_start(tau) -> None:
    result = tau.run("--model", "my-model", "--model-provider", "no-such-provider", "--api-base", "http://127.0.0.1:9/v1")
    assert result.ret not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
    assert "no-such-provider" in result.stdout.str() + result.stderr.str()
