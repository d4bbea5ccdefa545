"""--concurrency N: conversations played ahead on threads, reported one item at a time, with
the same results, pass^k and JUnit as a sequential run; human users refused; a 429's
Retry-After holds the whole process; a killed concurrent run resumes to the same summary."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conftest import flaky_oracle
from pytest_tau._prefetch import share
from pytest_tau._ratelimit import RateGate
from pytest_tau.testing import Faults, OpenAIServer, Reply

ITEMS = 12  # 3 toy tasks x 4 trials


class InFlight:
    """A handler wrapper that holds each answer a moment and counts the answers held at once."""

    def __init__(self, handler: Any, hold: float = 0.05) -> None:
        self.handler = handler
        self.hold = hold
        self.now = self.peak = 0
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            time.sleep(self.hold)
            return self.handler(request)
        finally:
            with self.lock:
                self.now -= 1


def lines(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def comparable(summary: dict[str, Any]) -> dict[str, Any]:
    return {key: summary[key] for key in ("items", "passed", "failed", "errors", "pass_hat_k", "domains")}


def junit_cases(path: Path) -> list[tuple[str, str, str]]:
    """(classname, name, outcome) per testcase, sorted: what a CI server shows."""
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        cases.append((case.get("classname", ""), case.get("name", ""), outcome))
    return sorted(cases)


def per_item_of(results: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {r["item"]: (r["status"], r["reward"], r["steps"], r["turns"], r["end_reason"]) for r in results}


def per_item(run_dir: Path) -> dict[str, tuple[Any, ...]]:
    return per_item_of(lines(run_dir))


def test_same_results_pass_k_and_junit_as_sequential(tau, toy_domain) -> None:
    in_flight = InFlight(flaky_oracle(toy_domain))
    with OpenAIServer(in_flight) as server:
        common = ("--trials", "4", "--model", "openai/fake", "--api-base", server.url, "-v")
        sequential = tau.pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", *tau.xdist, *common, "--concurrency", "1",
            "--run-dir", str(tau.path / "seq"), "--junitxml", str(tau.path / "seq.xml"),
        )
        sequential_peak, in_flight.peak = in_flight.peak, 0
        concurrent = tau.pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", *tau.xdist, *common, "--concurrency", "4",
            "--run-dir", str(tau.path / "conc"), "--junitxml", str(tau.path / "conc.xml"),
        )
        concurrent_peak = in_flight.peak
    assert sequential.ret == concurrent.ret == 1  # the flaky oracle fails some items
    processes = 2 if tau.xdist else 1
    assert sequential_peak <= processes
    assert concurrent_peak > processes  # more conversations in flight than processes
    seq, conc = json.loads((tau.path / "seq" / "summary.json").read_text()), json.loads((tau.path / "conc" / "summary.json").read_text())
    assert seq["items"] == ITEMS
    assert comparable(conc) == comparable(seq)
    assert per_item(tau.path / "conc") == per_item(tau.path / "seq")
    assert junit_cases(tau.path / "conc.xml") == junit_cases(tau.path / "seq.xml")
    if not tau.xdist:  # one process: items report in collection order, as in a sequential run
        assert [r["item"] for r in lines(tau.path / "conc")] == [r["item"] for r in lines(tau.path / "seq")]
        order = [line.split(" ")[0] for line in concurrent.outlines if "::test_toy[" in line and line.split(" ")[0].endswith("]")]
        assert order == [line.split(" ")[0] for line in sequential.outlines if "::test_toy[" in line and line.split(" ")[0].endswith("]")]
        assert len(order) == ITEMS


def test_order_is_deterministic_within_each_worker(tau, toy_domain) -> None:
    """Each process reports its items in collection order (under xdist: worker k its k-th
    contiguous block), run after run."""
    listed = tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "--trials", "4")
    collected = [line.split("::test_toy[")[1].rstrip("]") for line in listed.outlines if "::test_toy[" in line]
    assert len(collected) == ITEMS
    expected = {"gw0": collected[:6], "gw1": collected[6:]} if tau.xdist else {"main": collected}
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        for name in ("a", "b"):
            result = tau.run("--trials", "4", "--model", "openai/fake", "--api-base", server.url, "--concurrency", "3",
                             "--run-dir", str(tau.path / name), "-v")
            assert result.ret == 1
            by_worker: dict[str, list[str]] = {}
            for line in result.outlines:
                # Verbose report lines: "[gwK] [ n%] PASSED ..." under xdist, "tests_domains/... PASSED" without.
                if "::test_toy[" not in line or not line.startswith("[gw" if tau.xdist else "tests_domains"):
                    continue
                worker = line[1:4] if line.startswith("[gw") else "main"
                by_worker.setdefault(worker, []).append(line.split("::test_toy[")[1].split("]")[0])
            assert by_worker == expected


def test_human_user_refused_with_concurrency(tau) -> None:
    result = tau.run("--user-strategy", "human", "-s", "--concurrency", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stderr.str()
    if tau.xdist:
        assert "--user-strategy human" in text
    else:
        assert "--user-strategy human plays one conversation at a time; drop --concurrency 2" in text


def test_429_retry_after_holds_every_conversation_of_the_process(tau, toy_domain, flaky_reference) -> None:
    """Integration: 429s with Retry-After under --concurrency lose no item and change no result
    (the reference: the same items run one at a time, without a 429)."""
    with OpenAIServer(flaky_oracle(toy_domain), Faults(retry_after=0.05)) as server:
        server.inject(*(["429"] * 6))
        limited = tau.run("--trials", "4", "--model", "openai/fake", "--api-base", server.url, "--concurrency", "4",
                          "--llm-backoff", "0.01", "--run-dir", str(tau.path / "limited"))
        sent = server.fault_log["429"]
    assert sent == 6
    assert flaky_reference.returncode == limited.ret == 1
    assert per_item(tau.path / "limited") == per_item_of(flaky_reference.results)


def test_a_429_of_one_conversation_makes_the_others_wait(monkeypatch) -> None:
    """Unit, over the real litellm path: A gets a 429 (Retry-After 30 s); B, another conversation
    of the same process, waits for it before its own call instead of calling at once."""
    from pytest_tau import _ratelimit
    from pytest_tau._llm import LLM, ModelConfig

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gate = RateGate()
    monkeypatch.setattr(_ratelimit, "GATE", gate)
    with OpenAIServer(lambda request: Reply(content="hi"), Faults(retry_after=30)) as server:
        config = ModelConfig(model="openai/fake", api_base=server.url, retries=2, backoff=0.0)
        slept_a: list[float] = []
        slept_b: list[float] = []
        a = LLM(config, seed=1, sleep=slept_a.append)
        b = LLM(config, seed=2, sleep=slept_b.append)
        server.inject("429")
        a.complete([{"role": "user", "content": "hello"}])
        b.complete([{"role": "user", "content": "hello"}])
    assert len(slept_a) == 1 and 30 <= slept_a[0] <= 60  # its own Retry-After, spread, once
    assert len(slept_b) == 1 and 29 <= slept_b[0] <= 60  # held by A's 429


def test_rate_gate_units() -> None:
    now = [100.0]
    gate = RateGate(clock=lambda: now[0])
    slept: list[float] = []
    assert gate.wait(slept.append, 0.5) == 0.0 and slept == []
    own = gate.hold(2.0)
    assert gate.wait(slept.append, 0.5, own) == 0.0  # the caller that slept through its own hold
    assert gate.wait(slept.append, 0.5) == pytest.approx(3.0)  # 2 s left + half the hold
    gate.hold(1.0)  # a shorter hold never shortens the gate
    now[0] += 2.5
    assert gate.wait(slept.append, 0.0) == 0.0


def test_rate_gate_paces_at_the_served_rate_after_a_429() -> None:
    now = [100.0]
    gate = RateGate(clock=lambda: now[0])
    starts: list[float] = []

    def sleep(seconds: float) -> None:
        now[0] += seconds

    for _ in range(3):  # too few answers to measure a rate: a 429 only holds, as before
        gate.end_call("m", False, answered=True)
    gate.hold(0.1)
    assert gate.pace == 0.0
    for _ in range(7):  # 10 answers within the last 2 s: 5 per second served
        now[0] += 0.1
        gate.end_call("m", False, answered=True)
    own = gate.hold(0.1)
    assert gate.pace == pytest.approx(0.2)
    # Callers start one pace apart from the moment the gate opens, in the order they came.
    for _ in range(3):
        gate.wait(sleep, 0.9)
        starts.append(now[0])
    assert starts == pytest.approx([own, own + 0.2, own + 0.4])
    now[0] += 1.0
    gate.end_call("m", False, answered=True)
    # 1.5 s since the 429 without another: the rate at least doubles each second ...
    assert gate.pace == pytest.approx(0.2 * 0.5**1.5)
    gate.end_call("m", False, answered=True)
    assert gate.pace == pytest.approx(0.2 * 0.5**1.5 * 0.97)  # ... and every answer shortens the gap a little
    assert gate.wait(sleep, 0.9) == 0.0  # its turn is already due


def test_a_pace_that_climbs_moves_the_turns_of_callers_already_waiting() -> None:
    """A process paced at its share of a limit that another process shares: when the other
    finishes, answers come faster and the pace climbs. Turns are booked at most one pace ahead,
    so callers already waiting start at the new pace, not at turns booked at the old one."""
    now = [100.0]
    gate = RateGate(clock=lambda: now[0])
    for _ in range(4):  # 4 answers in 2 s: a 429 paces at 2 calls/s
        now[0] += 0.5
        gate.end_call("m", False, answered=True)
    gate.hold(0.0)
    assert gate.pace == pytest.approx(0.5)

    def sleep(seconds: float) -> None:  # meanwhile answers keep coming: the pace climbs
        now[0] += seconds
        for _ in range(4):
            gate.end_call("m", False, answered=True)

    starts = []
    for _ in range(3):
        gate.wait(sleep, 0.0)
        starts.append(now[0])
    assert starts[0] == pytest.approx(102.0)
    assert starts[1] == pytest.approx(102.5)  # booked one pace (0.5 s) after the first
    # Its turn follows the pace of the moment (0.5 s, a 0.5 s wait, then three more answers):
    # 102.82, where the turn booked at the old pace was 103.0.
    assert starts[2] == pytest.approx(102.5 + 0.5 * 0.5**0.5 * 0.97**3)


def test_conversations_sharing_a_limit_do_not_stampede_it(monkeypatch) -> None:
    """Over the real litellm path: 32 conversations of one process against a 20 requests/s
    limit with a short Retry-After. Released all at once after each 429, they met the limit
    again together (80 429s for 128 answers here); paced at the served rate, far fewer."""
    from pytest_tau import _ratelimit
    from pytest_tau._llm import LLM, ModelConfig

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setattr(_ratelimit, "GATE", RateGate())
    with OpenAIServer(lambda request: Reply(content="hi"), Faults(rate_limit_rps=20, retry_after=0.05)) as server:
        config = ModelConfig(model="openai/fake", api_base=server.url, retries=2, backoff=0.01)
        failures: list[BaseException] = []

        def converse(seed: int) -> None:
            llm = LLM(config, seed=seed)
            try:
                for _ in range(4):
                    llm.complete([{"role": "user", "content": "hello"}])
            except BaseException as exc:  # reported below, not lost in the thread
                failures.append(exc)

        threads = [threading.Thread(target=converse, args=(seed,)) for seed in range(32)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        answered, refused = server.served, server.fault_log["rate_limited"]
    assert not failures and answered == 128
    assert refused < 0.5 * answered, f"{refused} 429s for {answered} answers"


def test_share_covers_the_collection_in_contiguous_blocks() -> None:
    for total in (0, 1, 5, 12, 13):
        for workers in (1, 2, 3, 16):
            blocks = [list(share(total, k, workers)) for k in range(workers)]
            assert [i for block in blocks for i in block] == list(range(total))
            assert max(map(len, blocks)) - min(map(len, blocks)) <= 1
    assert list(share(10, 5, 2)) == []


def test_kill_9_of_a_concurrent_run_then_resume(tau, toy_domain, flaky_reference) -> None:
    def args(run_dir: Path, *extra: str) -> list[str]:
        return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *tau.xdist, "--trials", "4", "--model",
                "openai/fake", "--api-base", server.url, "--concurrency", "3", "--run-dir", str(run_dir), *extra]

    expected = flaky_reference.summary
    with OpenAIServer(flaky_oracle(toy_domain), Faults(latency=0.1)) as server:
        crashed = tau.path / "crashed"
        process = subprocess.Popen(args(crashed), cwd=tau.path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        deadline = time.monotonic() + 120
        while len(lines(crashed)) < 2:
            assert process.poll() is None, "the run ended before the kill"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGKILL)  # the whole run, workers and conversations in flight
        process.wait(timeout=60)
        finished = {r["item"] for r in lines(crashed)}
        assert 2 <= len(finished) < ITEMS and len(finished) == len(lines(crashed))
        resumed = subprocess.run(args(crashed, "--resume", str(crashed)), cwd=tau.path, capture_output=True, text=True,
                                 timeout=300)
    assert resumed.returncode == 1, resumed.stdout[-3000:]
    reran = [r["item"] for r in lines(crashed)][len(finished):]
    assert not set(reran) & finished
    assert sorted(reran + sorted(finished)) == sorted(r["item"] for r in flaky_reference.results)
    assert comparable(json.loads((crashed / "summary.json").read_text())) == comparable(expected)


def test_lean_openai_transform_gives_the_sdk_result() -> None:
    """The shortcut in front of the openai SDK's request transform returns what the SDK would
    for a chat request of plain JSON (tools, history, tool calls), and defers otherwise."""
    import datetime as dt

    from openai._types import NOT_GIVEN
    from openai._utils._transform import maybe_transform as sdk_transform
    from openai.resources.chat.completions import completions
    from openai.types.chat import completion_create_params

    from pytest_tau._lean import install, json_native
    from pytest_tau._llm import import_litellm

    import_litellm()
    install()
    assert completions.maybe_transform is not sdk_transform
    tools = [{"type": "function", "function": {"name": "f", "description": "d" * 200, "parameters": {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"type": "string"}}},
        "required": ["a"]}}}] * 5
    data = {
        "model": "fake", "temperature": 0.0, "seed": 3, "tools": tools, "stream": NOT_GIVEN, "audio": NOT_GIVEN,
        "messages": [
            {"role": "system", "content": "policy " * 50},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    kind = completion_create_params.CompletionCreateParamsNonStreaming
    assert completions.maybe_transform(data, kind) == sdk_transform(data, kind)
    assert not json_native({"when": dt.datetime(2026, 1, 1)})
    dated = {**data, "metadata": {"when": dt.datetime(2026, 1, 1)}}
    assert completions.maybe_transform(dated, kind) == sdk_transform(dated, kind)  # deferred to the SDK


def test_a_rejected_key_costs_one_call_not_one_per_conversation(tau, toy_domain) -> None:
    """Until the model has answered once, a process sends one call at a time: a 401 stops the
    run after one call per process, as without --concurrency."""
    with OpenAIServer(flaky_oracle(toy_domain), Faults(status=401)) as server:
        result = tau.run("--trials", "4", "--model", "openai/fake", "--api-base", server.url, "--concurrency", "4")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stdout.fnmatch_lines(["*STOPPED: cannot use the model: 'openai/fake'*(401)*"])
    assert 1 <= server.fault_log["401"] <= (2 if tau.xdist else 1)


def test_the_head_starts_first_then_the_longest_conversations() -> None:
    """A long conversation started last runs on alone while the other threads sit idle: within
    a batch, the next item to report goes first and the rest longest first."""
    from types import SimpleNamespace

    from pytest_tau._case import Case
    from pytest_tau._prefetch import Prefetcher

    def item(name: str, gold: int, lines: int) -> Any:
        task = SimpleNamespace(gold_actions=[None] * gold, user=SimpleNamespace(script=["line"] * lines))
        case = Case(domain=None, task=task, trial=0, seed=0)  # type: ignore[arg-type]
        return SimpleNamespace(nodeid=name, callspec=SimpleNamespace(params={"tau_case": case}))

    submitted: list[str] = []

    class Recorder:
        def submit(self, play: Any, it: Any, built: Any) -> Any:
            submitted.append(it.nodeid)
            return None

    prefetcher = Prefetcher(config=None, settings=None, concurrency=1, slot=None)  # type: ignore[arg-type]
    prefetcher.executor = Recorder()  # type: ignore[assignment]
    lengths = {"a": (1, 1), "b": (4, 1), "c": (0, 1), "d": (6, 3), "e": (2, 1), "f": (5, 4), "g": (9, 9)}
    prefetcher.queue.extend(item(name, *length) for name, length in lengths.items())
    prefetcher._fill()  # a window of 4 x concurrency: a, b, c, d
    assert submitted == ["a", "d", "b", "c"]
    prefetcher.futures.pop("a")
    prefetcher._fill()  # one place freed: the next in order
    assert submitted[4:] == ["e"]
