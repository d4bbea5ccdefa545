"""The commands of README.md and docs/*.md, run as written.

Every shell block of the documentation says what it is, on the line before its fence:
- `<!-- runnable -->`: run here as written, offline (no API key, loopback only), in a scratch
  copy of the project; `<!-- runnable exit=N -->` when the command is meant to exit N;
  `<!-- runnable: with the example conftest.py above -->` with writing-a-strategy.md's example
  as the project's conftest.py;
- `<!-- not-runnable: why -->` (a provider, a service, your own domain): every `--option` of
  its `pytest` and `python -m pytest_tau.*` commands must exist;
- `<!-- output -->` on a plain block right after a runnable one: each of its lines is in what
  that block prints;
- `<!-- setup: benchmark -->`, `<!-- setup: tests -->`: the README's two set-up commands; the
  benchmark's pytest part is run, the tests' command is what `.ci/run` runs.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"bash", "sh", "shell", "console"}
MARKER = re.compile(r"^<!--\s*(runnable|not-runnable|setup|output)\b\s*(.*?)\s*-->$")
FENCE = re.compile(r"^```(\S*)\s*$")
# What a scratch project leaves out of the checkout: caches and earlier runs.
NOT_COPIED = {".git", ".venv", ".tau", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "__pycache__", "build"}
# Spellings pytest accepts but its --help does not show.
HIDDEN_ALIASES = {"--junitxml"}
STRATEGY_EXAMPLE = "<!-- example conftest.py: tests/test_option_strategy_plugins.py runs the next python block -->"


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence, 1-based
    lang: str
    kind: str  # runnable, not-runnable, setup, or "" when unmarked
    argument: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def fenced_blocks(doc: Path) -> list[Block]:
    lines = doc.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next((j for j in range(index + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        previous = next((lines[j].strip() for j in range(index - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.match(previous)
        found.append(Block(
            doc, index + 1, opening.group(1), marker.group(1) if marker else "",
            marker.group(2).lstrip(":").strip() if marker else "", "\n".join(lines[index + 1:end]) + "\n",
        ))
        index = end + 1
    return found


def shell_blocks(kind: str | None = None) -> list[Block]:
    blocks = [block for doc in DOCS for block in fenced_blocks(doc) if block.lang in SHELLS]
    return [block for block in blocks if kind is None or block.kind == kind]


def commands(text: str) -> list[list[str]]:
    """The shell words of each command of a block: continuations joined, comments dropped,
    `&&`/`;`/`|` chains split; heredoc bodies skipped."""
    joined = re.sub(r"\\\n", " ", text)
    found: list[list[str]] = []
    heredoc: str | None = None
    for line in joined.splitlines():
        if heredoc is not None:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        match = re.search(r"<<-?\s*'?\"?(\w+)", line)
        if match:
            heredoc = match.group(1)
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        current: list[str] = []
        for word in [*words, "&&"]:
            if word in {"&&", "||", ";", "|", "&"}:
                if current:
                    found.append(current)
                current = []
            else:
                current.append(word)
    return found


def offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.endswith(("_API_KEY", "_TOKEN")) and not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT", "PYTEST_ADDOPTS"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def scratch_project(path: Path) -> Path:
    """The checkout seen through symlinks, so a run's files (.tau/, run dirs) land in `path`."""
    for entry in ROOT.iterdir():
        if entry.name not in NOT_COPIED:
            (path / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return path


def run_shell(text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-eo", "pipefail", "-c", text], cwd=cwd, env=offline_env(),
                          capture_output=True, text=True, timeout=900)


def expected_exit(block: Block) -> int:
    match = re.fullmatch(r"exit=(\d+)", block.argument)
    return int(match.group(1)) if match else 0


# -- every block is marked --------------------------------------------------------------


def test_every_shell_block_says_whether_it_runs() -> None:
    unmarked = [block.id for block in shell_blocks() if not block.kind]
    assert not unmarked, (
        "shell blocks without a marker on the line before the fence (<!-- runnable -->, "
        "<!-- not-runnable: why -->): " + ", ".join(unmarked)
    )


def test_the_readme_reads_in_five_minutes() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= 250, f"README.md has {lines} lines (at most 250): move the detail to a topic file under docs/"


def test_no_issue_numbers_in_the_documentation() -> None:
    pattern = re.compile(r"\b(issue|ticket|PR)\s*#?\d+", re.IGNORECASE)
    found = [f"{doc.relative_to(ROOT)}: {m.group(0)}" for doc in DOCS for m in pattern.finditer(doc.read_text(encoding="utf-8"))]
    assert not found, "say what and why, not which ticket: " + ", ".join(found)


def test_links_between_documents_resolve() -> None:
    broken = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if "://" not in target and not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert not broken, "links to missing files: " + ", ".join(broken)


# -- runnable blocks ---------------------------------------------------------------------


@pytest.mark.parametrize("block", shell_blocks("runnable"), ids=lambda block: block.id)
def test_runnable_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    project = scratch_project(tmp_path)
    if block.argument.startswith("with the example conftest.py"):
        text = (ROOT / "docs" / "writing-a-strategy.md").read_text(encoding="utf-8")
        match = re.match(r"\s*```python\n(.*?)\n```", text.split(STRATEGY_EXAMPLE, 1)[1], re.DOTALL)
        assert match, "writing-a-strategy.md lost its example conftest.py"
        (project / "conftest.py").unlink()
        (project / "conftest.py").write_text(match.group(1) + "\n", encoding="utf-8")
    result = run_shell(block.text, project)
    assert result.returncode == expected_exit(block), (
        f"{block.id} exited {result.returncode}, not {expected_exit(block)}:\n{block.text}\n"
        f"--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}"
    )
    shown = output_shown_after(block)
    if shown is not None:
        missing = [line for line in shown.splitlines() if line.strip() and line.strip() not in result.stdout]
        assert not missing, f"{block.id}: the output shown after it is not what it prints: {missing}\n{result.stdout[-4000:]}"


def output_shown_after(block: Block) -> str | None:
    """The text of the `<!-- output -->` block that follows this one in its document, if any."""
    blocks = fenced_blocks(block.doc)
    following = [b for b in blocks if b.line > block.line][:1]
    return following[0].text if following and following[0].kind == "output" else None


# -- the set-up commands -----------------------------------------------------------------


def setup_command(name: str) -> list[str]:
    blocks = [block for block in shell_blocks("setup") if block.argument == name and block.doc == README]
    assert len(blocks) == 1, f"README.md needs one <!-- setup: {name} --> block"
    return [part.strip() for part in blocks[0].text.strip().split("&&")]


def test_the_test_command_is_what_ci_runs() -> None:
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    steps = setup_command("tests")
    assert steps[-1].startswith(".venv/bin/pytest tests")
    positions = [ci.index(step) if step in ci else -1 for step in steps]
    assert -1 not in positions, f".ci/run lacks the README's {steps[positions.index(-1)]!r}"
    assert positions == sorted(positions), ".ci/run runs the README's test command in another order"


def test_the_benchmark_command_runs(tmp_path: Path) -> None:
    """Its pytest part, as written: the whole offline self-check."""
    steps = setup_command("benchmark")
    assert any("pip install" in step for step in steps[:-1])
    assert steps[-1].startswith(".venv/bin/pytest")
    result = run_shell(steps[-1].removeprefix(".venv/bin/"), scratch_project(tmp_path))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert re.search(r"^overall .* 1\.000$", result.stdout, re.MULTILINE), result.stdout[-2000:]


# -- blocks that need a provider: their options exist -------------------------------------


@functools.cache
def help_text(*module: str) -> str:
    argv = [sys.executable, "-m", *module, "--help"]
    result = subprocess.run(argv, cwd=ROOT, env=offline_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(argv)}: {result.stderr[-2000:]}"
    return result.stdout


def known_options(argv: list[str]) -> tuple[str, set[str]] | None:
    """Which program a command runs and the long options its --help lists (None: not ours)."""
    program = Path(argv[0]).name
    if program == "pytest":
        module = ("pytest",)
    elif program.startswith("python") and argv[1:2] == ["-m"] and argv[2].startswith(("pytest_tau", "pytest")):
        module = (argv[2],)
    else:
        return None
    options = set(re.findall(r"(?<![\w-])(--[\w][\w-]*)", help_text(*module)))
    return " ".join(module), options | (HIDDEN_ALIASES if module == ("pytest",) else set())


def test_options_of_commands_that_need_a_provider_exist() -> None:
    unknown = []
    checked = 0
    for block in shell_blocks("not-runnable") + shell_blocks("setup"):
        for argv in commands(block.text):
            known = known_options(argv)
            if known is None:
                continue
            checked += 1
            program, options = known
            for word in argv[1:]:
                option = word.split("=", 1)[0]
                if option.startswith("--") and option not in options:
                    unknown.append(f"{block.id}: {program} {option}")
    assert checked > 10
    assert not unknown, "options that do not exist: " + ", ".join(unknown)


# -- the options reference matches the plugin ----------------------------------------------


def plugin_options() -> dict[str, str | None]:
    """Each option of the "pytest-tau benchmark" group of `pytest --help`, with its ini key."""
    text = help_text("pytest")
    section = text.split("pytest-tau benchmark:", 1)[1]
    section = re.split(r"\n\S", section, maxsplit=1)[0]  # up to the next group's heading
    options: dict[str, str | None] = {}
    for entry in re.split(r"\n(?=  --)", section):
        name = re.match(r"\s*(--[\w-]+)", entry)
        if name:
            ini = re.search(r"\[ini:\s*(\w+)\]", re.sub(r"\s+", " ", entry))
            options[name.group(1)] = ini.group(1) if ini else None
    return options


def test_every_option_is_documented_with_its_ini_key() -> None:
    rows = re.findall(r"^\| `(--[\w-]+)[^`]*` \|\s*`?(\w*)`?\s*\|", (ROOT / "docs" / "options.md").read_text(encoding="utf-8"), re.MULTILINE)
    documented = {option: ini for option, ini in rows}
    options = plugin_options()
    assert len(options) > 30
    missing = sorted(set(options) - set(documented))
    assert not missing, f"docs/options.md does not list {missing}"
    gone = sorted(set(documented) - set(options))
    assert not gone, f"docs/options.md lists options the plugin does not have: {gone}"
    wrong = [f"{o}: docs say ini {documented[o]!r}, the plugin {options[o]!r}" for o in documented if documented[o] and documented[o] != options[o]]
    assert not wrong, "docs/options.md: " + "; ".join(wrong)


def test_every_domain_check_is_documented() -> None:
    from pytest_tau._validity import CHECKS

    table = (ROOT / "docs" / "domains.md").read_text(encoding="utf-8").split("| check | what it proves |", 1)[1]
    named = set(re.findall(r"\b[a-z_0-9]+\b", "\n".join(line.split("|")[1] for line in table.splitlines() if line.startswith("| "))))
    assert not set(CHECKS) - named, f"docs/domains.md does not describe the checks {sorted(set(CHECKS) - named)}"


def test_every_end_reason_is_explained() -> None:
    from typing import get_args

    from pytest_tau._conversation import EndReason

    text = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    missing = [reason for reason in get_args(EndReason) if f"`{reason}`" not in text]
    assert not missing, f"docs/reports.md does not explain the end reasons {missing}"


def test_the_readme_links_every_topic_file() -> None:
    text = README.read_text(encoding="utf-8")
    unlinked = [doc.name for doc in DOCS[1:] if f"](docs/{doc.name})" not in text]
    assert not unlinked, f"README.md's Documentation table does not link {unlinked}: add a row for each"
