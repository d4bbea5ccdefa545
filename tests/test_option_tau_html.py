"""The HTML report every run writes (report.html in the run directory, or --tau-html PATH)."""

from __future__ import annotations

import re

import orjson

from conftest import TauRunner, flaky_oracle
from pytest_tau._html import read_details
from pytest_tau.testing import OpenAIServer


def _table(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="tau-items">(.*?)</script>', page)
    assert found is not None
    return orjson.loads(found.group(1))


def test_a_run_writes_its_report(tau: TauRunner, toy_domain) -> None:
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        result = tau.run("--trials", "2", "--model", "openai/m", "--api-base", server.url)
    assert result.ret == 1  # the flaky oracle fails some items
    path = tau.run_dir / "report.html"
    result.stdout.fnmatch_lines([f"html report: {path}"])
    page = path.read_text(encoding="utf-8")
    summary = orjson.loads((tau.run_dir / "summary.json").read_bytes())
    lines = [orjson.loads(line) for line in (tau.run_dir / "results.jsonl").read_bytes().splitlines()]
    assert "openai/m" in page
    row = re.search(r'<tr data-domain="toy">(.*?)</tr>', page)
    assert row is not None and f'{summary["domains"]["toy"]["pass_hat_k"]["2"]:.3f}' in row.group(1)
    table = _table(page)
    assert sorted(r[0] for r in table["rows"]) == sorted(r["item"] for r in lines)
    statuses = {r[0]: r[4] for r in table["rows"]}
    assert statuses == {r["item"]: r["status"] for r in lines} and "failed" in statuses.values()
    details = read_details(page)
    assert len(details) == len(lines) and all(d["messages"] for d in details)
    # Items whose final state is wrong show the records that differ from gold.
    wrong_state = [d for d in details if d["result"]["reward_parts"].get("state") == 0.0]
    assert all(d["gold_differences"] for d in wrong_state)
    assert all(d["gold_differences"] == [] for d in details if d["result"]["reward_parts"].get("state") == 1.0)


def test_tau_html_writes_it_elsewhere(tau: TauRunner) -> None:
    result = tau.run("--tau-html", "reports/run.html")
    result.assert_outcomes(passed=3)
    path = tau.path / "reports" / "run.html"
    result.stdout.fnmatch_lines([f"html report: {path}"])
    assert not (tau.run_dir / "report.html").exists()
    table = _table(path.read_text(encoding="utf-8"))
    assert len(table["rows"]) == 3 and {r[4] for r in table["rows"]} == {"passed"}
    assert "offline self-check" in path.read_text(encoding="utf-8")


def test_tau_html_outside_the_project(tau: TauRunner, tmp_path) -> None:
    target = tmp_path / "report.html"
    target.write_text("an earlier report")
    # With a space, pytest would take the existing file for a test path: refused, with the fix.
    result = tau.run("--tau-html", str(target))
    assert result.ret == 4
    assert f"--tau-html={target}" in result.stderr.str() + result.stdout.str()
    result = tau.run(f"--tau-html={target}")
    result.assert_outcomes(passed=3)
    assert "pass^1" in target.read_text(encoding="utf-8")
