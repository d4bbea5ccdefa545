"""Every provider route, offline: a loopback fake of each wire format plays the oracle model,
through litellm's real transformations; what providers refuse, drop or cut."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import TauRunner
from pytest_tau import discover_domains
from pytest_tau._agents import ToolCallingAgent
from pytest_tau._llm import LLM, ModelConfig, Tape
from pytest_tau._scoring import play
from pytest_tau._settings import item_seed
from pytest_tau._users import LLMUser
from pytest_tau.testing import Faults, OpenAIServer, OracleModel, Reply
from pytest_tau.testing.providers import ROUTES, ProviderServer, prompt_tokens

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def domains() -> dict[str, Any]:
    return discover_domains(ROOT)


def _first_task(domain: Any) -> Any:
    return next(task for task in domain.tasks if task.split == "test")


@pytest.fixture
def route_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def apply(server: ProviderServer) -> ProviderServer:
        for name, value in server.environment.items():
            monkeypatch.setenv(name, value)
        return server

    yield apply


def _play(server: ProviderServer, domain: Any, *, tape: Tape | None = None, **config: Any) -> Any:
    task = _first_task(domain)
    seed = item_seed(0, domain.name, task.id, 0)
    item = f"{domain.name}-{task.id}-t0"
    model = ModelConfig(model=server.model, api_base=server.url, **{"retries": 0, "backoff": 0.0, "timeout": 30, **config})
    agent = ToolCallingAgent(LLM(model, seed=seed, tape=tape, item=item), domain.policy, domain.tool_schemas())
    user = LLMUser(LLM(model, seed=seed, tape=tape, item=item), task)
    return play(domain, task, agent, user)


def test_an_empty_user_reply_is_the_simulators_error_not_the_agents(domains, route_env) -> None:
    retail = domains["retail"]
    oracle = OracleModel([retail])
    silent_user = {"calls": 0}

    def handler(request: dict[str, Any]) -> Reply:
        if not request.get("tools"):  # the user simulator: says nothing, however often asked
            silent_user["calls"] += 1
            return Reply(content="")
        return oracle(request)

    with route_env(ProviderServer("openai", handler)) as server:
        trajectory, _ = _play(server, retail)
    assert trajectory.end_reason == "error" and trajectory.steps == 0
    assert "user simulator" in (trajectory.error or "") and silent_user["calls"] == 3


@pytest.mark.parametrize("stops", [1, 3])
def test_a_user_model_that_stops_before_the_agent_spoke_is_asked_again_then_an_error(domains, route_env, stops) -> None:
    """A weak user model that opens with the stop marker (Gemma 3 270M echoed a nudge naming it)
    measured nothing of the agent: the opening is asked again, and a user that keeps stopping is
    the simulator's error, never the agent's failure."""
    retail = domains["retail"]
    oracle = OracleModel([retail])
    user_requests: list[dict[str, Any]] = []

    def handler(request: dict[str, Any]) -> Reply:
        if not request.get("tools") and len(user_requests) < stops:  # the user simulator's opening
            user_requests.append(request)
            return Reply(content="###STOP###")
        return oracle(request)

    with route_env(ProviderServer("openai", handler)) as server:
        trajectory, verdict = _play(server, retail)
    if stops == 1:
        assert verdict.reward == 1.0 and trajectory.steps > 0
    else:
        assert trajectory.end_reason == "error" and trajectory.steps == 0
        assert "error of the simulated user" in (trajectory.error or "")
        assert "###STOP###" not in str(user_requests[-1]["messages"][-1]["content"])  # the nudge names no way out


# -- one task per domain through every route ----------------------------------------------


@pytest.fixture(scope="module")
def oracle(domains: dict[str, Any]) -> OracleModel:
    return OracleModel(domains.values())


@pytest.fixture(scope="module", params=ROUTES)
def route_server(request: pytest.FixtureRequest, oracle: OracleModel) -> Iterator[ProviderServer]:
    with ProviderServer(request.param, oracle) as server:
        yield server


def test_every_domain_scores_1_through_the_route_and_replays_identically(
    route_server: ProviderServer, domains: dict[str, Any], route_env: Any, tmp_path: Path
) -> None:
    server = route_env(route_server)
    recorded, replayed = {}, {}
    for mode, outcomes in (("record", recorded), ("replay", replayed)):
        tape = Tape(tmp_path, mode)  # type: ignore[arg-type]
        for name, domain in domains.items():
            trajectory, verdict = _play(server, domain, tape=tape)
            outcomes[name] = (verdict.reward, trajectory.end_reason, trajectory.error, trajectory.messages)
    failed = {name: outcome[:3] for name, outcome in recorded.items() if outcome[0] != 1.0}
    assert not failed, f"{server.route}: {failed}"
    assert replayed == recorded  # the same requests, so the same keys: --replay answers every call
    assert server.requests  # ...and the recording went through the fake


# -- what providers refuse, drop or cut ---------------------------------------------------


def test_vllm_without_tool_flags_stops_with_the_serve_flags_never_resume(domains, oracle, route_env) -> None:
    with route_env(ProviderServer("vllm", oracle, tool_flags=False)) as server:
        trajectory, _ = _play(server, domains["retail"])
    assert trajectory.end_reason == "error"
    error = trajectory.error or ""
    assert error.startswith("cannot use the model: ")  # the run stops at once (FATAL_PREFIX)
    assert "--enable-auto-tool-choice --tool-call-parser hermes" in error and "--agent-strategy react" in error
    assert "resume" not in error


def test_a_server_error_that_never_changes_stops_the_run(domains, oracle, route_env) -> None:
    broken = (500, "Conversation roles must alternate user/assistant/user/assistant/...")
    with route_env(ProviderServer("vllm", oracle, repeat_error=broken)) as server:
        trajectory, _ = _play(server, domains["retail"], retries=5)
        sent = len(server.requests)
    error = trajectory.error or ""
    assert error.startswith("cannot use the model: ") and "Conversation roles must alternate" in error
    assert sent == 6  # the same answer on every attempt of one call (retries=5): the run stops, never item after item


def test_llama3_turns_are_sent_one_call_at_a_time(domains, oracle, route_env) -> None:
    retail = domains["retail"]
    with route_env(ProviderServer("vllm", oracle, single_call_turns=True, model="hosted_vllm/meta-llama/Llama-3.1-8B-Instruct")) as server:
        trajectory, verdict = _play(server, retail)
    assert verdict.reward == 1.0, trajectory.error
    assert any(len(m.get("tool_calls") or []) > 1 for m in trajectory.messages)  # the oracle made two calls at once


def test_text_written_calls_get_ids_mistral_accepts(domains, oracle, route_env) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        reply = oracle(request)
        if request.get("tools") and reply.tool_calls:  # an open model that writes its calls as text
            calls = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
            return Reply(content="[TOOL_CALLS]" + json.dumps(calls))
        return reply

    with route_env(ProviderServer("mistral", handler)) as server:
        trajectory, _ = _play(server, domains["retail"])
    assert trajectory.end_reason != "error", trajectory.error
    assert all(len(c["id"]) == 9 for m in trajectory.messages for c in m.get("tool_calls") or [])


def test_context_overflow_in_mid_conversation_is_scored_0_not_an_error(domains, oracle, route_env) -> None:
    retail = domains["retail"]
    with route_env(ProviderServer("vllm", oracle)) as server:
        _play(server, retail)
        sizes = [prompt_tokens(r) for r in server.seen if r.get("tools")]
    assert sizes[-1] > sizes[0]
    window = (sizes[0] + sizes[-1]) // 2  # the first agent call fits, a later one does not
    with route_env(ProviderServer("vllm", oracle, context_window=window)) as server:
        trajectory, _ = _play(server, retail)
    assert trajectory.end_reason == "context_overflow" and trajectory.steps >= 1
    assert "context window" in (trajectory.error or "")


def test_an_answer_cut_at_max_tokens_ends_the_conversation(domains, oracle, route_env) -> None:
    def rambling(request: dict[str, Any]) -> Reply:
        reply = oracle(request)
        if request.get("tools"):
            return Reply(content="Let me think about this at length. " * 200, completion_tokens=6016)
        return reply

    with route_env(ProviderServer("anthropic", rambling)) as server:
        trajectory, _ = _play(server, domains["retail"], max_tokens=256)
        sent = [r.get("max_tokens") for r in server.requests]
    assert trajectory.end_reason == "max_tokens" and trajectory.steps == 1
    assert set(sent) == {256}


# -- through the plugin: refused before the run, counted after it -----------------------------


def test_domains_whose_first_request_cannot_fit_are_refused_before_any_call(pytester, toy_domain) -> None:

    tau = TauRunner(pytester, ["-n", "2"])
    with ProviderServer("llamacpp", OracleModel([toy_domain]), context_window=600) as server:
        result = tau.run("--model", server.model, "--api-base", server.url)
        sent = len(server.requests)
    assert result.ret == 4 and sent == 0
    result.stderr.fnmatch_lines(["*does not fit 'openai/gemma-3-270m-it'*context window of 600 tokens*prompt tokens: toy 3*--domains*"])


def test_answers_cut_at_max_tokens_are_failures_in_pass_hat_k_with_their_end_reason(pytester, toy_domain) -> None:

    oracle = OracleModel([toy_domain])

    def rambling(request: dict[str, Any]) -> Reply:
        if request.get("tools"):
            return Reply(content="Let me think. " * 100, completion_tokens=900)
        return oracle(request)

    tau = TauRunner(pytester, [])
    with ProviderServer("vllm", rambling) as server:
        result = tau.run("--model", server.model, "--api-base", server.url, "--max-tokens", "300", "--junitxml", "junit.xml")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*model limits: 0 conversation(s) overflowed*3 were cut at --max-tokens*"])
    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["end_reasons"] == {"max_tokens": 3} and summary["pass_hat_k"] == {"1": 0.0}
    assert "tau.end_reason=max_tokens" in (tau.path / "junit.xml").read_text()


def test_ctrl_c_during_retries_ends_the_run_at_once_with_its_summary(pytester) -> None:
    """One SIGINT while every call waits 30 s to be retried: out within seconds, with the run
    directory, a summary that says so, and a JUnit file without a nameless testcase."""
    tau = TauRunner(pytester, [])
    with OpenAIServer(lambda request: Reply(content="never seen"), Faults(p503=1.0)) as server:
        args = ["-p", "no:cacheprovider", "--run-dir", str(tau.run_dir), "--model", "openai/fake", "--api-base", server.url,
                "--llm-backoff", "30", "--junitxml", "junit.xml"]
        process = subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=tau.path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while not server.fault_log and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
        time.sleep(0.5)  # every conversation is in its first retry wait
        process.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        process.communicate(timeout=60)
        took = time.monotonic() - interrupted
    assert process.returncode == 2 and took < 20  # the retry waits alone were 15-45 s each
    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["stopped"].startswith("interrupted") and summary["complete"] is False  # "; N selected item(s) not run"
    junit = (tau.path / "junit.xml").read_text()
    assert "<testcase " not in junit or 'name="' in junit.split("<testcase ", 1)[1].split(">", 1)[0]


@pytest.mark.parametrize("route", ["vllm", "llamacpp"])
def test_the_server_counts_the_first_request_with_its_own_tokenizer(pytester, toy_domain, route) -> None:
    """A model's tokenizer can count a third more than litellm's stand-in (Gemma counted 9,076
    tokens where the context table said about 7,000): where the server counts, its count decides."""
    tau = TauRunner(pytester, [])
    window = 1200  # the toy's first request fits with litellm's count, not with a tokenizer counting 3x
    with ProviderServer(route, OracleModel([toy_domain]), context_window=window, tokenizer_ratio=3.0) as server:
        result = tau.run("--model", server.model, "--api-base", server.url)
        chats = [r for r in server.requests if "messages" in r]
    assert result.ret == 4 and chats == []
    result.stderr.fnmatch_lines([f"*context window of {window:,} tokens*prompt tokens: toy *"])
    with ProviderServer(route, OracleModel([toy_domain]), context_window=window, tokenizer_ratio=1.0) as server:
        tau.run("--model", server.model, "--api-base", server.url).assert_outcomes(passed=3)
