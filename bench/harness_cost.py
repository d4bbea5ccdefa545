"""Harness cost per item at zero model latency: the oracle agent and the scripted user.

Prints, per domain, the median milliseconds of what the `tau_run` fixture does for one
item (fresh environment, conversation, scoring; the gold state is cached per task as
in a run), then the same with every table ten times larger, and the growth.

    python bench/harness_cost.py [domain ...] [--repeat 5]

The last line is the overall figure: `harness cost per item: median X ms (DB x10: Y ms, growth Z)`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pytest_tau import Domain, Environment, discover_domains  # noqa: E402
from pytest_tau._agents import OracleAgent  # noqa: E402
from pytest_tau._conversation import run_conversation  # noqa: E402
from pytest_tau._scoring import judge  # noqa: E402
from pytest_tau._users import ScriptedUser  # noqa: E402


def item_times(domain: Domain, repeat: int) -> list[float]:
    for task in domain.tasks:  # warm: DB loaded, gold computed once per task, as in a run
        domain.gold(task.id)
    times = []
    for _ in range(repeat):
        for task in domain.tasks:
            started = time.perf_counter()
            env = Environment(domain)
            trajectory = run_conversation(env, OracleAgent(task), ScriptedUser(task), max_steps=30)
            verdict = judge(domain, task, env, trajectory)
            times.append(time.perf_counter() - started)
            assert verdict.reward == 1.0, (domain.name, task.id, verdict.explain())
    return times


def inflate(db_path: Path, factor: int, folder: Path) -> Path:
    """The DB `factor` times larger: `factor - 1` consistent copies of the whole record graph.

    Each copy re-keys every record (`key~n`) and re-points every string that names a record
    of any table to that copy's key, so a customer of copy n owns copy n's orders: per-customer
    data keeps its size, as in a real business with ten times the customers.
    """
    data = orjson.loads(db_path.read_bytes())
    keys = {key for table in data.values() for key in table}

    def rekey(value: object, suffix: str) -> object:
        if isinstance(value, str):
            return value + suffix if value in keys else value
        if isinstance(value, list):
            return [rekey(item, suffix) for item in value]
        if isinstance(value, dict):
            return {(k + suffix if k in keys else k): rekey(v, suffix) for k, v in value.items()}
        return value

    for table in data.values():
        for key, record in list(table.items()):
            for copy in range(1, factor):
                suffix = f"~{copy}"
                table[key + suffix] = rekey(record, suffix)
    path = folder / f"{db_path.parent.name}-x{factor}.json"
    path.write_bytes(orjson.dumps(data))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("domains", nargs="*")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    domains = discover_domains(ROOT)
    names = args.domains or sorted(domains)
    all_base, all_big = [], []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'domain':<14}{'tasks':>6}{'records':>9}{'ms/item':>9}{'x10 records':>13}{'ms/item':>9}{'growth':>8}")
        for name in names:
            domain = domains[name]
            records = sum(len(getattr(domain.initial_db, t)) for t in domain.db_model.model_fields)
            base = item_times(domain, args.repeat)
            original = domain.db_path
            domain.use_db(inflate(original, 10, Path(tmp)))
            big_records = sum(len(getattr(domain.initial_db, t)) for t in domain.db_model.model_fields)
            big = item_times(domain, args.repeat)
            domain.use_db(original)
            b, g = statistics.median(base) * 1000, statistics.median(big) * 1000
            all_base += base
            all_big += big
            print(f"{name:<14}{len(domain.tasks):>6}{records:>9}{b:>9.2f}{big_records:>13}{g:>9.2f}{g / b:>8.2f}")
    b, g = statistics.median(all_base) * 1000, statistics.median(all_big) * 1000
    print(f"harness cost per item: median {b:.2f} ms (DB x10: {g:.2f} ms, growth {g / b:.2f}x)")


if __name__ == "__main__":
    main()
