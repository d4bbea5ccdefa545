"""Both model clients (the openai SDK and litellm) behind one `LLM`, over HTTP on 127.0.0.1:
the same retries, Retry-After, fail-fast errors, usage, cost, tape keys and redaction."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_tau import _llm, _ratelimit
from pytest_tau._conversation import InfraError
from pytest_tau._llm import LLM, Completion, ModelConfig, Tape
from pytest_tau._model_client import CLIENT_VARIABLE
from pytest_tau._ratelimit import RateGate
from pytest_tau.testing import Faults, OpenAIServer, Reply, ToolCallReply, prompt_tokens

HELLO = [{"role": "user", "content": "hi"}]
TOOLS = [{"type": "function", "function": {"name": "get_book", "description": "a book",
                                           "parameters": {"type": "object", "properties": {"book_id": {"type": "string"}}}}}]


def reply(request: dict[str, Any]) -> Reply:
    return Reply(content="checking", tool_calls=[ToolCallReply("get_book", {"book_id": "b1"})],
                 reasoning_content="the user wants a book", prompt_tokens=1000, completion_tokens=500)


def use_client(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(CLIENT_VARIABLE, name)
    monkeypatch.setattr(_ratelimit, "GATE", RateGate())  # no hold or verdict leaks between tests


@pytest.fixture(scope="module", autouse=True)
def warm() -> Iterator[None]:
    """One call through each client first: litellm's first call imports more of it, which on a
    loaded machine can pass the tests' short timeouts."""
    with pytest.MonkeyPatch.context() as monkeypatch, OpenAIServer(reply) as server:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        for name in ("openai", "litellm"):
            use_client(monkeypatch, name)
            llm(server.url, timeout=120.0)[0].complete(HELLO)
    yield


@pytest.fixture(params=["openai", "litellm"])
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    use_client(monkeypatch, request.param)
    return str(request.param)


def llm(server_url: str, model: str = "openai/fake", **config: Any) -> tuple[LLM, list[float]]:
    slept: list[float] = []
    settings = {"retries": 3, "backoff": 0.01, "timeout": 10.0, **config}
    return LLM(ModelConfig(model=model, api_base=server_url, **settings), seed=7, sleep=slept.append), slept


def test_the_route_picks_the_client(client) -> None:
    """The variable forces a client; each model's client is made once per process."""
    config = ModelConfig(model="openai/fake", api_base="http://127.0.0.1:9/v1")
    made = _llm.client_for(config)
    assert type(made).__module__ == f"pytest_tau._{client}_client"
    assert _llm.client_for(config) is made


@pytest.mark.parametrize("proxy", [None, "http://127.0.0.1:9"])
def test_through_a_proxy_the_harness_bounds_each_call_itself(monkeypatch, proxy) -> None:
    """The openai client's transport ends a call at its deadline; httpx's proxy transport
    does not, so behind HTTP(S)_PROXY the harness bounds each call on a thread."""
    from pytest_tau._openai_client import OpenAIClient

    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    if proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy)
    client = OpenAIClient(ModelConfig(model="openai/fake", api_base="http://10.0.0.1:8000/v1"))
    try:
        assert client.bounds_calls is (proxy is None)
        assert bool(client._http._mounts) is bool(proxy), "httpx applies the proxy"
    finally:
        client.close()


def test_closing_the_clients_closes_the_http_connection_pool(monkeypatch) -> None:
    """At exit the clients are closed while modules are intact (an SDK client collected during
    interpreter teardown prints a traceback from its __del__)."""
    use_client(monkeypatch, "openai")
    monkeypatch.setattr(_llm, "_CLIENTS", {})
    made = _llm.client_for(ModelConfig(model="openai/fake", api_base="http://127.0.0.1:9/v1"))
    _llm.close_clients()
    assert made._http.is_closed  # type: ignore[attr-defined]
    assert _llm._CLIENTS == {}


@pytest.mark.parametrize(("model", "provider", "api_base", "expected"), [
    ("openai/fake", None, "http://127.0.0.1:9/v1", "openai"),
    ("hosted_vllm/org/open-model", None, "http://127.0.0.1:9/v1", "openai"),
    ("my-model", "openai", "http://127.0.0.1:9/v1", "openai"),
    ("unknown-name", None, "http://127.0.0.1:9/v1", "openai"),  # any OpenAI-compatible server
    ("gpt-4o", None, None, "openai"),  # litellm's map says OpenAI's
    ("claude-3-5-sonnet-20241022", None, None, "litellm"),
    ("anthropic/claude-3-5-sonnet-20241022", None, None, "litellm"),
    ("my-model", "anthropic", "http://127.0.0.1:9", "litellm"),
    ("no-such-model-xyz", None, None, "litellm"),  # litellm says why it is unknown
])
def test_automatic_route(monkeypatch, model, provider, api_base, expected) -> None:
    monkeypatch.delenv(CLIENT_VARIABLE, raising=False)
    assert _llm.client_name(ModelConfig(model=model, provider=provider, api_base=api_base)) == expected


def test_both_clients_send_the_same_request_and_read_the_same_answer(monkeypatch) -> None:
    completions: dict[str, Completion] = {}
    sent = []
    for name in ("openai", "litellm"):
        use_client(monkeypatch, name)
        with OpenAIServer(reply) as server:  # one each: the same tool call ids
            model, _ = llm(server.url)
            completions[name] = model.complete(HELLO, TOOLS)
        sent += [{k: v for k, v in request.items() if k in ("model", "messages", "temperature", "seed", "tools")}
                 for request in server.requests]
    assert sent[0] == sent[1] == {"model": "fake", "messages": HELLO, "temperature": 0.0, "seed": 7, "tools": TOOLS}
    ours, theirs = completions["openai"], completions["litellm"]
    # The fake numbers its tool calls per server; a retry on a loaded machine moves the number.
    assert ours.message["tool_calls"][0].pop("id") and theirs.message["tool_calls"][0].pop("id")
    assert ours.message == theirs.message
    assert ours.message["reasoning_content"] == "the user wants a book"
    assert [(c.name, c.arguments) for c in ours.tool_calls] == [(c.name, c.arguments) for c in theirs.tool_calls]
    assert ours.tool_calls[0].name == "get_book"
    assert (ours.usage.prompt_tokens, ours.usage.completion_tokens, ours.usage.cost) == (1000, 500, theirs.usage.cost)


def test_faults_are_retried(client) -> None:
    with OpenAIServer(reply, Faults(hang=8.0)) as server:
        server.inject("500", "503", "timeout", "drop", "malformed")
        model, slept = llm(server.url, retries=5, timeout=4.0)
        completion = model.complete(HELLO, TOOLS)
    assert completion.content == "checking"
    assert server.fault_log == {"500": 1, "503": 1, "timeout": 1, "drop": 1, "malformed": 1}
    assert model.usage.retries == 5 and model.usage.calls == 1 and len(slept) == 5


def test_exhausted_retries_raise_an_infra_error(client) -> None:
    with OpenAIServer(reply, Faults(p503=1.0)) as server:
        model, _ = llm(server.url, retries=2)
        with pytest.raises(InfraError, match="model call failed after 3 attempts"):
            model.complete(HELLO)
    assert server.fault_log == {"503": 3}


def test_retry_after_is_honoured_without_using_up_the_retries(client) -> None:
    with OpenAIServer(reply, Faults(retry_after=0.5)) as server:
        server.inject(*["429"] * 4)
        model, slept = llm(server.url, retries=1)
        model.complete(HELLO)
    assert server.fault_log == {"429": 4}
    own = [s for s in slept if s >= 0.5]
    assert len(own) == 4 and all(s <= 1.0 for s in own)  # Retry-After, spread by up to 2x


@pytest.mark.parametrize(("status", "reason"), [(401, "API key was rejected"), (403, "access denied"),
                                                (404, "no such model or endpoint")])
def test_rejected_keys_and_unknown_models_stop_at_once(client, status, reason) -> None:
    canary = "sk-canary0123456789abcdef"
    with OpenAIServer(reply, Faults(status=status)) as server:
        model, slept = llm(server.url.replace("http://", f"http://user:{canary}@"))
        with pytest.raises(InfraError, match=f"cannot use the model: 'openai/fake' at .*{reason}") as raised:
            model.complete(HELLO)
    assert server.fault_log == {str(status): 1} and slept == []
    assert canary not in str(raised.value)


POLICY = [{"role": "system", "content": "# Policy\n" + "Check the member's identity before any change. " * 80}, *HELLO]
BIG_TOOLS = [{"type": "function", "function": {"name": f"tool_{i}", "description": "looks a record up by its id " * 8,
                                               "parameters": {"type": "object", "properties": {"record_id": {"type": "string"}}}}}
             for i in range(12)]


@pytest.mark.parametrize("dropped", ["tools", "messages"])
def test_a_server_that_leaves_the_tools_or_policy_out_of_the_prompt_stops_the_run(client, monkeypatch, dropped) -> None:
    """The server's prompt-token count shows what it read: llama-cpp-python's formats that drop
    the tools, or a template that drops the system prompt, count far fewer tokens than were sent."""
    monkeypatch.setattr(_llm, "_PROMPT_CHECKED", set())

    def kept_part_only(request: dict[str, Any]) -> Reply:
        kept = {"messages": request["messages"][1:]} if dropped == "messages" else {"messages": request["messages"]}
        return Reply(content="hello", prompt_tokens=prompt_tokens(kept))

    with OpenAIServer(kept_part_only) as server:
        model, _ = llm(server.url)
        with pytest.raises(InfraError, match=r"the server counted [\d,]+ prompt tokens for a request of [\d,]+ characters.*chatml-function-calling"):
            model.complete(POLICY, BIG_TOOLS)
        with pytest.raises(InfraError, match="the server counted"):  # every later call of the run stops too
            llm(server.url)[0].complete(HELLO)


def test_a_server_that_counts_the_whole_prompt_passes(client, monkeypatch) -> None:
    monkeypatch.setattr(_llm, "_PROMPT_CHECKED", set())
    with OpenAIServer(lambda request: Reply(content="hello")) as server:  # counts messages and tools
        model, _ = llm(server.url)
        assert model.complete(POLICY, BIG_TOOLS).content == "hello"
        assert model.usage.prompt_tokens == prompt_tokens({"messages": POLICY, "tools": BIG_TOOLS})


@pytest.mark.parametrize(("completion_tokens", "end_reason"), [(22, "context_overflow"), (256, "max_tokens")])
def test_an_answer_cut_short_of_max_tokens_is_the_window_filling_up(client, completion_tokens, end_reason) -> None:
    """llama-cpp-python says finish_reason "length" both at --max-tokens and when the context
    window fills up: only the second stops short of the limit."""
    from pytest_tau._conversation import ModelLimit

    with OpenAIServer(lambda request: Reply(content="Sure", completion_tokens=completion_tokens, finish_reason="length")) as server:
        model, _ = llm(server.url, max_tokens=256)
        with pytest.raises(ModelLimit) as raised:
            model.complete(HELLO)
    assert raised.value.end_reason == end_reason


def test_an_endpoint_nobody_listens_on_stops_at_once(client) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again at once: nobody listens there
    model, slept = llm(f"http://127.0.0.1:{port}/v1")
    with pytest.raises(InfraError, match="cannot reach"):
        model.complete(HELLO)
    assert slept == []


def test_a_priced_model_costs_what_litellm_says(client) -> None:
    with OpenAIServer(reply) as server:
        model, _ = llm(server.url, model="openai/gpt-4o")
        model.complete(HELLO)
    # gpt-4o in litellm's map: $2.50 per million prompt tokens, $10 per million completion tokens
    assert model.usage.cost == pytest.approx(1000 * 2.5e-6 + 500 * 1e-5)
    assert (model.usage.prompt_tokens, model.usage.completion_tokens) == (1000, 500)


def test_a_recording_replays_through_the_other_client(monkeypatch, tmp_path) -> None:
    with OpenAIServer(reply) as server:
        recorded: dict[str, Completion] = {}
        for name in ("openai", "litellm"):
            use_client(monkeypatch, name)
            model, _ = llm(server.url)
            model.tape, model.item = Tape(tmp_path / name, "record"), "toy-loan_dune-t0"
            recorded[name] = model.complete(HELLO, TOOLS)
    assert [p.name for p in (tmp_path / "openai").iterdir()] == [p.name for p in (tmp_path / "litellm").iterdir()]
    for name, other in (("openai", "litellm"), ("litellm", "openai")):
        use_client(monkeypatch, other)
        model, _ = llm("http://127.0.0.1:9/v1")
        model.tape, model.item = Tape(tmp_path / name, "replay"), "toy-loan_dune-t0"
        assert model.complete(HELLO, TOOLS) == recorded[name]  # replayed by the other client
