"""`--tau-progress`: a live line on an interactive terminal, plain lines in CI logs, quiet under -q."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from typing import TYPE_CHECKING

import pytest

from pytest_tau._progress import Tally, progress_mode

if TYPE_CHECKING:
    from tests.conftest import TauRunner

PLAIN = re.compile(r"^pytest-tau progress: (\d+)/3 items, pass ([\d.]+|-), \$[\d.]+, (\d+) retries(?:, \d+ errors)?, ETA \S+$")


def test_auto_is_live_on_a_terminal_plain_in_ci_off_under_q() -> None:
    assert progress_mode("auto", isatty=True, ci=False, verbosity=0) == "live"
    assert progress_mode("auto", isatty=True, ci=True, verbosity=0) == "plain"
    assert progress_mode("auto", isatty=False, ci=False, verbosity=1) == "plain"
    assert progress_mode("auto", isatty=True, ci=False, verbosity=-1) == "off"
    assert progress_mode("live", isatty=False, ci=True, verbosity=-1) == "live"


def test_the_tally_counts_first_attempts_and_estimates_what_is_left() -> None:
    tally = Tally(total=4)
    usage = {"cost": 0.25, "retries": 2}
    tally.add({"item": "a", "status": "passed", "agent_usage": usage, "user_usage": {"cost": 0.05}})
    tally.add({"item": "b", "status": "failed", "agent_usage": usage})
    tally.add({"item": "b", "status": "passed", "agent_usage": usage})  # a --reruns attempt
    assert tally.line(elapsed=20.0) == "pytest-tau progress: 2/4 items, pass 0.500, $0.5500, 5 retries, ETA 20s"
    tally.add({"item": "c", "status": "error"})
    assert tally.line(elapsed=3 * 1500.0).endswith("1 errors, ETA 25m00s")


def test_plain_lines_in_a_ci_log(tau: TauRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = tau.run("--tau-progress-interval", "0")  # a line after every item
    result.assert_outcomes(passed=3)
    lines = [line for line in result.stdout.lines if line.startswith("pytest-tau progress")]
    assert [PLAIN.match(line)[1] for line in lines if PLAIN.match(line)] == ["1", "2", "3"], result.stdout.str()
    assert "\x1b[" not in result.stdout.str()
    assert lines[-1].startswith("pytest-tau progress: 3/3 items, pass 1.000, $0.0000, 0 retries")


def test_a_long_interval_prints_only_the_last_line_and_q_prints_none(tau: TauRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = tau.run()  # default interval 60 s: only the line at the last item
    result.assert_outcomes(passed=3)
    assert [line[:36] for line in result.stdout.lines if line.startswith("pytest-tau progress")] == [
        "pytest-tau progress: 3/3 items, pass"
    ]
    quiet = tau.run("-q", "--tau-progress-interval", "0")
    quiet.assert_outcomes(passed=3)
    assert "pytest-tau progress" not in quiet.stdout.str()


def _run_in_terminal(tau: TauRunner, *args: str) -> str:
    """pytest with stdout on a pseudo-terminal (what a person at a shell sees)."""
    import pty  # POSIX only, like the terminals this is for

    tau.start_fresh()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "PYTEST_ADDOPTS")}
    env["COLUMNS"] = "120"
    primary, secondary = pty.openpty()
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--run-dir", str(tau.run_dir), *tau.xdist, *args]
    process = subprocess.Popen(command, cwd=tau.path, stdin=subprocess.DEVNULL, stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    chunks = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    process.wait(timeout=60)
    return b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")  # the terminal's newline


def test_a_live_line_on_an_interactive_terminal(tau: TauRunner) -> None:
    output = _run_in_terminal(tau)
    assert re.search(r"3 passed", output), output
    # Drawn below pytest's line and back up again, never as a plain log line.
    drawn = re.findall(r"\x1b\[K\n\x1b\[2K(pytest-tau progress: [^\x1b]*)\x1b\[1A\r", output)
    assert drawn and drawn[-1].startswith("pytest-tau progress: 3/3 items, pass 1.000"), repr(output[-3000:])
    assert output.count("\x1b[K\n\x1b[2K\x1b[1A\r") >= 1  # erased before the summary
    assert output.count("pytest-tau progress") == output.count("\x1b[2Kpytest-tau progress")  # only ever drawn
    quiet = _run_in_terminal(tau, "-q")
    assert "3 passed" in quiet and "pytest-tau progress" not in quiet
