"""Agents: the oracle and do-nothing baselines, and the model-driven strategies."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._conversation import AgentStep, RequestedCall, Usage
from ._outputs import spoken
from ._tasks import Action, Task
from ._textcalls import parse_text_tool_calls

if TYPE_CHECKING:
    from ._domain import Domain
    from ._llm import LLM

__all__ = ["DoNothingAgent", "FewShotAgent", "OracleAgent", "TextActionAgent", "ToolCallingAgent", "parse_action"]


class OracleAgent:
    """Performs the task's gold actions and tells the required outputs; scores 1 by design.

    Dual control: the agent's runs of gold actions alternate with the user's; for a user
    run the oracle ends its turn asking the customer to do those steps, naming each tool
    (the scripted user performs a run when its message names them all).
    """

    def __init__(self, task: Task, actions: Sequence[Action] | None = None, *, variant: int = 0, say: str | None = None) -> None:
        self.task = task
        self.variant = variant  # which spoken form of each output (the trial number in runs)
        self.say = say  # validity checks: what to tell instead of the outputs (a verbose or a spraying agent)
        # Validity checks hand the oracle mutated actions to prove the scoring notices.
        self.actions = list(task.gold_actions if actions is None else actions)
        self.usage = Usage()
        self._acted = False
        self._runs = _runs(self.actions) if any(a.actor == "user" for a in self.actions) else None
        self._calls = 0

    def _outputs(self) -> str:
        if self.say is not None:
            return self.say
        outputs = "; ".join(spoken(output, self.variant) for output in self.task.required_outputs)
        return f"Here is what I found: {outputs}." if outputs else "I have taken care of your request."

    def _dual_step(self, runs: list[list[Action]]) -> AgentStep:
        if not runs:
            if self._acted:
                return AgentStep(content="Is there anything else I can help you with?")
            self._acted = True
            return AgentStep(content=self._outputs())
        run = runs.pop(0)
        if run[0].actor == "user":
            steps = "; ".join(str(Action(name=a.name, arguments=a.arguments)) for a in run)
            return AgentStep(content=f"Please do this on your side: {steps}.")
        calls = []
        for action in run:
            calls.append(RequestedCall(id=f"oracle_{self._calls}", name=action.name, arguments=dict(action.arguments)))
            self._calls += 1
        return AgentStep(tool_calls=calls)

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        if self._runs is not None:
            return self._dual_step(self._runs)
        if self._acted:
            return AgentStep(content="Is there anything else I can help you with?")
        self._acted = True
        # Said as a person would, not in the stored form: every oracle run exercises the matcher.
        content = self._outputs()
        calls = [
            RequestedCall(id=f"oracle_{index}", name=action.name, arguments=dict(action.arguments))
            for index, action in enumerate(self.actions)
        ]
        return AgentStep(content=content, tool_calls=calls)


def _runs(actions: Sequence[Action]) -> list[list[Action]]:
    """Consecutive actions of the same actor, grouped, in order."""
    runs: list[list[Action]] = []
    for action in actions:
        if runs and runs[-1][0].actor == action.actor:
            runs[-1].append(action)
        else:
            runs.append([action])
    return runs


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
        self.tool_names = frozenset(tool["function"]["name"] for tool in tools)

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        completion = self.llm.complete([self.system, *messages], tools=self.tools)
        if not completion.tool_calls and completion.content:
            # Open models served without a tool parser write their calls as text.
            parsed = parse_text_tool_calls(completion.content, self.tool_names)
            if parsed is not None:
                content, calls = parsed
                # Ids every provider accepts (Mistral: exactly 9 letters or digits), unique in the history.
                turn = sum(1 for m in messages if m.get("role") == "assistant")
                calls = [RequestedCall(id=f"c{turn % 10_000:04d}{i % 10_000:04d}", name=c.name, arguments=c.arguments) for i, c in enumerate(calls)]
                step = AgentStep(content=content, tool_calls=calls)
                message = {**completion.message, **step.as_message(), "raw": completion.content}
                return AgentStep(content=content, tool_calls=calls, message=message)
        return AgentStep(content=completion.content, tool_calls=completion.tool_calls, message=completion.message)


TEXT_AGENT_FORMAT = """
# Tools
You can use these tools (JSON schemas):
{tools}

# How to answer
Answer every turn in exactly this format and nothing else:
{thought}Action: {{"name": "<a tool name, or respond>", "arguments": {{<the tool's arguments>}}}}
To write to the user, use the action {{"name": "respond", "arguments": {{"content": "<your message>"}}}}.
One action per answer. Tool results come back as "API output: ...".
"""

_FORMAT_ATTEMPTS = 3


def parse_action(text: str) -> tuple[str, dict[str, Any]]:
    """The JSON action of an act/react answer; raises ValueError saying what is wrong."""
    import orjson

    marker = text.rfind("Action:")
    if marker < 0:
        raise ValueError('no "Action:" line')
    body = text[marker + len("Action:") :].strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        action = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"the action is not valid JSON ({exc})") from None
    if not isinstance(action, dict) or not isinstance(action.get("name"), str):
        raise ValueError('the action must be a JSON object with a "name"')
    arguments = action.get("arguments", {})
    if not isinstance(arguments, dict):
        raise ValueError('"arguments" must be a JSON object')
    if action["name"] == "respond" and not isinstance(arguments.get("content"), str):
        raise ValueError('respond needs {"content": "<message>"}')
    return action["name"], arguments


class TextActionAgent:
    """`act` and `react`: tools described in the prompt, one JSON action per answer.

    An answer that cannot be parsed is fed back to the model as a visible format error
    (kept in the trajectory), never sent to the user.
    """

    def __init__(self, llm: LLM, policy: str, tools: list[dict[str, Any]], *, think: bool) -> None:
        import orjson

        self.llm = llm
        self.usage = llm.usage
        thought = "Thought: <your reasoning, one short paragraph>\n" if think else ""
        schemas = orjson.dumps([t["function"] for t in tools], option=orjson.OPT_INDENT_2).decode()
        prompt = AGENT_INSTRUCTIONS.format(policy=policy) + TEXT_AGENT_FORMAT.format(tools=schemas, thought=thought)
        self.system = {"role": "system", "content": prompt}
        self._calls = 0

    @staticmethod
    def _as_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        history = []
        for message in messages:
            if message["role"] == "tool":
                history.append({"role": "user", "content": f"API output: {message['content']}"})
            elif message["role"] == "assistant":
                history.append({"role": "assistant", "content": message.get("raw") or message.get("content") or ""})
            else:
                history.append({"role": message["role"], "content": message["content"]})
        return history

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        history = [self.system, *self._as_text(messages)]
        errors: list[str] = []
        for _ in range(_FORMAT_ATTEMPTS):
            raw = self.llm.complete(history).content
            try:
                name, arguments = parse_action(raw)
            except ValueError as exc:
                error = f"Format error: {exc}. Answer again, in the required format."
                errors.append(error)
                history += [{"role": "assistant", "content": raw}, {"role": "user", "content": error}]
                continue
            message: dict[str, Any] = {"role": "assistant", "raw": raw, "format_errors": errors}
            if name == "respond":
                message["content"] = arguments["content"]
                return AgentStep(content=arguments["content"], message=message)
            self._calls += 1
            call = RequestedCall(id=f"action_{self._calls}", name=name, arguments=arguments)
            step = AgentStep(tool_calls=[call])
            message.update(step.as_message())
            message["raw"], message["format_errors"] = raw, errors
            return AgentStep(tool_calls=[call], message=message)
        # Still unparseable: the turn ends with nothing said rather than raw text leaking out.
        return AgentStep(content="", message={"role": "assistant", "content": None, "raw": raw, "format_errors": errors})


def render_example(messages: list[dict[str, Any]]) -> str:
    """An oracle conversation as a compact transcript for a few-shot prompt."""
    lines = []
    for message in messages:
        role = message["role"]
        if role == "user":
            lines.append(f"user: {message['content']}")
        elif role == "tool":
            lines.append(f"tool {message['name']}: {str(message['content'])[:300]}")
        else:
            for call in message.get("tool_calls") or []:
                lines.append(f"assistant calls {call['function']['name']}({call['function']['arguments']})")
            if message.get("content"):
                lines.append(f"assistant: {message['content']}")
    return "\n".join(lines)


class FewShotAgent(ToolCallingAgent):
    """Tool calling plus example conversations from the domain's train split (oracle runs)."""

    def __init__(self, llm: LLM, policy: str, tools: list[dict[str, Any]], examples: list[str]) -> None:
        super().__init__(llm, policy, tools)
        if examples:
            shown = "\n\n".join(f"## Example {i + 1}\n{text}" for i, text in enumerate(examples))
            self.system = {"role": "system", "content": self.system["content"] + "\n# Example conversations\n" + shown}


@functools.lru_cache(maxsize=256)
def few_shot_examples(domain: Domain[Any], exclude: str, count: int = 3) -> list[str]:
    """Transcripts of oracle runs on the domain's train tasks (never the scored task)."""
    from ._scoring import play
    from ._users import ScriptedUser

    tasks = [t for t in domain.tasks if t.split == "train" and t.id != exclude][:count]
    return [render_example(play(domain, t, OracleAgent(t), ScriptedUser(t))[0].messages) for t in tasks]
