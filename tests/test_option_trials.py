"""--trials and the pass^k roll-up: exact, and the same with and without xdist."""

from __future__ import annotations

import json
from math import comb

from conftest import TauRunner, flaky_oracle
from pytest_tau.testing import OpenAIServer


def expected_pass_hat_k(results: list[dict], trials: int) -> dict[str, float]:
    tasks: dict[str, list[bool]] = {}
    for r in results:
        tasks.setdefault(r["task"], []).append(r["status"] == "passed")
    return {
        str(k): sum(comb(sum(v), k) / comb(len(v), k) for v in tasks.values()) / len(tasks)
        for k in range(1, trials + 1)
    }


def test_pass_hat_k_is_exact_and_equal_with_and_without_xdist(pytester, toy_domain) -> None:
    summaries = []
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        for xdist in ([], ["-n", "2"]):
            runner = TauRunner(pytester, xdist)
            run_dir = runner.path / f"run{len(summaries)}"
            result = pytester.runpytest_subprocess(
                "-p", "no:cacheprovider", *xdist, "--run-dir", str(run_dir), "--trials", "4",
                "--model", "openai/m", "--api-base", server.url,
            )
            assert result.ret == 1  # some items fail
            summary = json.loads((run_dir / "summary.json").read_text())
            results = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
            assert len(results) == 12
            assert summary["pass_hat_k"] == expected_pass_hat_k(results, 4)
            summaries.append(summary)
    first, second = summaries
    assert first["pass_hat_k"] == second["pass_hat_k"]
    assert first["domains"] == second["domains"]
    assert 0 < first["pass_hat_k"]["1"] < 1 and first["pass_hat_k"]["4"] < first["pass_hat_k"]["1"]


def test_trials_make_items_and_columns(tau) -> None:
    result = tau.run("--trials", "3")
    result.assert_outcomes(passed=9)
    result.stdout.fnmatch_lines(["domain * pass^1 * pass^2 * pass^3", "toy * 3 * 9 * 0 * 1.000 * 1.000 * 1.000"])


def test_fewer_trials_than_asked_are_flagged(tau) -> None:
    result = tau.run("--trials", "2", "-k", "not (loan_dune and t1)")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["*warning: 1 task(s) have fewer scored trials than the 2 asked*toy/loan_dune*"])
