"""Tools: typed Python functions whose OpenAI schemas come from their signatures.

A tool's first parameter receives the environment's database; the rest are the
arguments the model supplies. Their types and descriptions (``Annotated[...,
Field(description=...)]`` or a Google-style ``Args:`` section) become a pydantic
model, which both validates the model's arguments and produces the JSON schema.
"""

from __future__ import annotations

import ast
import inspect
import json
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pydantic
from pydantic import BaseModel, ConfigDict, Field
from pydantic.fields import FieldInfo

__all__ = ["Tool", "ToolError", "calculate"]


class ToolError(Exception):
    """Raised by a tool to return a clear error message to the agent."""


_ARGS_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$", re.MULTILINE)
_ARG_LINE = re.compile(r"^(\s+)(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _split_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Return the description and the per-argument descriptions of a docstring."""
    doc = inspect.cleandoc(doc or "")
    match = _ARGS_SECTION.search(doc)
    if not match:
        return doc.strip(), {}
    args: dict[str, str] = {}
    current: str | None = None
    arg_indent: int | None = None
    for line in doc[match.end() :].splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            break  # the next section (Returns:, Raises:) ends the arguments
        arg = _ARG_LINE.match(line)
        indent = len(line) - len(line.lstrip())
        if arg and (arg_indent is None or indent == arg_indent):
            arg_indent = indent
            current = arg.group(2)
            args[current] = arg.group(3).strip()
        elif current is not None:
            args[current] = (args[current] + " " + line.strip()).strip()
    return doc[: match.start()].strip(), args


def _is_free_text(annotation: Any) -> bool:
    from ._canonical import FREE_TEXT

    return any(m is FREE_TEXT for m in getattr(annotation, "__metadata__", ())) or any(
        _is_free_text(arg) for arg in getattr(annotation, "__args__", ()) if arg is not annotation
    )


def _strip_titles(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {
            key: _strip_titles(value)
            for key, value in schema.items()
            if not (key == "title" and isinstance(value, str))
        }
    if isinstance(schema, list):
        return [_strip_titles(value) for value in schema]
    return schema


def _said_in_words(schema: Any) -> Any:
    """The schema with the constraints some providers drop also stated in the description.

    Gemini's function declarations (and litellm's conversion for Gemini and Vertex) keep only
    string enums and inclusive bounds: an integer enum or an exclusive bound would vanish and
    the model would never learn it. Said in words, it reaches every provider."""
    if isinstance(schema, list):
        return [_said_in_words(value) for value in schema]
    if not isinstance(schema, dict):
        return schema
    node = {key: _said_in_words(value) for key, value in schema.items()}
    words = []
    enum = node.get("enum")
    if isinstance(enum, list) and any(not isinstance(value, str) for value in enum):
        words.append("One of " + ", ".join(json.dumps(value) for value in enum) + ".")
    if "exclusiveMinimum" in node:
        words.append(f"Greater than {node['exclusiveMinimum']}.")
    if "exclusiveMaximum" in node:
        words.append(f"Less than {node['exclusiveMaximum']}.")
    if "multipleOf" in node:
        words.append(f"A multiple of {node['multipleOf']}.")
    if words:
        said = str(node.get("description") or "").rstrip()
        if said and not said.endswith((".", "!", "?")):
            said += "."
        node["description"] = " ".join([said, *words] if said else words)
    return node


@dataclass(frozen=True)
class Tool:
    """One tool of a domain: the function, whether it writes, and its schema."""

    name: str
    function: Callable[..., Any]
    write: bool
    transfer: bool
    description: str
    arguments: type[BaseModel]
    free_text: frozenset[str] = frozenset()  # parameters in the agent's own words (FreeText, a transfer summary)
    authenticates: bool = False  # a look-up that identifies the caller, as the policy requires before a write

    @classmethod
    def from_function(cls, function: Callable[..., Any], *, write: bool, transfer: bool = False, authenticates: bool = False) -> Tool:
        name = function.__name__
        description, arg_docs = _split_docstring(function.__doc__ or "")
        if not description:
            raise TypeError(f"tool {name!r} needs a docstring: it becomes the tool's description")
        signature = inspect.signature(function, eval_str=True)
        params = list(signature.parameters.values())
        if not params or params[0].name != "db":
            raise TypeError(f"tool {name!r}: the first parameter must be `db` (the domain's database)")
        fields: dict[str, Any] = {}
        for param in params[1:]:
            if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
                raise TypeError(f"tool {name!r}: parameter {param.name!r} must be a plain named parameter")
            if param.annotation is inspect.Parameter.empty:
                raise TypeError(f"tool {name!r}: parameter {param.name!r} needs a type annotation")
            default = ... if param.default is inspect.Parameter.empty else param.default
            if isinstance(default, FieldInfo):
                raise TypeError(f"tool {name!r}: describe {param.name!r} with Annotated[..., Field(...)]")
            # Annotated[..., Field(description=...)] wins over the docstring's Args section.
            annotated = any(isinstance(m, FieldInfo) and m.description for m in getattr(param.annotation, "__metadata__", ()))
            arg_doc = None if annotated else arg_docs.get(param.name)
            fields[param.name] = (param.annotation, Field(default, description=arg_doc) if arg_doc else Field(default))
        model = pydantic.create_model(
            f"{name}_arguments",
            __config__=ConfigDict(extra="forbid"),
            **fields,
        )
        free = {"summary"} if transfer and "summary" in fields else set()
        free |= {param.name for param in params[1:] if _is_free_text(param.annotation)}
        return cls(name, function, write, transfer, description, model, frozenset(free), authenticates)

    def schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema of this tool."""
        parameters = _said_in_words(_strip_titles(self.arguments.model_json_schema()))
        parameters.setdefault("properties", {})
        parameters.setdefault("required", [])
        parameters.pop("additionalProperties", None)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": parameters},
        }


# A tiny arithmetic evaluator: domains offer it as a `calculate` tool so that computed
# figures (totals, refunds) come out of a tool result, never out of `eval`.
_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    raise ToolError("only numbers, parentheses and + - * / are allowed")


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression and return the result rounded to 2 decimals."""
    if len(expression) > 200:
        raise ToolError("expression too long (200 characters at most)")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ToolError(f"invalid expression: {exc.msg}") from None
    try:
        value = _evaluate(tree)
    except ZeroDivisionError:
        raise ToolError("division by zero") from None
    except OverflowError:
        raise ToolError("number too large") from None
    return f"{value:.2f}"
