"""Accounting that cannot drift: every item a session selects ends with a result or as an
error, in results.jsonl, the summary, the JUnit and the exit code; `complete` only when
every selected item has a result.

Checked two ways: workers of a real xdist run killed at random points (the harm is real:
a process dies mid-item), and the controller fed random sequences of reports (many cases,
no processes)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_tau._controller import EXIT_INCOMPLETE, TauController
from pytest_tau._results import ItemResult
from pytest_tau._settings import Settings, item_seed

ITEMS = [f"toy-{task}-t{trial}" for task in ("order", "refund", "status") for trial in range(2)]

# Where a worker dies, in the order an item passes them. Before the call report leaves the
# worker the item is lost; from its teardown on, its result has already been reported.
KILL_POINTS = ("setup", "call", "makereport", "logreport", "teardown")
LOST_AT = {"setup", "call", "makereport", "logreport"}

KILLER = '''
import json, os
import pytest

PLAN = json.loads(os.environ.get("TAU_KILL_PLAN", "{}"))


def _die(item, point):
    if PLAN.get(item.nodeid.rpartition("[")[2].rstrip("]")) == point and hasattr(item.config, "workerinput"):
        os._exit(9)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _die(item, "setup")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    _die(item, "call")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call":
        _die(item, "makereport")
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item):
    _die(item, "teardown")


class _BeforeSending:
    def __init__(self, config):
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report):
        if report.when == "call" and PLAN.get(report.nodeid.rpartition("[")[2].rstrip("]")) == "logreport":
            os._exit(9)


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        config.pluginmanager.register(_BeforeSending(config), "kill-before-sending")
'''


def _toy_task_ids(toy_domain: Any) -> list[str]:
    return sorted({t.id for t in toy_domain.tasks if t.split == "test"})


def test_killed_workers_never_lose_an_item(tau: Any, toy_domain: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers killed at random points, several times a run: each selected item has exactly
    one result line; the killed ones are errors (summary, JUnit, exit code 6), the run is
    incomplete; killed after reporting, the item keeps its result."""
    if not tau.xdist:
        pytest.skip("killing a worker needs workers (without xdist a kill ends the run: see test_option_resume)")
    items = [f"toy-{task}-t{trial}" for task in _toy_task_ids(toy_domain) for trial in range(2)]
    (tau.path / "conftest.py").write_text(KILLER)
    rng = random.Random(20261128)
    for run in range(1):
        plan = {item: rng.choice(KILL_POINTS) for item in rng.sample(items, 3)}
        monkeypatch.setenv("TAU_KILL_PLAN", json.dumps(plan))
        run_dir = tau.path / f"run{run}"
        result = tau.pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-n", "2", "--max-worker-restart", "10", "--trials", "2",
            "--run-dir", str(run_dir), "--junitxml", str(run_dir / "junit.xml"),
        )
        lost = {item for item, point in plan.items() if point in LOST_AT}
        lines = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
        assert sorted(r["item"] for r in lines) == sorted(items), (plan, result.outlines[-20:])
        errors = {r["item"] for r in lines if r["status"] == "error"}
        assert errors == lost, plan
        assert all("lost item" in r["error"] for r in lines if r["item"] in lost)
        summary = json.loads((run_dir / "summary.json").read_text())
        assert (summary["items"], summary["errors"], summary["complete"]) == (len(items), len(lost), not lost)
        assert result.ret == (EXIT_INCOMPLETE if lost else 0), plan
        cases = ET.parse(run_dir / "junit.xml").getroot().iter("testcase")
        outcomes = {c.get("name", "").rpartition("[")[2].rstrip("]"): c for c in cases}
        assert sorted(outcomes) == sorted(items)
        assert {i for i, c in outcomes.items() if c.find("error") is not None} == lost


# -- the controller alone: random report sequences ------------------------------------------


def _controller(tmp_path: Path, scheduled: list[str]) -> TauController:
    config: Any = SimpleNamespace(
        getoption=lambda name, default=None: default,
        stash={},
        pluginmanager=SimpleNamespace(get_plugin=lambda name: None),
        hook=SimpleNamespace(pytest_tau_item_result=lambda **kw: None, pytest_tau_run_summary=lambda **kw: None),
        rootpath=tmp_path,
        getini=lambda name: [],
        option=SimpleNamespace(collectonly=False),
    )
    controller = TauController(config, Settings(agent_strategy="oracle", user_strategy="scripted"), tmp_path / "run", announce=False)
    controller.pytest_xdist_node_collection_finished(None, [f"t.py::test_toy[{i}]" for i in scheduled])
    return controller


def _result(item: str, status: str) -> dict[str, Any]:
    task, trial = item.split("-")[1], int(item[-1])
    return ItemResult(
        item=item, domain="toy", task=task, trial=trial, seed=item_seed(0, "toy", task, trial),
        status=status, reward=None if status == "error" else float(status == "passed"),
        end_reason="error" if status == "error" else "user_stop",
    ).model_dump(mode="json")


def _report(nodeid: str, *, failed: bool, result: dict[str, Any] | None) -> Any:
    report = pytest.TestReport(nodeid, ("t.py", None, "t"), {}, "failed" if failed else "passed", "boom" if failed else None, "call")
    if result is not None:
        report.tau_result = result  # type: ignore[attr-defined]
    return report


def test_the_controller_accounts_for_every_scheduled_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 random sessions: each item reports a result, a result then a late crash, a crash
    (xdist's report without a result), or nothing at all. Whatever happens, the summary
    counts every item once, an item without a result is an error, complete only when all
    have one, and the exit code says incomplete."""
    monkeypatch.setattr(TauController, "_domain_names", lambda self: ["toy"])
    monkeypatch.setattr("pytest_tau._reports.write_run_outputs", lambda *a, **k: None)
    monkeypatch.setattr("pytest_tau._gate.evaluate_gate", lambda *a, **k: None)  # bootstraps: slow, beside the point
    rng = random.Random(7)
    for case in range(300):
        count = rng.randint(1, len(ITEMS))
        items = rng.sample(ITEMS, count)
        controller = _controller(tmp_path / str(case), items)
        fates = {item: rng.choice(["passed", "failed", "error", "crash", "late-crash", "silent"]) for item in items}
        for item, fate in fates.items():
            nodeid = f"t.py::test_toy[{item}]"
            if fate in ("passed", "failed", "error", "late-crash"):
                status = "passed" if fate == "late-crash" else fate
                controller.pytest_runtest_logreport(_report(nodeid, failed=status != "passed", result=_result(item, status)))
            if fate in ("crash", "late-crash"):
                controller.pytest_runtest_logreport(_report(nodeid, failed=True, result=None))
        session: Any = SimpleNamespace(shouldfail=False, shouldstop=False)
        controller.pytest_sessionfinish(session, 1)
        summary = controller.summary
        assert summary is not None
        unresolved = {i for i, f in fates.items() if f in ("error", "crash", "silent")}
        assert summary.items == count
        assert summary.errors == len(unresolved)
        assert summary.complete is (not unresolved)
        assert controller.exit_status(1) == (EXIT_INCOMPLETE if unresolved else 1)
        lines = (tmp_path / str(case) / "run" / "results.jsonl").read_bytes().splitlines()
        assert sorted(ItemResult.model_validate_json(line).item for line in lines) == sorted(items)


def test_items_not_run_because_the_run_stopped_make_it_incomplete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TauController, "_domain_names", lambda self: ["toy"])
    monkeypatch.setattr("pytest_tau._reports.write_run_outputs", lambda *a, **k: None)
    monkeypatch.setattr("pytest_tau._gate.evaluate_gate", lambda *a, **k: None)  # bootstraps: slow, beside the point
    controller = _controller(tmp_path, ITEMS[:3])
    controller.pytest_runtest_logreport(_report(f"t.py::test_toy[{ITEMS[0]}]", failed=True, result=_result(ITEMS[0], "failed")))
    controller.pytest_sessionfinish(SimpleNamespace(shouldfail="stopping after 1 failures", shouldstop=False), 1)  # type: ignore[arg-type]
    assert controller.summary is not None
    assert controller.summary.complete is False
    assert controller.summary.stopped == "stopping after 1 failures; 2 selected item(s) not run"


def test_item_ids_from_node_ids() -> None:
    """The xdist controller names items from node ids; domain names and task ids may hold dashes."""
    from pytest_tau._controller import Scheduled, scheduled_from_nodeid

    found = scheduled_from_nodeid("tests_domains/a/test_a.py::test_a[my-shop-T-1-t3]", ["my", "my-shop"], 5)
    assert found == Scheduled("my-shop-T-1-t3", "tests_domains/a/test_a.py::test_a[my-shop-T-1-t3]", "my-shop", "T-1", 3, item_seed(5, "my-shop", "T-1", 3))
    assert scheduled_from_nodeid("tests/test_x.py::test_plain[1-t2]", ["toy"], 0) is None
    assert scheduled_from_nodeid("tests/test_x.py::test_plain", ["toy"], 0) is None


def test_usage_counts_every_attempt_of_a_resumed_item() -> None:
    """--resume reruns an errored item: the calls of the errored attempt were paid for too."""
    from pytest_tau._results import UsageRecord, summarize

    base = {"item": "toy-a-t0", "domain": "toy", "task": "a", "trial": 0, "seed": 1}
    errored = ItemResult(**base, status="error", end_reason="error", agent_usage=UsageRecord(calls=5, cost=0.5))
    passed = ItemResult(**base, status="passed", reward=1.0, end_reason="user_stop", agent_usage=UsageRecord(calls=3, cost=0.25))
    summary = summarize([errored, passed], 1)
    assert (summary.items, summary.passed, summary.errors) == (1, 1, 0)
    assert (summary.agent_usage.calls, summary.cost) == (8, 0.75)


def test_a_long_model_name_makes_mt_file_names_that_fit(tmp_path: Path) -> None:
    from pytest_tau._mt import label_for, scores_file, trajectory_file

    model = "openai/" + "a-very-long-fine-tune-name" * 20
    label = label_for(model, "tool-calling")
    assert len(label.encode()) <= 120 and label != label_for(model + "x", "tool-calling")
    for path in (scores_file(tmp_path, "toy", label), trajectory_file(tmp_path, "toy", label, "a_long_task_id" * 4, 3)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")  # no OSError: file name too long
    assert label_for("openai/gpt-4o", "tool-calling") == "openai-gpt-4o"
