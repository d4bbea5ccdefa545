"""Every provider route, offline: a loopback fake of each wire format plays the oracle model,
through litellm's real transformations; what providers refuse, drop or cut."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_tau import discover_domains
from pytest_tau._agents import ToolCallingAgent
from pytest_tau._llm import LLM, ModelConfig, Tape
from pytest_tau._scoring import play
from pytest_tau._settings import item_seed
from pytest_tau._users import LLMUser
from pytest_tau.testing import OracleModel, Reply
from pytest_tau.testing.providers import ProviderServer

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
    model = ModelConfig(model=server.model, api_base=server.url, retries=0, backoff=0.0, timeout=30, **config)
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
