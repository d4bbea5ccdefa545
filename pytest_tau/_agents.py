"""Agents: the oracle and do-nothing baselines, and the model-driven strategies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._conversation import AgentStep, RequestedCall, Usage
from ._tasks import Action, Task

if TYPE_CHECKING:
    from ._llm import LLM

__all__ = ["OracleAgent", "DoNothingAgent", "ToolCallingAgent"]


class OracleAgent:
    """Performs the task's gold actions and tells the required outputs; scores 1 by design."""

    def __init__(self, task: Task, actions: Sequence[Action] | None = None) -> None:
        self.task = task
        # Validity checks hand the oracle mutated actions to prove the scoring notices.
        self.actions = list(task.gold_actions if actions is None else actions)
        self.usage = Usage()
        self._acted = False

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        if self._acted:
            return AgentStep(content="Is there anything else I can help you with?")
        self._acted = True
        outputs = "; ".join(self.task.required_outputs)
        content = f"Here is what I found: {outputs}." if outputs else "I have taken care of your request."
        calls = [
            RequestedCall(id=f"oracle_{index}", name=action.name, arguments=dict(action.arguments))
            for index, action in enumerate(self.actions)
        ]
        return AgentStep(content=content, tool_calls=calls)


class DoNothingAgent:
    """Answers without ever calling a tool: every task must score 0 against it."""

    def __init__(self) -> None:
        self.usage = Usage()

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        return AgentStep(content="I'm sorry, I can't help with that.")


AGENT_INSTRUCTIONS = """You are a customer service agent. Follow the policy below exactly.
Use the tools to look up and change information; never make up information or procedures.
Make at most what the policy allows, ask the user for explicit confirmation before any change,
and transfer to a human agent only when the policy says so.

# Policy
{policy}
"""


class ToolCallingAgent:
    """Native function calling: every tool call of an assistant message runs, in order."""

    def __init__(self, llm: LLM, policy: str, tools: list[dict[str, Any]]) -> None:
        self.llm = llm
        self.usage = llm.usage
        self.system = {"role": "system", "content": AGENT_INSTRUCTIONS.format(policy=policy)}
        self.tools = tools

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        completion = self.llm.complete([self.system, *messages], tools=self.tools)
        return AgentStep(content=completion.content, tool_calls=completion.tool_calls, message=completion.message)
