"""pass^k and the roll-up, as pure functions."""

from __future__ import annotations

from math import comb

import pytest

from pytest_tau._metrics import TaskTally, pass_hat_k, tally
from pytest_tau._results import ItemResult, summarize


def test_pass_hat_k_is_mean_of_binomial_ratios() -> None:
    tallies = {"a": TaskTally(n=4, c=4), "b": TaskTally(n=4, c=2), "c": TaskTally(n=4, c=0)}
    assert pass_hat_k(tallies, 1) == pytest.approx((1 + 0.5 + 0) / 3)
    assert pass_hat_k(tallies, 2) == pytest.approx((1 + comb(2, 2) / comb(4, 2) + 0) / 3)
    assert pass_hat_k(tallies, 4) == pytest.approx(1 / 3)


def test_tasks_with_fewer_trials_than_k_are_left_out() -> None:
    tallies = {"a": TaskTally(n=3, c=3), "b": TaskTally(n=1, c=0)}
    assert pass_hat_k(tallies, 2) == 1.0
    assert pass_hat_k({"b": TaskTally(n=1, c=1)}, 2) is None


def test_tally_counts() -> None:
    assert tally([("a", True), ("a", False), ("b", True)]) == {"a": TaskTally(2, 1), "b": TaskTally(1, 1)}


def result(task: str, trial: int, status: str, domain: str = "d") -> ItemResult:
    return ItemResult(
        item=f"{domain}-{task}-t{trial}", domain=domain, task=task, trial=trial, seed=0, status=status,
        reward=None if status == "error" else float(status == "passed"), end_reason="user_stop",
    )


def test_summary_excludes_errors_and_flags_short_tasks() -> None:
    results = [result("a", 0, "passed"), result("a", 1, "error"), result("b", 0, "passed"), result("b", 1, "failed")]
    summary = summarize(results, trials=2)
    assert summary.errors == 1 and not summary.complete
    assert summary.pass_hat_k == {1: pytest.approx((1 + 0.5) / 2), 2: 0.0}
    assert summary.domains["d"].short_tasks == ["a"]


def test_summary_keeps_the_last_result_of_an_item() -> None:
    summary = summarize([result("a", 0, "error"), result("a", 0, "passed")], trials=1)
    assert summary.items == 1 and summary.passed == 1 and summary.pass_hat_k == {1: 1.0}


def test_overall_is_over_all_tasks_of_all_domains() -> None:
    results = [result("a", 0, "passed", "x"), result("a", 0, "failed", "y"), result("b", 0, "failed", "y")]
    summary = summarize(results, trials=1)
    assert summary.pass_hat_k[1] == pytest.approx(1 / 3)
    assert summary.domains["x"].pass_hat_k[1] == 1.0 and summary.domains["y"].pass_hat_k[1] == 0.0
