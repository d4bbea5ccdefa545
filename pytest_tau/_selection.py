"""Selections that would run nothing (or less than asked) fail at start, naming the problem.

- `--task-ids` with an id no domain has (a typo) is refused, naming it;
- a `--task-split` in which no domain has a task is refused;
- an ini key that looks like a pytest-tau option but is not one (`modle = gpt-4o`,
  `tau_model = ...`) is refused instead of being ignored, which would silently run the
  offline self-check.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._settings import Settings

__all__ = ["ini_problems", "selection_problems"]


def selection_problems(root: Path, settings: Settings) -> list[str]:
    """What in --task-ids / --task-split selects nothing, judged on every domain of the project.

    The default selection (every test task) has nothing to check, so it loads nothing: this
    runs before every session, and importing all the domains cost about 1.5 s of start-up."""
    if not settings.task_ids and settings.task_split == "test":
        return []
    if not (root / "tests_domains").is_dir():
        return []
    try:
        tasks = _task_splits(root)
    except Exception:  # a broken domain is reported by collection, naming its file
        return []
    if not tasks:
        return []
    split = settings.task_split
    in_split = {task_id for splits in tasks.values() for task_id, task_split in splits.items() if task_split == split}
    anywhere = {task_id: task_split for splits in tasks.values() for task_id, task_split in splits.items()}
    if not in_split:
        return [f"--task-split {split}: no domain has a task in this split (domains: {', '.join(sorted(tasks))})"]
    problems = []
    if settings.task_ids:
        unknown = [t for t in settings.task_ids if t not in anywhere]
        elsewhere = [t for t in settings.task_ids if t in anywhere and t not in in_split]
        for task_id in unknown:
            close = difflib.get_close_matches(task_id, sorted(anywhere), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"--task-ids: no domain has a task {task_id!r}{hint}")
        if elsewhere:
            problems.append(
                f"--task-ids: {', '.join(repr(t) for t in elsewhere)} not in the {split!r} split "
                f"(they are in {', '.join(sorted({anywhere[t] for t in elsewhere}))}); pass --task-split"
            )
    return problems


def _task_splits(root: Path) -> dict[str, dict[str, str]]:
    """Each domain's task ids and their splits. A domain keeping its tasks in the default place
    (`fixtures/<name>/tasks.json`) is read from that file without importing the domain (its
    actions are checked against the tools when it is collected); any other is loaded."""
    import sys

    from ._discovery import DOMAINS_PACKAGE, domain_names, load_domain
    from ._tasks import load_tasks

    splits: dict[str, dict[str, str]] = {}
    for name in domain_names(root):
        module = sys.modules.get(f"{DOMAINS_PACKAGE}.{name}.domain")
        path = root / "fixtures" / name / "tasks.json"
        tasks = load_tasks(path) if module is None and path.is_file() else load_domain(name, root).tasks
        splits[name] = {task.id: task.split for task in tasks}
    return splits


def ini_problems(config: Any, option_names: list[str]) -> list[str]:
    """Unknown ini keys that look like a pytest-tau option."""
    unknown_keys = getattr(config, "_get_unknown_ini_keys", None)
    if unknown_keys is None:
        return []
    try:
        unknown = sorted(unknown_keys())
    except Exception:
        return []
    ini_file = config.inipath.name if config.inipath else "the ini file"
    problems = []
    for key in unknown:
        bare = key.lower().replace("-", "_")
        for prefix in ("tau_", "tau."):
            bare = bare.removeprefix(prefix)
        close = difflib.get_close_matches(bare, option_names, n=1, cutoff=0.75)
        if bare in option_names or key.lower().startswith(("tau_", "tau-", "tau.")) or close:
            guess = bare if bare in option_names else (close[0] if close else None)
            hint = f" (did you mean {guess!r}?)" if guess else ""
            problems.append(f"{ini_file}: unknown option {key!r}{hint}; it would be ignored")
    return problems


def spaced_path_problems(args: list[str], invocation_dir: Path, path_options: list[str]) -> list[str]:
    """`--run-dir /x` (a space, an existing path outside the project): before plugins' options
    are known, pytest takes an existing `/x` for a test path when it finds the rootdir and ini
    file, so the project's ini can be silently skipped. Ask for `--run-dir=/x`. (A path that
    does not exist yet is ignored there, so it is harmless.)"""
    problems = []
    for index, arg in enumerate(args[:-1]):
        if arg not in path_options:
            continue
        value = Path(args[index + 1])
        path = value if value.is_absolute() else invocation_dir / value
        try:
            inside = path.resolve().is_relative_to(invocation_dir.resolve())
        except OSError:
            inside = True
        if not inside and path.exists():
            problems.append(
                f"{arg} {value}: pytest reads a space-separated path outside the project as a test path "
                f"(it then looks for the rootdir and ini file from there); write {arg}={value}"
            )
    return problems
