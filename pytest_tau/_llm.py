"""The model layer: one interface over two clients, imported only when a model is used.

The harness owns the retry policy: the clients' own retries are off, every call has an
explicit timeout, and only infrastructure errors (429, 5xx, timeouts, dropped connections,
unreadable responses) are retried, with exponential backoff that honours `Retry-After`.
When the retries run out the call raises `InfraError`, which makes the item an error,
never an agent failure. What differs per provider (how a request is sent, what an error
means) is a client's (_model_client); this loop, the rate gate and the tape are shared.
"""

from __future__ import annotations

import atexit
import hashlib
import math
import os
import random
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from ._conversation import InfraError, ModelLimit, RequestedCall, Usage
from ._deadline import CallDeadline, CallStopped, bounded, within
from ._litellm_client import import_litellm
from ._model_client import FATAL_PREFIX, ChatRequest, ClientName, ModelClient, ModelConfig, Verdict, forced_client

__all__ = ["FATAL_PREFIX", "LLM", "Completion", "ModelConfig", "Tape", "check_model", "client_for", "client_name", "import_litellm"]

_BACKOFF_CAP = 60.0
# A 429 that says "come back now" still waits this long, so a server that keeps saying it
# cannot make a call spin; the patience budget bounds the total.
_MIN_RATE_LIMIT_WAIT = 0.05
_CLIENTS: dict[tuple[ModelConfig, ClientName | None], ModelClient] = {}
_CLIENTS_LOCK = threading.Lock()
_PROMPT_CHECKED: set[tuple[Any, ...]] = set()  # endpoints whose first long prompt's count was checked


def client_name(config: ModelConfig) -> ClientName:
    """Which client calls this model: the openai SDK for OpenAI-compatible endpoints
    (`openai/...`, `hosted_vllm/...`, OpenAI's own models, any other name at an --api-base),
    litellm for every other provider; PYTEST_TAU_MODEL_CLIENT forces one."""
    forced = forced_client()
    if forced is not None:
        return forced
    from ._openai_client import openai_compatible

    return "openai" if openai_compatible(config) else "litellm"


def client_for(config: ModelConfig) -> ModelClient:
    """The process's client of this model (made once: it holds connections and prices)."""
    key = (config, forced_client())
    client = _CLIENTS.get(key)
    if client is None:
        with _CLIENTS_LOCK:
            client = _CLIENTS.get(key)
            if client is None:
                if client_name(config) == "openai":
                    from ._openai_client import OpenAIClient

                    client = OpenAIClient(config)
                else:
                    from ._litellm_client import LiteLLMClient

                    client = LiteLLMClient(config)
                if not _CLIENTS:
                    # Close the connection pools before the interpreter tears modules down: an
                    # SDK client collected after that prints a traceback from its __del__.
                    atexit.register(close_clients)
                _CLIENTS[key] = client
    return client


def close_clients() -> None:
    """Close every client this process made (their connection pools)."""
    with _CLIENTS_LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        close = getattr(client, "close", None)
        if close is not None:
            close()


def check_model(config: ModelConfig, role: str) -> str | None:
    """Why this model cannot be used (unknown provider, missing key), or None."""
    if client_name(config) == "openai":
        from ._openai_client import check
    else:
        from ._litellm_client import check
    return check(config, role)


@dataclass
class Completion:
    """One model answer, normalized."""

    content: str
    tool_calls: list[RequestedCall]
    message: dict[str, Any]
    usage: Usage


class EmptyAnswer(Exception):
    """The provider answered without a choice: an infrastructure fault, retried."""


def usable_retry_after(value: float | None) -> float | None:
    """A provider's Retry-After in seconds, or None where it says nothing usable (NaN, a
    negative number): then the backoff decides. Infinity stays (the patience budget bounds it)."""
    if value is None or math.isnan(value) or value < 0:
        return None
    return value


class Tape:
    """Record (`--record DIR`) or replay (`--replay DIR`) model calls.

    A call's key is the sha256 of the whole request (model, messages, tools, sampling
    settings, seed) and the item (domain, task, trial); one file per call, so xdist
    workers never share a file. Replay makes zero network calls and never imports litellm.
    """

    def __init__(self, folder: Path, mode: Literal["record", "replay"]) -> None:
        self.folder = Path(folder)
        self.mode = mode

    def key(self, request: dict[str, Any]) -> str:
        return hashlib.sha256(orjson.dumps(request, option=orjson.OPT_SORT_KEYS)).hexdigest()

    def load(self, key: str) -> dict[str, Any] | None:
        path = self.folder / f"{key}.json"
        return orjson.loads(path.read_bytes()) if path.exists() else None

    def save(self, key: str, completion: dict[str, Any], item: str) -> None:
        from ._redact import redact_json

        self.folder.mkdir(parents=True, exist_ok=True)
        document = redact_json({"item": item, "completion": completion})
        # Per process and thread: conversations of one process record at the same time.
        temporary = self.folder / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        temporary.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
        temporary.replace(self.folder / f"{key}.json")  # atomic: a crash never leaves half a file


@dataclass
class LLM:
    """Calls one model with the harness's retry policy; counts tokens and cost."""

    config: ModelConfig
    seed: int = 0
    # Waits between retries end at once when the run stops (Ctrl-C, -x, a fatal error).
    sleep: Any = field(default=None)
    usage: Usage = field(default_factory=Usage)
    retries_used: int = 0
    tape: Tape | None = None
    item: str = ""

    def __post_init__(self) -> None:
        if self.sleep is None:
            self.sleep = _stoppable_sleep

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Completion:
        if self.tape is None:
            return self._call(messages, tools)
        request = {
            "item": self.item,
            "model": self.config.model,
            "provider": self.config.provider,
            "temperature": self.config.temperature,
            "seed": self.seed,
            "messages": messages,
            "tools": tools or [],
        }
        key = self.tape.key(request)
        if self.tape.mode == "replay":
            recorded = self.tape.load(key)
            if recorded is None:
                raise InfraError(
                    f"--replay {self.tape.folder}: no recorded response for this request of item {self.item} "
                    f"(call {self.usage.calls + 1}); the recording was made with other settings, tasks or code"
                )
            completion = _completion_from_json(recorded["completion"])
            self.usage.add(completion.usage)
            return completion
        completion = self._call(messages, tools)
        self.tape.save(key, _completion_to_json(completion), self.item)
        return completion

    def _call(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion:
        from ._ratelimit import GATE

        client = client_for(self.config)
        request = ChatRequest(messages=messages, tools=tools, seed=self.seed)
        jitter = random.Random(self.seed)
        server_errors: list[str] = []  # a server error that never changes is the server's answer
        attempt = 0
        waited_for_rate_limit = 0.0
        own_hold = 0.0
        endpoint = (self.config.model, self.config.provider, self.config.api_base)
        while True:
            if GATE.stopping.is_set():
                raise InfraError("the run is stopping: model call not made")
            # Another conversation of this process got a 429: wait with it (no stampede).
            GATE.wait(self.sleep, jitter.random(), own_hold)
            probing = GATE.begin_call(endpoint)
            if endpoint in GATE.fatal:  # another conversation found this model unusable
                GATE.end_call(endpoint, probing, answered=False)
                raise InfraError(GATE.fatal[endpoint])
            try:
                # --llm-timeout bounds the whole call (a trickled body too), not each read.
                bound = bounded if client.bounds_calls else within
                answer = bound(self.config.timeout, lambda: client.send(request), f"model {self.config.model}", GATE.stopping)
                if answer.message is None:
                    raise EmptyAnswer("the response carried no choice (a 200 with an empty `choices`)")
                GATE.end_call(endpoint, probing, answered=True)
                break
            except CallStopped:
                GATE.end_call(endpoint, probing, answered=False)
                raise InfraError("the run is stopping: the model call in flight was abandoned") from None
            except Exception as exc:
                self.usage.failed_attempts += 1
                if isinstance(exc, (EmptyAnswer, CallDeadline)):
                    verdict = Verdict(retryable=True)  # the service's fault, not the model's: retried
                else:
                    verdict = _judged(client.classify(exc, ever_answered=self.usage.calls > 0), exc, self.config, server_errors)
                if verdict.context_overflow:
                    GATE.end_call(endpoint, probing, answered=True)  # the server is fine; the prompt is too long
                    raise ModelLimit("context_overflow", f"the prompt exceeds the model's context window: {exc}"[:800]) from None
                if verdict.fatal is not None:
                    from ._redact import redact

                    GATE.fatal[endpoint] = redact(verdict.fatal)
                    GATE.end_call(endpoint, probing, answered=False)
                    raise InfraError(redact(verdict.fatal)) from None
                GATE.end_call(endpoint, probing, answered=False)
                if not verdict.retryable:
                    raise InfraError(f"{type(exc).__name__}: {exc}"[:800]) from None
                retry_after = usable_retry_after(verdict.retry_after)
                self.retries_used += 1
                self.usage.retries += 1
                patience_left = self.config.rate_limit_patience - waited_for_rate_limit
                if retry_after is not None and verdict.rate_limited and patience_left > 0:
                    # Wait as asked, spread over the herd, but never past the patience budget:
                    # a Retry-After of an hour (or infinity) waits what is left of it.
                    delay = min(max(retry_after * (1.0 + jitter.random()), _MIN_RATE_LIMIT_WAIT), patience_left)
                    own_hold = GATE.hold(min(retry_after, patience_left))
                    waited_for_rate_limit += delay
                    self.sleep(delay)
                    continue
                if attempt >= self.config.retries:
                    raise InfraError(
                        f"model call failed after {attempt + 1} attempts: {type(exc).__name__}: {exc}"[:800]
                    ) from None
                delay = min(_BACKOFF_CAP, self.config.backoff * 2**attempt) * (0.5 + jitter.random())
                delay = max(delay, min(retry_after or 0.0, _BACKOFF_CAP))
                attempt += 1
                self.sleep(delay)
        usage = Usage(calls=1, prompt_tokens=answer.prompt_tokens, completion_tokens=answer.completion_tokens,
                      cost=answer.cost)
        self.usage.add(usage)
        self._check_first_prompt(endpoint, messages, tools, answer.prompt_tokens)
        message_dict = answer.message
        if answer.finish_reason == "length" and self.config.max_tokens and answer.completion_tokens < self.config.max_tokens:
            # Cut short of --max-tokens: the context window filled up (llama-cpp-python says
            # "length" for both), and that is the model's window, not the answer's length.
            raise ModelLimit(
                "context_overflow",
                f"the context window filled up after {answer.completion_tokens} tokens of the answer "
                f"(finish_reason length, below --max-tokens {self.config.max_tokens})",
            )
        if answer.finish_reason == "length":
            raise ModelLimit(
                "max_tokens", f"the answer was cut at max_tokens ({self.config.max_tokens}) after {answer.completion_tokens} tokens"
            )
        calls = [
            RequestedCall(id=tc["id"] or f"call_{i}", name=tc["function"]["name"] or "", arguments=tc["function"]["arguments"])
            for i, tc in enumerate(message_dict.get("tool_calls", []))
        ]
        return Completion(content=message_dict.get("content") or "", tool_calls=calls, message=message_dict, usage=usage)


    def _check_first_prompt(self, endpoint: tuple[Any, ...], messages: list[dict[str, Any]],
                            tools: list[dict[str, Any]] | None, prompt_tokens: int) -> None:
        """Once per endpoint and process, on its first long prompt: a prompt the server counted
        too short stops the run."""
        if endpoint in _PROMPT_CHECKED:
            return
        from ._ratelimit import GATE
        from ._routes import SMALLEST_CHECKED_PROMPT, dropped_prompt, prompt_characters

        characters = prompt_characters(messages, tools)
        if characters < SMALLEST_CHECKED_PROMPT:
            return
        with _CLIENTS_LOCK:
            if endpoint in _PROMPT_CHECKED:
                return
            _PROMPT_CHECKED.add(endpoint)
        dropped = dropped_prompt(characters, prompt_tokens, self.config.model, self.config.where)
        if dropped is not None:
            GATE.fatal[endpoint] = dropped
            raise InfraError(dropped)


def _stoppable_sleep(seconds: float) -> None:
    from ._ratelimit import GATE

    GATE.stopping.wait(max(0.0, seconds))


def _judged(verdict: Verdict, exc: BaseException, config: ModelConfig, server_errors: list[str]) -> Verdict:
    """The client's verdict, with what the provider's message says whatever the client: a
    prompt over the window, a request any rerun would see refused, a 500 that never changes."""
    from ._routes import context_overflow, deterministic_error, repeated_server_error

    if verdict.fatal is not None or verdict.context_overflow:
        return verdict
    status = getattr(exc, "status_code", None)
    text = f"{type(exc).__name__}: {exc}"
    if status in (400, 413, 422, None) and context_overflow(text):
        return Verdict(retryable=False, context_overflow=True)
    where = config.api_base or config.provider or "its provider"
    fatal = deterministic_error(status, text, config.model, where)
    if fatal is None and status == 500:
        server_errors.append(str(exc))
        fatal = repeated_server_error(status, server_errors, config.model, where, attempts=config.retries + 1)
    return Verdict(retryable=False, fatal=fatal) if fatal is not None else verdict


def _completion_to_json(completion: Completion) -> dict[str, Any]:
    return {
        "content": completion.content,
        "tool_calls": [asdict(call) for call in completion.tool_calls],
        "message": completion.message,
        "usage": completion.usage.to_json(),
    }


def _completion_from_json(data: dict[str, Any]) -> Completion:
    return Completion(
        content=data["content"],
        tool_calls=[RequestedCall(**call) for call in data["tool_calls"]],
        message=data["message"],
        usage=Usage(**data["usage"]),
    )
