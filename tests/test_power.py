"""The gate's power: the formula (pure functions, no pytest inside) agrees with simulated
runs, the plan's answers are consistent, and `python -m pytest_tau.plan` prints them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_tau import plan
from pytest_tau._power import detectable_drop, power, shifted_rates, simulate_power, task_rates, tasks_needed

RATES = [0.6] * 57  # the README's example: one domain of about 57 tasks


@pytest.mark.parametrize(("trials", "drop"), [(1, 0.10), (4, 0.10), (4, 0.20), (8, 0.15)])
def test_formula_matches_simulated_runs(trials: int, drop: float) -> None:
    expected = power(RATES, trials, drop, 0.05)
    simulated = simulate_power(RATES, trials, drop, 0.05, runs=600, seed=1)
    assert abs(expected - simulated) < 0.05, (expected, simulated)


def test_readme_example_rarely_catches_a_ten_point_drop() -> None:
    # The audit's figures: a true 10-point drop is caught about 9% of the time with 1 trial, ~20% with 4.
    assert 0.05 < power(RATES, 1, 0.10, 0.05) < 0.12
    assert 0.15 < power(RATES, 4, 0.10, 0.05) < 0.25


def test_tasks_needed_reaches_the_target_power() -> None:
    for trials in (1, 4):
        needed = tasks_needed(RATES, trials, 0.15, 0.05)
        assert needed is not None
        assert power(RATES, trials, 0.15, 0.05, tasks=needed) >= 0.8 > power(RATES, trials, 0.15, 0.05, tasks=needed - 2)
    assert tasks_needed(RATES, 4, 0.05, 0.05) is None  # a drop of D is never caught, by design


def test_detectable_drop_is_where_power_reaches_the_target() -> None:
    tallies = [(4, 2)] * 57
    drop = detectable_drop(tallies, 4, 0.05)
    assert drop is not None and 0.05 < drop < 0.5
    rates = task_rates(tallies)
    assert power(rates, 4, drop, 0.05, baseline_trials=[4] * 57) == pytest.approx(0.8, abs=0.01)
    assert detectable_drop([(1, 1)] * 3, 1, 0.05) is None  # three tasks, one trial: nothing is caught reliably


def test_shifted_rates_drop_the_mean_exactly() -> None:
    rates = [0.1, 0.5, 0.9, 1.0]
    after = shifted_rates(rates, 0.2)
    assert after is not None and sum(rates) / 4 - sum(after) / 4 == pytest.approx(0.2)
    assert min(after) >= 0.0
    assert shifted_rates([0.1, 0.1], 0.5) is None


def test_plan_from_a_baseline_run_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"item": f"retail-t{i}-t{trial}", "domain": "retail", "task": f"t{i}", "trial": trial, "seed": 0,
         "status": "passed" if (i + trial) % 3 else "failed", "end_reason": "user_stop", "reward": 1.0}
        for i in range(40) for trial in range(2)
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert plan.main([str(tmp_path), "--max-regression", "0.05", "--trials", "1", "4", "--drop", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "40 tasks" in out and "| trials | smallest drop caught |" in out
    assert out.count("\n| 1 |") == 1 and out.count("\n| 4 |") == 1
    assert plan.main([str(tmp_path / "nowhere")]) == 4


def test_plan_without_a_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    assert plan.main(["--rate", "0.6", "--tasks", "57", "--trials", "1", "4"]) == 0
    out = capsys.readouterr().out
    assert "| 1 | 0.299 |" in out and "| 4 | 0.179 |" in out
