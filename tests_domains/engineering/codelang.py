"""The code in Forgeline's simulated repositories, and a safe interpreter for it.

Repository files are records in the DB. Their code is a small subset of Python's syntax:
module-level imports from the same repository, constants and functions; inside functions,
assignments, `if`/`elif`/`else`, bounded `for` loops, `return` and `assert`; expressions over
numbers, strings, booleans, None, lists, tuples and dicts, calls of the repository's functions and
of a few builtins, and a few string and list methods. The text is parsed with `ast.parse` (which
only parses) and run by this module's own tree walker, which accepts nothing outside that subset:
no attribute access but the whitelisted methods, no imports from outside the repository, no
`exec`, `eval`, `open` or dunder names. Every run has a step budget and size limits, so a runaway
or hostile program ends as an error result, never as a hang or an effect outside the DB.

    program = Program({"src/billing/fees.py": "def fee(x):\\n    return x * 2\\n"})
    program.call("billing.fees", "fee", [21])        # 42
    program.run_tests()                             # [TestResult(...), ...]
"""

from __future__ import annotations

import ast
import functools
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["CodeError", "FunctionInfo", "Program", "RunError", "TestResult", "code_health", "doc_mismatches", "module_name"]

STEP_BUDGET = 20_000
_DIGITS = re.compile(r"\d+")
MAX_INT = 10**18
MAX_LEN = 10_000


class CodeError(Exception):
    """A file that is not valid code of the subset (names its path and line)."""


class RunError(Exception):
    """A failure while running code: an unknown name, a wrong type, the step budget spent."""


class _AssertFailed(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


def module_name(path: str) -> str | None:
    """'src/billing/fees.py' -> 'billing.fees'; 'tests/test_fees.py' -> 'tests.test_fees'; None for non-code."""
    if not path.endswith(".py"):
        return None
    stem = path[: -len(".py")]
    if stem.startswith("src/"):
        stem = stem[len("src/") :]
    return stem.replace("/", ".")


@dataclass(frozen=True)
class FunctionInfo:
    module: str
    name: str
    params: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class TestResult:
    file: str
    name: str
    status: Literal["passed", "failed", "error"]
    message: str = ""


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_STR_METHODS = {"lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "replace", "split", "join", "title"}
_LIST_METHODS = {"count", "index"}
_DICT_METHODS = {"get", "keys", "values", "items"}


def _check_value(value: Any) -> Any:
    """Keep values small: a program cannot build a huge number, string or list."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise RunError("integer too large")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise RunError("not a finite number")
    elif isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_LEN:
        raise RunError("value too large")
    return value


def _rounded(value: Any) -> Any:
    """Floats to 6 places, so two correct ways to compute a figure fingerprint alike."""
    if isinstance(value, float):
        return round(value, 6) + 0.0
    if isinstance(value, (list, tuple)):
        return type(value)(_rounded(item) for item in value)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    return value


def _builtin_round(value: Any, digits: Any = None) -> Any:
    if digits is None:
        return round(value)
    return round(value, digits)


def _builtin_range(*args: Any) -> list[int]:
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in args) or not 1 <= len(args) <= 3:
        raise RunError("range() takes one to three integers")
    values = range(*args)
    if len(values) > MAX_LEN:
        raise RunError("range too large")
    return list(values)


_BUILTINS: dict[str, Callable[..., Any]] = {
    "abs": abs,
    "min": min,
    "max": max,
    "round": _builtin_round,
    "len": len,
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "sum": sum,
    "sorted": sorted,
    "list": list,
    "range": _builtin_range,
}

_STATEMENTS = (ast.Return, ast.If, ast.Assign, ast.AugAssign, ast.For, ast.Assert, ast.Expr, ast.Pass)
_EXPRESSIONS = (
    ast.Constant, ast.Name, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.List, ast.Tuple,
    ast.Dict, ast.Subscript, ast.Slice, ast.Attribute, ast.JoinedStr, ast.FormattedValue, ast.keyword,
)
_CONTEXT = (ast.Load, ast.Store, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, *_BINARY, *_COMPARE)


def _validate(tree: ast.Module, path: str) -> None:
    """Refuse anything outside the subset, with the file and line."""

    def fail(node: ast.AST, what: str) -> None:
        raise CodeError(f"{path}:{getattr(node, 'lineno', 0)}: {what} is not supported in Forgeline code")

    for top in tree.body:
        if isinstance(top, ast.ImportFrom):
            if top.level or not top.module or any(alias.name == "*" or alias.asname for alias in top.names):
                fail(top, "this import form")
        elif isinstance(top, ast.FunctionDef):
            a = top.args
            if top.decorator_list or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or top.returns:
                fail(top, "decorators, *args, **kwargs, keyword-only arguments or annotations")
            if any(arg.annotation for arg in a.args):
                fail(top, "an annotation")
            for statement in ast.walk(top):
                if statement is top or isinstance(statement, (ast.arguments, ast.arg)):
                    continue
                if isinstance(statement, ast.stmt) and not isinstance(statement, _STATEMENTS):
                    fail(statement, type(statement).__name__)
                if isinstance(statement, ast.expr) and not isinstance(statement, _EXPRESSIONS):
                    fail(statement, type(statement).__name__)
                if isinstance(statement, ast.Name) and statement.id.startswith("__"):
                    fail(statement, "a dunder name")
                if isinstance(statement, ast.Attribute) and statement.attr.startswith("_"):
                    fail(statement, "a private attribute")
                if isinstance(statement, (ast.Assign, ast.AugAssign, ast.For)):
                    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                    if not all(isinstance(t, ast.Name) for t in targets):
                        fail(statement, "assignment to anything but a plain name")
        elif isinstance(top, ast.Assign):
            if len(top.targets) != 1 or not isinstance(top.targets[0], ast.Name):
                fail(top, "this assignment")
            if not all(isinstance(n, (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.UnaryOp, ast.USub, ast.Load))
                       for n in ast.walk(top.value)):
                fail(top, "a module constant that is not a literal")
        elif isinstance(top, ast.Expr) and isinstance(top.value, ast.Constant) and isinstance(top.value.value, str):
            continue  # a docstring
        else:
            fail(top, f"a top-level {type(top).__name__}")


@functools.lru_cache(maxsize=1024)
def _checked_tree(path: str, source: str) -> ast.Module:
    """A file parsed and held to the subset. Every environment loads its repository's files
    again, mostly unchanged; trees are only read, never changed, so one parse serves them all."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        raise CodeError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    _validate(tree, path)
    return tree


@dataclass
class _Module:
    name: str
    path: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    constants: dict[str, Any] = field(default_factory=dict)
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name -> (module, name)


class Program:
    """The code files of one repository, loaded; runs functions and tests on demand."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.modules: dict[str, _Module] = {}
        self.broken: dict[str, str] = {}  # path -> why it does not load
        for path in sorted(files):
            name = module_name(path)
            if name is None:
                continue
            try:
                self.modules[name] = self._load(name, path, files[path])
            except CodeError as exc:
                self.broken[path] = str(exc)

    @staticmethod
    def _load(name: str, path: str, source: str) -> _Module:
        tree = _checked_tree(path, source)
        module = _Module(name, path, tree)
        for top in tree.body:
            if isinstance(top, ast.FunctionDef):
                module.functions[top.name] = top
            elif isinstance(top, ast.ImportFrom):
                for alias in top.names:
                    module.imports[alias.name] = (top.module or "", alias.name)
            elif isinstance(top, ast.Assign):
                target = top.targets[0]
                assert isinstance(target, ast.Name)
                module.constants[target.id] = ast.literal_eval(top.value)
        return module

    def stubbed(self, module: str, function: str) -> Program:
        """A copy in which one function returns None whatever it is given: a test that does not
        notice has not tested it."""
        copy = Program({})
        copy.broken = dict(self.broken)
        copy.modules = dict(self.modules)
        original = self.modules[module]
        replaced = _Module(original.name, original.path, original.tree, dict(original.functions), original.constants, original.imports)
        definition = original.functions[function]
        stub = ast.FunctionDef(name=definition.name, args=definition.args, body=[ast.Return(value=ast.Constant(value=None))],
                               decorator_list=[], returns=None, lineno=definition.lineno, col_offset=0)
        replaced.functions[function] = stub
        copy.modules[module] = replaced
        return copy

    # -- what the code defines and uses --------------------------------------------------------------
    def functions(self) -> list[FunctionInfo]:
        """Every function every loaded module defines, sorted."""
        return sorted(
            (FunctionInfo(m.name, f.name, tuple(a.arg for a in f.args.args), f.lineno) for m in self.modules.values() for f in m.functions.values()),
            key=lambda info: (info.module, info.name),
        )

    def unresolved(self) -> list[str]:
        """'path:line: name' for every import or call of a name nothing defines."""
        problems: list[str] = []
        for module in self.modules.values():
            for _local, (source, name) in sorted(module.imports.items()):
                target = self.modules.get(source)
                if target is None or (name not in target.functions and name not in target.constants):
                    problems.append(f"{module.path}: imports {name!r} from {source!r}, which does not define it")
            for function in module.functions.values():
                assigned = {a.arg for a in function.args.args}
                assigned |= {t.id for node in ast.walk(function) if isinstance(node, (ast.Assign, ast.For, ast.AugAssign))
                             for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
                for node in ast.walk(function):
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                        known = (node.id in assigned or node.id in module.functions or node.id in module.constants
                                 or node.id in module.imports or node.id in _BUILTINS or node.id in ("True", "False", "None"))
                        if not known:
                            problems.append(f"{module.path}:{node.lineno}: {node.id!r} is not defined")
        return sorted(set(problems))

    # -- running --------------------------------------------------------------------------------------
    def call(self, module: str, function: str, args: Iterable[Any], *, budget: int = STEP_BUDGET) -> Any:
        """Run one function with positional arguments; RunError when it fails."""
        if module not in self.modules:
            raise RunError(f"no module {module!r}")
        return _Run(self, budget).call(self.modules[module], function, list(args), line=0)

    def outcome(self, module: str, function: str, args: Iterable[Any]) -> str:
        """A function's result on these arguments as text, "error" when it fails (whatever the message
        or line, so two correct ways to write it fingerprint alike): a behaviour fingerprint."""
        try:
            return repr(_rounded(self.call(module, function, args)))
        except (RunError, _AssertFailed, TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, OverflowError, RecursionError):
            return "error"

    def run_tests(self) -> list[TestResult]:
        """Every `test_*` function of every `tests/` module, run in order of file and line."""
        results: list[TestResult] = []
        for path, why in sorted(self.broken.items()):
            if path.startswith("tests/"):
                results.append(TestResult(path, "<module>", "error", why))
        for module in sorted(self.modules.values(), key=lambda m: m.path):
            if not module.path.startswith("tests/"):
                continue
            for function in sorted(module.functions.values(), key=lambda f: f.lineno):
                if not function.name.startswith("test_"):
                    continue
                results.append(self._run_test(module, function))
        return results

    def _run_test(self, module: _Module, function: ast.FunctionDef) -> TestResult:
        try:
            _Run(self, STEP_BUDGET).call(module, function.name, [], line=function.lineno)
        except _AssertFailed as exc:
            return TestResult(module.path, function.name, "failed", str(exc))
        except RunError as exc:
            return TestResult(module.path, function.name, "error", str(exc))
        except (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, OverflowError, RecursionError) as exc:
            return TestResult(module.path, function.name, "error", f"{type(exc).__name__}: {exc}"[:200])
        return TestResult(module.path, function.name, "passed")


class _Run:
    """One top-level run: a step budget shared by every call it makes."""

    def __init__(self, program: Program, budget: int) -> None:
        self.program = program
        self.steps = budget
        self.depth = 0

    def tick(self, node: ast.AST) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise RunError(f"line {getattr(node, 'lineno', 0)}: step budget spent (an endless loop or recursion?)")

    def resolve(self, module: _Module, name: str, line: int) -> tuple[str, Any]:
        """('function', (module, def)) or ('value', value) for a name at module level."""
        seen = 0
        while seen < 20:
            seen += 1
            if name in module.functions:
                return "function", (module, module.functions[name])
            if name in module.constants:
                return "value", module.constants[name]
            if name in module.imports:
                source, original = module.imports[name]
                target = self.program.modules.get(source)
                if target is None:
                    why = next((w for p, w in self.program.broken.items() if module_name(p) == source), None)
                    raise RunError(why or f"{module.path}: cannot import {original!r} from {source!r}: no such module")
                module, name = target, original
                continue
            if name in _BUILTINS:
                return "builtin", _BUILTINS[name]
            raise RunError(f"{module.path}:{line}: name {name!r} is not defined")
        raise RunError(f"{module.path}: import cycle for {name!r}")

    def call(self, module: _Module, name: str, args: list[Any], *, line: int, kwargs: dict[str, Any] | None = None) -> Any:
        kind, target = self.resolve(module, name, line)
        if kind == "value":
            raise RunError(f"{module.path}:{line}: {name!r} is not a function")
        if kind == "builtin":
            if kwargs:
                raise RunError(f"{module.path}:{line}: {name}() takes no keyword arguments here")
            return _check_value(target(*args))
        owner, function = target
        params = [a.arg for a in function.args.args]
        defaults = function.args.defaults
        bound: dict[str, Any] = {}
        if len(args) > len(params):
            raise RunError(f"{owner.path}:{line}: {function.name}() takes {len(params)} arguments but {len(args)} were given")
        bound.update(zip(params, args, strict=False))
        for key, value in (kwargs or {}).items():
            if key not in params or key in bound:
                raise RunError(f"{owner.path}:{line}: {function.name}() got an unexpected or repeated argument {key!r}")
            bound[key] = value
        first_default = len(params) - len(defaults)
        for index, param in enumerate(params):
            if param not in bound:
                if index < first_default:
                    raise RunError(f"{owner.path}:{line}: {function.name}() missing argument {param!r}")
                bound[param] = self.expr(owner, bound, defaults[index - first_default])
        self.depth += 1
        if self.depth > 60:
            raise RunError(f"{owner.path}:{line}: calls nested too deep")
        try:
            self.block(owner, bound, function.body)
        except _Return as returned:
            return returned.value
        finally:
            self.depth -= 1
        return None

    def block(self, module: _Module, scope: dict[str, Any], body: list[ast.stmt]) -> None:
        for statement in body:
            self.statement(module, scope, statement)

    def statement(self, module: _Module, scope: dict[str, Any], node: ast.stmt) -> None:
        self.tick(node)
        if isinstance(node, ast.Return):
            raise _Return(None if node.value is None else self.expr(module, scope, node.value))
        if isinstance(node, ast.If):
            self.block(module, scope, node.body if self.expr(module, scope, node.test) else node.orelse)
        elif isinstance(node, ast.Assign):
            value = self.expr(module, scope, node.value)
            for target in node.targets:
                assert isinstance(target, ast.Name)
                scope[target.id] = value
        elif isinstance(node, ast.AugAssign):
            assert isinstance(node.target, ast.Name)
            if node.target.id not in scope:
                raise RunError(f"{module.path}:{node.lineno}: {node.target.id!r} used before it is set")
            scope[node.target.id] = _check_value(self.binary(node.op, scope[node.target.id], self.expr(module, scope, node.value), node))
        elif isinstance(node, ast.For):
            assert isinstance(node.target, ast.Name)
            if node.orelse:
                raise RunError(f"{module.path}:{node.lineno}: for ... else is not supported")
            for item in list(self.expr(module, scope, node.iter)):
                scope[node.target.id] = item
                self.block(module, scope, node.body)
        elif isinstance(node, ast.Assert):
            if not self.expr(module, scope, node.test):
                raise _AssertFailed(self.explain_assert(module, scope, node))
        elif isinstance(node, ast.Expr):
            self.expr(module, scope, node.value)
        elif not isinstance(node, ast.Pass):
            raise RunError(f"{module.path}:{node.lineno}: unsupported statement")

    def explain_assert(self, module: _Module, scope: dict[str, Any], node: ast.Assert) -> str:
        where = f"{module.path}:{node.lineno}"
        if node.msg is not None:
            return f"{where}: {self.expr(module, scope, node.msg)}"
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left = self.expr(module, scope, test.left)
            right = self.expr(module, scope, test.comparators[0])
            return f"{where}: assert {ast.unparse(test)} (left: {left!r}, right: {right!r})"
        return f"{where}: assert {ast.unparse(test)}"

    def binary(self, op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
        if isinstance(op, ast.Pow):
            raise RunError(f"line {getattr(node, 'lineno', 0)}: ** is not supported")
        function = _BINARY.get(type(op))
        if function is None:
            raise RunError(f"line {getattr(node, 'lineno', 0)}: unsupported operator")
        if isinstance(op, ast.Mult) and isinstance(left, (str, list, tuple)) and isinstance(right, int) and len(left) * right > MAX_LEN:
            raise RunError("value too large")
        return function(left, right)

    def expr(self, module: _Module, scope: dict[str, Any], node: ast.expr) -> Any:
        self.tick(node)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in scope:
                return scope[node.id]
            kind, value = self.resolve(module, node.id, node.lineno)
            if kind != "value":
                raise RunError(f"{module.path}:{node.lineno}: functions are not values here ({node.id!r})")
            return value
        if isinstance(node, ast.BinOp):
            return _check_value(self.binary(node.op, self.expr(module, scope, node.left), self.expr(module, scope, node.right), node))
        if isinstance(node, ast.UnaryOp):
            value = self.expr(module, scope, node.operand)
            if isinstance(node.op, ast.Not):
                return not value
            if isinstance(node.op, ast.USub):
                return -value
            if isinstance(node.op, ast.UAdd):
                return +value
            raise RunError(f"{module.path}:{node.lineno}: unsupported operator")
        if isinstance(node, ast.BoolOp):
            result: Any = None
            for operand in node.values:
                result = self.expr(module, scope, operand)
                if isinstance(node.op, ast.And) and not result:
                    return result
                if isinstance(node.op, ast.Or) and result:
                    return result
            return result
        if isinstance(node, ast.Compare):
            left = self.expr(module, scope, node.left)
            for op, comparator in zip(node.ops, node.comparators, strict=True):
                right = self.expr(module, scope, comparator)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self.expr(module, scope, node.body if self.expr(module, scope, node.test) else node.orelse)
        if isinstance(node, ast.List):
            return _check_value([self.expr(module, scope, e) for e in node.elts])
        if isinstance(node, ast.Tuple):
            return _check_value(tuple(self.expr(module, scope, e) for e in node.elts))
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise RunError(f"{module.path}:{node.lineno}: ** in a dict is not supported")
            return _check_value({self.expr(module, scope, k): self.expr(module, scope, v) for k, v in zip(node.keys, node.values, strict=True) if k is not None})
        if isinstance(node, ast.Subscript):
            container = self.expr(module, scope, node.value)
            if isinstance(node.slice, ast.Slice):
                bounds = [None if part is None else self.expr(module, scope, part) for part in (node.slice.lower, node.slice.upper, node.slice.step)]
                return container[slice(*bounds)]
            return container[self.expr(module, scope, node.slice)]
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(str(value.value))
                else:
                    assert isinstance(value, ast.FormattedValue)
                    inner = self.expr(module, scope, value.value)
                    spec = "" if value.format_spec is None else str(self.expr(module, scope, value.format_spec))
                    if any(len(digits) > 3 for digits in _DIGITS.findall(spec)):
                        raise RunError(f"{module.path}:{node.lineno}: format width too large")
                    parts.append(format(inner, spec))
            return _check_value("".join(parts))
        if isinstance(node, ast.Call):
            return self.call_expr(module, scope, node)
        if isinstance(node, ast.Attribute):
            raise RunError(f"{module.path}:{node.lineno}: attributes are only supported as method calls")
        raise RunError(f"{module.path}:{getattr(node, 'lineno', 0)}: unsupported expression")

    def call_expr(self, module: _Module, scope: dict[str, Any], node: ast.Call) -> Any:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise RunError(f"{module.path}:{node.lineno}: * and ** arguments are not supported")
        args = [self.expr(module, scope, a) for a in node.args]
        kwargs = {k.arg: self.expr(module, scope, k.value) for k in node.keywords if k.arg is not None}
        if isinstance(node.func, ast.Name):
            if node.func.id in scope:
                raise RunError(f"{module.path}:{node.lineno}: {node.func.id!r} is a value, not a function")
            return self.call(module, node.func.id, args, line=node.lineno, kwargs=kwargs)
        if isinstance(node.func, ast.Attribute):
            owner = self.expr(module, scope, node.func.value)
            method = node.func.attr
            allowed = (_STR_METHODS if isinstance(owner, str) else _LIST_METHODS if isinstance(owner, (list, tuple))
                       else _DICT_METHODS if isinstance(owner, dict) else set())
            if method not in allowed or kwargs:
                raise RunError(f"{module.path}:{node.lineno}: {type(owner).__name__} has no method {method!r} here")
            if method == "replace" and len(args) >= 2 and len(owner) * max(1, len(str(args[1]))) > MAX_LEN * 4:
                raise RunError("value too large")
            if method == "join" and sum(len(str(part)) for part in args[0]) + len(owner) * len(args[0]) > MAX_LEN * 4:
                raise RunError("value too large")
            result = getattr(owner, method)(*args)
            if method in ("keys", "values", "items"):
                result = list(result)
            return _check_value(result)
        raise RunError(f"{module.path}:{node.lineno}: only named functions can be called")


_DOC_SIGNATURE = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)\(([^()`]*)\)`")


def doc_mismatches(tree: Mapping[str, str], program: Program) -> list[str]:
    """Signatures written in backticks in docs pages (`name(a, b)`) that the code does not have."""
    public = {f.name: f.params for f in program.functions() if not f.module.startswith("tests.") and not f.name.startswith("_")}
    problems = []
    for path, text in sorted(tree.items()):
        if not path.startswith("docs/"):
            continue
        for name, params in _DOC_SIGNATURE.findall(text):
            written = tuple(p.split("=")[0].strip() for p in params.split(",") if p.strip())
            if name not in public:
                problems.append(f"{path}: `{name}(...)`: no such function")
            elif written != public[name]:
                problems.append(f"{path}: `{name}({', '.join(written)})`: the code takes ({', '.join(public[name])})")
    return sorted(set(problems))


def code_health(repo: str, tree: Mapping[str, str], base_tree: Mapping[str, str], probes: Mapping[str, list[list[Any]]]) -> dict[str, Any]:
    """What a repository's code does: its public API, each public function's results on the probe
    arguments of its arity, the tests that do not pass, the tests of `base_tree` that are gone, the
    names used but defined nowhere, the docs signatures the code does not have, the public functions
    no passing test notices being broken (each replaced by one that returns None in turn), and
    whether a passing test fails on an assertion (not a missing name) when run on the code of
    `base_tree`: a test that pins what the change fixed."""
    program = Program(tree)
    public = [f for f in program.functions() if not f.module.startswith("tests.") and not f.name.startswith("_")]
    results = program.run_tests()
    passing = {(r.file, r.name) for r in results if r.status == "passed"}
    base_tests = {f"{r.file}::{r.name}" for r in Program(base_tree).run_tests()}
    on_base = Program({**{p: t for p, t in base_tree.items() if not p.startswith("tests/")},
                       **{p: t for p, t in tree.items() if p.startswith("tests/")}}).run_tests()
    untested = []
    for function in public:
        stubbed = program.stubbed(function.module, function.name).run_tests()
        if all(r.status == "passed" for r in stubbed if (r.file, r.name) in passing):
            untested.append(f"{function.module}.{function.name}")
    return {
        "repo": repo,
        "api": [f"{f.module}.{f.name}({', '.join(f.params)})" for f in public],
        "behaviour": {f"{f.module}.{f.name}": [program.outcome(f.module, f.name, args) for args in probes.get(str(len(f.params)), [])]
                      for f in public},
        "failing_tests": [f"{r.file}::{r.name}" for r in results if r.status != "passed"],
        "missing_tests": sorted(base_tests - {f"{r.file}::{r.name}" for r in results}),
        "unresolved": sorted(program.unresolved() + list(program.broken.values())),
        "doc_mismatches": doc_mismatches(tree, program),
        "untested": untested,
        "regression_test": any(r.status == "failed" and (r.file, r.name) in passing for r in on_base),
        "probes": {key: [list(args) for args in value] for key, value in probes.items()},
    }
