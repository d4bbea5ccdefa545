"""Records of the Forgeline developer-support desk: developers, repositories and their branch rules,
access grants, pull requests, issues, releases, dependencies, upgrade test runs and advisories.
Everything is a record; nothing here is a real repository, branch or CI run."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Role = Literal["read", "write", "maintain", "admin"]
Priority = Literal["P0", "P1", "P2", "P3"]
Bump = Literal["major", "minor", "patch"]


class Developer(BaseModel):
    dev_id: str
    first_name: str
    last_name: str
    email: str
    badge_number: Confidential[str]  # a credential: the desk checks it and never says it
    team: str
    employment: Literal["employee", "contractor"]
    contract_ends: str | None = None


class BranchRule(BaseModel):
    branch: str
    required_approvals: int
    require_ci: bool


class Repository(BaseModel):
    name: str
    owner_team: str
    description: str
    default_branch: str
    branch_rules: list[BranchRule]
    latest_version: str
    archived: bool = False


class Grant(BaseModel):
    grant_id: str
    repo: str
    dev_id: str
    role: Role
    granted_on: str
    expires_on: str | None = None
    reason: FreeText = ""


class Approval(BaseModel):
    reviewer: str
    approved_on: str


class PullRequest(BaseModel):
    pr_id: str
    repo: str
    number: int
    title: str
    author: str
    source_branch: str
    target_branch: str
    state: Literal["open", "merged", "closed"]
    change: Bump
    opened_on: str
    approvals: Unordered[Approval] = []
    ci_status: Literal["passed", "failed", "running"]
    ci_run: str
    fixes_issue: int | None = None
    merged_on: str | None = None
    merged_by: str | None = None
    released_in: str | None = None
    # For a pull request the desk opens: what the proposed code did when it was opened (a digest of the
    # repository's CodeHealth), so an edit made after opening reaches another state.
    code_digest: str | None = None


class Issue(BaseModel):
    issue_id: str
    repo: str
    number: int
    title: str
    reporter: str
    opened_on: str
    labels: Unordered[str] = []
    priority: Priority | None = None
    assignee: str | None = None
    state: Literal["open", "closed"]
    closed_on: str | None = None
    closed_by: str | None = None
    resolution: Literal["fixed", "wont_fix", "duplicate"] | None = None


class Release(BaseModel):
    release_id: str
    repo: str
    version: str
    tag: str
    tagged_on: str
    tagged_by: str
    pull_requests: Unordered[int] = []


class Dependency(BaseModel):
    dep_id: str
    repo: str
    package: str
    version: str
    updated_on: str
    updated_by: str | None = None


class PackageVersion(BaseModel):
    key: str
    package: str
    version: str
    published_on: str
    # What this version needs of other packages: package -> ">=X.Y.Z" or ">=X.Y.Z,<A.B.C".
    requires: dict[str, str] = {}


class UpgradeRun(BaseModel):
    run_id: str
    repo: str
    package: str
    version: str
    status: Literal["passed", "failed"]
    tests_total: int
    tests_failed: int
    ran_on: str


class Advisory(BaseModel):
    advisory_id: str
    package: str
    affected_below: str
    fixed_in: str
    introduced_in: str
    severity: Literal["low", "moderate", "high", "critical"]
    summary: str


class SourceFile(BaseModel):
    """A file of a repository's working tree: code (the subset `codelang` runs), tests, or a docs page.
    Its text is free: what is graded is what the code does (`CodeHealth`), not how it is written."""

    file_id: str  # '<repo>:<path>'
    repo: str
    path: str
    content: FreeText
    updated_on: str
    updated_by: str | None = None
    editors: Unordered[str] = []  # everyone who changed the file since the tree was generated


class CodeHealth(BaseModel):
    """What a repository's code does, recomputed by every file write: its public API, each public
    function's results on the repository's probe arguments, the tests that do not pass, the tests
    the tree started with that are gone, the names used but defined nowhere, the docs signatures
    that disagree with the code, the public functions no test would notice breaking, and whether a
    passing test fails (an assertion, not a missing name) on the code the tree started with."""

    repo: str
    api: Unordered[str]
    behaviour: dict[str, list[str]]
    failing_tests: Unordered[str]
    missing_tests: Unordered[str]
    unresolved: Unordered[str]
    doc_mismatches: Unordered[str]
    untested: Unordered[str]
    regression_test: bool
    probes: dict[str, list[list[int | float | str]]]


class EngineeringDB(BaseModel):
    developers: Table[Developer]
    repositories: Table[Repository]
    grants: Table[Grant]
    pull_requests: Table[PullRequest]
    issues: Table[Issue]
    releases: Table[Release]
    dependencies: Table[Dependency]
    package_versions: Table[PackageVersion]
    upgrade_runs: Table[UpgradeRun]
    advisories: Table[Advisory]
    files: Table[SourceFile]
    code_health: Table[CodeHealth]
