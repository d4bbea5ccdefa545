"""`--shard I/N` and `python -m pytest_tau.merge`: shards of a run merge into the unsharded run's pass^k."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_tau._shard import Shard, parse_shard, split_tasks

if TYPE_CHECKING:
    from tests.conftest import TauRunner

# An agent that does the task on items whose seed is odd and gives up on the others:
# deterministic per item, so pass^1 and pass^2 are fractions, equal in any run order.
CONFTEST = '''
from pytest_tau import AgentStep, RequestedCall, StrategyInfo, Usage


class HalfAgent:
    def __init__(self, context):
        self.plan = list(context.task.gold_actions) if context.seed % 2 else []
        self.outputs = [o.value for o in context.task.required_outputs] if context.seed % 2 else []
        self.usage = Usage()
        self.done = 0

    def step(self, messages):
        if self.done < len(self.plan):
            action = self.plan[self.done]
            self.done += 1
            return AgentStep(tool_calls=[RequestedCall(id=f"c{self.done}", name=action.name, arguments=dict(action.arguments))])
        told, self.outputs = "; ".join(self.outputs), []
        return AgentStep(content=f"Done. {told}" if told else "Sorry, I cannot help.")


def pytest_tau_declare_strategies(config):
    return [StrategyInfo("agent", "half", "does odd-seeded items only")]


def pytest_tau_make_agent(config, name, context):
    return HalfAgent(context) if name == "half" else None
'''


def test_parse_and_split() -> None:
    assert parse_shard("2/3") == Shard(2, 3)
    for bad in ("0/2", "3/2", "x", "1/"):
        with pytest.raises(pytest.UsageError):
            parse_shard(bad)
    tasks = [f"d/t{i}" for i in range(7)] * 2  # each task twice (two trials)
    parts = [split_tasks(tasks, Shard(i, 3)) for i in (1, 2, 3)]
    assert sorted(t for part in parts for t in part) == sorted(set(tasks))  # every task in exactly one shard
    assert [len(p) for p in parts] == [3, 2, 2]
    assert split_tasks(list(reversed(tasks)), Shard(2, 3)) == parts[1]  # order of collection does not matter


def two_domains(tau: TauRunner) -> None:
    """The toy domain and a copy named toy2: a run over two domains."""
    root = tau.path
    shutil.copytree(root / "tests_domains" / "toy", root / "tests_domains" / "toy2")
    shutil.copytree(root / "fixtures" / "toy", root / "fixtures" / "toy2")
    domain = root / "tests_domains" / "toy2" / "domain.py"
    domain.write_text(domain.read_text().replace('Domain("toy",', 'Domain("toy2",'))
    (root / "tests_domains" / "toy2" / "test_toy.py").unlink()
    (root / "tests_domains" / "toy2" / "test_toy2.py").write_text(
        "from pytest_tau import domain_test\nfrom tests_domains.toy2.domain import DOMAIN\n\ntest_toy2 = domain_test(DOMAIN)\n"
    )
    (root / "conftest.py").write_text(CONFTEST)


def merge(tau: TauRunner, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_tau.merge", *map(str, args)], cwd=tau.path, capture_output=True, text=True, check=False
    )


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text())


def test_merged_shards_equal_the_unsharded_run(tau: TauRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    two_domains(tau)
    common = ["--agent-strategy", "half", "--trials", "2", "-o", "junit_family=xunit1"]
    whole = tau.path / "whole"
    tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--run-dir={whole}", *tau.xdist, *common)
    items = {}
    for index in (1, 2):
        run_dir = tau.path / f"shard{index}"
        result = tau.pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", f"--run-dir={run_dir}", *tau.xdist, *common, "--shard", f"{index}/2"
        )
        assert result.ret in (0, 1), result.stdout.str()
        rows = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
        items[index] = {(r["domain"], r["task"], r["trial"]) for r in rows}
    assert items[1] and items[2] and not items[1] & items[2]
    for index in (1, 2):  # every trial of a task in one shard
        tasks = {(d, t) for d, t, _ in items[index]}
        assert {(d, t, trial) for d, t in tasks for trial in (0, 1)} == items[index]

    step = tau.path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    merged = tau.path / "merged"
    done = merge(tau, tau.path / "shard2", tau.path / "shard1", "--out", merged, "--min-pass-hat-k", "1=0.1")
    assert done.returncode == 1, done.stderr  # some items failed, the gate held
    expected, got = summary(whole), summary(merged)
    assert got["pass_hat_k"] == expected["pass_hat_k"]
    assert 0 < expected["pass_hat_k"]["1"] < 1 and expected["pass_hat_k"]["2"] is not None
    assert {name: d["pass_hat_k"] for name, d in got["domains"].items()} == {
        name: d["pass_hat_k"] for name, d in expected["domains"].items()
    }
    assert set(got["domains"]) == {"toy", "toy2"}
    assert (got["items"], got["passed"], got["failed"], got["complete"]) == (
        expected["items"], expected["passed"], expected["failed"], True
    )
    suite = ET.parse(merged / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props["tau.pass^1"] == f"{expected['pass_hat_k']['1']:.3f}" and props["tau.agent_strategy"] == "half"
    cases = suite.findall("testcase")
    assert len(cases) == expected["items"] == len(list((merged / "trajectories").iterdir()))
    assert all(c.find("properties") is not None for c in cases)  # xunit1, as the shards ran
    assert sum(c.find("failure") is not None for c in cases) == expected["failed"]
    assert "| toy2 |" in step.read_text()
    page = (merged / "report.html").read_text()  # one report over every shard's items
    assert f"html report: {merged / 'report.html'}" in done.stdout
    items = [json.loads(line)["item"] for line in (merged / "results.jsonl").read_text().splitlines()]
    assert len(items) == expected["items"] and all(item in page for item in items)

    gated = merge(tau, tau.path / "shard1", tau.path / "shard2", "--out", tau.path / "gated", "--min-pass-hat-k", "1=0.99")
    assert gated.returncode == 7 and "GATE FAILED" in gated.stdout


def test_merge_refuses_mismatched_overlapping_and_missing_shards(tau: TauRunner) -> None:
    def shard(name: str, *args: str) -> Path:
        run_dir = tau.path / name
        tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--run-dir={run_dir}", *tau.xdist, *args)
        return run_dir

    one, two = shard("a", "--shard", "1/2"), shard("b", "--shard", "2/2")
    other_seed = shard("c", "--shard", "2/2", "--seed", "5")
    cases = [
        ([one], "shard(s) 2/2 missing"),
        ([one, one], "shard 1/2 given twice"),
        ([one, other_seed], "other settings (seed: 0 vs 5)"),
        ([one, tau.path], "no shard.json"),
    ]
    for dirs, message in cases:
        refused = merge(tau, *dirs, "--out", tau.path / "out")
        assert refused.returncode == 4 and message in refused.stderr, (dirs, refused.stderr)
    assert merge(tau, one, two, "--out", tau.path / "out").returncode == 0
    from tests.test_junit import assert_valid_junit_10

    assert_valid_junit_10(tau.path / "out" / "junit.xml")  # xunit2, the shards' family: Jenkins' schema
    cases = ET.parse(tau.path / "out" / "junit.xml").getroot().iter("testcase")
    assert sorted(c.get("name", "") for c in cases) == [f"test_toy[toy-{t}-t0]" for t in ("fines_then_loan", "loan_dune", "refuse_loaned")]
