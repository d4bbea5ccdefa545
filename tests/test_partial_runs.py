"""-x, --maxfail and Ctrl-C stop a run early: summary.json and JUnit say complete: false."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest


def summary(tau) -> dict:
    return json.loads((tau.run_dir / "summary.json").read_text())


@pytest.mark.parametrize("stop", [["-x"], ["--maxfail", "1"]])
def test_stopping_early_is_incomplete(tau, stop) -> None:
    result = tau.run("--agent-strategy", "do-nothing", "--trials", "3", "--junitxml", "junit.xml", *stop)
    assert result.ret != 0
    data = summary(tau)
    assert data["items"] < 9
    assert data["complete"] is False and data["stopped"]
    result.stdout.fnmatch_lines(["*INCOMPLETE: the run stopped early*"])
    props = {p.get("name"): p.get("value") for p in ET.parse(tau.path / "junit.xml").getroot().iter("property")}
    assert props["tau.complete"] == "false"


def test_a_full_run_is_complete(tau) -> None:
    tau.run("--agent-strategy", "do-nothing")
    assert summary(tau)["complete"] is True and summary(tau)["stopped"] is None


def test_ctrl_c_is_incomplete(tau) -> None:
    if tau.xdist:
        pytest.skip("a KeyboardInterrupt inside an xdist worker is a worker crash, not Ctrl-C")
    (tau.path / "conftest.py").write_text(
        "def pytest_runtest_teardown(item):\n"
        "    if item.name.endswith('loan_dune-t0]'):\n"
        "        raise KeyboardInterrupt\n"
    )
    result = tau.run(in_subprocess=True)  # a KeyboardInterrupt in this process would stop this session too
    assert result.ret == pytest.ExitCode.INTERRUPTED
    data = summary(tau)
    assert data["complete"] is False and data["stopped"].startswith("interrupted")
