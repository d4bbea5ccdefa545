"""A model's output is always scored: whatever it returns (any size, depth or encoding) ends
as a tool error to the agent or as prose, never as an item error, and the trajectory is
always written (cut with a marker where JSON cannot hold it)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from pytest_tau import AgentStep, Domain
from pytest_tau._agents import ToolCallingAgent
from pytest_tau._conversation import RequestedCall, Usage, run_conversation
from pytest_tau._environment import Environment
from pytest_tau._textcalls import parse_text_tool_calls
from pytest_tau._users import ScriptedUser

TOOLS = frozenset({"find_member", "get_book"})
MAX_ARGUMENT_DEPTH = 64  # pytest_tau._environment's limits, as the engine states them
MAX_ARGUMENT_CHARS = 200_000


def nested(depth: int, opener: str = "[") -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return '{"a": ' * depth + "1" + "}" * depth
    return opener * depth + closer * depth


def deep_args(depth: int) -> str:
    return '{"email": ' + nested(depth) + "}"


# The depths: past the tool limit, orjson's write limit (255), orjson's read limit (1,024)
# and Python's recursion limit; the forms the text-call parser reads.
DEPTHS = [MAX_ARGUMENT_DEPTH + 5, 300, 1_100, 5_000]
TEXT_FORMS = {
    "hermes": lambda d: f'<tool_call>{{"name": "find_member", "arguments": {deep_args(d)}}}</tool_call>',
    "llama": lambda d: f'{{"name": "find_member", "parameters": {deep_args(d)}}}',
    "llama_list": lambda d: f'[{{"name": "find_member", "parameters": {deep_args(d)}}}]',
    "mistral": lambda d: f'[TOOL_CALLS][{{"name": "find_member", "arguments": {deep_args(d)}}}]',
    "mistral_named": lambda d: f"[TOOL_CALLS]find_member[ARGS]{deep_args(d)}",
    "pythonic": lambda d: f"[find_member(email={nested(d)})]",
    "bare_brackets": lambda d: nested(d, "["),
    "bare_braces": lambda d: nested(d, "{"),
}


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("form", sorted(TEXT_FORMS))
def test_the_text_call_parser_ends_on_any_depth(form: str, depth: int, toy_domain: Domain) -> None:
    """No RecursionError: a call's arguments come back as something the engine refuses with
    a tool error, or the text is prose; either way the conversation goes on."""
    parsed = parse_text_tool_calls(TEXT_FORMS[form](depth), TOOLS)
    if parsed is None:
        return  # prose: said to the user, scored
    env = Environment(toy_domain)
    for call in parsed[1]:
        step = AgentStep(tool_calls=[call])
        orjson.dumps(step.as_message())  # goes back into the history
        result = env.call(call.name, call.arguments)
        assert result.error and result.result.startswith("Error:"), result.result[:200]
        orjson.dumps(result.to_json())  # and into the trajectory


class Degenerate:
    """An agent that sends one degenerate call, then ends its turn."""

    def __init__(self, arguments: str | dict[str, Any], content: str = "") -> None:
        self.arguments = arguments
        self.content = content
        self.usage = Usage()
        self.steps = 0

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        self.steps += 1
        if self.steps == 1:
            return AgentStep(content=self.content, tool_calls=[RequestedCall("c1", "find_member", self.arguments)])
        return AgentStep(content="Done.")


def _deep_dict(depth: int) -> dict[str, Any]:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return {"email": value}


NATIVE = {
    "string_past_tool_limit": deep_args(MAX_ARGUMENT_DEPTH + 5),
    "string_past_orjson_write": deep_args(300),
    "string_past_orjson_read": deep_args(2_000),
    "string_huge": json.dumps({"email": "x" * (MAX_ARGUMENT_CHARS + 10)}),
    "dict_past_orjson_write": _deep_dict(300),
    "dict_wide": {"email": list(range(100_000))},
    "bytes": b'{"email": "\xff\xfe"}',
    "not_an_object": nested(400),
}


@pytest.mark.parametrize("kind", sorted(NATIVE))
def test_degenerate_arguments_are_scored_and_written(kind: str, toy_domain: Domain, tmp_path: Path) -> None:
    from pytest_tau._reports import item_result, write_trajectory
    from pytest_tau._scoring import judge
    from pytest_tau.plugin import Case

    task = toy_domain.tasks[0]
    env = Environment(toy_domain, task=task)
    trajectory = run_conversation(env, Degenerate(NATIVE[kind]), ScriptedUser(task), max_steps=6)  # type: ignore[arg-type]
    assert trajectory.end_reason != "error", trajectory.error
    assert trajectory.calls[0].error and trajectory.calls[0].result.startswith("Error:")
    verdict = judge(toy_domain, task, env, trajectory)
    result = item_result(Case(toy_domain, task, 0, 0), trajectory, verdict)
    assert result.status == "failed"
    write_trajectory(tmp_path, result, trajectory, env, verdict)
    written = orjson.loads((tmp_path / "trajectories" / f"{result.item}.json").read_bytes())
    assert written["result"]["status"] == "failed"
    raw = written["tool_calls"][0]["arguments"]
    assert len(orjson.dumps(raw)) < 2_000  # a preview, marked where cut
    if kind in ("string_huge", "string_past_orjson_read"):
        assert "[truncated:" in raw["__raw__"]


def test_a_trajectory_json_cannot_hold_is_cut_with_a_marker(toy_domain: Domain, tmp_path: Path) -> None:
    """A strategy's own message (kept as the agent built it) nested past orjson's limit, and
    a 6 MB reply: the file is written, the cut places say so."""
    from pytest_tau._reports import error_result, write_trajectory
    from pytest_tau.plugin import Case

    task = toy_domain.tasks[0]
    env = Environment(toy_domain, task=task)
    trajectory: Any = SimpleNamespace(
        messages=[{"role": "assistant", "content": "y" * 6_000_000, "extra": _deep_dict(400)}], calls=[]
    )
    result = error_result(Case(toy_domain, task, 0, 0), "x")
    write_trajectory(tmp_path, result, trajectory, env)
    written = orjson.loads((tmp_path / "trajectories" / f"{result.item}.json").read_bytes())
    message = written["messages"][0]
    assert message["content"].endswith("[truncated: 5900000 more characters]")
    assert "[truncated: nested deeper than 64 levels]" in orjson.dumps(message["extra"]).decode()


class TextModel:
    """An LLM stand-in whose every answer is the same text (a model served without a tool parser)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.usage = Usage()

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Any:
        from pytest_tau._llm import Completion

        message = {"role": "assistant", "content": self.text}
        return Completion(content=self.text, tool_calls=[], message=message, usage=Usage(calls=1))


@pytest.mark.parametrize("form", sorted(TEXT_FORMS))
def test_a_model_writing_deep_text_calls_is_scored(form: str, toy_domain: Domain, tmp_path: Path) -> None:
    from pytest_tau._reports import item_result, write_trajectory
    from pytest_tau._scoring import judge
    from pytest_tau.plugin import Case

    task = toy_domain.tasks[0]
    env = Environment(toy_domain, task=task)
    agent = ToolCallingAgent(TextModel(TEXT_FORMS[form](3_000)), "policy", toy_domain.tool_schemas())  # type: ignore[arg-type]
    trajectory = run_conversation(env, agent, ScriptedUser(task), max_steps=4)
    assert trajectory.end_reason in ("max_steps", "user_stop"), trajectory.error
    verdict = judge(toy_domain, task, env, trajectory)
    result = item_result(Case(toy_domain, task, 0, 0), trajectory, verdict)
    write_trajectory(tmp_path, result, trajectory, env, verdict)
    assert orjson.loads((tmp_path / "trajectories" / f"{result.item}.json").read_bytes())["result"]["status"] == "failed"


def test_a_gold_action_that_fails_makes_the_item_an_error_not_a_pass(toy_domain: Domain, tmp_path: Path) -> None:
    """Before, the gold state of a task whose gold write failed was the initial state, so an
    agent that did nothing passed it; only `validate` said so."""
    from pytest_tau._domain import DomainError
    from pytest_tau._scoring import judge
    from pytest_tau._validity import check_gold_actions_succeed

    task = toy_domain.tasks[0]
    broken_action = task.gold_actions[-1].model_copy(update={"arguments": {**task.gold_actions[-1].arguments, "book_id": "NO-SUCH-BOOK"}})
    broken = task.model_copy(update={"id": "broken_gold", "gold_actions": [*task.gold_actions[:-1], broken_action]})

    class Broken(type(toy_domain)):  # type: ignore[misc]
        pass

    domain = Broken.__new__(Broken)
    domain.__dict__.update(toy_domain.__dict__)
    domain.__dict__["tasks"] = [broken]
    env = Environment(domain, task=broken)
    trajectory = run_conversation(env, Degenerate({}), ScriptedUser(broken), max_steps=2)  # type: ignore[arg-type]
    with pytest.raises(DomainError, match=r"toy/broken_gold: gold action 2 \(loan_book\) fails: Error: "):
        judge(domain, broken, env, trajectory)
    assert check_gold_actions_succeed(domain)[0].startswith("broken_gold: gold action 2 (loan_book) fails")
