"""``python -m pytest_tau.validate [domain ...]``: run the domain checks and print problems."""

from __future__ import annotations

import argparse
import sys
import time

from ._discovery import discover_domains, load_domain
from ._validity import CHECKS, PENDING_CHECKS, domain_stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.validate", description=__doc__)
    parser.add_argument("domains", nargs="*", help="domain names (default: every domain)")
    parser.add_argument("--check", action="append", choices=sorted(CHECKS | PENDING_CHECKS), help="run only these checks")
    parser.add_argument("--pending", action="store_true", help="also run the checks not every domain passes yet")
    parser.add_argument("--table", action="store_true", help="print the domain table of docs/domains.md (no checks)")
    args = parser.parse_args(argv)
    # Load only the named domains: one broken domain must not block checking another.
    if args.domains:
        try:
            domains = {name: load_domain(name) for name in args.domains}
        except ModuleNotFoundError as exc:
            parser.error(f"unknown domain: {exc.name}")
    else:
        domains = discover_domains()
    if args.table:
        print("| domain | tools (writes) | tasks: test / train | records | db.json | policy words |")
        print("|---|---|---|---|---|---|")
        for name, domain in domains.items():
            stats = domain_stats(domain)
            test = sum(1 for task in domain.tasks if task.split == "test")
            print(
                f"| {name} | {stats.tools} ({stats.write_tools}) | {test} / {stats.tasks - test} | {stats.records:,} "
                f"| {stats.db_bytes / 1e6:.1f} MB | {stats.policy_words:,} |"
            )
        return 0
    failed = False
    for name, domain in domains.items():
        stats = domain_stats(domain)
        print(f"== {name}: {stats}")
        every = CHECKS | PENDING_CHECKS
        for check_name in args.check or list(CHECKS) + (list(PENDING_CHECKS) if args.pending else []):
            started = time.perf_counter()
            problems = every[check_name](domain)
            elapsed = time.perf_counter() - started
            print(f"  {'ok  ' if not problems else 'FAIL'} {check_name} ({elapsed:.2f}s)")
            for problem in problems[:30]:
                print("       " + problem.replace("\n", "\n       "))
            if len(problems) > 30:
                print(f"       ... {len(problems) - 30} more")
            failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
