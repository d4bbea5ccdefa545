"""Tool calls that a model wrote as text instead of as structured calls.

Many open models (ToolACE, Llama 3.x, Hermes/Qwen, Mistral) are served without a
tool-call parser, so their calls arrive as message text. Scoring such a model on how
well its serving stack parses would say nothing about the agent, so the harness
recognises the common written formats and turns them into ``RequestedCall`` values.

Recognition is deliberately strict: a call must name a known tool, and the formats
without markers (Pythonic lists, bare JSON) must be the whole message. Anything else
stays prose, so a reply that merely *mentions* a call is shown to the user unchanged.
Inside unambiguous markers (``<tool_call>``, ``[TOOL_CALLS]``) malformed arguments are
kept as raw text, so the engine reports a tool error as it would for a structured call.
Whatever the size or depth of the text, parsing ends (decoders past their recursion
limit read as malformed; arguments nested deeper than any tool takes stay raw text, for
the engine to refuse as a tool error).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection, Iterator
from typing import Any

from ._conversation import RequestedCall
from ._environment import argument_shape_problem

__all__ = ["parse_text_tool_calls"]

_Call = tuple[str, str | dict[str, Any]]  # (tool name, arguments)

_FENCE = re.compile(r"\A```[\w+.-]*[ \t]*\n?(.*?)\n?[ \t]*```\Z", re.DOTALL)
_PYTHON_TAG = "<|python_tag|>"
_END_TOKENS = ("<|eom_id|>", "<|eot_id|>", "</s>")
_HERMES_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_MISTRAL_MARKER = "[TOOL_CALLS]"
_MISTRAL_NAMED = re.compile(r"\A\s*([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\]\s*\w+\s*)?(?:\[ARGS\])?\s*(.*)\Z", re.DOTALL)
_NAME_FIELD = re.compile(r'"name"\s*:\s*"([^"\\]+)"')
_ARGUMENTS_FIELD = re.compile(r'"(?:arguments|parameters)"\s*:\s*(.*?)\s*\}?\s*\Z', re.DOTALL)
_JSON_CALL_KEYS = frozenset({"name", "arguments", "parameters", "type", "id"})
_JSON_WORDS = {"true": True, "false": False, "null": None}


def parse_text_tool_calls(text: str, tool_names: Collection[str]) -> tuple[str, list[RequestedCall]] | None:
    """Tool calls written as text, or None when the text is prose.

    Returns (the remaining visible content, the calls).
    """
    stripped = _strip_end_tokens(text.strip())
    if not stripped:
        return None
    if "<tool_call>" in stripped:
        found = _hermes(stripped, tool_names)
    elif _MISTRAL_MARKER in stripped:
        found = _mistral(stripped, tool_names)
    else:
        body = _unfence(stripped.removeprefix(_PYTHON_TAG).strip())
        calls = _pythonic(body, tool_names)
        if calls is None:
            calls = _llama_json(body, tool_names)
        found = None if calls is None else ("", calls)
    if found is None:
        return None
    content, calls = found
    requested = [RequestedCall(id=f"text_call_{i}", name=name, arguments=args) for i, (name, args) in enumerate(calls)]
    return content, requested


# ---------------------------------------------------------------------------- helpers


def _strip_end_tokens(text: str) -> str:
    changed = True
    while changed:
        changed = False
        for token in _END_TOKENS:
            if text.endswith(token):
                text = text[: -len(token)].rstrip()
                changed = True
    return text


def _unfence(text: str) -> str:
    """The inside of a code fence that is the whole text, else the text itself."""
    match = _FENCE.match(text)
    if match and "```" not in match.group(1):
        return match.group(1).strip()
    return text


def _object_arguments(value: Any) -> dict[str, Any] | None:
    """Arguments as a dict: a JSON object, or a string holding one (OpenAI style)."""
    if isinstance(value, dict):
        return value if argument_shape_problem(value) is None else None
    if isinstance(value, str):
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            return None
        if isinstance(decoded, dict) and argument_shape_problem(decoded) is None:
            return decoded
    return None


def _as_text(value: Any) -> str:
    """Arguments that are not an object, as text for the engine to refuse with a tool error."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value)
    except (ValueError, RecursionError):
        return "<arguments nested too deep to write>"


# ---------------------------------------------------------------------------- 1. Pythonic


class _NotLiteral(Exception):
    pass


def _pythonic(text: str, tool_names: Collection[str]) -> list[_Call] | None:
    """``[tool(a=1, b="x"), other()]``: keyword arguments with literal values only."""
    if not text.startswith("["):
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(tree.body, ast.List) or not tree.body.elts:
        return None
    calls: list[_Call] = []
    for element in tree.body.elts:
        call = _pythonic_call(element, tool_names)
        if call is None:
            return None
        calls.append(call)
    return calls


def _pythonic_call(node: ast.expr, tool_names: Collection[str]) -> _Call | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id not in tool_names or node.args:
        return None
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None or keyword.arg in arguments:  # **spread or a repeated name
            return None
        try:
            arguments[keyword.arg] = _literal(keyword.value)
        except (_NotLiteral, RecursionError):
            return None
    return node.func.id, arguments


def _literal(node: ast.expr) -> Any:
    """A JSON-compatible value from a literal expression; JSON's true/false/null accepted."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, int, float))):
        return node.value  # bool is an int
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _literal(node.operand)
        if isinstance(operand, (int, float)) and not isinstance(operand, bool):
            return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(element) for element in node.elts]
    if isinstance(node, ast.Dict):
        result: dict[str, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise _NotLiteral
            result[key.value] = _literal(value)
        return result
    if isinstance(node, ast.Name) and node.id in _JSON_WORDS:
        return _JSON_WORDS[node.id]
    raise _NotLiteral


# ---------------------------------------------------------------------------- 2. Llama 3 JSON


def _llama_json(text: str, tool_names: Collection[str]) -> list[_Call] | None:
    """``<|python_tag|>{"name": ..., "parameters": {...}}``, several, or a JSON list of them."""
    if not text.startswith(("{", "[")):
        return None
    values = list(_json_values(text))
    if not values or any(value is None for value in values):
        return None
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    calls: list[_Call] = []
    for value in values:
        call = _llama_call(value, tool_names)
        if call is None:
            return None
        calls.append(call)
    return calls or None


def _json_values(text: str) -> Iterator[Any]:
    """JSON values separated by whitespace or ``;``; yields None (and stops) on anything else."""
    decoder = json.JSONDecoder()
    position = 0
    while position < len(text):
        try:
            value, position = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):
            yield None
            return
        yield value
        while position < len(text) and (text[position].isspace() or text[position] == ";"):
            position += 1


def _llama_call(value: Any, tool_names: Collection[str]) -> _Call | None:
    if not isinstance(value, dict) or not set(value) <= _JSON_CALL_KEYS:
        return None
    name = value.get("name")
    if not isinstance(name, str) or name not in tool_names:
        return None
    if value.get("type", "function") != "function":
        return None
    raw = value.get("parameters", value.get("arguments"))
    arguments = _object_arguments(raw)
    if arguments is None and isinstance(raw, dict):
        return name, _as_text(raw)  # an object too deep or too big: the engine refuses it
    return None if arguments is None else (name, arguments)


# ---------------------------------------------------------------------------- 3. Hermes / Qwen


def _hermes(text: str, tool_names: Collection[str]) -> tuple[str, list[_Call]] | None:
    """``<tool_call>{json}</tool_call>`` blocks; the text around them is the content."""
    calls: list[_Call] = []
    pieces: list[str] = []
    position = 0
    for match in _HERMES_BLOCK.finditer(text):
        call = _tagged_json_call(_unfence(match.group(1).strip()), tool_names)
        if call is None:
            return None
        calls.append(call)
        pieces.append(text[position : match.start()].strip())
        position = match.end()
    pieces.append(text[position:].strip())
    if not calls:
        return None
    return "\n".join(piece for piece in pieces if piece), calls


def _tagged_json_call(body: str, tool_names: Collection[str]) -> _Call | None:
    """One call inside a marker: a malformed body keeps its raw arguments if the name reads."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return _malformed_call(body, tool_names)
    return _tagged_value_call(value, tool_names)


def _tagged_value_call(value: Any, tool_names: Collection[str]) -> _Call | None:
    """A decoded ``{"name": ..., "arguments": ...}``; missing arguments mean none."""
    if not isinstance(value, dict):
        return None
    name = value.get("name")
    if not isinstance(name, str) or name not in tool_names:
        return None
    raw = value.get("arguments", value.get("parameters", {}))
    arguments = _object_arguments(raw)
    if arguments is None:  # e.g. a list or a broken string: let the engine report it
        return name, _as_text(raw)
    return name, arguments


def _malformed_call(body: str, tool_names: Collection[str]) -> _Call | None:
    name_match = _NAME_FIELD.search(body)
    if name_match is None or name_match.group(1) not in tool_names:
        return None
    arguments_match = _ARGUMENTS_FIELD.search(body, name_match.end()) or _ARGUMENTS_FIELD.search(body)
    return name_match.group(1), arguments_match.group(1) if arguments_match else body


# ---------------------------------------------------------------------------- 4. Mistral


def _mistral(text: str, tool_names: Collection[str]) -> tuple[str, list[_Call]] | None:
    """``[TOOL_CALLS][{json}, ...]``, or ``[TOOL_CALLS]name[ARGS]{json}`` repeated."""
    content, _, rest = text.partition(_MISTRAL_MARKER)
    calls: list[_Call] = []
    for segment in rest.split(_MISTRAL_MARKER):
        segment = segment.strip()
        if not segment:
            continue
        found = _mistral_segment(segment, tool_names)
        if found is None:
            return None
        calls.extend(found)
    return (content.strip(), calls) if calls else None


def _mistral_segment(segment: str, tool_names: Collection[str]) -> list[_Call] | None:
    if segment.startswith(("[", "{")):
        try:
            value = json.loads(segment)
        except (ValueError, RecursionError):
            return None
        values = value if isinstance(value, list) else [value]
        calls = [_tagged_value_call(item, tool_names) for item in values]
        if not calls or any(call is None for call in calls):
            return None
        return [call for call in calls if call is not None]
    match = _MISTRAL_NAMED.match(segment)
    if match is None or match.group(1) not in tool_names:
        return None
    name, body = match.group(1), match.group(2).strip()
    if not body:
        return [(name, {})]
    if not body.startswith("{"):
        return None
    try:
        arguments = _object_arguments(json.loads(body))
    except (ValueError, RecursionError):
        arguments = None
    return [(name, arguments if arguments is not None else body)]
