"""Every wait is bounded, and a service's odd answers are retried as infrastructure:
a 200 with an empty `choices`, a Retry-After of an hour, of infinity, negative or NaN, an
answer trickled a byte at a time (each read quick, the whole call not) from a model or a
remote agent."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pytest_tau import _controller, _ratelimit
from pytest_tau._conversation import InfraError
from pytest_tau._llm import LLM, ModelConfig, client_for
from pytest_tau._ratelimit import RateGate
from pytest_tau._results import UsageRecord
from pytest_tau.testing import Faults, OpenAIServer, Reply


@pytest.fixture(autouse=True)
def own_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh per-process rate gate: a Retry-After held here must not hold other tests."""
    monkeypatch.setattr(_ratelimit, "GATE", RateGate())


def _llm(server: OpenAIServer, slept: list[float], **config: Any) -> LLM:
    settings: dict[str, Any] = {"retries": 2, "backoff": 0.01, **config}
    return LLM(ModelConfig(model="openai/fake", api_base=server.url, **settings), sleep=slept.append)


def test_an_empty_choices_answer_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIServer(lambda request: Reply(content="hello")) as server:
        server.inject("empty_choices", "empty_choices")
        slept: list[float] = []
        llm = _llm(server, slept)
        assert llm.complete([{"role": "user", "content": "hi"}]).content == "hello"
    assert llm.retries_used == 2 and len(slept) == 2


def test_empty_choices_past_the_retries_is_an_infrastructure_error() -> None:
    with OpenAIServer(lambda request: Reply(content="hello"), Faults(pempty=1.0)) as server:
        llm = _llm(server, [])
        with pytest.raises(InfraError, match=r"after 3 attempts: EmptyAnswer: the response carried no choice"):
            llm.complete([{"role": "user", "content": "hi"}])
    # The run's cost line tells the attempts that got no answer, not just "0 calls".
    assert (llm.usage.calls, llm.usage.failed_attempts) == (0, 3)
    record = UsageRecord(**llm.usage.to_json())
    assert _controller._calls(record) == "0 calls (3 attempt(s) got no answer)"


@pytest.mark.parametrize("header", ["3600", "inf", "1e308", "-5", "nan", "Wed, 21 Oct 2015 07:28:00 GMT"])
def test_retry_after_waits_within_the_patience_budget(header: str) -> None:
    """Two 429s saying when to come back: whatever they say, no single wait and no total
    passes the patience budget (plus the capped backoff), and the call then succeeds."""
    with OpenAIServer(lambda request: Reply(content="ok"), Faults(retry_after=header)) as server:
        server.inject("429", "429")
        slept: list[float] = []
        llm = _llm(server, slept, rate_limit_patience=30.0)
        assert llm.complete([{"role": "user", "content": "hi"}]).content == "ok"
    assert len(slept) == 2 and all(0 <= s <= 60.0 for s in slept), slept
    if header in ("3600", "inf", "1e308"):
        assert slept[0] == 30.0  # the whole budget, then the backoff (capped)
        assert sum(slept) <= 30.0 + 60.0


# Both model clients: the openai path's transport ends the call itself (no thread per call),
# litellm's calls are ended by the harness's thread.
CLIENTS = pytest.mark.parametrize("model_client", ["openai", "litellm"])


@CLIENTS
def test_a_trickled_model_answer_is_cut_at_the_timeout_and_retried(model_client: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A body a byte every 0.05 s (about 15 s in all) under a 1 s --llm-timeout: the first
    attempt ends at 1 s, the retry gets a normal answer."""
    monkeypatch.setenv("PYTEST_TAU_MODEL_CLIENT", model_client)
    with OpenAIServer(lambda request: Reply(content="ok"), Faults(trickle_interval=0.05)) as server:
        server.inject("trickle")
        llm = _llm(server, [], timeout=1.0)
        client_for(llm.config)  # made before the clock starts (litellm's import is seconds)
        started = time.monotonic()
        assert llm.complete([{"role": "user", "content": "hi"}]).content == "ok"
        elapsed = time.monotonic() - started
    assert llm.retries_used == 1
    assert (llm.usage.calls, llm.usage.failed_attempts) == (1, 1)
    assert elapsed < 8.0, elapsed  # not the ~15 s of the trickle (slack for a loaded machine)


def test_a_trickled_remote_agent_answer_is_cut_at_the_timeout(toy_domain: Any) -> None:
    from pytest_tau._settings import Settings
    from pytest_tau._strategies import StrategyContext
    from pytest_tau.remote._http import HttpAgent
    from pytest_tau.remote._options import RemoteOptions
    from pytest_tau.testing import HttpAgentServer

    task = toy_domain.tasks[0]
    context = StrategyContext(
        settings=Settings(agent_strategy="http", user_strategy="scripted"), domain=toy_domain, task=task, trial=0, seed=0
    )
    with HttpAgentServer([toy_domain]) as server:
        server.trickle_interval = 0.05
        agent = HttpAgent(context, RemoteOptions(agent_url=server.url, timeout=1.0, retries=0))
        agent.step([{"role": "user", "content": "Hi, I'm ada@example.com and I'd like to borrow book B1."}])  # opens
        server.inject("trickle")
        started = time.monotonic()
        with pytest.raises(InfraError, match=r"no complete answer within 1s"):
            agent.step([{"role": "user", "content": "thanks"}])
        elapsed = time.monotonic() - started
        agent.close()
    assert elapsed < 6.0, elapsed


@CLIENTS
def test_a_call_in_flight_is_abandoned_when_the_run_stops(model_client: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C, -x or a fatal error elsewhere: a slow model's answer (a 15 s trickle under a 60 s
    timeout) does not hold the end of the run."""
    import threading

    monkeypatch.setenv("PYTEST_TAU_MODEL_CLIENT", model_client)

    with OpenAIServer(lambda request: Reply(content="ok"), Faults(trickle_interval=0.05)) as server:
        server.inject("trickle")
        llm = _llm(server, [], timeout=60.0)
        client_for(llm.config)
        threading.Timer(0.5, _ratelimit.GATE.stopping.set).start()
        started = time.monotonic()
        with pytest.raises(InfraError, match="the run is stopping: the model call in flight was abandoned"):
            llm.complete([{"role": "user", "content": "hi"}])
        elapsed = time.monotonic() - started
    assert elapsed < 5.0, elapsed  # not the ~15 s of the trickle (slack for a loaded machine)
