"""`--shard I/N`: run one of N slices of the selected items, every trial of a task in one slice.

The selected tasks (`domain/task` of the items left after -k, -m, --domains, --task-ids)
are sorted and dealt round-robin: task number j goes to shard j % N + 1. It is a pure
function of the selection, so every xdist worker (each collects on its own) and every
machine with the same selection keeps the same items; whole tasks move, so pass^k of the
merged shards equals an unsharded run's. Items that are not benchmark items run in shard 1.

Each shard writes `shard.json` in its run directory (index, count, its tasks, and a digest
of the whole selection) so `python -m pytest_tau.merge` can refuse overlapping, missing or
mismatched shards.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

__all__ = ["SHARD_FILE", "Shard", "ShardSelection", "add_options", "parse_shard", "split_tasks"]

SHARD_FILE = "shard.json"


def add_options(group: Any) -> None:
    group.addoption("--shard", dest="tau_shard", default=None, metavar="I/N",
                    help="run shard I of N (1-based): the selected tasks dealt round-robin, every trial of a task "
                         "in one shard; merge the run dirs with python -m pytest_tau.merge")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int


def parse_shard(text: str) -> Shard:
    index, _, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        raise pytest.UsageError(f"--shard {text!r}: expected I/N, e.g. 1/4") from None
    if not 1 <= shard.index <= shard.count:
        raise pytest.UsageError(f"--shard {text!r}: I is between 1 and N")
    return shard


def split_tasks(tasks: Sequence[str], shard: Shard) -> list[str]:
    """The tasks of one shard: the sorted distinct tasks dealt round-robin."""
    ordered = sorted(set(tasks))
    return [task for number, task in enumerate(ordered) if number % shard.count == shard.index - 1]


def selection_digest(tasks: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(sorted(set(tasks))).encode()).hexdigest()[:16]


class ShardSelection:
    """Deselects the items of other shards, after -k/-m and the domain filter."""

    def __init__(self, shard: Shard, run_dir: Callable[[], Path], task_of: Callable[[pytest.Item], str | None]) -> None:
        self.shard = shard
        self.run_dir = run_dir
        self.task_of = task_of

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        tasks = {item: self.task_of(item) for item in items}
        selected = [task for task in tasks.values() if task is not None]
        mine = set(split_tasks(selected, self.shard))
        keep = [item for item in items if (tasks[item] in mine if tasks[item] is not None else self.shard.index == 1)]
        dropped = [item for item in items if item not in set(keep)]
        if dropped:
            from ._partial import deselected_by_tau

            deselected_by_tau(config, dropped)  # merge puts the shards back together: not partial
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
        if not config.option.collectonly:
            self._write(config, sorted(mine), selected)

    def _write(self, config: pytest.Config, mine: list[str], selected: list[str]) -> None:
        document = {
            "index": self.shard.index,
            "count": self.shard.count,
            "tasks": mine,
            "selection": selection_digest(selected),
            "selected_tasks": len(set(selected)),
            "junit_family": config.getini("junit_family") or "xunit2",
        }
        run_dir = self.run_dir()
        run_dir.mkdir(parents=True, exist_ok=True)
        # Every xdist worker writes the same document: atomically, so a reader never sees half.
        temporary = run_dir / f".{SHARD_FILE}.{os.getpid()}"
        temporary.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
        temporary.replace(run_dir / SHARD_FILE)
