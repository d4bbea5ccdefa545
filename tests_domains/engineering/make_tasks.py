"""Builds fixtures/engineering/tasks.json with a `TaskWriter`: one template per kind of request, concrete
developers, pull requests and dependencies picked from the initial DB with a seeded RNG. Every gold call runs as
it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.engineering.make_tasks
"""

from __future__ import annotations

import ast
import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from pytest_tau import SkipCandidate, TaskDraft, TaskWriter
from tests_domains.engineering.codegen import CodePlan, plan_code
from tests_domains.engineering.codelang import Program
from tests_domains.engineering.domain import DOMAIN, meets
from tests_domains.engineering.generate import SEED
from tests_domains.engineering.schema import Dependency, Developer, Grant, PullRequest, Repository

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
MOODS = [
    "You are friendly but busy.", "You are in a hurry and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a little stressed because a deadline is close.", "You are polite but firm.",
]
ORDER = {"read": 0, "write": 1, "maintain": 2, "admin": 3}

GRANTS: dict[tuple[str, str], Grant] = {}
for _g in DB.grants.values():
    if _g.expires_on is None or _g.expires_on >= TODAY.isoformat():
        GRANTS[(_g.repo, _g.dev_id)] = _g
OPEN_PRS: dict[str, list[PullRequest]] = defaultdict(list)
for _p in sorted(DB.pull_requests.values(), key=lambda p: p.pr_id):
    if _p.state == "open":
        OPEN_PRS[_p.repo].append(_p)
P0 = {i.repo for i in DB.issues.values() if i.state == "open" and i.priority == "P0"}
UNRELEASED = {p.repo for p in DB.pull_requests.values() if p.state == "merged" and p.released_in is None}
REPOS = sorted(DB.repositories.values(), key=lambda r: r.name)
DEVS = sorted(DB.developers.values(), key=lambda d: d.dev_id)


def role(repo: str, dev: str) -> str | None:
    g = GRANTS.get((repo, dev))
    return g.role if g else None


def semver(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def readiness(p: PullRequest) -> tuple[int, bool]:
    r = DB.repositories[p.repo]
    rule = next(b for b in r.branch_rules if b.branch == p.target_branch)
    counted = {a.reviewer for a in p.approvals if a.reviewer != p.author}
    return max(0, rule.required_approvals - len(counted)), rule.require_ci


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(5150)
        self.used: set[str] = set()
        self.used_repos: set[str] = set()  # code tasks: one change per repository, so no two tasks share a tree

    def run(self, name: str, n: int, cands: Iterable[Any], make: Callable[[TaskDraft, Any], None],
            person: Callable[[Any], Developer], situation: Callable[[Any], tuple[str, list[str]]], train: int = 0,
            ordered: bool = False) -> None:
        items = list(cands)
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            dev = person(item)
            if dev.dev_id in self.used:
                continue
            split = "train" if done >= n else "test"
            tid = f"{name}_{done + 1}" if split == "test" else f"train_{name}_{done - n + 1}"
            text, script = situation(item)
            who = (f"You are {dev.first_name} {dev.last_name}, a developer on Forgeline's {dev.team} team. Your work email "
                   f"is {dev.email} and your badge number is {dev.badge_number}. You do not know any internal ids.")
            mood = self.rng.choice(MOODS) + " Give information only when the agent asks for it."
            with self.writer.attempt(tid, instructions=f"{who} {mood} {text}", script=script, split=split, ordered=ordered) as d:
                d.read("find_developer", email=dev.email, badge_number=dev.badge_number)
                make(d, item)
            if tid in self.writer.drafts:
                self.used.add(dev.dev_id)
                done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")


def steps(d: TaskDraft, *, skip: tuple[str, ...] = ()) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far (less the tools named in skip), as the steps of another path."""
    return [(a.name, dict(a.arguments)) for a in d.gold if a.name not in skip]


def hello(dev: Developer) -> str:
    return f"Hi, this is {dev.first_name} {dev.last_name}."


def creds(dev: Developer) -> str:
    return f"My email is {dev.email} and my badge number is {dev.badge_number}."


# -- merge + close + release -------------------------------------------------------------------------
def combo(b: Builder, n: int, train: int) -> None:
    cands = []
    for r in REPOS:
        if r.name in P0:
            continue
        for p in OPEN_PRS[r.name]:
            missing, _ = readiness(p)
            if missing == 0 and p.ci_status == "passed" and p.fixes_issue is not None \
                    and role(r.name, p.author) in ("maintain", "admin"):
                cands.append(p)

    def situation(p: PullRequest) -> tuple[str, list[str]]:
        return (f"You want your pull request number {p.number} in the {p.repo} repository (\"{p.title}\") merged, and then a "
                f"new release of {p.repo} tagged so it ships: first the merge, then the release. You do not know what the next version number will be: ask "
                "the agent. Confirm when the agent asks.",
                [f"{hello(DB.developers[p.author])} I need my PR {p.repo}#{p.number} merged and then a release cut.",
                 creds(DB.developers[p.author]), "Yes, go ahead with that.", "Yes, tag it."])

    def make(d: TaskDraft, p: PullRequest) -> None:
        d.read("get_pull_request", pr_id=p.pr_id)
        d.read("check_merge_readiness", pr_id=p.pr_id)
        d.write("merge_pull_request", pr_id=p.pr_id, merged_by=p.author)
        d.write("close_issue", issue_id=f"{p.repo}#{p.fixes_issue}", closed_by=p.author, resolution="fixed")
        d.read("list_issues", repo=p.repo)
        prev = d.read("preview_release", repo=p.repo)
        d.write("tag_release", repo=p.repo, version=prev["next_version"], tagged_by=p.author)
        d.output(prev["next_version"], "text", strict=True)
        d.one_end_state("The caller wrote the pull request and holds maintain or admin, so 3.1 and 4.1 let them have it merged "
                        "and a release tagged; readiness shows no approval missing and CI passed (3.2); 3.5 closes the issue it "
                        "fixes, by the caller; the repository has no open P0 (4.3), and 4.2 tags preview_release's next_version "
                        "after the merge, the one version that includes it.")
        calls = steps(d)
        close = next(step for step in calls if step[0] == "close_issue")
        d.alternative("3.5 closes the fixed issue in the same conversation, not necessarily before the release: closed last",
                      [step for step in calls if step is not close] + [close])

    b.run("merge_and_release", n, cands, make, lambda p: DB.developers[p.author], situation, train, ordered=True)


# -- merges ------------------------------------------------------------------------------------------
def merge_ok(b: Builder, n: int) -> None:
    cands = [p for r in REPOS for p in OPEN_PRS[r.name]
             if readiness(p)[0] == 0 and p.ci_status == "passed" and p.fixes_issue is None
             and role(r.name, p.author) in ("write", "maintain", "admin")]

    def situation(p: PullRequest) -> tuple[str, list[str]]:
        return (f"You want your pull request number {p.number} in {p.repo} (\"{p.title}\") merged today. You do not want a "
                "release. Confirm when asked.",
                [f"{hello(DB.developers[p.author])} Can you merge my pull request {p.repo}#{p.number}?",
                 creds(DB.developers[p.author]), "Yes please."])

    def make(d: TaskDraft, p: PullRequest) -> None:
        d.read("get_pull_request", pr_id=p.pr_id)
        d.read("check_merge_readiness", pr_id=p.pr_id)
        d.write("merge_pull_request", pr_id=p.pr_id, merged_by=p.author)
        d.one_end_state("The caller wrote the pull request and holds write or more (3.1); readiness shows no approval missing "
                        "and CI passed (3.2), so it is merged by the caller (3.4); it fixes no issue (3.5) and no release is asked.")
        d.alternative("the caller's role read from list_access before the merge (3.1)",
                      [*steps(d)[:1], ("list_access", {"dev_id": p.author}), *steps(d)[1:]])

    b.run("merge_ok", n, cands, make, lambda p: DB.developers[p.author], situation)


def merge_missing(b: Builder, n: int) -> None:
    cands = [p for r in REPOS for p in OPEN_PRS[r.name]
             if readiness(p)[0] > 0 and p.ci_status == "passed" and role(r.name, p.author) in ("write", "maintain", "admin")]

    def situation(p: PullRequest) -> tuple[str, list[str]]:
        return (f"Your pull request number {p.number} in {p.repo} (\"{p.title}\") must be merged today for a demo. You "
                "believe it has been reviewed enough. If the agent says it cannot be merged, insist once that it is urgent, "
                "then ask how many more approvals it needs and accept the answer.",
                [f"{hello(DB.developers[p.author])} Please merge {p.repo}#{p.number}, it's urgent.",
                 creds(DB.developers[p.author]), "It really is urgent, can't you just merge it?",
                 "Fine. How many more approvals does it need?"])

    def make(d: TaskDraft, p: PullRequest) -> None:
        d.read("get_pull_request", pr_id=p.pr_id)
        ready = d.read("check_merge_readiness", pr_id=p.pr_id)
        d.forbid("merge_pull_request", pr_id=p.pr_id, merged_by=p.author)
        d.output(ready["approvals_missing"], "number", strict=True)
        d.one_end_state("CI passed, so the one thing blocking the merge is the approvals still missing (3.2); 3.3 never "
                        "bypasses branch protection and tells that number instead, with no transfer.")
        d.alternative("check_merge_readiness alone, without opening the pull request first", steps(d, skip=("get_pull_request",)))

    b.run("merge_blocked_reviews", n, cands, make, lambda p: DB.developers[p.author], situation)


def merge_ci(b: Builder, n: int) -> None:
    cands = [p for r in REPOS for p in OPEN_PRS[r.name]
             if readiness(p) == (0, True) and p.ci_status == "failed" and role(r.name, p.author) in ("write", "maintain", "admin")]

    def situation(p: PullRequest) -> tuple[str, list[str]]:
        return (f"Your pull request number {p.number} in {p.repo} (\"{p.title}\") has all its approvals and you want it "
                "merged. You think the CI failure on it is a flaky test and ask the agent to merge anyway. If refused, ask "
                "which CI run you should look at.",
                [f"{hello(DB.developers[p.author])} Could you merge {p.repo}#{p.number}? CI is just flaky.",
                 creds(DB.developers[p.author]), "Please merge it anyway.", "OK, which CI run should I look at?"])

    def make(d: TaskDraft, p: PullRequest) -> None:
        d.read("get_pull_request", pr_id=p.pr_id)
        ready = d.read("check_merge_readiness", pr_id=p.pr_id)
        d.forbid("merge_pull_request", pr_id=p.pr_id, merged_by=p.author)
        d.output(ready["ci_run"], "code", strict=True)
        d.one_end_state("No approval is missing, so the one thing blocking the merge is the failed CI the branch requires "
                        "(3.2); 3.3 never bypasses it, however flaky the caller thinks it is, and tells the CI run id, with no transfer.")
        d.alternative("check_merge_readiness alone, without opening the pull request first", steps(d, skip=("get_pull_request",)))

    b.run("merge_blocked_ci", n, cands, make, lambda p: DB.developers[p.author], situation)


# -- release freeze ----------------------------------------------------------------------------------
def freeze(b: Builder, n: int) -> None:
    cands = [(r, dev) for r in REPOS if r.name in P0 and r.name in UNRELEASED
             for dev in DEVS if role(r.name, dev.dev_id) in ("maintain", "admin")]

    def situation(item: tuple[Repository, Developer]) -> tuple[str, list[str]]:
        r, dev = item
        return (f"You maintain {r.name} and want a new release of it tagged today with what has been merged since "
                f"{r.latest_version}. If the agent cannot do it, accept being handed to a person.",
                [f"{hello(dev)} I'd like a new release of {r.name} tagged.", creds(dev), "OK, please pass me on then."])

    def make(d: TaskDraft, item: tuple[Repository, Developer]) -> None:
        r, dev = item
        prev = d.read("preview_release", repo=r.name)
        d.read("list_issues", repo=r.name)
        d.require("list_issues", repo=r.name)
        d.forbid("tag_release", repo=r.name, version=prev["next_version"], tagged_by=dev.dev_id)
        d.transfer(f"{dev.first_name} {dev.last_name} wants a release of {r.name}; the repository has an open P0 issue.")
        d.one_end_state("The caller holds maintain or admin (4.1) and something is merged since the last release, so the one "
                        "thing stopping the tag is the open P0 issue that freezes the repository (4.3), which sends the caller "
                        "to the release managers after list_issues shows it.")
        d.alternative("the caller's role and the open issues checked first and the release never previewed (4.3 needs only the issues)",
                      [*steps(d, skip=("preview_release", "list_issues", "transfer_to_human_agents")),
                       ("list_access", {"dev_id": dev.dev_id}), ("list_issues", {"repo": r.name}),
                       ("transfer_to_human_agents", {"summary": f"{r.name} is frozen by an open P0 issue; release requested."})])

    b.run("release_frozen", n, cands, make, lambda x: x[1], situation)


# -- dependency upgrades -----------------------------------------------------------------------------
def pins_of(repo: str) -> dict[str, str]:
    return {dep.package: dep.version for dep in DB.dependencies.where(repo=repo)}


def unmet(repo: str, change: dict[str, str]) -> list[str]:
    """Requirements the repository's pins, with `change` applied, leave unmet."""
    pins = {**pins_of(repo), **change}
    return [f"{p} {needed}" for p, v in pins.items() for needed, spec in DB.package_versions[f"{p}@{v}"].requires.items()
            if needed in pins and not meets(pins[needed], spec)]


def clean(package: str, version: str) -> bool:
    return not any(meets(version, f">={a.introduced_in},<{a.affected_below}") for a in DB.advisories.where(package=package))


def resolve(repo: str, package: str, version: str) -> dict[str, str] | None:
    """The policy's set of pins for upgrading `package` to `version`: every pin a requirement leaves unmet
    moves to the lowest published, advisory-free version that meets every requirement; None when none does."""
    change = {package: version}
    for _ in range(6):
        pins = {**pins_of(repo), **change}
        broken = sorted({needed for p, v in pins.items() for needed, spec in DB.package_versions[f"{p}@{v}"].requires.items()
                         if needed in pins and not meets(pins[needed], spec)})
        if not broken:
            return change
        for needed in broken:
            if needed == package:
                return None  # the requested version itself would have to move
            specs = [spec for p, v in pins.items() for n, spec in DB.package_versions[f"{p}@{v}"].requires.items() if n == needed]
            options = sorted((x.version for x in DB.package_versions.where(package=needed)), key=semver)
            fit = [o for o in options if all(meets(o, spec) for spec in specs) and clean(needed, o)]
            if not fit:
                return None
            change[needed] = fit[0]
    return None


def upgrade_cands(status: str) -> list[tuple[Dependency, str, Developer]]:
    out: list[tuple[Dependency, str, Developer]] = []
    for dep in sorted(DB.dependencies.values(), key=lambda x: x.dep_id):
        for run in DB.upgrade_runs.where(repo=dep.repo, package=dep.package):
            if run.status != status or semver(run.version)[0] != semver(dep.version)[0] or unmet(dep.repo, {dep.package: run.version}):
                continue
            devs = [x for x in DEVS if role(dep.repo, x.dev_id) == "write"]
            if devs:
                out.append((dep, run.version, devs[len(out) % len(devs)]))
    return out


def upgrade_ok(b: Builder, n: int, train: int) -> None:
    def situation(item: tuple[Dependency, str, Developer]) -> tuple[str, list[str]]:
        dep, v, dev = item
        return (f"A security scanner flagged the {dep.package} package in the {dep.repo} repository. You want it upgraded "
                f"from {dep.version} to {v}. Ask which advisories the upgrade fixes before agreeing; then confirm.",
                [f"{hello(dev)} I need {dep.package} bumped to {v} in {dep.repo}.", creds(dev),
                 "Which advisories does that fix?", "Great, yes, do the upgrade."])

    def make(d: TaskDraft, item: tuple[Dependency, str, Developer]) -> None:
        dep, v, dev = item
        d.read("list_access", dev_id=dev.dev_id)
        chk = d.read("check_upgrade", repo=dep.repo, package=dep.package, version=v)
        if chk["advisories_after"] or not chk["advisories_fixed"] or chk["test_run"]["status"] != "passed":
            raise SkipCandidate("not a clean fixing upgrade")
        d.write("upgrade_dependency", repo=dep.repo, package=dep.package, version=v, requested_by=dev.dev_id)
        for a in chk["advisories_fixed"]:
            d.output(a, "code", strict=True)
        d.one_end_state("The caller holds write and the version stays in its MAJOR (5.1); the run against it passed, it has no "
                        "advisory and its requirements are met (5.2, 5.5), so it is upgraded as asked, requested by the caller, "
                        "after the advisories it fixes are told (5.4).")
        d.alternative("the one pin tried with check_pins and moved with pin_dependencies, the tool 5.5 uses for a set of pins",
                      [*steps(d, skip=("upgrade_dependency",)), ("check_pins", {"repo": dep.repo, "pins": {dep.package: v}}),
                       ("pin_dependencies", {"repo": dep.repo, "pins": {dep.package: v}, "requested_by": dev.dev_id})])

    b.run("upgrade_ok", n, upgrade_cands("passed"), make, lambda x: x[2], situation, train)


def upgrade_failed(b: Builder, n: int) -> None:
    def situation(item: tuple[Dependency, str, Developer]) -> tuple[str, list[str]]:
        dep, v, dev = item
        return (f"You want the {dep.package} package in the {dep.repo} repository upgraded from {dep.version} to {v} today; "
                "you are sure the tests are fine. If the agent refuses, ask which test run failed and how many tests "
                "failed, then end the conversation.",
                [f"{hello(dev)} Please upgrade {dep.package} to {v} in {dep.repo}.", creds(dev),
                 "Which run was that, and how many tests failed?"])

    def make(d: TaskDraft, item: tuple[Dependency, str, Developer]) -> None:
        dep, v, dev = item
        d.read("list_access", dev_id=dev.dev_id)
        chk = d.read("check_upgrade", repo=dep.repo, package=dep.package, version=v)
        if chk["advisories_after"] or chk["unmet_requirements"]:
            raise SkipCandidate("the failed run would not be the one reason to refuse")
        d.forbid("upgrade_dependency", repo=dep.repo, package=dep.package, version=v, requested_by=dev.dev_id)
        d.output(chk["test_run"]["run_id"], "code", strict=True)
        d.output(chk["test_run"]["tests_failed"], "number", strict=True)
        d.one_end_state("The caller holds write and the version is in the same MAJOR (5.1), the target has no advisory and its "
                        "requirements are met, so the one reason to refuse is the failed test run (5.2), whose id and failure "
                        "count 5.3 tells.")
        d.alternative("the upgrade check read first, the refusal needing no role look-up", steps(d, skip=("list_access",)))

    b.run("upgrade_tests_failed", n, upgrade_cands("failed"), make, lambda x: x[2], situation)


def upgrade_with_requirements(b: Builder, n: int) -> None:
    cands: list[tuple[Dependency, str, Developer]] = []
    for dep in sorted(DB.dependencies.values(), key=lambda x: x.dep_id):
        for run in sorted(DB.upgrade_runs.where(repo=dep.repo, package=dep.package, status="passed"), key=lambda x: x.run_id):
            if semver(run.version)[0] != semver(dep.version)[0] or not unmet(dep.repo, {dep.package: run.version}):
                continue
            change = resolve(dep.repo, dep.package, run.version)
            if change is None or any(semver(v)[0] != semver(pins_of(dep.repo)[p])[0] for p, v in change.items()):
                continue
            devs = [x for x in DEVS if role(dep.repo, x.dev_id) in ("write", "maintain")]
            if devs:
                cands.append((dep, run.version, devs[len(cands) % len(devs)]))

    def situation(item: tuple[Dependency, str, Developer]) -> tuple[str, list[str]]:
        dep, v, dev = item
        return (f"A security scanner flagged the {dep.package} package in the {dep.repo} repository. You want it upgraded from "
                f"{dep.version} to {v}. You do not know what else that version needs. Before agreeing, ask what else has to "
                "change; then confirm.",
                [f"{hello(dev)} Please bump {dep.package} to {v} in {dep.repo}.", creds(dev),
                 "Does anything else have to change for that?", "OK, yes, make those changes."])

    def make(d: TaskDraft, item: tuple[Dependency, str, Developer]) -> None:
        dep, v, dev = item
        d.read("list_access", dev_id=dev.dev_id)
        chk = d.read("check_upgrade", repo=dep.repo, package=dep.package, version=v)
        if chk["advisories_after"] or not chk["advisories_fixed"] or chk["test_run"]["status"] != "passed":
            raise SkipCandidate("not a clean fixing upgrade")
        change = resolve(dep.repo, dep.package, v)
        assert change is not None
        for needed in sorted(change):
            if needed != dep.package:
                d.read("get_package", package=needed)
        trial = d.read("check_pins", repo=dep.repo, pins=change)
        assert not trial["unmet_requirements"], trial
        d.write("pin_dependencies", repo=dep.repo, pins=change, requested_by=dev.dev_id)
        for needed, version in sorted(change.items()):
            if needed != dep.package:
                d.output(version, "text", strict=True)
        for a in chk["advisories_fixed"]:
            d.output(a, "code", strict=True)
        d.one_end_state("5.5 fixes where every pin that must move goes: the lowest published version meeting every requirement "
                        "of the pins after the change and free of advisories, in one pin_dependencies change; none changes MAJOR "
                        "and the caller holds write or more, the requested version's run passed and it has no advisory (5.1, 5.2), so "
                        "after check_pins shows nothing unmet the set is pinned and each moved pin and fixed advisory told (5.6).")

    b.run("upgrade_with_requirements", n, cands, make, lambda x: x[2], situation)


# -- access ------------------------------------------------------------------------------------------
def access_write(b: Builder, n: int, train: int) -> None:
    cands = []
    for r in REPOS:
        for dev in DEVS:
            if dev.team == r.owner_team and role(r.name, dev.dev_id) in (None, "read") and dev.employment == "employee":
                cands.append((r, dev, b.rng.choice([30, 45, 60, 90, 120])))

    def situation(item: tuple[Repository, Developer, int]) -> tuple[str, list[str]]:
        r, dev, days = item
        return (f"You need write access to the {r.name} repository for {days} days to work on a project for your team. "
                "Ask when the access will end.",
                [f"{hello(dev)} I need write access to {r.name} for {days} days, for a team project.", creds(dev),
                 "Yes, please grant it. When does it end?"])

    def make(d: TaskDraft, item: tuple[Repository, Developer, int]) -> None:
        r, dev, days = item
        d.read("get_repository", repo=r.name)
        d.read("list_access", dev_id=dev.dev_id)
        g = d.write("grant_access", repo=r.name, dev_id=dev.dev_id, role="write", days=days, reason="team project")
        d.output(g["expires_on"], "date", strict=True)
        d.one_end_state("The repository belongs to the caller's team and the caller, an employee (7.4 does not shorten it), "
                        "holds no role above read there (7.5), so 7.3 grants write for the days asked, under its 180; 7.6 tells "
                        "the expiry grant_access returns.")

    b.run("access_write", n, cands, make, lambda x: x[1], situation, train)


def access_other(b: Builder, n: int) -> None:
    cands = []
    for r in REPOS:
        for dev in DEVS:
            if dev.team != r.owner_team and role(r.name, dev.dev_id) in (None, "read"):
                cands.append((r, dev))

    def situation(item: tuple[Repository, Developer]) -> tuple[str, list[str]]:
        r, dev = item
        return (f"You need write access to the {r.name} repository for 60 days to help another team with a fix. If the "
                "desk cannot grant it, you accept being passed to a person.",
                [f"{hello(dev)} I need write access to {r.name} for 60 days, helping another team.", creds(dev),
                 "OK, please transfer me."])

    def make(d: TaskDraft, item: tuple[Repository, Developer]) -> None:
        r, dev = item
        d.read("get_repository", repo=r.name)
        d.require("get_repository", repo=r.name)
        d.forbid("grant_access", repo=r.name, dev_id=dev.dev_id, role="write", days=60, reason="help another team")
        d.transfer(f"{dev.first_name} {dev.last_name} asks for write on {r.name}, owned by the {r.owner_team} team.")
        d.one_end_state("The repository belongs to another team than the caller's, so 7.3 leaves write to its owners: no grant, "
                        "and a transfer after get_repository shows whose it is (7.3 names that look-up). The caller holds no "
                        "role at or above write there, so 7.5 does not apply.")
        d.alternative("the caller's grants looked at too, before the repository (7.5)",
                      [*steps(d)[:1], ("list_access", {"dev_id": dev.dev_id}), *steps(d)[1:]])

    b.run("access_other_team", n, cands, make, lambda x: x[1], situation)


# -- triage ------------------------------------------------------------------------------------------
def triage_p0(b: Builder, n: int) -> None:
    cands: list[tuple[str, Developer]] = []
    for i in sorted(DB.issues.values(), key=lambda x: x.issue_id):
        if i.state != "open" or i.priority not in ("P2", "P3") or not i.labels \
                or set(i.labels) & {"bug", "security", "regression"}:
            continue
        devs = [x for x in DEVS if role(i.repo, x.dev_id) == "write" and x.dev_id != i.reporter]
        if devs:
            cands.append((i.issue_id, devs[len(cands) % len(devs)]))

    def situation(item: tuple[str, Developer]) -> tuple[str, list[str]]:
        iid, dev = item
        i = DB.issues[iid]
        return (f"You want issue number {i.number} in the {i.repo} repository (\"{i.title}\") raised to priority P0, because "
                "your team needs it for a launch. It is not a bug, and you do not want its labels changed. If the agent will "
                "not make it P0, settle for P1 instead.",
                [f"{hello(dev)} Please bump issue {iid} to P0, we need it for a launch.", creds(dev),
                 "No, it's not a bug and leave the labels alone. Then make it P1.", "Yes, set it to P1."])

    def make(d: TaskDraft, item: tuple[str, Developer]) -> None:
        iid, dev = item
        d.read("get_issue", issue_id=iid)
        d.read("list_access", dev_id=dev.dev_id)
        d.forbid("triage_issue", issue_id=iid, priority="P0", add_labels=[])
        d.write("triage_issue", issue_id=iid, priority="P1", add_labels=[])
        d.one_end_state("The caller holds write on the repository (6.1); the issue has none of the labels P0 needs and the "
                        "caller adds none, so 6.2 refuses P0 (the one reason) and the P1 the caller settles for is set, labels unchanged.")
        repo = DB.issues[iid].repo
        d.alternative("the issue's labels read from the repository's open issues (list_issues) instead of get_issue",
                      [("list_issues", {"repo": repo}) if name == "get_issue" else (name, args) for name, args in steps(d)])

    b.run("triage_no_p0", n, cands, make, lambda x: x[1], situation)


# -- code changes ------------------------------------------------------------------------------------
PLANS = {plan.repo: plan for plan in plan_code(sorted(DB.repositories), SEED + 1)}
UNTESTED_CHECKS = {  # a result check for each library's untested function: (call, import line before, after)
    "pricing": ("describe_line(50, 2, 0)", "from {pkg}.invoice import line_total", "from {pkg}.invoice import describe_line, line_total"),
    "paging": ("page_label(2, 60)", "from {pkg}.listing import last_page", "from {pkg}.listing import last_page, page_label"),
    "retry": ("wait_plan(3)", "from {pkg}.client import next_wait", "from {pkg}.client import next_wait, wait_plan"),
    "quota": ("status_line(100, 80)", "from {pkg}.alerts import needs_warning", "from {pkg}.alerts import needs_warning, status_line"),
}


def writers_of(repo: str) -> list[Developer]:
    return [DB.developers[dev] for (r, dev), g in sorted(GRANTS.items()) if r == repo and g.role != "read"]


def text_of(repo: str, path: str) -> str:
    return DB.files[f"{repo}:{path}"].content


def last_line(text: str) -> str:
    return text.rstrip("\n").rsplit("\n", 1)[1] + "\n"


def append_test(d: TaskDraft, plan: CodePlan, dev: Developer, name: str, body: str) -> None:
    """Add a test function after the test module's last line (an exact, unique passage)."""
    path = plan.path("tests")
    end = last_line(d.read("read_file", repo=plan.repo, path=path)["content"])
    d.write("edit_file", repo=plan.repo, path=path, old_text=end, new_text=f"{end}\n\ndef {name}():\n{body}\n", edited_by=dev.dev_id)


def open_pr(d: TaskDraft, plan: CodePlan, dev: Developer, title: str, change: str, fixes: int | None = None) -> None:
    tests = d.read("run_tests", repo=plan.repo)
    if tests["not_passing"] or tests["undefined_names"]:
        raise SkipCandidate(f"{plan.repo}: the gold change leaves {tests['not_passing']} {tests['undefined_names']}")
    pr = d.write("open_pull_request", repo=plan.repo, title=title, author=dev.dev_id, change=change, fixes_issue=fixes)
    d.output(pr["pr_id"], "code")


def code_cands(flaw: str) -> list[tuple[CodePlan, Developer]]:
    """One writer per repository (employees: a contractor's access may lapse before review)."""
    rng = random.Random(flaw)
    found = []
    for plan in PLANS.values():
        writers = [dev for dev in writers_of(plan.repo) if dev.employment == "employee"]
        if plan.flaw == flaw and writers:
            found.append((plan, rng.choice(writers)))
    return found


def code_bugfix(b: Builder, n: int) -> None:
    def issue_of(plan: CodePlan) -> Any:
        return next(i for i in DB.issues.values() if i.repo == plan.repo and i.state == "open" and i.labels == ["bug"]
                    and i.title == plan.library.bug)

    def situation(item: tuple[CodePlan, Developer]) -> tuple[str, list[str]]:
        plan, dev = item
        issue = issue_of(plan)
        return (f"You want the desk to fix issue number {issue.number} in the {plan.repo} repository (\"{issue.title}\") and "
                "open a pull request with the fix, which your team will review. You have not looked at the code yourself. "
                "Agree when the agent describes the change.",
                [f"{hello(dev)} Could the desk fix bug {issue.issue_id}? The issue says {plan.library.bug}.",
                 creds(dev), "Yes, go ahead with that change."])

    def make(d: TaskDraft, item: tuple[CodePlan, Developer]) -> None:
        plan, dev = item
        issue = issue_of(plan)
        d.read("list_access", dev_id=dev.dev_id)
        d.read("get_issue", issue_id=issue.issue_id)
        d.read("list_files", repo=plan.repo)
        path = plan.path(plan.library.bug_file)
        d.read("read_file", repo=plan.repo, path=path)
        good, bad = plan.library.bug_fix
        d.write("edit_file", repo=plan.repo, path=path, old_text=bad + "\n", new_text=good + "\n", edited_by=dev.dev_id)
        append_test(d, plan, dev, "test_regression_issue_" + str(issue.number), plan.library.bug_test)
        open_pr(d, plan, dev, f"Fix #{issue.number}", "patch", issue.number)
        d.one_end_state("8.3: a bug fix changes the faulty code (the one file the issue's behaviour comes from) and adds one "
                        "regression test to the library's existing test module; the state grades what the code does, not its "
                        "text, so any correct fix and any test that fails before it and passes after reach it. 8.4 opens the "
                        "pull request after the suite passes, as a patch fixing the issue.")
        calls = steps(d)
        assert [name for name, _ in calls[4:8]] == ["read_file", "edit_file", "read_file", "edit_file"], calls
        fix = calls[4:6]  # read the faulty file, edit it
        test = calls[6:8]  # read the test module, append the regression test
        d.alternative("the regression test written first, then the fix (8.3 does not order them)",
                      calls[:4] + test + fix + calls[8:])

    b.run("code_bugfix", n, code_cands("bug"), make, lambda x: x[1], situation, ordered=True)


def code_rename(b: Builder, n: int) -> None:
    def situation(item: tuple[CodePlan, Developer]) -> tuple[str, list[str]]:
        plan, dev = item
        old, new = plan.library.rename
        return (f"Your team agreed to rename the function {old} of the {plan.repo} repository to {new}, everywhere it is used "
                "and documented, and you want the desk to make the change and open a pull request for it. You do not know which "
                "files use it. Agree when the agent describes the change.",
                [f"{hello(dev)} In {plan.repo}, please rename {old} to {new} everywhere and open a PR.", creds(dev),
                 "Yes, please go ahead."])

    def make(d: TaskDraft, item: tuple[CodePlan, Developer]) -> None:
        plan, dev = item
        old, new = plan.library.rename
        d.read("list_access", dev_id=dev.dev_id)
        hits = d.read("search_code", repo=plan.repo, text=old)
        for path in sorted({hit["path"] for hit in hits}):
            text = d.read("read_file", repo=plan.repo, path=path)["content"]
            d.write("edit_file", repo=plan.repo, path=path, old_text=text, new_text=text.replace(old, new), edited_by=dev.dev_id)
        open_pr(d, plan, dev, f"Rename {old} to {new}", "major")
        d.one_end_state("8.3: a rename changes the name everywhere, so every file search_code finds it in is edited (definition, "
                        "calls, imports, tests, docs) and no alias is kept; renaming a public function is a major change (8.4).")
        calls = steps(d)
        edits = [i for i, (name, _) in enumerate(calls) if name in ("read_file", "edit_file")]
        pairs = [calls[i:i + 2] for i in edits[::2]]
        d.alternative("the files edited in the other order", calls[:edits[0]] + [step for pair in reversed(pairs) for step in pair]
                      + calls[edits[-1] + 1:])

    b.run("code_rename", n, code_cands("none"), make, lambda x: x[1], situation, ordered=True)


def code_docs(b: Builder, n: int) -> None:
    def situation(item: tuple[CodePlan, Developer]) -> tuple[str, list[str]]:
        plan, dev = item
        return (f"A newcomer on your team says the page {plan.path('doc')} of the {plan.repo} repository does not match the code. "
                "You want the desk to bring the page in line with the code and open a pull request. You do not know which line is "
                "wrong. Agree when the agent describes the change.",
                [f"{hello(dev)} The docs page {plan.path('doc')} in {plan.repo} seems out of date with the code. Can you fix it and open a PR?",
                 creds(dev), "Yes, that's fine, go ahead."])

    def make(d: TaskDraft, item: tuple[CodePlan, Developer]) -> None:
        plan, dev = item
        drifted, actual = plan.library.doc_drift
        d.read("list_access", dev_id=dev.dev_id)
        d.read("list_files", repo=plan.repo)
        d.read("read_file", repo=plan.repo, path=plan.path("doc"))
        d.read("read_file", repo=plan.repo, path=plan.path("core"))
        d.read("read_file", repo=plan.repo, path=plan.path("caller"))
        d.write("edit_file", repo=plan.repo, path=plan.path("doc"), old_text=drifted, new_text=actual, edited_by=dev.dev_id)
        open_pr(d, plan, dev, f"Bring {plan.path('doc')} in line with the code", "patch")
        d.one_end_state("8.3: a docs fix makes every backticked signature of the page the caller names match the code, and the "
                        "page has one that does not; the state grades the mismatches left, not the text, and a docs fix is a patch (8.4).")

    b.run("code_docs", n, code_cands("doc_drift"), make, lambda x: x[1], situation, ordered=True)


def code_tests(b: Builder, n: int) -> None:
    def situation(item: tuple[CodePlan, Developer]) -> tuple[str, list[str]]:
        plan, dev = item
        return (f"You noticed that the function {plan.library.untested} of the {plan.repo} repository has no test, and you want the "
                "desk to add one and open a pull request. Agree when the agent describes the change.",
                [f"{hello(dev)} {plan.library.untested} in {plan.repo} isn't tested at all. Could the desk add a test and open a PR?",
                 creds(dev), "Yes, go ahead."])

    def make(d: TaskDraft, item: tuple[CodePlan, Developer]) -> None:
        plan, dev = item
        call, before, after = (part.replace("{pkg}", plan.package) for part in UNTESTED_CHECKS[plan.library.kind])
        d.read("list_access", dev_id=dev.dev_id)
        d.read("list_files", repo=plan.repo)
        d.read("read_file", repo=plan.repo, path=plan.path("caller"))
        path = plan.path("tests")
        d.read("read_file", repo=plan.repo, path=path)
        program = Program({f.path: f.content for f in DB.files.values() if f.repo == plan.repo})
        function = call.split("(")[0]
        expected = program.call(f"{plan.package}.{plan.library.caller}", function, ast.literal_eval(call[len(function):].replace("(", "[").replace(")", "]")))
        d.write("edit_file", repo=plan.repo, path=path, old_text=before + "\n", new_text=after + "\n", edited_by=dev.dev_id)
        append_test(d, plan, dev, f"test_{function}", f"    assert {call} == {expected!r}")
        open_pr(d, plan, dev, f"Test {function}", "patch")
        d.one_end_state("8.3: a missing test is one test_ function in the library's existing test module that checks a result of "
                        "the untested function; the state grades what the tests notice, not their text. A test is a patch (8.4).")
        calls = steps(d)
        module = after.split(" import ")[0]
        d.alternative("the function imported on a line of its own rather than added to the existing import",
                      [(name, {**args, "new_text": f"{before}\n{module} import {function}\n"}) if name == "edit_file" and args["old_text"] == before + "\n"
                       else (name, args) for name, args in calls])

    b.run("code_tests", n, [(p, dev) for p, dev in code_cands("none") + code_cands("doc_drift")], make, lambda x: x[1], situation, ordered=True)


def code_no_write(b: Builder, n: int) -> None:
    cands = [(plan, DB.developers[dev]) for (repo, dev), g in sorted(GRANTS.items()) if g.role == "read"
             for plan in [PLANS[repo]] if plan.flaw == "bug"]

    def situation(item: tuple[CodePlan, Developer]) -> tuple[str, list[str]]:
        plan, dev = item
        return (f"You ran into a bug in the {plan.repo} repository: {plan.library.bug}. You want the desk to fix it and open a pull "
                "request. If the desk cannot do it for you, you accept being passed to a person.",
                [f"{hello(dev)} There's a bug in {plan.repo}: {plan.library.bug}. Can the desk fix it?", creds(dev),
                 "OK, please pass me on then."])

    def make(d: TaskDraft, item: tuple[CodePlan, Developer]) -> None:
        plan, dev = item
        d.read("list_access", dev_id=dev.dev_id)
        d.require("list_access", dev_id=dev.dev_id)
        d.transfer(f"{dev.first_name} {dev.last_name} holds read on {plan.repo} and asks for a bug fix.")
        d.one_end_state("The caller holds read only on the repository, so 8.1 makes no change and transfers them after "
                        "list_access shows it (9.1); nothing is edited.")

    b.run("code_no_write", n, cands, make, lambda x: x[1], situation)


def build() -> TaskWriter:
    b = Builder()
    combo(b, 8, 1)
    merge_missing(b, 4)
    merge_ci(b, 4)
    merge_ok(b, 3)
    freeze(b, 4)
    upgrade_ok(b, 5, 1)
    upgrade_failed(b, 4)
    upgrade_with_requirements(b, 6)
    access_write(b, 4, 1)
    access_other(b, 3)
    triage_p0(b, 3)
    code_bugfix(b, 10)
    code_rename(b, 10)
    code_docs(b, 9)
    code_tests(b, 9)
    code_no_write(b, 4)
    return b.writer


if __name__ == "__main__":
    build().save()
