"""Forgeline developer-support desk: the tools an agent uses to serve developers who contact the desk.

Repositories, branches, pull requests, CI runs and releases are records in an in-memory DB. The tools refuse
only what the data makes impossible (no such record, not open any more, a tag that already exists); every rule
of the policy (who may merge, approvals, CI, release freezes, upgrade gates, access limits) is the agent's to apply.
"""

from __future__ import annotations

import functools
import hashlib
import re
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import not_after_now, ordered
from tests_domains.engineering.codelang import Program, code_health
from tests_domains.engineering.schema import (
    Advisory,
    CodeHealth,
    Dependency,
    Developer,
    EngineeringDB,
    Grant,
    Issue,
    PullRequest,
    Release,
    Repository,
    Role,
    SourceFile,
)

DOMAIN = Domain("engineering", EngineeringDB, now=datetime(2026, 6, 10, 10, 0))

DevId = Annotated[str, Field(description="the developer's id as find_developer returned it, e.g. 'D1234'")]
RepoName = Annotated[str, Field(description="the repository's name, e.g. 'ledger-service'")]
PrId = Annotated[str, Field(description="the pull request as '<repo>#<number>', e.g. 'ledger-service#57'")]
IssueId = Annotated[str, Field(description="the issue as '<repo>#<number>', e.g. 'ledger-service#42'")]
Package = Annotated[str, Field(description="the package name, e.g. 'fastjson'")]
Version = Annotated[str, Field(description="a semantic version as MAJOR.MINOR.PATCH, e.g. '2.4.1' (no leading 'v')")]

ROLE_ORDER = {"read": 0, "write": 1, "maintain": 2, "admin": 3}


def _today() -> str:
    return DOMAIN.today.isoformat()


def _semver(value: str) -> tuple[int, int, int]:
    text = value.strip().lstrip("vV")
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ToolError(f"{value!r} is not a version as MAJOR.MINOR.PATCH")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _vstr(v: tuple[int, int, int]) -> str:
    return f"{v[0]}.{v[1]}.{v[2]}"


def _dev(db: EngineeringDB, dev_id: str) -> Developer:
    return db.developers.require(dev_id.strip())


def _repo(db: EngineeringDB, name: str) -> Repository:
    return db.repositories.require(name.strip().lower())


def _pr(db: EngineeringDB, pr_id: str) -> PullRequest:
    return db.pull_requests.require(pr_id.strip().lower())


def _issue(db: EngineeringDB, issue_id: str) -> Issue:
    return db.issues.require(issue_id.strip().lower())


def _role(db: EngineeringDB, repo: str, dev_id: str) -> Grant | None:
    best = None
    for g in db.grants.where(repo=repo, dev_id=dev_id):
        if g.expires_on is not None and g.expires_on < _today():
            continue
        if best is None or ROLE_ORDER[g.role] > ROLE_ORDER[best.role]:
            best = g
    return best


def _affecting(db: EngineeringDB, package: str, version: str) -> list[Advisory]:
    v = _semver(version)
    return sorted((a for a in db.advisories.where(package=package)
                   if _semver(a.introduced_in) <= v < _semver(a.affected_below)), key=lambda a: a.advisory_id)


# -- developers and access ---------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_developer(db: EngineeringDB, email: Annotated[str, Field(description="the developer's work email")],
                   badge_number: Annotated[str, Field(description="the six-digit number printed on their badge")]) -> Developer:
    """Find a developer by work email and verify their badge number."""
    found = db.developers.find(email=email)
    if not found or found[0].badge_number != badge_number.strip():
        raise ToolError("no developer matches that email and badge number")
    return found[0]


@DOMAIN.tool
def get_developer(db: EngineeringDB, dev_id: DevId) -> Developer:
    """A developer's record by id (to see who a reviewer, author or assignee is)."""
    return _dev(db, dev_id)


@DOMAIN.tool
def list_access(db: EngineeringDB, dev_id: DevId) -> list[Grant]:
    """Every access grant a developer holds, on every repository (expired ones included, with their dates)."""
    _dev(db, dev_id)
    return sorted(db.grants.where(dev_id=dev_id.strip()), key=lambda g: g.grant_id)


@DOMAIN.tool(write=True)
def grant_access(db: EngineeringDB, repo: RepoName, dev_id: DevId, role: Role,
                 days: Annotated[int, Field(description="how many days the grant lasts, counted from today", ge=1)],
                 reason: Annotated[FreeText, Field(description="why the developer needs access, in their words")]) -> Grant:
    """Grant a developer a role on a repository until today + days, beside the grants they already hold there (their
    role is the highest of their active grants, so when this one ends the one they held before applies again)."""
    r = _repo(db, repo)
    _dev(db, dev_id)
    gid = f"G-{r.name}-{dev_id.strip()}-{DOMAIN.today:%Y%m%d}"
    grant = Grant(grant_id=gid, repo=r.name, dev_id=dev_id.strip(), role=role, granted_on=_today(),
                  expires_on=(DOMAIN.today + timedelta(days=days)).isoformat(), reason=reason)
    db.grants[gid] = grant
    return grant


# -- repositories --------------------------------------------------------------------------------------
@DOMAIN.tool
def get_repository(db: EngineeringDB, repo: RepoName) -> Repository:
    """A repository: owning team, default branch, branch protection rules and latest released version."""
    return _repo(db, repo)


@DOMAIN.tool
def search_repositories(db: EngineeringDB, text: Annotated[str, Field(description="part of the repository's name or description")],
                        ) -> list[dict[str, str]]:
    """Repositories whose name or description contains the text (at most 20)."""
    q = text.strip().lower()
    if not q:
        raise ToolError("give part of a repository name")
    hits = [{"name": r.name, "owner_team": r.owner_team, "description": r.description}
            for r in db.repositories.values() if q in r.name or q in r.description.lower()]
    return sorted(hits, key=lambda h: h["name"])[:20]


# -- pull requests -----------------------------------------------------------------------------------
@DOMAIN.tool
def list_pull_requests(db: EngineeringDB, repo: RepoName,
                       state: Annotated[Literal["open", "merged", "closed"], Field(description="which pull requests")] = "open",
                       ) -> list[dict[str, Any]]:
    """Pull requests of a repository in one state: id, title, author and branches (newest first, at most 30)."""
    r = _repo(db, repo)
    rows = sorted(db.pull_requests.where(repo=r.name, state=state), key=lambda p: -p.number)[:30]
    return [{"pr_id": p.pr_id, "title": p.title, "author": p.author, "source_branch": p.source_branch,
             "target_branch": p.target_branch} for p in rows]


@DOMAIN.tool
def get_pull_request(db: EngineeringDB, pr_id: PrId) -> dict[str, Any]:
    """A pull request with its approvals, CI status and the issue it fixes (`fixes_issue_id`, as get_issue takes it)."""
    p = _pr(db, pr_id)
    return {**p.model_dump(mode="json"), "fixes_issue_id": None if p.fixes_issue is None else f"{p.repo}#{p.fixes_issue}"}


@DOMAIN.tool
def check_merge_readiness(db: EngineeringDB, pr_id: PrId) -> dict[str, Any]:
    """What the target branch's protection asks of a pull request and what it has: counted approvals (distinct
    reviewers other than the author), approvals missing, and the CI status. Changes nothing."""
    p = _pr(db, pr_id)
    r = _repo(db, p.repo)
    rule = next((b for b in r.branch_rules if b.branch == p.target_branch), None)
    counted = sorted({a.reviewer for a in p.approvals if a.reviewer != p.author})
    required = rule.required_approvals if rule else 0
    return {"pr_id": p.pr_id, "state": p.state, "target_branch": p.target_branch, "protected": rule is not None,
            "required_approvals": required, "counted_approvals": len(counted), "counted_reviewers": counted,
            "approvals_missing": max(0, required - len(counted)), "ci_required": bool(rule and rule.require_ci),
            "ci_status": p.ci_status, "ci_run": p.ci_run}


@DOMAIN.tool(write=True)
def merge_pull_request(db: EngineeringDB, pr_id: PrId, merged_by: DevId) -> PullRequest:
    """Merge an open pull request into its target branch, recorded as merged today by the given developer."""
    p = _pr(db, pr_id)
    _dev(db, merged_by)
    if p.state != "open":
        raise ToolError(f"pull request {p.pr_id} is {p.state}, not open")
    p.state, p.merged_on, p.merged_by = "merged", _today(), merged_by.strip()
    db.pull_requests[p.pr_id] = p
    return p


# -- issues ------------------------------------------------------------------------------------------
@DOMAIN.tool
def list_issues(db: EngineeringDB, repo: RepoName,
                state: Annotated[Literal["open", "closed"], Field(description="which issues")] = "open") -> list[dict[str, Any]]:
    """Issues of a repository in one state with their labels and priority (newest first, at most 30)."""
    r = _repo(db, repo)
    rows = sorted(db.issues.where(repo=r.name, state=state), key=lambda i: -i.number)[:30]
    return [{"issue_id": i.issue_id, "title": i.title, "labels": i.labels, "priority": i.priority} for i in rows]


@DOMAIN.tool
def get_issue(db: EngineeringDB, issue_id: IssueId) -> Issue:
    """An issue with its labels, priority, assignee and state."""
    return _issue(db, issue_id)


@DOMAIN.tool(write=True)
def close_issue(db: EngineeringDB, issue_id: IssueId, closed_by: DevId,
                resolution: Literal["fixed", "wont_fix", "duplicate"]) -> Issue:
    """Close an open issue with a resolution, recorded as closed today by the given developer."""
    i = _issue(db, issue_id)
    _dev(db, closed_by)
    if i.state != "open":
        raise ToolError(f"issue {i.issue_id} is already closed")
    i.state, i.closed_on, i.closed_by, i.resolution = "closed", _today(), closed_by.strip(), resolution
    db.issues[i.issue_id] = i
    return i


@DOMAIN.tool(write=True)
def triage_issue(db: EngineeringDB, issue_id: IssueId,
                 priority: Annotated[Literal["P0", "P1", "P2", "P3"], Field(description="the new priority")],
                 add_labels: Annotated[list[str], Field(description="labels to add (existing ones are kept)")]) -> Issue:
    """Set an open issue's priority and add labels to it."""
    i = _issue(db, issue_id)
    if i.state != "open":
        raise ToolError(f"issue {i.issue_id} is closed")
    i.priority = priority
    i.labels = sorted(set(i.labels) | {label.strip().lower() for label in add_labels if label.strip()})
    db.issues[i.issue_id] = i
    return i


# -- releases ----------------------------------------------------------------------------------------
@DOMAIN.tool
def list_releases(db: EngineeringDB, repo: RepoName) -> list[Release]:
    """A repository's releases, newest first."""
    r = _repo(db, repo)
    return sorted(db.releases.where(repo=r.name), key=lambda x: _semver(x.version), reverse=True)


@DOMAIN.tool
def preview_release(db: EngineeringDB, repo: RepoName) -> dict[str, Any]:
    """The next release of a repository as computed from the pull requests merged since the last release: a
    major change bumps MAJOR, else a minor change bumps MINOR, else PATCH. Changes nothing."""
    r = _repo(db, repo)
    pending = sorted((p for p in db.pull_requests.where(repo=r.name, state="merged") if p.released_in is None),
                     key=lambda p: p.number)
    if not pending:
        raise ToolError(f"nothing has been merged into {r.name} since {r.latest_version}")
    v = _semver(r.latest_version)
    kinds = {p.change for p in pending}
    nxt = (v[0] + 1, 0, 0) if "major" in kinds else (v[0], v[1] + 1, 0) if "minor" in kinds else (v[0], v[1], v[2] + 1)
    return {"repo": r.name, "latest_version": r.latest_version, "next_version": _vstr(nxt),
            "pull_requests": [{"number": p.number, "title": p.title, "change": p.change} for p in pending]}


@DOMAIN.tool(write=True)
def tag_release(db: EngineeringDB, repo: RepoName, version: Version, tagged_by: DevId) -> Release:
    """Tag a release of a repository: records it with every merged, unreleased pull request and makes it the
    repository's latest version."""
    r = _repo(db, repo)
    _dev(db, tagged_by)
    v = _semver(version)
    rid = f"{r.name}@v{_vstr(v)}"
    if rid in db.releases:
        raise ToolError(f"{r.name} already has a release v{_vstr(v)}")
    pending = sorted((p for p in db.pull_requests.where(repo=r.name, state="merged") if p.released_in is None),
                     key=lambda p: p.number)
    for p in pending:
        own = db.pull_requests[p.pr_id]
        own.released_in = _vstr(v)
        db.pull_requests[p.pr_id] = own
    rel = Release(release_id=rid, repo=r.name, version=_vstr(v), tag=f"v{_vstr(v)}", tagged_on=_today(),
                  tagged_by=tagged_by.strip(), pull_requests=[p.number for p in pending])
    db.releases[rid] = rel
    if v > _semver(r.latest_version):
        r.latest_version = _vstr(v)
        db.repositories[r.name] = r
    return rel


# -- dependencies ------------------------------------------------------------------------------------
@DOMAIN.tool
def list_dependencies(db: EngineeringDB, repo: RepoName) -> list[Dependency]:
    """A repository's pinned dependencies and their versions."""
    r = _repo(db, repo)
    return sorted(db.dependencies.where(repo=r.name), key=lambda x: x.package)


@DOMAIN.tool
def get_advisory(db: EngineeringDB, advisory_id: Annotated[str, Field(description="the advisory id, e.g. 'FSA-2025-1234'")]) -> Advisory:
    """A security advisory: the package, the affected version range and the version that fixes it."""
    return db.advisories.require(advisory_id.strip().upper())


@DOMAIN.tool
def check_upgrade(db: EngineeringDB, repo: RepoName, package: Package, version: Version) -> dict[str, Any]:
    """Preview upgrading a repository's dependency to a version: the simulated test run of the repository against
    that version (if one was run), the advisories affecting the current version, and those affecting the target.
    Changes nothing."""
    r = _repo(db, repo)
    dep, target = _published_target(db, r.name, package, version)
    run = next(iter(db.upgrade_runs.where(repo=r.name, package=dep.package, version=target)), None)
    current = [a.advisory_id for a in _affecting(db, dep.package, dep.version)]
    after = [a.advisory_id for a in _affecting(db, dep.package, target)]
    return {"repo": r.name, "package": dep.package, "current_version": dep.version, "target_version": target,
            "test_run": None if run is None else {"run_id": run.run_id, "status": run.status, "tests_total": run.tests_total,
                                                 "tests_failed": run.tests_failed, "ran_on": run.ran_on},
            "advisories_now": current, "advisories_fixed": [a for a in current if a not in after],
            "advisories_after": after,
            "requires": db.package_versions[f"{dep.package}@{target}"].requires,
            "unmet_requirements": _unmet(db, {**{d.package: d.version for d in db.dependencies.where(repo=r.name)}, dep.package: target})}


def meets(version: str, spec: str) -> bool:
    """Does a version meet a requirement such as '>=1.4.0' or '>=1.4.0,<2.0.0'?"""
    v = _semver(version)
    for part in spec.split(","):
        part = part.strip()
        if part.startswith(">=") and v < _semver(part[2:]):
            return False
        if part.startswith("<") and not part.startswith("<=") and v >= _semver(part[1:]):
            return False
    return True


def _unmet(db: EngineeringDB, pins: dict[str, str]) -> list[str]:
    """Every requirement of a pinned version on another pinned package that the other pin does not meet."""
    problems = []
    for package, version in sorted(pins.items()):
        release = db.package_versions.get(f"{package}@{version}")
        for needed, spec in sorted((release.requires if release else {}).items()):
            if needed in pins and not meets(pins[needed], spec):
                problems.append(f"{package} {version} needs {needed} {spec}; {needed} is pinned at {pins[needed]}")
    return problems


def _published_target(db: EngineeringDB, repo: str, package: str, version: str) -> tuple[Dependency, str]:
    """A repository's dependency on a package, and the published version asked for (normalized)."""
    dep = db.dependencies.get(f"{repo}:{package.strip().lower()}")
    if dep is None:
        raise ToolError(f"{repo} does not depend on {package!r}")
    target = _vstr(_semver(version))
    if f"{dep.package}@{target}" not in db.package_versions:
        raise ToolError(f"{dep.package} has no published version {target}")
    return dep, target


def _repinned(db: EngineeringDB, repo: str, package: str, version: str, requested_by: str) -> Dependency:
    """A repository's dependency moved to another published version (not saved yet)."""
    dep, target = _published_target(db, repo, package, version)
    if target == dep.version:
        raise ToolError(f"{dep.package} is already at {target}")
    dep.version, dep.updated_on, dep.updated_by = target, _today(), requested_by.strip()
    return dep


@DOMAIN.tool
def get_package(db: EngineeringDB, package: Package) -> dict[str, Any]:
    """A package's published versions, oldest first, each with its date and what it requires of other packages."""
    name = package.strip().lower()
    rows = sorted(db.package_versions.where(package=name), key=lambda x: _semver(x.version))
    if not rows:
        raise ToolError(f"no package {package!r} in the index")
    return {"package": name, "versions": [{"version": x.version, "published_on": x.published_on, "requires": x.requires} for x in rows]}


@DOMAIN.tool
def check_pins(db: EngineeringDB, repo: RepoName,
               pins: Annotated[dict[str, str], Field(description="the pins to try: package name -> version, e.g. {'fastjson': '2.4.1'}")],
               ) -> dict[str, Any]:
    """Try a set of pins against a repository's dependencies without changing anything: the repository's pins with
    these applied, every requirement of a pinned version that another pin does not meet, and the advisories affecting
    each pin."""
    r = _repo(db, repo)
    current = {dep.package: dep.version for dep in db.dependencies.where(repo=r.name)}
    trial = dict(current)
    for package, version in pins.items():
        name = package.strip().lower()
        if name not in current:
            raise ToolError(f"{r.name} does not depend on {package!r}")
        target = _vstr(_semver(version))
        if f"{name}@{target}" not in db.package_versions:
            raise ToolError(f"{name} has no published version {target}")
        trial[name] = target
    return {"repo": r.name, "pins": dict(sorted(trial.items())), "changed": sorted(p for p in trial if trial[p] != current[p]),
            "unmet_requirements": _unmet(db, trial),
            "advisories": {p: [a.advisory_id for a in _affecting(db, p, v)] for p, v in sorted(trial.items()) if _affecting(db, p, v)}}


@DOMAIN.tool(write=True)
def pin_dependencies(db: EngineeringDB, repo: RepoName,
                     pins: Annotated[dict[str, str], Field(description="package name -> the version to pin it at")],
                     requested_by: DevId) -> list[Dependency]:
    """Pin several of a repository's dependencies at once (one change), recorded as changed today by the developer."""
    r = _repo(db, repo)
    _dev(db, requested_by)
    if not pins:
        raise ToolError("give at least one pin")
    changed = [_repinned(db, r.name, package, version, requested_by) for package, version in sorted(pins.items())]
    for dep in changed:  # all or nothing: saved once every pin is known to be valid
        db.dependencies[dep.dep_id] = dep
    return changed


@DOMAIN.tool(write=True)
def upgrade_dependency(db: EngineeringDB, repo: RepoName, package: Package, version: Version, requested_by: DevId) -> Dependency:
    """Pin a repository's dependency to another published version, recorded as changed today by the developer."""
    r = _repo(db, repo)
    _dev(db, requested_by)
    dep = _repinned(db, r.name, package, version, requested_by)
    db.dependencies[dep.dep_id] = dep
    return dep



# -- code: files, tests, pull requests of the desk's changes ----------------------------------------------
FilePath = Annotated[str, Field(description="the file's path in the repository, e.g. 'src/billing/fees.py', 'tests/test_fees.py', 'docs/fees.md'")]
CodeText = Annotated[FreeText, Field(description="text exactly as it appears in (or is to go into) the file, spaces and line breaks included")]


def _path_letters(path: str) -> str:
    return "".join(c for c in path.casefold() if c.isalnum())


def _file(db: EngineeringDB, repo: str, path: str) -> SourceFile:
    r = _repo(db, repo)
    found = db.files.get(f"{r.name}:{path.strip()}")
    if found is None:  # 'SRC/Billing/Fees.py' or 'src/billing/fees py' names the file when only one file matches
        wanted = _path_letters(path)
        matches = [f.file_id for f in db.files.where(repo=r.name) if _path_letters(f.path) == wanted]
        found = db.files[matches[0]] if len(matches) == 1 else None
    if found is None:
        raise ToolError(f"{r.name} has no file {path.strip()!r} (list_files shows its files)")
    return found


def _tree(files: Any, repo: str) -> dict[str, str]:
    return {f.path: f.content for f in files.where(repo=repo)}


def _health(db: EngineeringDB, repo: str) -> CodeHealth:
    """What the repository's code does now (see `CodeHealth`)."""
    return _health_of(repo, tuple(sorted(_tree(db.files, repo).items())))


@functools.lru_cache(maxsize=1024)
def _health_of(repo: str, tree: tuple[tuple[str, str], ...]) -> CodeHealth:
    # Cached on the tree's text: checks and trials replay the same edits many times, and running a
    # suite with each function stubbed in turn is the costly part.
    probes = DOMAIN.initial_db.code_health.require(repo).probes
    return CodeHealth.model_validate(code_health(repo, dict(tree), _tree(DOMAIN.initial_db.files, repo), probes))


def _save(db: EngineeringDB, file: SourceFile, caller: str) -> SourceFile:
    file.updated_on, file.updated_by = _today(), caller
    file.editors = sorted({*file.editors, caller})
    db.files[file.file_id] = file
    db.code_health[file.repo] = _health(db, file.repo).model_copy(deep=True)
    return file


@DOMAIN.tool
def list_files(db: EngineeringDB, repo: RepoName) -> list[dict[str, Any]]:
    """The files of a repository's working tree (code under src/, tests under tests/, docs under docs/) with their sizes."""
    r = _repo(db, repo)
    return [{"path": f.path, "lines": f.content.count("\n")} for f in sorted(db.files.where(repo=r.name), key=lambda f: f.path)]


@DOMAIN.tool
def read_file(db: EngineeringDB, repo: RepoName, path: FilePath) -> dict[str, str]:
    """A file's whole text."""
    f = _file(db, repo, path)
    return {"repo": f.repo, "path": f.path, "content": f.content}


@DOMAIN.tool
def search_code(db: EngineeringDB, repo: RepoName,
                text: Annotated[str, Field(description="the text to find, e.g. a function's name")]) -> list[dict[str, Any]]:
    """Every line of every file of a repository that contains the text (case-sensitive), with its path and line number (at most 60)."""
    r = _repo(db, repo)
    if not text.strip():
        raise ToolError("give the text to search for")
    hits = [{"path": f.path, "line": number, "text": line}
            for f in sorted(db.files.where(repo=r.name), key=lambda f: f.path)
            for number, line in enumerate(f.content.splitlines(), start=1) if text in line]
    return hits[:60]


@DOMAIN.tool(write=True)
def edit_file(db: EngineeringDB, repo: RepoName, path: FilePath, old_text: CodeText, new_text: CodeText, edited_by: DevId) -> dict[str, Any]:
    """Replace one exact passage of a file with new text, recorded as edited today by the developer. The old text must
    occur exactly once in the file (include surrounding lines to make it unique)."""
    f = _file(db, repo, path)
    _dev(db, edited_by)
    count = f.content.count(old_text) if old_text else 0
    if count != 1:
        raise ToolError(f"the old text occurs {count} times in {f.path}; it must occur exactly once (read_file shows the text)")
    f.content = f.content.replace(old_text, new_text)
    saved = _save(db, f, edited_by.strip())
    return {"repo": saved.repo, "path": saved.path, "content": saved.content}


@DOMAIN.tool(write=True)
def create_file(db: EngineeringDB, repo: RepoName, path: FilePath, content: CodeText, created_by: DevId) -> dict[str, Any]:
    """Add a new file to a repository's working tree (under src/ or tests/ ending in .py, or under docs/ ending in .md)."""
    r = _repo(db, repo)
    _dev(db, created_by)
    clean = path.strip().lower()
    if f"{r.name}:{clean}" in db.files:
        raise ToolError(f"{r.name} already has {clean}; use edit_file")
    if not re.fullmatch(r"(src|tests)/[a-z0-9_/]+\.py|docs/[a-z0-9_/-]+\.md", clean):
        raise ToolError("a path is src/<...>.py, tests/<...>.py or docs/<...>.md in lower case")
    f = SourceFile(file_id=f"{r.name}:{clean}", repo=r.name, path=clean, content=content, updated_on=_today())
    saved = _save(db, f, created_by.strip())
    return {"repo": saved.repo, "path": saved.path, "content": saved.content}


@DOMAIN.tool
def run_tests(db: EngineeringDB, repo: RepoName) -> dict[str, Any]:
    """Run a repository's test suite on its working tree now: every test with its status (passed, failed, error) and,
    for the others, why. Also lists the names the code uses that nothing defines. Changes nothing."""
    r = _repo(db, repo)
    program = Program(_tree(db.files, r.name))
    results = program.run_tests()
    return {"repo": r.name, "total": len(results), "passed": sum(1 for x in results if x.status == "passed"),
            "not_passing": [{"test": f"{x.file}::{x.name}", "status": x.status, "message": x.message} for x in results if x.status != "passed"],
            "undefined_names": program.unresolved() + sorted(program.broken.values())}


@DOMAIN.tool(write=True)
def open_pull_request(db: EngineeringDB, repo: RepoName,
                      title: Annotated[FreeText, Field(description="a short title for the change")],
                      author: DevId, change: Literal["major", "minor", "patch"],
                      fixes_issue: Annotated[int | None, Field(description="the number of the issue the change fixes, if any")] = None,
                      ) -> PullRequest:
    """Open a pull request into the default branch with the working tree's changes, authored by the developer. CI runs the
    test suite on it at once: its status is 'passed' only when every test passes."""
    r = _repo(db, repo)
    _dev(db, author)
    base = _tree(DOMAIN.initial_db.files, r.name)
    if _tree(db.files, r.name) == base:
        raise ToolError(f"the working tree of {r.name} has no changes to propose")
    if fixes_issue is not None and f"{r.name}#{fixes_issue}" not in db.issues:
        raise ToolError(f"{r.name} has no issue #{fixes_issue}")
    number = 1 + max((p.number for p in db.pull_requests.where(repo=r.name)), default=0)
    number = max(number, 1 + max((i.number for i in db.issues.where(repo=r.name)), default=0))
    health = db.code_health.require(r.name)
    pr = PullRequest(pr_id=f"{r.name}#{number}", repo=r.name, number=number, title=title, author=author.strip(),
                     source_branch=f"desk/{r.name}-{number}", target_branch=r.default_branch, state="open", change=change,
                     opened_on=_today(), approvals=[], ci_status="passed" if not health.failing_tests and not health.unresolved else "failed",
                     ci_run=f"CI-{r.name}-{number}", fixes_issue=fixes_issue,
                     code_digest=hashlib.sha256(health.model_dump_json(exclude={"probes"}).encode()).hexdigest()[:16])
    db.pull_requests[pr.pr_id] = pr
    return pr


# Rules of the policy about order that the state alone does not show: a release after the merge it
# ships (4.2), a pull request after an edit it proposes (8.4).
DOMAIN.order("merge_pull_request", "tag_release")
DOMAIN.order("edit_file", "open_pull_request")


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
DOMAIN.invariants(
    not_after_now("grants", "granted_on"),
    ordered("grants", "granted_on", "expires_on"),
    not_after_now("pull_requests", "opened_on"),
    not_after_now("pull_requests", "merged_on"),
    ordered("pull_requests", "opened_on", "merged_on"),
    not_after_now("issues", "opened_on"),
    not_after_now("issues", "closed_on"),
    ordered("issues", "opened_on", "closed_on"),
    not_after_now("releases", "tagged_on"),
    not_after_now("dependencies", "updated_on"),
    not_after_now("package_versions", "published_on"),
    not_after_now("upgrade_runs", "ran_on"),
    not_after_now("files", "updated_on"),
    not_after_now("pull_requests", "approvals[].approved_on"),
)


@DOMAIN.invariant
def _approvals_in_review(db: EngineeringDB, now: datetime) -> Any:
    """approvals given while the pull request was open, and fixes proposed after their issue"""
    for key, pr in db.pull_requests.items():
        for approval in pr.approvals:
            if approval.approved_on < pr.opened_on or (pr.merged_on is not None and approval.approved_on > pr.merged_on):
                yield f"pull_requests[{key!r}]: approval on {approval.approved_on} outside {pr.opened_on}..{pr.merged_on}"
        issue = db.issues.get(f"{pr.repo}#{pr.fixes_issue}") if pr.fixes_issue is not None else None
        if issue is not None and pr.opened_on < issue.opened_on:
            yield f"pull_requests[{key!r}]: opened on {pr.opened_on}, before the issue it fixes ({issue.opened_on})"


@DOMAIN.invariant
def _numbered_as_opened(db: EngineeringDB, now: datetime) -> Any:
    """issues and pull requests of a repository numbered from one sequence in the order they were opened"""
    opened: dict[str, list[tuple[int, str, str]]] = {}
    items: list[tuple[str, Issue | PullRequest]] = [*db.issues.items(), *db.pull_requests.items()]
    for key, item in items:
        opened.setdefault(item.repo, []).append((item.number, item.opened_on, key))
    for rows in opened.values():
        rows.sort()
        for (number, day, key), (later, later_day, later_key) in pairwise(rows):
            if later == number:
                yield f"{key} and {later_key} share the number {number}"
            elif later_day < day:
                yield f"{later_key} opened on {later_day}, before {key} ({day}) which has a lower number"


@DOMAIN.invariant
def _releases_ship_what_was_merged(db: EngineeringDB, now: datetime) -> Any:
    """a release ships every pull request merged before its tag, and none merged after it"""
    for key, rel in db.releases.items():
        for pr in db.pull_requests.where(repo=rel.repo, state="merged"):
            shipped = pr.number in rel.pull_requests
            assert pr.merged_on is not None
            if shipped and pr.merged_on > rel.tagged_on:
                yield f"releases[{key!r}]: ships {pr.pr_id}, merged on {pr.merged_on}, after its tag ({rel.tagged_on})"
            later = pr.released_in is None or _semver(pr.released_in) > _semver(rel.version)
            if not shipped and later and pr.merged_on <= rel.tagged_on:
                yield f"releases[{key!r}]: tagged on {rel.tagged_on} without {pr.pr_id}, merged on {pr.merged_on}"


@DOMAIN.invariant
def _requirements_published(db: EngineeringDB, now: datetime) -> Any:
    """a package version asks only for versions of other packages published by its own release day"""
    for key, release in db.package_versions.items():
        for package, spec in release.requires.items():
            floor = db.package_versions.get(f"{package}@{spec.split(',')[0].removeprefix('>=')}")
            if floor is None or floor.published_on > release.published_on:
                yield f"package_versions[{key!r}]: requires {package} {spec}, not published by {release.published_on}"


@DOMAIN.invariant
def _employee_admins(db: EngineeringDB, now: datetime) -> Any:
    """every repository has an employee with admin on it (an owner whose grant does not end with a contract)"""
    for name in db.repositories:
        admins = [db.developers[g.dev_id] for g in db.grants.where(repo=name, role="admin")]
        if not any(dev.employment == "employee" for dev in admins):
            yield f"repositories[{name!r}]: no employee holds admin"


@DOMAIN.invariant
def _pins_resolved(db: EngineeringDB, now: datetime) -> Any:
    """every repository's pins a resolved set, as a lock file is: each pinned version's requirements met by the others"""
    for name in db.repositories:
        for problem in _unmet(db, {dep.package: dep.version for dep in db.dependencies.where(repo=name)}):
            yield f"repositories[{name!r}]: {problem}"


@DOMAIN.invariant
def _stable_versions(db: EngineeringDB, now: datetime) -> Any:
    """every version 1.0.0 or later (the MAJOR rules of 4.2 and 5.1 are those of a stable API)"""
    found = [(f"package_versions[{k!r}]", x.version) for k, x in db.package_versions.items()]
    found += [(f"dependencies[{k!r}]", x.version) for k, x in db.dependencies.items()]
    found += [(f"releases[{k!r}]", x.version) for k, x in db.releases.items()]
    found += [(f"repositories[{k!r}]", x.latest_version) for k, x in db.repositories.items()]
    for where, version in found:
        if _semver(version)[0] < 1:
            yield f"{where}: version {version} is below 1.0.0"
