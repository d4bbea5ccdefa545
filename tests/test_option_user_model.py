"""--user-model, --user-model-provider, --user-api-base: the simulated user can be another model
on another server; the agent's requests never go there and the user's never reach the agent's."""

from __future__ import annotations

from pytest_tau.testing import OpenAIServer, OracleModel


def test_user_model_on_its_own_server(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as agent_server, OpenAIServer(OracleModel([toy_domain])) as user_server:
        result = tau.run(
            "--model", "openai/agent-model", "--api-base", agent_server.url,
            "--user-model", "openai/user-model", "--user-api-base", user_server.url,
        )
    result.assert_outcomes(passed=3)
    assert agent_server.requests and user_server.requests
    assert all(r.get("tools") for r in agent_server.requests), "a user request reached the agent's server"
    assert not any(r.get("tools") for r in user_server.requests), "an agent request reached the user's server"
    assert {r["model"] for r in agent_server.requests} == {"agent-model"}
    assert {r["model"] for r in user_server.requests} == {"user-model"}


def test_user_model_provider_prefixes_a_bare_user_model(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run(
            "--model", "agent-model", "--model-provider", "openai", "--api-base", server.url,
            "--user-model", "user-model", "--user-model-provider", "openai", "--user-api-base", server.url,
        )
    result.assert_outcomes(passed=3)
    by_role = {("agent" if r.get("tools") else "user", r["model"]) for r in server.requests}
    assert by_role == {("agent", "agent-model"), ("user", "user-model")}


def test_user_model_defaults_to_the_agent_model(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/only-model", "--api-base", server.url)
    result.assert_outcomes(passed=3)
    assert {r["model"] for r in server.requests} == {"only-model"}
    assert any(not r.get("tools") for r in server.requests)


def test_another_user_model_without_its_own_endpoint_needs_its_key(tau) -> None:
    """--api-base serves the agent's model; a different user model goes to its provider's own API."""
    result = tau.run("--model", "openai/a", "--api-base", "http://127.0.0.1:9/v1", "--user-model", "openai/b")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*missing API key for the user model 'openai/b'*"])
