"""No circular imports inside pytest_tau: every `import` counts, at module level, under
TYPE_CHECKING or in a function body, so the modules stay in layers a reader can follow."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest_tau

PACKAGE = Path(pytest_tau.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str, modules: set[str]) -> set[str]:
    """The pytest_tau modules `module` imports anywhere in its text."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            # `from .pkg import mod` imports the submodule; `from .mod import name` the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: _imports(path, name, modules) for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as the chain of modules that closes it, or None."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" once fully explored
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_the_graph_sees_every_kind_of_import() -> None:
    """The walk finds top-level, TYPE_CHECKING and function-level imports (else it proves nothing)."""
    graph = import_graph()
    assert "pytest_tau._domain" in graph["pytest_tau._environment"] or "pytest_tau._environment" in graph["pytest_tau._domain"]
    assert "pytest_tau._case" in graph["pytest_tau._reports"]  # under TYPE_CHECKING
    assert "pytest_tau._reports" in graph["pytest_tau._controller"]  # in a function body
    assert "pytest_tau.remote._mcp" in graph["pytest_tau.remote._schemas"]  # relative, in a subpackage
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, (
        "circular import: " + " -> ".join(cycle) + "\nmove what both need into a module below them, or pass it in as an argument"
    )
