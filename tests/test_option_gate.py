"""--min-pass-hat-k, --baseline/--max-regression: a gate with its own exit code (7), intervals,
and a Markdown summary in $GITHUB_STEP_SUMMARY."""

from __future__ import annotations

import json

import pytest

from pytest_tau._gate import bootstrap_interval, parse_threshold, task_scores
from pytest_tau._results import ItemResult


def test_threshold_met_passes_and_missed_exits_7(tau) -> None:
    tau.run("--min-pass-hat-k", "1=1.0", "--min-pass-hat-k", "toy:1=0.9").assert_outcomes(passed=3)
    result = tau.run("--agent-strategy", "do-nothing", "--min-pass-hat-k", "1=0.5")
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*GATE FAILED (exit 7): pass^1 >= 0.5: it is 0.000*"])
    gate = json.loads((tau.run_dir / "summary.json").read_text())["gate"]
    assert gate["passed"] is False


def test_baseline_regression_exits_7_with_markdown(tau, tmp_path, monkeypatch) -> None:
    good = tau.path / "good"
    tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", *tau.xdist, f"--run-dir={good}", "--trials", "2")
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    result = tau.run("--agent-strategy", "do-nothing", "--trials", "2", f"--baseline={good}", "--max-regression", "0.1")
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*vs baseline: pass^1 -1.000 over 3 paired tasks*", "*GATE FAILED (exit 7): pass^1 regressed*"])
    text = step.read_text()
    assert "| toy | 3 |" in text and "pass^2 [95% CI]" in text and "Gate failed" in text
    assert "Worst tasks:" in text and "End reasons:" in text


def test_same_as_baseline_passes(tau) -> None:
    base = tau.path / "base"
    tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", *tau.xdist, f"--run-dir={base}")
    ungated = json.loads((base / "summary.json").read_text())["gate"]
    assert ungated["passed"] is None and ungated["status"] == "no gate"  # nothing was gated, nothing passed
    result = tau.run(f"--baseline={base}")
    assert result.ret == 0
    assert json.loads((tau.run_dir / "summary.json").read_text())["gate"]["status"] == "passed"
    result.stdout.fnmatch_lines(["*vs baseline: pass^1 +0.000 over 3 paired tasks*", "*gate passed*"])


def test_bad_threshold_is_a_usage_error(tau) -> None:
    result = tau.run("--min-pass-hat-k", "one=0.8")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--min-pass-hat-k 'one=0.8': expected K=V or DOMAIN:K=V*"])


def _result(task: str, trial: int, passed: bool) -> ItemResult:
    return ItemResult(item=f"d-{task}-t{trial}", domain="d", task=task, trial=trial, seed=0,
                      status="passed" if passed else "failed", end_reason="user_stop")


def test_units() -> None:
    assert parse_threshold("retail:2=0.5").domain == "retail" and parse_threshold("1=0.8").k == 1
    results = [_result("a", 0, True), _result("a", 1, False), _result("b", 0, True), _result("b", 1, True)]
    assert task_scores(results, 1) == {"d/a": 0.5, "d/b": 1.0}
    assert task_scores(results, 2) == {"d/a": 0.0, "d/b": 1.0}
    low, high = bootstrap_interval([0.0, 1.0] * 20)
    assert 0.3 < low < 0.5 < high < 0.7
    assert bootstrap_interval([1.0, 1.0]) == (1.0, 1.0)
