"""--record DIR and --replay DIR: a recorded run replays with zero network calls and identical results."""

from __future__ import annotations

import json

import pytest

from conftest import flaky_oracle
from pytest_tau.testing import OpenAIServer


def results(run_dir) -> dict[str, tuple[str, float | None]]:
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return {r["item"]: (r["status"], r["reward"]) for r in map(json.loads, lines)}


def test_record_then_replay_gives_identical_results_offline(tau, toy_domain) -> None:
    tape = tau.path / "tape"
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        recorded = tau.run("--model", "openai/fake", "--api-base", server.url, "--trials", "3", "--record", str(tape))
        calls = len(server.requests)
    assert recorded.ret == 1 and calls > 0
    assert len(list(tape.glob("*.json"))) == calls
    first = results(tau.run_dir)
    summary = json.loads((tau.run_dir / "summary.json").read_text())

    (tau.run_dir / "results.jsonl").unlink()
    # The server is gone: a replay that reached the network would fail every item.
    replayed = tau.run("--model", "openai/fake", "--api-base", server.url, "--trials", "3", "--replay", str(tape))
    assert replayed.ret == 1
    assert results(tau.run_dir) == first
    again = json.loads((tau.run_dir / "summary.json").read_text())
    assert again["pass_hat_k"] == summary["pass_hat_k"]
    assert again["agent_usage"] == summary["agent_usage"] and again["user_usage"] == summary["user_usage"]


def test_replay_miss_is_a_clear_error(tau, toy_domain) -> None:
    tape = tau.path / "tape"
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        tau.run("--model", "openai/fake", "--api-base", server.url, "--record", str(tape))
    result = tau.run("--model", "openai/fake", "--api-base", "http://127.0.0.1:9/v1", "--seed", "5", "--replay", str(tape))
    assert result.ret == 6
    result.stdout.fnmatch_lines(["*--replay*no recorded response for this request of item toy-*(call 1)*"])


def test_replay_needs_no_api_key(tau, toy_domain, tmp_path) -> None:
    result = tau.run("--model", "gpt-4o", f"--replay={tmp_path}")  # outside the project: "=" (see docs/options.md)
    assert result.ret == 6  # every item misses the (empty) tape; no "missing API key" at start
    assert "missing API key" not in result.stderr.str()


def test_record_and_replay_exclude_each_other(tau, tmp_path) -> None:
    result = tau.run("--model", "openai/fake", "--api-base", "http://127.0.0.1:9/v1", f"--record={tmp_path}", f"--replay={tmp_path}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--record and --replay exclude each other*"])
