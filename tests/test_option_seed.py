"""--seed: each item's seed derives from the base seed, the domain, the task and the trial; the
same seed gives the same requests, another seed other item seeds."""

from __future__ import annotations

from pytest_tau.testing import OpenAIServer, OracleModel


def _seeds(tau, toy_domain, *args: str) -> set[int]:
    with OpenAIServer(OracleModel([toy_domain])) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--trials", "2", *args)
    result.assert_outcomes(passed=6)
    return {r["seed"] for r in server.requests}


def test_item_seeds_follow_the_base_seed(tau, toy_domain) -> None:
    default = _seeds(tau, toy_domain)
    assert len(default) == 6, "every (task, trial) gets its own seed"
    assert _seeds(tau, toy_domain, "--seed", "0") == default
    other = _seeds(tau, toy_domain, "--seed", "7")
    assert len(other) == 6 and not other & default
