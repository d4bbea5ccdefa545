"""--agent-strategy and --user-strategy: known names only, clear errors otherwise."""

from __future__ import annotations

import pytest


def test_unknown_agent_strategy_on_command_line(tau) -> None:
    result = tau.run("--agent-strategy", "telepathy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent-strategy: invalid choice: 'telepathy'*"])


def test_unknown_user_strategy_in_ini(tau) -> None:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\nuser_strategy = telepathy\n")
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest-tau: --user-strategy: Input should be 'llm' or 'scripted'*telepathy*"])


def test_model_strategy_without_model(tau) -> None:
    result = tau.run("--agent-strategy", "tool-calling")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent-strategy tool-calling needs --model*"])


def test_bad_number_in_ini(tau) -> None:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\ntrials = many\n")
    result = tau.run()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest-tau: --trials: Input should be a valid integer*many*"])


def test_do_nothing_agent_scores_zero(tau) -> None:
    result = tau.run("--agent-strategy", "do-nothing")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["toy * 0.000"])
