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
    deadline = time.monotonic() + 60
    while len(lines(run_dir)) < count:
        assert process.poll() is None, "the run ended before the kill"
        assert time.monotonic() < deadline
        time.sleep(0.05)


def comparable(summary: dict) -> dict:
    return {key: summary[key] for key in ("items", "passed", "failed", "errors", "pass_hat_k", "domains")}


def test_kill_9_then_resume_gives_the_uninterrupted_summary(tau, toy_domain) -> None:
    with OpenAIServer(flaky_oracle(toy_domain), Faults(latency=0.05)) as server:
        reference = tau.path / "reference"
        subprocess.run(run_args(tau, server, reference), cwd=tau.path, capture_output=True, timeout=300)
        expected = json.loads((reference / "summary.json").read_text())
        assert expected["items"] == ITEMS

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
            assert ITEMS - 1 <= len(lines(crashed)) <= ITEMS
        else:  # kill the whole run: what finished is kept
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=60)
            assert 3 <= len(lines(crashed)) < ITEMS
        finished = {r["item"] for r in lines(crashed)}
        assert len(finished) == len(lines(crashed))

        resumed = subprocess.run(run_args(tau, server, crashed, "--resume", str(crashed), "-v"), cwd=tau.path,
                                 capture_output=True, text=True, timeout=300)
    assert resumed.returncode in (0, 1), resumed.stdout[-3000:]
    reran = [r["item"] for r in lines(crashed)][len(finished):]
    assert sorted(reran + sorted(finished)) == sorted({r["item"] for r in lines(reference)})
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
