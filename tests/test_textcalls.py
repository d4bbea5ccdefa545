"""Tool calls written as text (Pythonic, Llama 3 JSON, Hermes/Qwen, Mistral) parse; prose stays prose."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_tau._conversation import RequestedCall
from pytest_tau._textcalls import parse_text_tool_calls

TOOLS = frozenset({"get_order_details", "find_user", "update_address", "list_orders"})

Expected = tuple[str, list[tuple[str, str | dict[str, Any]]]]

ORDER = ("get_order_details", {"order_id": "#W1"})
USER = ("find_user", {"email": "a@b.c"})
NESTED = (
    "update_address",
    {"user_id": "zoë_1", "address": {"city": "São Paulo", "lines": ["Rua 1", "apto 2"]}, "tags": [1, -2.5, True, None]},
)

CALLS: dict[str, tuple[str, Expected]] = {
    # 1. Pythonic lists (ToolACE, Llama 3.2)
    "pythonic_single": ('[get_order_details(order_id="#W1")]', ("", [ORDER])),
    "pythonic_multiple": ("[get_order_details(order_id=\"#W1\"), find_user(email='a@b.c')]", ("", [ORDER, USER])),
    "pythonic_no_arguments": ("[list_orders()]", ("", [("list_orders", {})])),
    "pythonic_nested_unicode": (
        '[update_address(user_id="zoë_1", address={"city": "São Paulo", "lines": ("Rua 1", "apto 2")}, '
        "tags=[1, -2.5, True, None])]",
        ("", [NESTED]),
    ),
    "pythonic_json_words": ("[find_user(active=true, email=null)]", ("", [("find_user", {"active": True, "email": None})])),
    "pythonic_fenced": ('```python\n[get_order_details(order_id="#W1")]\n```', ("", [ORDER])),
    "pythonic_bare_fence_whitespace": ('\n  ```\n[find_user(email="a@b.c")]\n```  \n', ("", [USER])),
    # 2. Llama 3 JSON
    "llama_parameters": ('{"name": "get_order_details", "parameters": {"order_id": "#W1"}}', ("", [ORDER])),
    "llama_arguments": ('{"name": "find_user", "arguments": {"email": "a@b.c"}}', ("", [USER])),
    "llama_python_tag": (
        '<|python_tag|>{"name": "get_order_details", "parameters": {"order_id": "#W1"}}<|eom_id|>',
        ("", [ORDER]),
    ),
    "llama_semicolons": (
        '{"name": "get_order_details", "parameters": {"order_id": "#W1"}}; '
        '{"name": "find_user", "parameters": {"email": "a@b.c"}}',
        ("", [ORDER, USER]),
    ),
    "llama_newlines": (
        '{"name": "get_order_details", "parameters": {"order_id": "#W1"}}\n'
        '{"name": "find_user", "parameters": {"email": "a@b.c"}}',
        ("", [ORDER, USER]),
    ),
    "llama_list": (
        '[{"name": "get_order_details", "parameters": {"order_id": "#W1"}}, '
        '{"name": "find_user", "arguments": {"email": "a@b.c"}}]',
        ("", [ORDER, USER]),
    ),
    "llama_nested_unicode_fenced": (
        '```json\n{"type": "function", "name": "update_address", "parameters": {"user_id": "zoë_1", '
        '"address": {"city": "São Paulo", "lines": ["Rua 1", "apto 2"]}, "tags": [1, -2.5, true, null]}}\n```',
        ("", [NESTED]),
    ),
    "llama_string_arguments": (
        '{"name": "find_user", "arguments": "{\\"email\\": \\"a@b.c\\"}"}',
        ("", [USER]),
    ),
    # 3. Hermes / Qwen
    "hermes_single": ('<tool_call>\n{"name": "get_order_details", "arguments": {"order_id": "#W1"}}\n</tool_call>', ("", [ORDER])),
    "hermes_multiple_with_content": (
        "Let me look that up.\n"
        '<tool_call>{"name": "get_order_details", "arguments": {"order_id": "#W1"}}</tool_call>\n'
        '<tool_call>{"name": "find_user", "arguments": {"email": "a@b.c"}}</tool_call>\nOne moment.',
        ("Let me look that up.\nOne moment.", [ORDER, USER]),
    ),
    "hermes_nested_unicode": (
        '<tool_call>{"name": "update_address", "arguments": {"user_id": "zoë_1", "address": {"city": "São Paulo", '
        '"lines": ["Rua 1", "apto 2"]}, "tags": [1, -2.5, true, null]}}</tool_call>',
        ("", [NESTED]),
    ),
    "hermes_unclosed": ('<tool_call>{"name": "find_user", "arguments": {"email": "a@b.c"}}', ("", [USER])),
    "hermes_no_arguments": ('<tool_call>{"name": "list_orders"}</tool_call>', ("", [("list_orders", {})])),
    "hermes_malformed_json": (
        '<tool_call>{"name": "get_order_details", "arguments": {"order_id": "#W1",}}</tool_call>',
        ("", [("get_order_details", '{"order_id": "#W1",}')]),
    ),
    "hermes_arguments_not_object": (
        '<tool_call>{"name": "find_user", "arguments": ["a@b.c"]}</tool_call>',
        ("", [("find_user", '["a@b.c"]')]),
    ),
    # 4. Mistral
    "mistral_list": ('[TOOL_CALLS][{"name": "get_order_details", "arguments": {"order_id": "#W1"}}]', ("", [ORDER])),
    "mistral_list_multiple_with_content": (
        'Checking.[TOOL_CALLS] [{"name": "get_order_details", "arguments": {"order_id": "#W1"}}, '
        '{"name": "find_user", "arguments": {"email": "a@b.c"}}]</s>',
        ("Checking.", [ORDER, USER]),
    ),
    "mistral_name_json": ('[TOOL_CALLS] find_user{"email": "a@b.c"}', ("", [USER])),
    "mistral_args_marker_repeated": (
        '[TOOL_CALLS]get_order_details[ARGS]{"order_id": "#W1"}[TOOL_CALLS]find_user[ARGS]{"email": "a@b.c"}',
        ("", [ORDER, USER]),
    ),
    "mistral_nested_unicode": (
        '[TOOL_CALLS]update_address[ARGS]{"user_id": "zoë_1", "address": {"city": "São Paulo", '
        '"lines": ["Rua 1", "apto 2"]}, "tags": [1, -2.5, true, null]}',
        ("", [NESTED]),
    ),
    "mistral_malformed_args": (
        '[TOOL_CALLS]get_order_details[ARGS]{"order_id": "#W1"',
        ("", [("get_order_details", '{"order_id": "#W1"')]),
    ),
}

PROSE: dict[str, str] = {
    "empty": "",
    "whitespace": "  \n\t ",
    "plain_sentence": "Your order #W1 has shipped and should arrive on Monday.",
    "inline_mention": 'I will call get_order_details(order_id="#W1") to check your order.',
    "bare_call_in_sentence": 'Calling [get_order_details(order_id="#W1")] now.',
    "unknown_function": '[delete_everything(order_id="#W1")]',
    "one_unknown_among_known": '[get_order_details(order_id="#W1"), launch_rockets(count=3)]',
    "positional_argument": '[get_order_details("#W1")]',
    "non_literal_argument": "[get_order_details(order_id=user.order)]",
    "call_in_argument": '[get_order_details(order_id=str("#W1"))]',
    "kwargs_spread": "[get_order_details(**params)]",
    "repeated_keyword": '[find_user(email="a@b.c", email="d@e.f")]',
    "empty_list": "[]",
    "python_list_of_strings": "['apples', 'pears']",
    "json_person": '{"name": "Bob", "age": 3}',
    "json_known_name_extra_keys": '{"name": "find_user", "age": 3, "arguments": {}}',
    "json_known_name_without_arguments": '{"name": "find_user"}',
    "json_followed_by_text": '{"name": "find_user", "arguments": {"email": "a@b.c"}} and then I will reply.',
    "fence_with_text_around_pythonic": 'You could call it like this:\n```python\n[get_order_details(order_id="#W1")]\n```\nShall I?',
    "fence_with_text_around_json": (
        'The call looks like:\n```json\n{"name": "find_user", "arguments": {"email": "a@b.c"}}\n```\nas you can see.'
    ),
    "hermes_unknown_tool": '<tool_call>{"name": "launch_rockets", "arguments": {}}</tool_call>',
    "hermes_unreadable_name": "<tool_call>{name: get_order_details, arguments: ???</tool_call>",
    "hermes_tag_mentioned_in_prose": "Models wrap calls in a <tool_call> tag, which I do not need here.",
    "mistral_unknown_tool": '[TOOL_CALLS][{"name": "launch_rockets", "arguments": {}}]',
    "mistral_marker_only": "Sure.[TOOL_CALLS]",
    "mistral_name_then_prose": "[TOOL_CALLS]find_user and then we will see",
}


@pytest.mark.parametrize(("text", "expected"), list(CALLS.values()), ids=list(CALLS))
def test_calls(text: str, expected: Expected) -> None:
    content, calls = expected
    want = [RequestedCall(id=f"text_call_{i}", name=name, arguments=args) for i, (name, args) in enumerate(calls)]
    assert parse_text_tool_calls(text, TOOLS) == (content, want)


@pytest.mark.parametrize("text", list(PROSE.values()), ids=list(PROSE))
def test_prose(text: str) -> None:
    assert parse_text_tool_calls(text, TOOLS) is None


def test_tool_names_may_be_any_collection() -> None:
    text = '[find_user(email="a@b.c")]'
    assert parse_text_tool_calls(text, ["find_user"]) == ("", [RequestedCall("text_call_0", "find_user", {"email": "a@b.c"})])
    assert parse_text_tool_calls(text, ()) is None


def test_deep_nesting_is_prose_not_a_crash() -> None:
    assert parse_text_tool_calls("[find_user(x=" + "[" * 5000 + "]" * 5000 + ")]", TOOLS) is None
