"""The built-in agent and user strategies, as one plugin that answers last.

Registered by the `tau` plugin in ``pytest_configure`` (as xdist registers its default
scheduler): every hook is ``trylast``, so a third-party plugin or a conftest.py that
provides the same name is asked first. Nothing heavy is imported here; each strategy's
module loads when an item builds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import pytest

from ._strategies import StrategyInfo

if TYPE_CHECKING:
    from ._conversation import Agent, User
    from ._llm import LLM, ModelConfig
    from ._settings import Settings
    from ._strategies import StrategyContext

__all__ = ["PLUGIN_NAME", "STRATEGIES", "BuiltinStrategies", "item_llm", "model_config"]

PLUGIN_NAME = "tau-builtin-strategies"

STRATEGIES: tuple[StrategyInfo, ...] = (
    StrategyInfo("agent", "tool-calling", "native function calling; calls written as text are parsed (default with --model)", True),
    StrategyInfo("agent", "act", "tools described in the prompt, one JSON action per answer", True),
    StrategyInfo("agent", "react", "like act, with a thought before each action", True),
    StrategyInfo("agent", "few-shot", "tool calling plus oracle conversations of the train split", True),
    StrategyInfo("agent", "oracle", "performs the gold actions, tells the required outputs: scores 1 (default without --model)"),
    StrategyInfo("agent", "do-nothing", "never calls a tool: scores 0"),
    StrategyInfo("user", "llm", "a model plays the customer from the task's instructions (default with a model agent)", True),
    StrategyInfo("user", "react", "a thought, then the reply; the thought never reaches the agent", True),
    StrategyInfo("user", "verify", "a second call checks each reply against the scenario, up to 3 rewrites", True),
    StrategyInfo("user", "reflection", "like verify, and reflects on a failed check before rewriting", True),
    StrategyInfo("user", "human", "you type the customer's turns (needs -s, not with -n)"),
    StrategyInfo("user", "scripted", "the task's scripted lines (default without a model agent)"),
)


def model_config(settings: Settings, role: Literal["agent", "user"]) -> ModelConfig:
    """The model of the agent or of the user, with the run's retry policy."""
    from ._llm import ModelConfig

    user = role == "user"
    return ModelConfig(
        model=(settings.user_model if user else settings.model) or "",
        provider=settings.user_model_provider if user else settings.model_provider,
        api_base=settings.user_api_base if user else settings.api_base,
        temperature=settings.temperature,
        timeout=settings.llm_timeout,
        retries=settings.llm_retries,
        backoff=settings.llm_backoff,
        max_tokens=(settings.user_max_tokens or settings.max_tokens) if user else settings.max_tokens,
    )


def item_llm(context: StrategyContext, role: Literal["agent", "user"]) -> LLM:
    """The model client of one item's agent or user: seeded per item, recorded or replayed."""
    from ._llm import LLM, Tape

    settings = context.settings
    tape = Tape(settings.record, "record") if settings.record else Tape(settings.replay, "replay") if settings.replay else None
    return LLM(model_config(settings, role), seed=context.seed, tape=tape, item=context.item_id)


class BuiltinStrategies:
    """tool-calling, act, react, few-shot, oracle, do-nothing; llm, react, verify, reflection, human, scripted."""

    @pytest.hookimpl(trylast=True)
    def pytest_tau_declare_strategies(self, config: pytest.Config) -> list[StrategyInfo]:
        return list(STRATEGIES)

    @pytest.hookimpl(trylast=True)
    def pytest_tau_make_agent(self, config: pytest.Config, name: str, context: StrategyContext) -> Agent | None:
        from . import _agents

        if name == "oracle":
            return _agents.OracleAgent(context.task, variant=context.trial)
        if name == "do-nothing":
            return _agents.DoNothingAgent()
        if name not in ("tool-calling", "act", "react", "few-shot"):
            return None
        llm = item_llm(context, "agent")
        if name in ("act", "react"):
            return _agents.TextActionAgent(llm, context.policy, context.tool_schemas, think=name == "react")
        if name == "few-shot":
            examples = _agents.few_shot_examples(context.domain, exclude=context.task.id)
            return _agents.FewShotAgent(llm, context.policy, context.tool_schemas, examples)
        return _agents.ToolCallingAgent(llm, context.policy, context.tool_schemas)

    @pytest.hookimpl(trylast=True)
    def pytest_tau_make_user(self, config: pytest.Config, name: str, context: StrategyContext) -> User | None:
        from . import _users

        if name == "scripted":
            return _users.ScriptedUser(context.task)
        if name == "human":
            return _users.HumanUser(context.task)
        if name not in ("llm", "react", "verify", "reflection"):
            return None
        llm = item_llm(context, "user")
        if name == "react":
            return _users.ReactUser(llm, context.task)
        if name in ("verify", "reflection"):
            return _users.VerifyingUser(llm, context.task, reflect=name == "reflection")
        return _users.LLMUser(llm, context.task)
