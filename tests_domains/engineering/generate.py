"""Seeded generator for the Forgeline developer-support desk DB.

    python -m tests_domains.engineering.generate            # writes fixtures/engineering/db.json
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from tests_domains.engineering.codegen import make_code, plan_code
from tests_domains.engineering.schema import EngineeringDB

SEED = 4242
TODAY = date(2026, 6, 10)
START = date(2025, 3, 1)
OUT = Path(__file__).parents[2] / "fixtures" / "engineering" / "db.json"
Rec = dict[str, Any]

FIRST = ["Aiko", "Bastian", "Chiara", "Dmitri", "Eun-ji", "Farah", "Gideon", "Hana", "Ismail", "Jolene", "Kofi", "Linnea",
         "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosalind", "Sanjay", "Tove", "Umar", "Valentina", "Wendell",
         "Ximena", "Yosef", "Zuzana", "Anders", "Beatriz", "Callum", "Delphine", "Emeka", "Freya", "Gustavo", "Hollis",
         "Ingrid", "Jun", "Kamala", "Leopold", "Maren", "Nils", "Olamide", "Petra", "Rafael", "Sigrid", "Tariq", "Ulla",
         "Viktor", "Wren", "Yara", "Zoltan", "Amara", "Bjorn", "Celeste", "Darius", "Elodie", "Felix"]
LAST = ["Abernathy", "Bergstrom", "Castellanos", "Dufresne", "Eriksen", "Fontaine", "Gallagher", "Haddad", "Ishikawa",
        "Jankowski", "Kaplan", "Lindqvist", "Moriarty", "Nwosu", "Okonkwo", "Pellegrini", "Quiroga", "Rasmussen",
        "Sandoval", "Takahashi", "Underwood", "Varga", "Whitfield", "Yamamoto", "Zapata", "Achterberg", "Brennan",
        "Cavanagh", "Dimitrov", "Esterhazy", "Fairweather", "Grigoryan", "Holloway", "Iyer", "Kessler", "Lombardi",
        "Mbeki", "Novak", "Oyelowo", "Prescott", "Reinholt", "Sokolova", "Thorsen", "Vasquez", "Winslow", "Zellner"]
TEAMS = ["payments", "identity", "search", "mobile", "data-platform", "growth", "infra", "checkout", "messaging", "observability"]
NOUNS = ["ledger", "auth", "gateway", "catalog", "indexer", "notifier", "billing", "session", "profile", "router", "scheduler",
         "metrics", "tracer", "inbox", "cart", "pricing", "feature-flags", "uploader", "webhooks", "quota", "audit", "geo",
         "reco", "export", "importer", "tokens", "ratelimit", "ingest", "warehouse", "reports"]
SUFFIX = ["service", "api", "worker", "sdk", "ui", "cli", "lib", "proxy"]
PACKAGES = ["fastjson", "httpkit", "yamlette", "cryptonite", "orm-lite", "logwise", "retryer", "datetimex", "pdfgen",
            "imagepipe", "grpc-bridge", "kafka-lite", "redis-pool", "templar", "markdownit", "xmlsafe", "zipstream",
            "authlib-core", "pyjwt-ng", "uuid7", "csvkit-lite", "schemaguard", "metricsd", "tracekit", "mailer",
            "s3fs-lite", "cachebox", "validata", "webcore", "sqlbuilder", "configo", "cliforge"]
VERBS = ["Fix", "Add", "Refactor", "Remove", "Speed up", "Handle", "Migrate", "Document", "Harden", "Support"]
OBJECTS = ["retry backoff on timeouts", "pagination cursor", "null currency codes", "expired session refresh",
           "batch export endpoint", "rate limit headers", "unicode in display names", "webhook signature check",
           "stale cache entries", "daylight saving offsets", "metrics cardinality", "config reload", "empty search results",
           "large file uploads", "duplicate events", "audit log retention", "connection pool leak", "locale fallback",
           "feature flag defaults", "slow startup", "graceful shutdown", "health check endpoint", "CSV escaping",
           "JSON schema validation", "token rotation", "idempotency keys", "index rebuild", "error page copy"]
# Kinds of issue: the title, the labels a triager gives that kind, the drawn labels that may join them, and the
# title of the pull request that fixes it. Labels follow the title (a docs gap is not a "security" issue).
ISSUE_KINDS = [
    ("crash in {o}", ["bug"], {"security"}, "Fix crash in {o}"),
    ("{o} broken after deploy", ["bug", "regression"], set(), "Fix {o} regression"),
    ("flaky test around {o}", ["flaky-test"], {"good-first-issue"}, "Stabilize the test around {o}"),
    ("request: {o}", ["enhancement"], {"good-first-issue"}, "Add {o}"),
    ("docs missing for {o}", ["docs"], {"good-first-issue"}, "Document {o}"),
    ("memory grows with {o}", ["bug", "performance"], set(), "Fix memory growth in {o}"),
    ("wrong status code for {o}", ["bug"], {"security"}, "Return the right status code for {o}"),
    ("timeout under load: {o}", ["performance"], set(), "Speed up {o} under load"),
]
LABELS = ["bug", "enhancement", "docs", "security", "performance", "flaky-test", "good-first-issue", "regression"]


def d(day: date) -> str:
    return day.isoformat()


def vstr(v: tuple[int, int, int]) -> str:
    return f"{v[0]}.{v[1]}.{v[2]}"


def meets(version: str, spec: str) -> bool:
    """Does a version meet '>=X.Y.Z' or '>=X.Y.Z,<A.B.C'?"""
    v = tuple(int(x) for x in version.split("."))
    for part in spec.split(","):
        bound = tuple(int(x) for x in part.lstrip("><=").split("."))
        if (part.startswith(">=") and v < bound) or (part.startswith("<") and v >= bound):
            return False
    return True


def _pins_meet(pins: dict[str, Rec], versions: dict[str, Rec], package: str, version: str) -> bool:
    """Do a repository's pins meet what this version of one of its packages requires?"""
    needs = versions[f"{package}@{version}"].get("requires", {})
    return all(meets(pins[other]["version"], spec) for other, spec in needs.items() if other in pins)


def resolve_pins(deps: dict[str, Rec], versions: dict[str, Rec], pkg_versions: dict[str, list[tuple[tuple[int, int, int], date]]]) -> None:
    """A repository's pins are a resolved set, as a lock file is: no pinned version needs another pinned package at a
    version it is not at. A pin whose requirements its repository's other pins do not meet goes back to the newest
    older version whose requirements they meet (the oldest versions need nothing), until the set is consistent."""
    for repo in sorted({x["repo"] for x in deps.values()}):
        pins = {x["package"]: x for x in deps.values() if x["repo"] == repo}
        while broken := sorted(p for p, x in pins.items() if not _pins_meet(pins, versions, p, x["version"])):
            dep = pins[broken[0]]
            now = tuple(int(x) for x in dep["version"].split("."))
            older = [(v, day) for v, day in pkg_versions[dep["package"]]
                     if v < now and _pins_meet(pins, versions, dep["package"], vstr(v))]
            dep["version"], dep["updated_on"] = vstr(older[-1][0]), d(max(older[-1][1], START))


def bump(v: tuple[int, int, int], kind: str) -> tuple[int, int, int]:
    if kind == "major":
        return (v[0] + 1, 0, 0)
    if kind == "minor":
        return (v[0], v[1] + 1, 0)
    return (v[0], v[1], v[2] + 1)


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    features: dict[str, str] = {}  # issue id -> the feature it is about
    fix_titles: dict[str, str] = {}  # issue id -> the title of a pull request that fixes it
    devs: dict[str, Rec] = {}
    emails: set[str] = set()
    by_team: dict[str, list[str]] = {t: [] for t in TEAMS}
    for i in range(330):
        while True:
            f, last = rng.choice(FIRST), rng.choice(LAST)
            email = f"{f.lower().replace('-', '')}.{last.lower()}@forgeline.dev"
            if email not in emails:
                break
        emails.add(email)
        did = f"D{1000 + i * 7 + rng.randint(0, 6)}"
        team = TEAMS[i % len(TEAMS)]
        contractor = rng.random() < 0.15
        devs[did] = {"dev_id": did, "first_name": f, "last_name": last, "email": email,
                     "badge_number": f"{rng.randint(100000, 999999)}", "team": team,
                     "employment": "contractor" if contractor else "employee",
                     "contract_ends": d(TODAY + timedelta(days=rng.randint(20, 300))) if contractor else None}
        by_team[team].append(did)
    all_devs = sorted(devs)

    # package catalogue and advisories
    pkg_versions: dict[str, list[tuple[tuple[int, int, int], date]]] = {}
    versions: dict[str, Rec] = {}
    for pkg in PACKAGES:
        # Every version is 1.0.0 or later: under 1.0.0 semver lets anything break in a minor release, and the
        # policy's MAJOR rules (5.1, preview_release) are those of a stable API. Same draws as 0..3, one higher.
        pv = (rng.randint(1, 4), rng.randint(0, 9), rng.randint(0, 5))
        day = date(2024, 1, 1) + timedelta(days=rng.randint(0, 60))
        lst: list[tuple[tuple[int, int, int], date]] = []
        for _ in range(rng.randint(10, 16)):
            lst.append((pv, day))
            versions[f"{pkg}@{vstr(pv)}"] = {"key": f"{pkg}@{vstr(pv)}", "package": pkg, "version": vstr(pv), "published_on": d(day)}
            pv = bump(pv, rng.choices(["major", "minor", "patch"], [1, 4, 6])[0])
            day += timedelta(days=rng.randint(20, 60))
            if day >= TODAY:
                break
        pkg_versions[pkg] = lst
    advisories: dict[str, Rec] = {}
    for p in PACKAGES:
        lst = pkg_versions[p]
        for _ in range(rng.randint(1, 3)):
            a = rng.randint(0, len(lst) - 3)
            b = rng.randint(a + 1, min(len(lst) - 1, a + 5))
            aid = f"FSA-{lst[b][1].year}-{rng.randint(1000, 9999)}"
            while aid in advisories:
                aid = f"FSA-{lst[b][1].year}-{rng.randint(1000, 9999)}"
            advisories[aid] = {"advisory_id": aid, "package": p, "introduced_in": vstr(lst[a][0]),
                               "affected_below": vstr(lst[b][0]), "fixed_in": vstr(lst[b][0]),
                               "severity": rng.choice(["low", "moderate", "high", "critical"]),
                               "summary": rng.choice(["denial of service via crafted input", "path traversal in archive handling",
                                                      "signature check bypass", "unbounded memory use", "header injection",
                                                      "information disclosure in error messages", "unsafe deserialization"])}

    repos: dict[str, Rec] = {}
    grants: dict[str, Rec] = {}
    prs: dict[str, Rec] = {}
    issues: dict[str, Rec] = {}
    releases: dict[str, Rec] = {}
    deps: dict[str, Rec] = {}
    runs: dict[str, Rec] = {}
    names: set[str] = set()
    run_no = 40000
    while len(repos) < 105:
        name = f"{rng.choice(NOUNS)}-{rng.choice(SUFFIX)}"
        if name in names:
            continue
        names.add(name)
        team = TEAMS[len(repos) % len(TEAMS)]
        members = by_team[team]
        rules: list[Rec] = [{"branch": "main", "required_approvals": rng.choice([1, 2, 2, 3]), "require_ci": rng.random() < 0.9}]
        if rng.random() < 0.4:
            rules.append({"branch": "release", "required_approvals": rng.choice([2, 3]), "require_ci": True})
        # grants
        gdate = START - timedelta(days=rng.randint(10, 300))
        admin = rng.choice(members)
        roles: dict[str, str] = {admin: "admin"}
        for m in members:
            if m != admin and rng.random() < 0.55:
                roles[m] = rng.choices(["write", "maintain", "read"], [5, 3, 1])[0]
        if devs[admin]["employment"] == "contractor":
            # A repository's admin is its accountable owner: an employee, so the repository is not left without
            # one when a contract (and the contractor's grant with it) ends. The team's employee with the highest
            # role takes it over; the contractor keeps maintain.
            rank = {"maintain": 0, "write": 1, "read": 2}
            staff = sorted((rank[r], m) for m, r in roles.items() if m != admin and devs[m]["employment"] == "employee")
            if staff:
                roles[admin], admin = "maintain", staff[0][1]
                roles[admin] = "admin"
        for o in rng.sample(all_devs, 6):
            roles.setdefault(o, "read")
        for dev, role in sorted(roles.items()):
            gid = f"G-{name}-{dev}"
            exp = None
            if devs[dev]["employment"] == "contractor":
                exp = devs[dev]["contract_ends"]
            grants[gid] = {"grant_id": gid, "repo": name, "dev_id": dev, "role": role,
                           "granted_on": d(gdate + timedelta(days=rng.randint(0, 30))), "expires_on": exp, "reason": ""}
        writers = sorted(x for x, r in roles.items() if r in ("write", "maintain", "admin"))
        # history
        v: tuple[int, int, int] = (rng.randint(1, 5), rng.randint(0, 12), rng.randint(0, 6))  # 1.0.0 on, as above
        number = rng.randint(1, 40)
        day = START + timedelta(days=rng.randint(0, 40))
        pending: list[Rec] = []
        n_merged = rng.randint(10, 22)
        first_release = True
        open_issues: list[Rec] = []
        for k in range(n_merged):
            number += 1
            day += timedelta(days=rng.randint(4, 24))
            if day >= TODAY - timedelta(days=22):
                break
            # an issue now and then
            if rng.random() < 0.6:
                iss = make_issue(rng, name, number, writers, all_devs, day, "closed", features, fix_titles)
                issues[iss["issue_id"]] = iss
                fixes: int | None = number
                number += 1
            else:
                fixes = None
            author = rng.choice(writers)
            rng.choices(["major", "minor", "patch"], [1, 5, 8])  # drawn and unused (change_of decides): later draws stay
            pr = make_pr(rng, name, number, author, writers, day, "merged", run_no, rules[0]["required_approvals"])
            run_no += rng.randint(3, 40)
            pr["fixes_issue"] = fixes
            if fixes is not None:
                pr["title"] = fix_titles[f"{name}#{fixes}"]
                pr["change"] = change_of(pr["title"])
            pr["merged_on"] = d(day + timedelta(days=rng.randint(1, 4)))
            pr["merged_by"] = author
            for approval in pr["approvals"]:  # branch protection counts approvals given before the merge
                approval["approved_on"] = min(approval["approved_on"], pr["merged_on"])
            if fixes is not None:
                iss = issues[f"{name}#{fixes}"]
                iss["closed_on"], iss["closed_by"], iss["resolution"] = pr["merged_on"], author, "fixed"
            prs[pr["pr_id"]] = pr
            pending.append(pr)
            if len(pending) >= rng.randint(2, 5) and k < n_merged - 1:
                tag_day = date.fromisoformat(pending[-1]["merged_on"]) + timedelta(days=rng.randint(1, 3))
                if first_release:
                    first_release = False
                else:
                    order = {"patch": 0, "minor": 1, "major": 2}
                    v = bump(v, max((p["change"] for p in pending), key=lambda c: order[c]))
                rid = f"{name}@v{vstr(v)}"
                releases[rid] = {"release_id": rid, "repo": name, "version": vstr(v), "tag": f"v{vstr(v)}",
                                 "tagged_on": d(tag_day), "tagged_by": rng.choice([x for x in writers if roles[x] != "write"] or writers),
                                 "pull_requests": [p["number"] for p in pending]}
                for pend in pending:
                    pend["released_in"] = vstr(v)
                pending = []
        # A release ships every pull request merged before its tag: one merged after the last it ships is merged
        # after the tag (at the latest, the release is tagged the day before that merge).
        for rel in [r for r in releases.values() if r["repo"] == name and r["pull_requests"]]:
            later = [p["merged_on"] for p in prs.values() if p["repo"] == name and p["number"] > max(rel["pull_requests"])]
            if later and min(later) <= rel["tagged_on"]:
                rel["tagged_on"] = d(date.fromisoformat(min(later)) - timedelta(days=1))
        if first_release:
            rid = f"{name}@v{vstr(v)}"
            releases[rid] = {"release_id": rid, "repo": name, "version": vstr(v), "tag": f"v{vstr(v)}",
                             "tagged_on": d(START), "tagged_by": admin, "pull_requests": []}
        # open issues and open pull requests
        for _ in range(rng.randint(3, 8)):
            number += 1
            iss = make_issue(rng, name, number, writers, all_devs, TODAY - timedelta(days=rng.randint(1, 60)), "open", features, fix_titles)
            issues[iss["issue_id"]] = iss
            open_issues.append(iss)
        if rng.random() < 0.15:
            p0 = rng.choice(open_issues)
            p0["priority"] = "P0"
            # what freezes releases is a severe bug: the issue drawn becomes a crash of the same feature
            title, labels, _, fix = ISSUE_KINDS[0]
            feature = features[p0["issue_id"]]
            p0["title"], p0["labels"] = capital(title.format(o=feature)), list(labels)
            p0["assignee"] = p0["assignee"] or admin  # a release-blocking bug has an owner
            fix_titles[p0["issue_id"]] = fix.format(o=feature)
        else:
            for iss in open_issues:
                if iss["priority"] == "P0":
                    iss["priority"] = "P1"
        fixable = [i for i in open_issues if i["priority"] != "P0"]
        for _ in range(rng.randint(2, 6)):
            number += 1
            author = rng.choice(writers)
            rng.choices(["major", "minor", "patch"], [1, 5, 8])  # drawn and unused (change_of decides): later draws stay
            pr = make_pr(rng, name, number, author, writers, TODAY - timedelta(days=rng.randint(1, 20)), "open", run_no,
                         rules[0]["required_approvals"])
            run_no += rng.randint(3, 40)
            if fixable and rng.random() < 0.7:
                fixed = fixable.pop(0)
                pr["fixes_issue"], pr["title"] = fixed["number"], fix_titles[fixed["issue_id"]]
                pr["change"] = change_of(pr["title"])
                if pr["opened_on"] < fixed["opened_on"]:  # a fix is proposed after its issue is reported
                    pr["opened_on"] = fixed["opened_on"]
                    for approval in pr["approvals"]:
                        approval["approved_on"] = max(approval["approved_on"], fixed["opened_on"])
            prs[pr["pr_id"]] = pr
        repos[name] = {"name": name, "owner_team": team,
                       "description": f"{name.replace('-', ' ').capitalize()} for the {team} team",
                       "default_branch": "main", "branch_rules": rules, "latest_version": vstr(v), "archived": False}
        # dependencies
        for p in rng.sample(PACKAGES, rng.randint(6, 10)):
            lst = pkg_versions[p]
            idx = rng.randint(max(0, len(lst) - 8), len(lst) - 2)
            cur = lst[idx]
            did_ = f"{name}:{p}"
            deps[did_] = {"dep_id": did_, "repo": name, "package": p, "version": vstr(cur[0]),
                          "updated_on": d(max(cur[1], START)), "updated_by": None}
            for nxt in lst[idx + 1:]:
                if rng.random() < 0.6:
                    failed = rng.random() < 0.35
                    total = rng.randint(180, 2400)
                    rid_ = f"UR-{run_no}"
                    run_no += rng.randint(3, 40)
                    runs[rid_] = {"run_id": rid_, "repo": name, "package": p, "version": vstr(nxt[0]),
                                  "status": "failed" if failed else "passed", "tests_total": total,
                                  "tests_failed": rng.randint(1, 37) if failed else 0,
                                  "ran_on": d(TODAY - timedelta(days=rng.randint(1, 14)))}
    # Requirements between packages (their own seed: the records above stay as they were). A package needs
    # another from some release on, at a minimum that rises with its own version, some below a next major.
    req_rng = random.Random(seed + 4)
    for pkg in PACKAGES:
        if req_rng.random() < 0.2:
            continue
        other = req_rng.choice([p for p in PACKAGES if p != pkg])
        mine, theirs = pkg_versions[pkg], pkg_versions[other]
        start = req_rng.randint(len(mine) // 4, len(mine) - 2)
        base = req_rng.randint(0, max(0, len(theirs) - 6))
        capped = req_rng.random() < 0.3
        for i in range(start, len(mine)):
            # a version can only ask for what was published by its own release day
            out = [k for k, (_, day) in enumerate(theirs) if day <= mine[i][1]]
            if not out:
                continue
            floor = theirs[min(out[-1], base + (i - start + 1) // 2)][0]
            spec = f">={vstr(floor)}" + (f",<{floor[0] + 1}.0.0" if capped else "")
            versions[f"{pkg}@{vstr(mine[i][0])}"]["requires"] = {other: spec}
    resolve_pins(deps, versions, pkg_versions)
    # The working trees (after everything else, with their own seeds, so the records above stay as they were).
    plans = plan_code(sorted(repos), seed + 1)
    last_merge = {name: max((p["merged_on"] for p in prs.values() if p["repo"] == name and p["merged_on"]), default=d(START))
                  for name in repos}
    files, health = make_code(plans, seed + 2, last_merge)
    issue_rng = random.Random(seed + 3)
    for plan in plans:
        if plan.flaw != "bug":
            continue
        taken = [i["number"] for i in issues.values() if i["repo"] == plan.repo] + [p["number"] for p in prs.values() if p["repo"] == plan.repo]
        number = max(taken) + 1
        writers = sorted(g["dev_id"] for g in grants.values() if g["repo"] == plan.repo and g["role"] != "read")
        bug = plan.library.bug
        issues[f"{plan.repo}#{number}"] = {
            "issue_id": f"{plan.repo}#{number}", "repo": plan.repo, "number": number, "title": bug,
            "reporter": issue_rng.choice(writers), "opened_on": d(TODAY - timedelta(days=issue_rng.randint(1, 9))),
            "labels": ["bug"], "priority": "P2", "assignee": None, "state": "open", "closed_on": None, "closed_by": None,
            "resolution": None}
    issues, prs = renumber(issues, prs, releases)
    db = {"developers": devs, "repositories": repos, "grants": grants, "pull_requests": prs, "issues": issues,
          "releases": releases, "dependencies": deps, "package_versions": versions, "upgrade_runs": runs,
          "advisories": advisories, "files": files, "code_health": health}
    EngineeringDB.model_validate(db)
    return db


# What a pull request's change is to the repository's users, by what its title says it does (semver): removing
# something breaks callers, adding something is a feature, everything else here (fixes, docs, speed, tests) a patch.
CHANGE_OF_VERB = {"Remove": "major", "Add": "minor", "Support": "minor", "Migrate": "minor"}


def change_of(title: str) -> str:
    return CHANGE_OF_VERB.get(title.split()[0], "patch")


def capital(text: str) -> str:
    return text[0].upper() + text[1:]


def renumber(issues: dict[str, Rec], prs: dict[str, Rec], releases: dict[str, Rec]) -> tuple[dict[str, Rec], dict[str, Rec]]:
    """Issues and pull requests share one sequence of numbers per repository, handed out as they are opened:
    the numbers each repository drew are dealt again in order of opening, and every reference follows them.
    A pull request's branch is named before its number exists: after the issue it fixes, or after its title."""
    new: dict[tuple[str, int], int] = {}
    for repo in sorted({x["repo"] for x in [*issues.values(), *prs.values()]}):
        items = [x for x in [*issues.values(), *prs.values()] if x["repo"] == repo]
        numbers = sorted(x["number"] for x in items)
        for x, number in zip(sorted(items, key=lambda x: (x["opened_on"], x["number"])), numbers, strict=True):
            new[(repo, x["number"])] = number
    for rel in releases.values():
        rel["pull_requests"] = sorted(new[(rel["repo"], n)] for n in rel["pull_requests"])
    for pr in prs.values():
        if pr["fixes_issue"] is not None:
            pr["fixes_issue"] = new[(pr["repo"], pr["fixes_issue"])]
            pr["source_branch"] = f"{pr['author'].lower()}/issue-{pr['fixes_issue']}"
        else:
            pr["source_branch"] = f"{pr['author'].lower()}/{re.sub('[^a-z0-9]+', '-', pr['title'].lower()).strip('-')}"
    for x in [*issues.values(), *prs.values()]:
        x["number"] = new[(x["repo"], x["number"])]
        x["issue_id" if "issue_id" in x else "pr_id"] = f"{x['repo']}#{x['number']}"
    return ({x["issue_id"]: x for x in issues.values()}, {x["pr_id"]: x for x in prs.values()})


def make_issue(rng: random.Random, repo: str, number: int, writers: list[str], everyone: list[str], day: date,
               state: str, features: dict[str, str], fix_titles: dict[str, str]) -> Rec:
    title, labels, extra, fix = rng.choice(ISSUE_KINDS)
    feature = rng.choice(OBJECTS)
    drawn = set(rng.sample(LABELS, rng.randint(0, 2)))
    features[f"{repo}#{number}"], fix_titles[f"{repo}#{number}"] = feature, fix.format(o=feature)
    return {"issue_id": f"{repo}#{number}", "repo": repo, "number": number, "title": capital(title.format(o=feature)),
            "reporter": rng.choice(everyone), "opened_on": d(day), "labels": sorted({*labels, *(drawn & extra)}),
            "priority": rng.choice([None, "P1", "P2", "P2", "P3"]),
            "assignee": rng.choice([None, rng.choice(writers)]), "state": state, "closed_on": None, "closed_by": None,
            "resolution": None}


def make_pr(rng: random.Random, repo: str, number: int, author: str, writers: list[str], day: date, state: str,
            run_no: int, required: int) -> Rec:
    others = [w for w in writers if w != author]
    if state == "merged":
        n_app = min(len(others), required + rng.randint(0, 1))
        ci = "passed"
    else:
        n_app = min(len(others), rng.choice([0, 1, 1, 2, 2, 3, 3]))
        ci = rng.choices(["passed", "failed", "running"], [6, 3, 1])[0]
    reviewers = rng.sample(others, n_app)
    slug = rng.choice(OBJECTS)
    title = f"{rng.choice(VERBS)} {slug}"
    approvals = [{"reviewer": r, "approved_on": d(min(day + timedelta(days=rng.randint(0, 2)), TODAY))} for r in sorted(reviewers)]
    if state == "open" and rng.random() < 0.25:
        approvals.append({"reviewer": author, "approved_on": d(day)})
    return {"pr_id": f"{repo}#{number}", "repo": repo, "number": number, "title": title, "author": author,
            "source_branch": "", "target_branch": "main",  # named by renumber
            "state": state, "change": change_of(title), "opened_on": d(day), "approvals": approvals, "ci_status": ci,
            "ci_run": f"CI-{run_no}", "fixes_issue": None, "merged_on": None, "merged_by": None, "released_in": None}


if __name__ == "__main__":
    OUT.write_bytes(dump_db(generate()))
