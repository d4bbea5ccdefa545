"""The engineering desk's code tasks are graded by what the code does, not by the gold's text: a careful
agent's different but correct change scores 1, a change that misses what the policy asks scores 0."""

from __future__ import annotations

import re

import pytest

from pytest_tau._agents import OracleAgent
from pytest_tau._environment import Environment
from pytest_tau._scoring import play
from pytest_tau._tasks import Action, Task
from pytest_tau._users import ScriptedUser
from tests_domains.engineering.codegen import CodePlan
from tests_domains.engineering.codelang import Program
from tests_domains.engineering.domain import DOMAIN
from tests_domains.engineering.make_tasks import PLANS

DB = DOMAIN.initial_db
# Equivalent fixes written another way than the gold's one-line change.
OTHER_FIXES = {
    "pricing": "return round(amount * (100 - discount_pct) / 100, 2)",
    "paging": "return total // per_page + (1 if total % per_page else 0)",
    "retry": "return attempt < max_attempts and (status == 429 or 500 <= status)",
    "quota": "return not usage_pct(quota, used) < WARN_AT_PCT",
}
# Another result check of each library's untested function: (call, its result).
OTHER_CHECKS = {"pricing": "describe_line(10, 1, 0)", "paging": "page_label(1, 0)", "retry": "wait_plan(2)", "quota": "status_line(10, 10)"}


def edit(plan: CodePlan, dev: str, path: str, old: str, new: str) -> Action:
    return Action(name="edit_file", arguments={"repo": plan.repo, "path": path, "old_text": old, "new_text": new, "edited_by": dev})


def score(task: Task, actions: list[Action]) -> tuple[float, str]:
    _, verdict = play(DOMAIN, task, OracleAgent(task, actions), ScriptedUser(task, actions))
    return verdict.reward, verdict.explain()


def solutions(task: Task) -> tuple[list[Action], list[Action]]:
    """(a correct solution unlike the gold, a wrong one) for a code task."""
    pr = next(a for a in task.gold_actions if a.name == "open_pull_request")
    plan, dev = PLANS[pr.arguments["repo"]], pr.arguments["author"]
    files = {f.path: f.content for f in DB.files.values() if f.repo == plan.repo}
    lib = plan.library
    head = [a for a in task.gold_actions if a.name in ("find_developer", "list_access", "get_issue")]
    run = Action(name="run_tests", arguments={"repo": plan.repo})
    kind = task.id.rsplit("_", 1)[0]
    if kind == "code_bugfix":
        fix = edit(plan, dev, plan.path(lib.bug_file), lib.bug_fix[1].strip(), OTHER_FIXES[lib.kind])
        tests = plan.path("tests")
        imports = files[tests][: re.search(r"\ndef test_", files[tests]).start()]  # type: ignore[union-attr]
        regression = edit(plan, dev, tests, imports, f"{imports}\n\ndef test_the_reported_case():\n{lib.bug_test}\n")
        return [*head, regression, fix, run, pr], [*head, fix, run, pr]  # wrong: no regression test
    if kind == "code_rename":
        old, new = lib.rename
        edits = [edit(plan, dev, path, line, line.replace(old, new))
                 for path, text in sorted(files.items()) for line in dict.fromkeys(x for x in text.splitlines() if old in x)]
        kept_docs = [e for e in edits if not e.arguments["path"].startswith("docs/")]
        return [*head, *edits, run, pr], [*head, *kept_docs, run, pr]  # wrong: the docs still name the old function
    if kind == "code_docs":
        drifted, actual = lib.doc_drift
        doc = plan.path("doc")
        rewritten = files[doc].replace(drifted, actual).replace("# ", "# The ", 1).replace(": ", " - ")
        name = actual.strip("`").split("(")[0]
        return ([*head, edit(plan, dev, doc, files[doc], rewritten), pr],
                [*head, edit(plan, dev, doc, drifted, f"`{name}(x)`"), pr])  # wrong: still not the code's parameters
    importing = next(a for a in task.gold_actions if a.name == "edit_file")
    tests = plan.path("tests")
    call = OTHER_CHECKS[lib.kind]
    function = call.split("(")[0]
    args = [int(x) for x in call[len(function) + 1 : -1].split(", ")]
    expected = Program(files).call(f"{plan.package}.{lib.caller}", function, args)
    end = files[tests].rstrip("\n").rsplit("\n", 1)[1] + "\n"
    checked = edit(plan, dev, tests, end, f"{end}\n\ndef test_{function}_text():\n    result = {call}\n    assert result == {expected!r}\n")
    unchecked = edit(plan, dev, tests, end, f"{end}\n\ndef test_{function}_runs():\n    {call}\n")
    return [*head, importing, checked, run, pr], [*head, importing, unchecked, run, pr]  # wrong: the test checks nothing


@pytest.mark.parametrize("task_id", [f"{kind}_{n}" for kind in ("code_bugfix", "code_rename", "code_docs", "code_tests") for n in (1, 2)])
def test_a_different_correct_change_scores_1_and_a_wrong_one_0(task_id: str) -> None:
    task = DOMAIN.task(task_id)
    correct, wrong = solutions(task)
    assert score(task, correct) == (1.0, "reward 1")
    assert score(task, wrong)[0] == 0.0


def _semver(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


@pytest.mark.parametrize("task_id", [f"upgrade_with_requirements_{n}" for n in range(1, 7)])
def test_requirements_met_the_policy_s_way_whatever_the_tool(task_id: str) -> None:
    """One right set of pins: moving each pin with upgrade_dependency reaches it too; a needed package moved
    to another version than the lowest that meets every requirement does not."""
    task = DOMAIN.task(task_id)
    pin = next(a for a in task.gold_actions if a.name == "pin_dependencies")
    repo, pins, dev = pin.arguments["repo"], pin.arguments["pins"], pin.arguments["requested_by"]
    reads = [a for a in task.gold_actions if a.name != "pin_dependencies"]
    one_by_one = [Action(name="upgrade_dependency", arguments={"repo": repo, "package": p, "version": v, "requested_by": dev})
                  for p, v in sorted(pins.items())]
    assert score(task, [*reads, *one_by_one]) == (1.0, "reward 1")
    needed = next(p for p in sorted(pins) if p not in task.user.script[0])
    versions = sorted((x.version for x in DB.package_versions.where(package=needed)), key=_semver)
    current = next(d.version for d in DB.dependencies.where(repo=repo, package=needed))
    others = [v for v in versions if _semver(v) > _semver(current) and v != pins[needed]]
    for other in others:
        moved = Action(name="pin_dependencies", arguments={"repo": repo, "pins": {**pins, needed: other}, "requested_by": dev})
        assert score(task, [*reads, moved])[0] == 0.0, other



def test_temporary_write_leaves_the_standing_read_in_place() -> None:
    # Elevated access that expires falls back to the role held before it, never to no access at all.
    read = next(g for g in sorted(DB.grants.values(), key=lambda g: g.grant_id) if g.role == "read" and g.expires_on is None)
    env = Environment(DOMAIN)
    granted = env.call("grant_access", {"repo": read.repo, "dev_id": read.dev_id, "role": "write", "days": 30, "reason": "a project"})
    assert not granted.error and '"expires_on":"2026-07-10"' in granted.result.replace(" ", "")
    grants = [g for g in env.state.db.grants.values() if g.repo == read.repo and g.dev_id == read.dev_id]
    assert sorted((g.role, g.expires_on) for g in grants) == [("read", None), ("write", "2026-07-10")]
