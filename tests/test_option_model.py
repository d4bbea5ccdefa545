"""--model, --api-base, --user-model: the real litellm path, and failing once at start."""

from __future__ import annotations

import pytest

from pytest_tau.testing import OpenAIServer, OracleModel


def test_without_model_runs_offline_self_check(tau) -> None:
    result = tau.run()
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*agent oracle, user scripted*", "*offline self-check*", "toy * 1.000"])


def test_missing_api_key_fails_once_at_start(tau) -> None:
    result = tau.run("--model", "gpt-4o")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*missing API key for the agent and user model 'gpt-4o': set OPENAI_API_KEY*"])
    assert result.stderr.str().count("missing API key") == 1
    assert "passed" not in result.stdout.str()


def test_unknown_model_fails_once_at_start(tau) -> None:
    result = tau.run("--model", "no-such-model-xyz")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown agent and user model 'no-such-model-xyz'*"])


def test_model_and_user_model_over_local_server(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/agent-model", "--api-base", server.url, "--user-model", "openai/user-model",
                         "--user-api-base", server.url, "--trials", "2")
    result.assert_outcomes(passed=6)
    models = {request["model"] for request in server.requests}
    assert models == {"agent-model", "user-model"}
    import json

    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["model"] == "openai/agent-model" and summary["user_model"] == "openai/user-model"
    result.stdout.fnmatch_lines(["*agent tool-calling (openai/agent-model), user llm (openai/user-model)*"])
