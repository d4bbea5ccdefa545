"""Crash safety: a killed run loses only in-flight items; --resume reruns only what is missing
and ends with the same summary as an uninterrupted run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import flaky_oracle
from pytest_tau.testing import Faults, OpenAIServer

ITEMS = 12  # 3 toy tasks x 4 trials


def run_args(tau, server: OpenAIServer, run_dir: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *tau.xdist, "--trials", "4",
        "--model", "openai/fake", "--api-base", server.url, "--run-dir", str(run_dir), *extra,
    ]


def lines(run_dir: Path) -> list[dict]:
    path = run_dir / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def wait_for_results(run_dir: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120  # a loaded machine starts litellm slowly
    while len(lines(run_dir)) < count:
        assert process.poll() is None, "the run ended before the kill"
        assert time.monotonic() < deadline
        time.sleep(0.05)


def comparable(summary: dict) -> dict:
    return {key: summary[key] for key in ("items", "passed", "failed", "errors", "pass_hat_k", "domains")}


def test_kill_9_then_resume_gives_the_uninterrupted_summary(tau, toy_domain, flaky_reference) -> None:
    expected = flaky_reference.summary
    assert expected["items"] == ITEMS
    with OpenAIServer(flaky_oracle(toy_domain), Faults(latency=0.05)) as server:
        crashed = tau.path / "crashed"
        process = subprocess.Popen(run_args(tau, server, crashed), cwd=tau.path, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        wait_for_results(crashed, 3, process)
        if tau.xdist:  # kill one worker: only its in-flight item is lost, the run goes on
            workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
            assert workers, "no xdist workers found"
            subprocess.run(["kill", "-9", workers[0]], check=True)
            output = process.communicate(timeout=300)[0].decode()
            assert "crashed while running" in output or "worker" in output
            # The killed worker's in-flight item is an error line (never silently lost).
            assert len(lines(crashed)) == ITEMS
            assert any(r["status"] == "error" and "lost item" in r["error"] for r in lines(crashed))
        else:  # kill the whole run: what finished is kept
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=60)
            assert 3 <= len(lines(crashed)) < ITEMS
        assert len({r["item"] for r in lines(crashed)}) == len(lines(crashed))
        finished = {r["item"] for r in lines(crashed) if r["status"] != "error"}
        before = len(lines(crashed))

        resumed = subprocess.run(run_args(tau, server, crashed, "--resume", str(crashed), "-v"), cwd=tau.path,
                                 capture_output=True, text=True, timeout=300)
    assert resumed.returncode in (0, 1), resumed.stdout[-3000:]
    reran = [r["item"] for r in lines(crashed)][before:]
    assert sorted(reran + sorted(finished)) == sorted({r["item"] for r in flaky_reference.results})
    assert not set(reran) & finished
    actual = json.loads((crashed / "summary.json").read_text())
    assert comparable(actual) == comparable(expected)


def test_resume_of_a_finished_run_runs_nothing_and_exits_0(tau, toy_domain) -> None:
    tau.run().assert_outcomes(passed=3)
    result = tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", *tau.xdist, "--resume", str(tau.run_dir))
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["toy * 3 * 3 * 0 * 1.000"])


def test_resume_needs_a_run_directory(tau, tmp_path) -> None:
    result = tau.run("--resume", str(tmp_path / "nowhere"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--resume*no results.jsonl there*"])


def test_resume_keeps_earlier_failures_in_exit_code_summary_and_junit(tau) -> None:
    first = tau.run("--agent-strategy", "do-nothing")
    assert first.ret == pytest.ExitCode.TESTS_FAILED
    result = tau.pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *tau.xdist, "--agent-strategy", "do-nothing", "--resume", str(tau.run_dir),
        "--junitxml", "junit.xml",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["failed"] == 3 and summary["pass_hat_k"] == {"1": 0.0}
    import xml.etree.ElementTree as ET

    suite = ET.parse(tau.path / "junit.xml").getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 3 and all(c.find("failure") is not None for c in cases)
    assert suite.get("failures") == "3" and suite.get("tests") == "3"
    assert {c.get("name") for c in cases} == {f"test_toy[toy-{t}-t0]" for t in ("fines_then_loan", "loan_dune", "refuse_loaned")}


@pytest.mark.parametrize(
    ("option", "value", "named"),
    [("--trials", "2", "--trials was 1, now 2"), ("--seed", "5", "--seed was 0, now 5"),
     ("--agent-strategy", "do-nothing", "--agent-strategy was 'oracle', now 'do-nothing'")],
)
def test_resume_with_other_settings_is_refused(tau, option, value, named) -> None:
    tau.run().assert_outcomes(passed=3)
    result = tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", *tau.xdist, option, value, "--resume", str(tau.run_dir))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--resume*other settings*{named}*same options*"])
