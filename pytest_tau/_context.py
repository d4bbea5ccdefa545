"""Context known before the run: each selected domain's first agent request, counted against
the model's window.

The first request of a conversation (the strategy's system prompt with the policy, the tool
schemas or their text form, few-shot examples, the user's opening) is the smallest the agent
will ever send: a domain whose first request does not fit would end every item as a context
overflow after paying for the user model's opening. Such domains are refused at start, with
the figures. The window comes from the server itself where it says (vLLM's `max_model_len`,
llama.cpp's `n_ctx`), else from litellm's model info; an unknown window checks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

    from ._llm import ModelConfig
    from ._settings import Settings

__all__ = ["ANSWER_ROOM", "Fit", "context_problems", "first_request", "model_window", "prompt_size"]

# The least room a first request must leave for the model's answer.
ANSWER_ROOM = 512
_OPENING = "Hi, I need help with my account."


class _Captured(Exception):
    pass


class _FirstRequest:
    """Stands in for an agent's model client: keeps the first request, answers nothing."""

    def __init__(self, usage: Any) -> None:
        self.usage = usage
        self.request: tuple[list[dict[str, Any]], list[dict[str, Any]] | None] | None = None

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Any:
        self.request = (messages, tools)
        raise _Captured


def first_request(agent: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None] | None:
    """The first request this agent would send to its model (None: not a built-in model agent)."""
    from ._agents import TextActionAgent, ToolCallingAgent

    if not isinstance(agent, (ToolCallingAgent, TextActionAgent)):
        return None  # a plugin's agent: its step may do anything before it calls a model
    llm = agent.llm
    recorder = _FirstRequest(getattr(llm, "usage", None))
    agent.llm = recorder  # type: ignore[assignment]  # stands in for the client, one call
    try:
        agent.step([{"role": "user", "content": _OPENING}])
    except _Captured:
        pass
    finally:
        agent.llm = llm
    return recorder.request


def prompt_size(model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> int:
    """Prompt tokens as litellm counts them for this model (its tokenizer where it knows one)."""
    from ._llm import import_litellm

    litellm = import_litellm()
    try:
        return int(litellm.token_counter(model=model, messages=messages, tools=tools or None))
    except Exception:  # an unknown tokenizer: a quarter of the characters
        import json

        return (len(json.dumps(messages)) + len(json.dumps(tools or []))) // 4


def model_window(config: ModelConfig) -> int | None:
    """The model's context window in tokens: the server's own word, else litellm's model info."""
    from ._routes import served_context_window

    if config.api_base:
        served = served_context_window(config.api_base)
        if served is not None:
            return served
    from ._llm import client_name

    if client_name(config) == "openai":
        # The openai SDK's route never imports litellm (5 s of CPU): its map, read from disk, knows the window.
        from ._openai_client import provider_and_name
        from ._prices import model_entry

        provider, name = provider_and_name(config)
        entry = model_entry(name, provider) or {}
        mapped = entry.get("max_input_tokens") or entry.get("max_tokens")
        return int(mapped) if mapped else None
    from ._llm import import_litellm

    litellm = import_litellm()
    try:
        info = litellm.get_model_info(config.model, custom_llm_provider=config.provider)
    except Exception:  # litellm raises for models it does not map
        return None
    window = info.get("max_input_tokens") or info.get("max_tokens")
    return int(window) if window else None


@dataclass(frozen=True)
class Fit:
    domain: str
    prompt_tokens: int
    window: int | None

    @property
    def fits(self) -> bool:
        return self.window is None or self.prompt_tokens + ANSWER_ROOM <= self.window


def context_problems(config: pytest.Config, settings: Settings, cases: list[Any]) -> list[str]:
    """The selected domains whose first agent request cannot fit the agent model's window."""
    from ._builtin_strategies import model_config
    from ._case import make_agent
    from ._routes import served_prompt_tokens

    model = model_config(settings, "agent")
    window = model_window(model)
    if window is None:
        return []
    seen: dict[str, Fit] = {}
    for case in cases:
        if case.domain.name in seen:
            continue
        agent = make_agent(config, case, settings)
        request = first_request(agent) if agent is not None else None
        if request is None:
            return []  # a strategy without a client we can stand in for: nothing to count
        served = served_prompt_tokens(model.api_base, model.model, *request) if model.api_base else None
        size = served if served is not None else prompt_size(model.model, *request)
        seen[case.domain.name] = Fit(case.domain.name, size, window)
    too_big = [fit for fit in seen.values() if not fit.fits]
    if not too_big:
        return []
    figures = ", ".join(f"{fit.domain} {fit.prompt_tokens:,}" for fit in sorted(too_big, key=lambda f: f.domain))
    return [
        f"the first request of --agent-strategy {settings.agent_strategy} does not fit {model.model!r}'s context window "
        f"of {window:,} tokens (with {ANSWER_ROOM} left to answer) in {len(too_big)} domain(s), prompt tokens: {figures}; "
        "serve the model with a longer context (vLLM --max-model-len, llama.cpp --n_ctx), "
        "pick a shorter strategy (tool-calling is shorter than act/react and few-shot), or leave them out with --domains"
    ]
