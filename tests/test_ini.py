"""Every option is also an ini option; the command line wins."""

from __future__ import annotations

import pytest


def write_ini(tau, **values: str) -> None:
    lines = ["[pytest]", "testpaths = tests_domains"] + [f"{key} = {value}" for key, value in values.items()]
    (tau.path / "pytest.ini").write_text("\n".join(lines) + "\n")


def test_ini_trials_and_seed(tau) -> None:
    write_ini(tau, trials="2", seed="7", max_steps="5")
    result = tau.run()
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["*trials 2, split test, seed 7, max-steps 5*"])


def test_command_line_wins_over_ini(tau) -> None:
    write_ini(tau, trials="2")
    tau.run("--trials", "1").assert_outcomes(passed=3)


def test_ini_model_checks_the_key(tau) -> None:
    write_ini(tau, model="gpt-4o")
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*missing API key*OPENAI_API_KEY*"])


def test_ini_agent_strategy(tau) -> None:
    write_ini(tau, agent_strategy="do-nothing")
    result = tau.run()
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*agent do-nothing, user scripted*"])


@pytest.mark.parametrize(("key", "guess"), [("modle", "model"), ("tau_model", "model"), ("trails", "trials")])
def test_misspelled_or_tau_prefixed_ini_key_is_refused(tau, key, guess) -> None:
    write_ini(tau, **{key: "gpt-4o" if "mod" in key else "2"})
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*pytest.ini: unknown option {key!r} (did you mean {guess!r}?)*"])
    assert "passed" not in result.stdout.str()
