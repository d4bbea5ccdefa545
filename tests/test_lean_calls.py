"""The leaner model call (pytest_tau._lean): litellm's background success logging is skipped
only while no callback listens, an unpriced model is priced at 0 once, and a priced model's
cost is still litellm's own."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from pytest_tau._llm import LLM, ModelConfig, import_litellm
from pytest_tau._model_client import CLIENT_VARIABLE
from pytest_tau.testing import OpenAIServer, Reply


def hello(request: dict[str, Any]) -> Reply:
    return Reply(content="hello", prompt_tokens=1000, completion_tokens=500)


def call(server: OpenAIServer, model: str = "openai/fake") -> LLM:
    llm = LLM(ModelConfig(model=model, api_base=server.url, retries=0))
    llm.complete([{"role": "user", "content": "hi"}])
    return llm


@pytest.fixture
def litellm(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv(CLIENT_VARIABLE, "litellm")  # an OpenAI-compatible server: the openai SDK's otherwise
    return import_litellm()


def test_background_logging_runs_only_when_a_callback_listens(litellm, monkeypatch) -> None:
    from litellm.litellm_core_utils.litellm_logging import Logging

    handled = threading.Event()
    original = Logging.success_handler

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        handled.set()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Logging, "success_handler", counting)
    heard: list[object] = []
    with OpenAIServer(hello) as server:
        for _ in range(3):
            call(server)
        time.sleep(0.3)  # the hand-off is a thread pool: give a submitted handler time to run
        assert not handled.is_set()
        monkeypatch.setattr(litellm, "success_callback", [lambda kwargs, response, start, end: heard.append(response)])
        call(server)
        assert handled.wait(10)
    deadline = time.monotonic() + 10
    while not heard and time.monotonic() < deadline:
        time.sleep(0.02)
    assert heard, "a registered success callback must still receive the call"


def test_an_unpriced_model_is_priced_at_zero_once(litellm) -> None:
    model = "openai/tau-lean-unpriced"
    assert model not in litellm.model_cost
    with OpenAIServer(hello) as server:
        llm = call(server, model)
        call(server, model)
    assert llm.usage.cost == 0.0
    entry = litellm.model_cost[model]
    assert entry["input_cost_per_token"] == 0.0 and entry["output_cost_per_token"] == 0.0


def test_a_priced_model_keeps_litellm_s_cost(litellm) -> None:
    before = dict(litellm.model_cost["gpt-4o"])
    with OpenAIServer(hello) as server:
        llm = call(server, "openai/gpt-4o")
    prompt, completion = litellm.cost_per_token(model="gpt-4o", prompt_tokens=1000, completion_tokens=500)
    assert llm.usage.cost == pytest.approx(prompt + completion) and llm.usage.cost > 0
    assert litellm.model_cost["gpt-4o"] == before


def test_failure_logging_runs_only_when_a_callback_listens(litellm, monkeypatch) -> None:
    """A 429 (retried) made litellm build its failure payload for callbacks: skipped while
    none is registered, delivered when one is."""
    from litellm.litellm_core_utils.litellm_logging import Logging

    bodies: list[object] = []
    original = Logging._failure_handler_body

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        bodies.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Logging, "_failure_handler_body", counting)
    heard: list[object] = []
    with OpenAIServer(hello) as server:
        llm = LLM(ModelConfig(model="openai/fake", api_base=server.url, retries=2, backoff=0.0), sleep=lambda s: None)
        server.inject("429")
        llm.complete([{"role": "user", "content": "hi"}])
        assert llm.retries_used == 1 and bodies == []
        monkeypatch.setattr(litellm, "failure_callback", [lambda kwargs, response, start, end: heard.append(kwargs)])
        server.inject("429")
        llm.complete([{"role": "user", "content": "hi"}])
    assert llm.retries_used == 2 and len(bodies) == 1
