"""The pure parts of the agent and user strategies: action parsing, react replies, premature stops."""

from __future__ import annotations

import pytest

from pytest_tau._agents import parse_action
from pytest_tau._users import premature_stop, split_react_reply


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('Action: {"name": "get_book", "arguments": {"book_id": "B1"}}', ("get_book", {"book_id": "B1"})),
        ('Thought: look it up.\nAction: {"name": "respond", "arguments": {"content": "Hi"}}', ("respond", {"content": "Hi"})),
        ('Action:\n```json\n{"name": "find_member", "arguments": {"email": "a@b.c"}}\n```', ("find_member", {"email": "a@b.c"})),
        ('Action: {"name": "list_all"}', ("list_all", {})),
    ],
)
def test_parse_action(text, expected) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Sure, I can help!", 'no "Action:" line'),
        ("Action: get_book(B1)", "not valid JSON"),
        ('Action: ["get_book"]', 'must be a JSON object with a "name"'),
        ('Action: {"name": "get_book", "arguments": [1]}', '"arguments" must be a JSON object'),
        ('Action: {"name": "respond", "arguments": {}}', "respond needs"),
    ],
)
def test_parse_action_rejects(text, problem) -> None:
    with pytest.raises(ValueError, match=problem.replace("(", r"\(")):
        parse_action(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Thought: they asked for my zip.\nUser Response: It's 80218.", "It's 80218."),
        ("Thought: done.\nUser Response: ###STOP###", "###STOP###"),
        ("Thought: hmm\nMy zip is 80218.", "My zip is 80218."),
    ],
)
def test_react_user_reply_never_carries_the_thought(text, said) -> None:
    assert split_react_reply(text) == said


@pytest.mark.parametrize(
    ("agent", "reply", "premature"),
    [
        ("Let me cancel that order for you now.", "Thanks! ###STOP###", True),
        ("One moment while I process the exchange.", "###STOP###", True),
        ("Your order is cancelled. Anything else?", "###STOP###", False),
        ("I'll need your zip code. What is it?", "###STOP###", False),
        ("Let me check that.", "Sure, take your time.", False),
    ],
)
def test_premature_stop(agent, reply, premature) -> None:
    assert premature_stop(agent, reply) is premature
