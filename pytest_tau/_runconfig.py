"""`--tau-config run.yaml`: a run described in YAML, with the keys of the ini options.

Every ini option of pytest-tau is a key (`model`, `user_model`, `trials`, `task_ids`, ...),
plus the keys of the options that live outside `Settings` (`domains`, `mt_out`). Each value
is validated with the same type and bounds as the option; an error names the file, the key
and the problem. Precedence: the command line over the YAML file over the ini file.
Relative paths in the file are taken relative to the file's folder.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any

import pydantic
import pytest

from ._settings import OPTIONS, Option, Settings

__all__ = [
    "DOMAINS",
    "EXTRA_OPTIONS",
    "MT_OUT",
    "DomainFilter",
    "RunConfigError",
    "config_keys",
    "extra_value",
    "load_run_config",
    "parse_domains",
]

# Options that are not run settings proper but belong to a run: which domains, where the
# MT-Benchmark files go. They are command-line, ini and YAML keys like the others.
EXTRA_OPTIONS: tuple[Option, ...] = (
    Option(name="domains", help="comma-separated domains to run (default: every domain of the project)"),
    Option(name="mt-out", help="also write MT-Benchmark files (per-item trajectories and {model}_scores.jsonl) to this folder", type="path"),
)
DOMAINS, MT_OUT = EXTRA_OPTIONS
CONFIG_OPTION = Option(name="tau-config", help="a YAML run config: the ini option names as keys; the command line wins over it, it over the ini", type="path")
RUN_CONFIG_KEY = pytest.StashKey[dict[str, Any]]()


class RunConfigError(Exception):
    """A run config that cannot be used; the message names the file, the key and the problem."""


def _names_list(value: Any) -> Any:
    """A YAML list or a comma-separated string, as a sorted tuple of unique names."""
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, list | tuple):
        if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in value):
            raise ValueError("must be a list of names or a comma-separated string")
        names = {str(v).strip() for v in value}
        return tuple(sorted(n for n in names if n))
    raise ValueError("must be a list of names or a comma-separated string")


NamesList = Annotated[tuple[str, ...], pydantic.BeforeValidator(_names_list)]
_PATHS = {o.ini for o in (*OPTIONS, *EXTRA_OPTIONS) if o.type == "path"} | {"baseline"}
_LISTS = {"task_ids", "domains"}


def _adapters() -> dict[str, pydantic.TypeAdapter[Any]]:
    """One validator per key, with the type and bounds of the `Settings` field of the same name."""
    adapters: dict[str, pydantic.TypeAdapter[Any]] = {}
    for option in (*OPTIONS, *EXTRA_OPTIONS):
        key = option.ini
        if key in _LISTS:
            adapters[key] = pydantic.TypeAdapter(NamesList)
            continue
        field = Settings.model_fields.get(key)
        if field is None or field.annotation is None:
            annotation: Any = Path if option.type == "path" else str
            adapters[key] = pydantic.TypeAdapter(annotation)
            continue
        annotation = field.annotation
        if field.metadata:
            annotation = Annotated[(annotation, *field.metadata)]
        adapters[key] = pydantic.TypeAdapter(annotation)
    for key, annotation in _GATE_ADAPTERS.items():
        adapters[key] = pydantic.TypeAdapter(annotation)
    return adapters


def _thresholds(value: Any) -> Any:
    """Gate thresholds: a YAML list, or one string of them separated by spaces or commas."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("must be a list of thresholds like ['1=0.6', 'retail:1=0.7']")


# The gate's keys (see _gate.GATE_KEYS): same names on the command line, in the ini and here.
_GATE_ADAPTERS: dict[str, Any] = {
    "min_pass_hat_k": Annotated[tuple[str, ...], pydantic.BeforeValidator(_thresholds)],
    "baseline": Path,
    "max_regression": Annotated[float, pydantic.Field(ge=0.0, le=1.0)],
    "allow_partial": bool,
}


def config_keys() -> list[str]:
    """The keys a run config accepts (the ini option names)."""
    return sorted([*(o.ini for o in (*OPTIONS, *EXTRA_OPTIONS)), *_GATE_ADAPTERS])


def validate_run_config(data: Any, source: str, base: Path | None = None) -> dict[str, Any]:
    """Check a run config mapping key by key; return the values with relative paths resolved.

    `source` names the file in errors; `base` is the folder relative paths are taken from.
    """
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RunConfigError(f"{source}: the top level must be a mapping of option names to values (got {type(data).__name__})")
    adapters = _adapters()
    values: dict[str, Any] = {}
    problems: list[str] = []
    for raw_key, raw_value in data.items():
        key = str(raw_key).replace("-", "_")
        if key not in adapters:
            close = difflib.get_close_matches(key, adapters, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(sorted(adapters))}"
            problems.append(f"{source}: key {raw_key!r}: unknown key{hint}")
            continue
        if raw_value is None:
            continue  # `key:` with nothing after it: unset
        try:
            value = adapters[key].validate_python(raw_value)
        except pydantic.ValidationError as exc:
            message = "; ".join(error["msg"] for error in exc.errors())
            problems.append(f"{source}: key {key!r}: {message} (got {raw_value!r})")
            continue
        if key in _PATHS and base is not None and isinstance(value, Path) and not value.is_absolute():
            value = base / value
        values[key] = value
    if problems:
        raise RunConfigError("\n".join(problems))
    return values


def load_run_config(path: Path) -> dict[str, Any]:
    """Read and validate a YAML run config file."""
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RunConfigError(f"{path}: cannot read the run config: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RunConfigError(f"{path}: not valid YAML: {exc}") from None
    return validate_run_config(data, str(path), path.resolve().parent)


def as_raw(key: str, value: Any) -> Any:
    """A validated YAML value in the form `Settings.resolve` takes from the command line."""
    if key in _LISTS:
        return ",".join(value)
    return value


# -- pytest side ------------------------------------------------------------------------


def addoption(group: Any, parser: pytest.Parser) -> None:
    for option in (CONFIG_OPTION, *EXTRA_OPTIONS):
        group.addoption(f"--{option.name}", dest=option.dest, default=None, help=option.help + f" [ini: {option.ini}]")
        parser.addini(option.ini, help=option.help, type="string", default=None)


def run_config(config: pytest.Config) -> dict[str, Any]:
    """The validated `--tau-config` values (loaded once per process; {} without one)."""
    loaded = config.stash.get(RUN_CONFIG_KEY, None)
    if loaded is not None:
        return loaded
    value = config.getoption(CONFIG_OPTION.dest) or config.getini(CONFIG_OPTION.ini) or None
    loaded = {}
    if value:
        path = Path(value)
        if not path.is_absolute() and not config.getoption(CONFIG_OPTION.dest) and config.inipath is not None:
            path = config.inipath.parent / path  # an ini's relative path: from the ini's folder
        try:
            loaded = load_run_config(path)
        except RunConfigError as exc:
            raise pytest.UsageError(f"pytest-tau: --tau-config: {exc}") from None
    config.stash[RUN_CONFIG_KEY] = loaded
    return loaded


def extra_value(config: pytest.Config, option: Option) -> Any:
    """An option outside `Settings`: command line, then the YAML file, then the ini file."""
    value = config.getoption(option.dest)
    if value is None:
        value = run_config(config).get(option.ini)
    if value is None:
        value = config.getini(option.ini) or None
    if value is None:
        return None
    if option.ini in _LISTS:
        return _names_list(value) if not isinstance(value, tuple) else value
    if option.type == "path":
        return Path(value)
    return value


def parse_domains(config: pytest.Config, also_known: Collection[str] = ()) -> tuple[str, ...]:
    """`--domains`; an unknown name is a usage error, checked on the controller before any worker starts.
    Known: the project's tests_domains/ and `also_known` (domains that live elsewhere, τ²'s)."""
    value = extra_value(config, DOMAINS)
    domains: tuple[str, ...] = tuple(value) if value else ()
    folder = config.rootpath / "tests_domains"
    if domains and not hasattr(config, "workerinput") and folder.is_dir():
        known = sorted(p.parent.name for p in folder.glob("*/domain.py"))
        unknown = [d for d in domains if d not in known and d not in also_known]
        if unknown:
            raise pytest.UsageError(f"pytest-tau: --domains: unknown domain(s) {', '.join(unknown)} (known: {', '.join(known)})")
    return domains


class DomainFilter:
    """`--domains`: deselect the items of the other domains (before any DB is loaded)."""

    def __init__(self, domains: tuple[str, ...]) -> None:
        self.domains = domains

    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
        from ._binding import DOMAIN_ATTRIBUTE

        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            domain = getattr(getattr(item, "function", None), DOMAIN_ATTRIBUTE, None)
            if domain is None:
                keep.append(item)
                continue
            (keep if domain.name in self.domains else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
