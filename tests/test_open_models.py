"""Open models on OpenAI-compatible servers: tool calls written as text, reasoning content kept."""

from __future__ import annotations

import json

import pytest

from pytest_tau.testing import OpenAIServer, OracleModel, Reply


def as_text(reply: Reply, style: str) -> Reply:
    if not reply.tool_calls:
        return reply
    calls = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
    if style == "hermes":
        text = "\n".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls)
    elif style == "llama":
        text = "<|python_tag|>" + "; ".join(json.dumps({"name": c["name"], "parameters": c["arguments"]}) for c in calls)
    elif style == "mistral":
        text = "[TOOL_CALLS]" + json.dumps(calls)
    else:
        text = "[" + ", ".join(f"{c['name']}(" + ", ".join(f"{k}={v!r}" for k, v in c["arguments"].items()) + ")" for c in calls) + "]"
    return Reply(content=text)


@pytest.mark.parametrize("style", ["hermes", "llama", "mistral", "pythonic"])
def test_text_tool_calls_are_executed(tau, toy_domain, style) -> None:
    oracle = OracleModel([toy_domain])

    def handler(request):
        reply = oracle(request)
        if request.get("tools") and reply.tool_calls:
            # Outputs are told after the calls, in the next step, as a text-calling model would.
            return as_text(reply, style)
        if request.get("tools"):
            task = oracle._task(request["messages"])
            return Reply(content="Done: " + "; ".join(o.value for o in task.required_outputs))
        return reply

    with OpenAIServer(handler) as server:
        result = tau.run("--model", "hosted_vllm/open-model", "--api-base", server.url)
    result.assert_outcomes(passed=3)


def test_reasoning_content_is_kept_across_turns(tau, toy_domain) -> None:
    oracle = OracleModel([toy_domain])

    def handler(request):
        reply = oracle(request)
        if request.get("tools"):
            return Reply(content=reply.content, tool_calls=reply.tool_calls, reasoning_content="I should look this up.")
        return reply

    with OpenAIServer(handler) as server:
        tau.run("--model", "openai/thinker", "--api-base", server.url).assert_outcomes(passed=3)
    later = [r for r in server.requests if r.get("tools") and any(m["role"] == "assistant" for m in r["messages"])]
    assert later
    for request in later:
        assistant = [m for m in request["messages"] if m["role"] == "assistant"]
        assert all(m.get("reasoning_content") == "I should look this up." for m in assistant)
