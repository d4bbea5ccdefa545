"""`--durations`: the conversation's time is reported under "call", setup stays small;
an infrastructure error in the call phase is still an error (terminal, JUnit, results)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import TauRunner

CONFTEST = '''
import time

from pytest_tau import AgentStep, InfraError, StrategyInfo, Usage


class SlowAgent:
    """Thinks 0.4 s, then says goodbye."""

    def __init__(self, context):
        self.usage = Usage()

    def step(self, messages):
        time.sleep(0.4)
        return AgentStep(content="Goodbye.")


class DownAgent:
    def __init__(self, context):
        self.usage = Usage()

    def step(self, messages):
        raise InfraError("model service unavailable past its retries")


def pytest_tau_declare_strategies(config):
    return [StrategyInfo("agent", "slow", "sleeps"), StrategyInfo("agent", "down", "raises InfraError")]


def pytest_tau_make_agent(config, name, context):
    return {"slow": SlowAgent, "down": DownAgent}.get(name, lambda c: None)(context)
'''

LINE = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S+)")


def durations(output: str) -> dict[tuple[str, str], float]:
    found = {}
    for line in output.splitlines():
        match = LINE.match(line)
        if match:
            found[(match[3].rsplit("[", 1)[-1].rstrip("]"), match[2])] = float(match[1])
    return found


def test_the_conversation_is_timed_in_the_call_phase(tau: TauRunner) -> None:
    (tau.path / "conftest.py").write_text(CONFTEST)
    result = tau.run("--agent-strategy", "slow", "--durations=0", "--durations-min=0")
    result.assert_outcomes(failed=3)
    times = durations(result.stdout.str())
    items = {item for item, _ in times}
    assert len(items) == 3, result.stdout.str()
    for item in items:
        assert times[(item, "call")] >= 0.35, times  # one agent step of 0.4 s
        assert times.get((item, "setup"), 0.0) < 0.35, times


def test_under_concurrency_setup_does_not_wait_for_the_conversation(tau: TauRunner) -> None:
    """--concurrency plays the conversations ahead on threads: an item's setup takes its
    environment, user and agent without waiting, and the call phase waits for the rest of
    its conversation (the first item's: most of its 0.4 s)."""
    (tau.path / "conftest.py").write_text(CONFTEST)
    result = tau.run("--agent-strategy", "slow", "--concurrency", "3", "--durations=0", "--durations-min=0")
    result.assert_outcomes(failed=3)
    times = durations(result.stdout.str())
    items = sorted({item for item, _ in times})
    assert len(items) == 3, result.stdout.str()
    assert all(times.get((item, "setup"), 0.0) < 0.3 for item in items), times
    assert max(times[(item, "call")] for item in items) >= 0.2, times


def test_an_infrastructure_error_while_playing_is_an_error(tau: TauRunner) -> None:
    (tau.path / "conftest.py").write_text(CONFTEST)
    result = tau.run("--agent-strategy", "down", "--junitxml", "junit.xml", "--durations=0", "--durations-min=0")
    result.assert_outcomes(errors=3)
    assert result.ret == 6  # incomplete, not "items failed"
    result.stdout.fnmatch_lines(["*ERROR at call of test_toy*", "*model service unavailable past its retries*"])
    assert "Traceback" not in result.stdout.str()  # one line, no harness traceback
    suite = ET.parse(tau.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("errors") == "3" and suite.get("failures") == "0"
    for case in suite.findall("testcase"):
        error = case.find("error")
        assert case.find("failure") is None and error is not None
        assert "model service unavailable" in error.get("message", "")
    rows = [json.loads(line) for line in (tau.run_dir / "results.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["error"] * 3
