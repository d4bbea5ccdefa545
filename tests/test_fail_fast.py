"""A rejected key, an unknown model or an unreachable endpoint stop the run at once, in one line."""

from __future__ import annotations

import json
import socket

import pytest

from pytest_tau.testing import Faults, OpenAIServer, OracleModel


def run(tau, api_base: str, *extra: str):
    return tau.run("--model", "openai/fake", "--api-base", api_base, "--trials", "4", "--llm-backoff", "5",
                   "--llm-retries", "8", *extra)


def assert_stopped(tau, result, reason: str) -> None:
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:]
    result.stdout.fnmatch_lines([f"*STOPPED: cannot use the model: 'openai/fake'*{reason}*"])
    output = result.stdout.str()
    assert "past its retries" not in output and "Traceback" not in output
    items = [json.loads(line) for line in (tau.run_dir / "results.jsonl").read_text().splitlines()]
    assert len(items) < 12  # stopped: not every item tried (each at most one per worker)


@pytest.mark.parametrize(("status", "reason"), [(401, "API key was rejected (401)"), (404, "no such model or endpoint (404)")])
def test_auth_and_not_found_stop_the_run(tau, toy_domain, status, reason) -> None:
    with OpenAIServer(OracleModel([toy_domain]), Faults(status=status)) as server:
        result = run(tau, server.url)
    assert_stopped(tau, result, reason)
    assert server.fault_log[str(status)] <= 2 * 2  # no retries: one call per item, at most one item per worker or two


def test_unreachable_endpoint_stops_the_run(tau) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run(tau, f"http://127.0.0.1:{port}/v1")
    assert_stopped(tau, result, "cannot reach")
