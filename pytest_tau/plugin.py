"""The pytest plugin (entry point `tau`): options, items, fixtures, and the roll-up.

Every process gets the item machinery (parametrizing domain tests, the fixtures that
play a conversation); the controller (the only process without xdist, the xdist
controller with it) also gets `TauController`, which receives every item's result on
its test report, appends it to results.jsonl, and rolls up pass^k at the end.
Nothing heavy is imported here: litellm only loads when a model is used.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from . import _hookspecs, _runconfig
from ._binding import DOMAIN_ATTRIBUTE
from ._case import Case, case_of, load_domain, loaded, make_agent, make_user
from ._controller import TauController, TauExitStatus
from ._settings import OPTIONS, Settings, item_seed, settings_error
from ._strategies import Role, StrategyCatalog, gather_strategies

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from ._conversation import Agent, User
    from ._domain import Domain
    from ._environment import Environment
    from ._evaluate import Verdict
    from ._results import ItemResult

SETTINGS_KEY = pytest.StashKey["Settings"]()
RUN_DIR_KEY = pytest.StashKey[Path]()
RESULT_KEY = pytest.StashKey["ItemResult"]()
CATALOG_KEY = pytest.StashKey[StrategyCatalog]()
WORKER_RUN_DIR = "tau_run_dir"
MODEL_CHECK_INPUT = "tau_check_model"  # workerinput: the controller left the model check to the workers
MODEL_CHECK_NODEID = "pytest-tau model check"


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(_hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tau", "pytest-tau benchmark")
    for option in OPTIONS:
        kwargs: dict[str, Any] = {"dest": option.dest, "default": None, "help": option.help + f" [ini: {option.ini}]"}
        if option.choices:
            kwargs["choices"] = option.choices
        if option.type in ("int", "float"):
            kwargs["type"] = int if option.type == "int" else float
        group.addoption(f"--{option.name}", **kwargs)
        parser.addini(option.ini, help=option.help, type="string", default=None)
    group.addoption(
        "--tau-strategies",
        dest="tau_strategies",
        action="store_true",
        default=False,
        help="list the agent and user strategies of the installed plugins and conftest.py, then exit",
    )
    _runconfig.addoption(group, parser)  # --tau-config, --domains, --mt-out
    from ._gate import add_options

    add_options(group, parser)
    from ._html import add_options as add_html_options

    add_html_options(group)
    from ._progress import add_options as add_progress_options

    add_progress_options(group)
    from ._shard import add_options as add_shard_options

    add_shard_options(group)


def _raw_settings(config: pytest.Config) -> tuple[dict[str, Any], set[str]]:
    """Each option's value (command line over --tau-config over ini) and the names whose value came from the ini."""
    raw: dict[str, Any] = {}
    from_ini: set[str] = set()
    from_yaml = _runconfig.run_config(config)
    for option in OPTIONS:
        value = config.getoption(option.dest)
        if value is None and option.ini in from_yaml:
            value = _runconfig.as_raw(option.ini, from_yaml[option.ini])
        if value is None:
            value = config.getini(option.ini)
            if value not in (None, ""):
                from_ini.add(option.ini)
        raw[option.ini] = value
    return raw, from_ini


def _strategy_catalog(config: pytest.Config) -> StrategyCatalog:
    """The built-in strategies (a trylast plugin, registered once) and every plugin's."""
    from ._builtin_strategies import PLUGIN_NAME, BuiltinStrategies

    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(BuiltinStrategies(), PLUGIN_NAME)
    return gather_strategies(config)


def _print_strategies(catalog: StrategyCatalog, *, after_help: bool = False) -> None:
    lines = ["pytest-tau strategies (from the installed plugins and conftest.py; [model]: calls the model of its role):"]
    print("\n".join(["", *lines, *catalog.describe()] if after_help else [*lines, *catalog.describe()]), flush=True)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """`pytest --tau-strategies`: list the strategies and exit (with -h, the help lists them)."""
    if not config.option.tau_strategies or config.option.help:
        return None
    _print_strategies(_strategy_catalog(config))
    return 0


def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    """Ctrl-C: conversations still in flight on threads stop at their next model call or
    retry wait instead of playing on (each retry wait can be a minute)."""
    from ._ratelimit import GATE

    GATE.stopping.set()


def pytest_unconfigure(config: pytest.Config) -> None:
    # `pytest -h` configures, prints the help, then unconfigures: the strategies
    # gathered in pytest_configure (plugin names are not known when options are added)
    # end the help text.
    catalog = config.stash.get(CATALOG_KEY, None)
    if config.option.help and catalog is not None:
        _print_strategies(catalog, after_help=True)


def pytest_configure(config: pytest.Config) -> None:
    # A stop (Ctrl-C, -x, a fatal model error) belongs to the run that asked for it: a later run in
    # the same process (pytester's in-process runs, an IDE) starts with its model calls allowed.
    # Cleared here, not when the stopped run ends: its conversation threads may not have reached
    # their next call or retry wait yet, and must still find the stop there.
    ratelimit = sys.modules.get("pytest_tau._ratelimit")
    if ratelimit is not None:
        ratelimit.GATE.stopping.clear()
    raw, from_ini = _raw_settings(config)
    catalog = _strategy_catalog(config)
    config.stash[CATALOG_KEY] = catalog
    try:
        settings = Settings.resolve(raw, model_agents=catalog.model_names("agent"), model_users=catalog.model_names("user"), model_user_agents=catalog.model_user_agents())
    except Exception as exc:  # pydantic.ValidationError, imported lazily
        import pydantic

        if isinstance(exc, pydantic.ValidationError):
            ini_file = str(config.inipath.name) if config.inipath else None
            raise pytest.UsageError(f"pytest-tau: {settings_error(exc, ini_file, from_ini)}") from None
        raise
    if not config.option.help:
        unknown = _unknown_strategies(config, catalog, settings, from_ini)
        if unknown:
            raise pytest.UsageError("pytest-tau: " + "; ".join(unknown))
    config.stash[SETTINGS_KEY] = settings
    from . import _prefetch

    _prefetch.register(config, settings)  # --concurrency: conversations played ahead, on threads
    from .tau2 import DOMAINS as TAU2_DOMAINS  # light: names only, nothing of τ² imported

    domains = _runconfig.parse_domains(config, also_known=TAU2_DOMAINS)
    if domains:
        config.pluginmanager.register(_runconfig.DomainFilter(domains), "tau-domain-filter")
    config.pluginmanager.register(_KeywordSelection(), "tau-keywords")
    from ._partial import PLUGIN_NAME as PARTIAL_PLUGIN
    from ._partial import PartialRun

    config.pluginmanager.register(PartialRun(config, _domain_and_item), PARTIAL_PLUGIN)
    if config.getoption("tau_shard", None):
        from ._shard import ShardSelection, parse_shard

        shard = ShardSelection(parse_shard(config.getoption("tau_shard")), lambda: config.stash[RUN_DIR_KEY], _task_key)
        config.pluginmanager.register(shard, "tau-shard")
    if getattr(config.option, "markers", False):
        _register_domain_markers(config)  # --markers collects nothing: name the domains here
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        config.stash[RUN_DIR_KEY] = Path(workerinput[WORKER_RUN_DIR])
        if (settings.agent_uses_model or settings.user_uses_model) and not settings.replay:
            problems = _model_problems(settings) if workerinput.get(MODEL_CHECK_INPUT) else []
            if problems:
                # The controller left the model check to us (it imports no model client).
                config.pluginmanager.register(_ModelProblemReport("pytest-tau: " + "; ".join(problems)), "tau-model-problem")
            else:
                _warm_model_clients(settings)
        return
    run_dir = settings.resume or settings.run_dir or Path(".tau", "runs", _dt.datetime.now().strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}")
    if not run_dir.is_absolute():
        run_dir = config.rootpath / run_dir
    config.stash[RUN_DIR_KEY] = run_dir
    if not (config.option.help or config.option.collectonly):
        from ._selection import ini_problems, selection_problems, spaced_path_problems

        path_options = [f"--{o.name}" for o in OPTIONS if o.type == "path"] + PATH_OPTIONS
        problems = (
            spaced_path_problems(list(config.invocation_params.args), config.invocation_params.dir, path_options)
            or ini_problems(config, [o.ini for o in OPTIONS])
            or settings.problems()
            or _gate_problems(config, settings, domains)
            or ([] if _tau2_named(config) else selection_problems(config.rootpath, settings))
            or _resume_problems(settings)
            or _reuse_problems(settings, run_dir)
            or _strategy_problems(config, settings)
            or _prefetch.concurrency_problems(config, settings)
            or ([] if _checked_by_workers(config, settings) else _model_problems(settings))
        )
        if problems:
            raise pytest.UsageError("pytest-tau: " + "; ".join(problems))
    # Inert in a run that asks nothing of it: no header without domains or tau options.
    asked = (
        bool(from_ini)
        or bool(_runconfig.run_config(config))
        or any(config.getoption(o.dest) is not None for o in OPTIONS)
        or _gate_options(config).active
    )
    has_domains = (config.rootpath / "tests_domains").is_dir()
    controller = TauController(config, settings, run_dir, announce=asked or has_domains, gate=_gate_options(config))
    config.pluginmanager.register(controller, "tau-controller")
    config.pluginmanager.register(TauExitStatus(controller), "tau-exit-status")
    if controller.announce:
        from ._progress import register as register_progress

        register_progress(config)
    mt_out = _runconfig.extra_value(config, _runconfig.MT_OUT)
    if mt_out is not None:
        from ._mt import MTWriter

        config.pluginmanager.register(MTWriter(config, settings, mt_out if mt_out.is_absolute() else config.rootpath / mt_out, run_dir), "tau-mt-out")


# Path options besides the settings' own: pytest must not take their space-separated value for a test path.
PATH_OPTIONS = ["--tau-html", "--baseline", "--tau-config", "--mt-out"]
GATE_KEY = pytest.StashKey[Any]()


def _gate_options(config: pytest.Config) -> Any:
    """The gate's options (command line over --tau-config over ini), read once."""
    options = config.stash.get(GATE_KEY, None)
    if options is None:
        from ._gate import gate_options

        options = config.stash[GATE_KEY] = gate_options(config, _runconfig.run_config(config))
    return options


def _gate_problems(config: pytest.Config, settings: Settings, domains: tuple[str, ...]) -> list[str]:
    """A gate that could not judge this run is refused now, not after the run."""
    from ._gate import gate_problems

    options = _gate_options(config)
    if not options.active and options.max_regression is None:
        return []
    known: list[str] | None = None
    if (config.rootpath / "tests_domains").is_dir() and not _tau2_named(config):
        from ._discovery import domain_names
        from .tau2 import DOMAINS as TAU2_DOMAINS

        known = [*domain_names(config.rootpath), *TAU2_DOMAINS]
    return gate_problems(options, settings.trials, known, domains)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Logs go out redacted like every other output (pytest's log handlers exist by now)."""
    if SETTINGS_KEY in session.config.stash:
        from ._redact import redact_log_handlers

        redact_log_handlers(session.config)


def _unknown_strategies(config: pytest.Config, catalog: StrategyCatalog, settings: Settings, from_ini: set[str]) -> list[str]:
    """Strategy names no plugin declared, with the option (and ini file) they came from."""
    problems = []
    chosen: tuple[tuple[Role, str], ...] = (("agent", settings.agent_strategy), ("user", settings.user_strategy))
    for role, name in chosen:
        key = f"{role}_strategy"
        source = f"--{role}-strategy"
        if key in from_ini and config.inipath is not None:
            source += f" ({config.inipath.name}: {key})"
        problem = catalog.unknown(role, name, source)
        if problem:
            problems.append(problem)
    return problems


def _register_domain_markers(config: pytest.Config) -> None:
    try:
        from ._discovery import domain_names

        names = domain_names(config.rootpath)
    except Exception:
        return
    for name in names:
        config.addinivalue_line("markers", f"{name}: the tasks of the {name} domain")
    from .tau2 import DOMAINS as TAU2_DOMAINS
    from .tau2 import tau2_installed

    if tau2_installed():
        for name in TAU2_DOMAINS:
            config.addinivalue_line("markers", f"{name}: τ²-bench's {name.removeprefix('tau2_')} tasks (pytest-tau[tau2])")


def _tau2_named(config: pytest.Config) -> bool:
    from .tau2 import named  # light: τ² itself is imported only by the domains' items

    return named(config)


def _resume_problems(settings: Settings) -> list[str]:
    from ._runinfo import resume_problems

    return resume_problems(settings.resume, settings) if settings.resume else []


def _reuse_problems(settings: Settings, run_dir: Path) -> list[str]:
    from ._runinfo import reuse_problems

    return [] if settings.resume else reuse_problems(run_dir)


def _strategy_problems(config: pytest.Config, settings: Settings) -> list[str]:
    if settings.user_strategy != "human":
        return []
    problems = []
    if config.getoption("capture", "fd") != "no":
        problems.append("--user-strategy human needs -s (the terminal must reach the person typing)")
    if (getattr(config.option, "numprocesses", None) or 0) not in (0, None):
        problems.append("--user-strategy human cannot run under xdist; drop -n")
    return problems


def _model_problems(settings: Settings) -> list[str]:
    """Unknown models and missing keys fail once, at start (imports litellm only if needed)."""
    if settings.replay:
        return []  # a replay makes no model call: no key needed
    from ._builtin_strategies import model_config
    from ._llm import check_model
    from ._redact import redact

    checks = []
    if settings.agent_uses_model:
        checks.append((model_config(settings, "agent"), "agent"))
    if settings.user_uses_model:
        user = model_config(settings, "user")
        if not checks or (user.model, user.provider, user.api_base) != (checks[0][0].model, checks[0][0].provider, checks[0][0].api_base):
            checks.append((user, "user"))
        else:
            checks[0] = (checks[0][0], "agent and user")
    problems = [check_model(config, role) for config, role in checks]
    return [redact(p) for p in problems if p]


def _warm_model_clients(settings: Settings) -> None:
    """Import the model clients (litellm: 5 s of CPU, the openai SDK: well under one) before
    the first item, not inside its timing, where workers importing at once would look like
    model latency."""
    from ._builtin_strategies import model_config
    from ._llm import client_for

    roles = [role for role, used in (("agent", settings.agent_uses_model), ("user", settings.user_uses_model)) if used]
    for role in roles:
        # A client that cannot be made here fails again at the first call, which reports it with the item.
        with contextlib.suppress(Exception):
            client_for(model_config(settings, role))  # type: ignore[arg-type]


def _checked_by_workers(config: pytest.Config, settings: Settings) -> bool:
    """Under xdist the controller makes no model call: it leaves the model check to the
    workers, which import litellm anyway, and relays their verdict (`_ModelProblemRelay`)."""
    from ._prefetch import _under_xdist

    if settings.replay or not (settings.agent_uses_model or settings.user_uses_model) or not _under_xdist(config):
        return False
    if workers_outnumber_cores(getattr(config.option, "numprocesses", None), os.cpu_count()):
        # -n 16 on 2 cores: sixteen workers importing litellm at once take a minute and more to
        # report a missing key; one import here takes seconds.
        return False
    config.pluginmanager.register(_ModelProblemRelay(), "tau-model-problem-relay")
    return True


def workers_outnumber_cores(workers: Any, cores: int | None) -> bool:
    """Whether xdist starts more workers than the machine has cores."""
    return isinstance(workers, int) and workers > (cores or 1)


class _ModelProblemReport:
    """On a worker whose model check failed: one collection error that carries the problem,
    and no items (every worker collects the same nothing, so xdist does not abort on a mismatch)."""

    def __init__(self, message: str) -> None:
        self.message = message

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        from _pytest.reports import CollectReport

        items.clear()
        config.hook.pytest_collectreport(report=CollectReport(MODEL_CHECK_NODEID, "failed", self.message, []))


class _ModelProblemRelay:
    """On the xdist controller: the first worker's model problem ends the run as a usage
    error, as the controller's own check would have (once, on stderr, exit code 4)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.nodeid == MODEL_CHECK_NODEID and report.failed:
            from ._redact import redact

            raise pytest.UsageError(redact(str(report.longrepr)))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist controller: tell each worker where the run's files go, and whether it checks the model."""
    node.workerinput[WORKER_RUN_DIR] = str(node.config.stash[RUN_DIR_KEY])
    if node.config.pluginmanager.has_plugin("tau-model-problem-relay"):
        node.workerinput[MODEL_CHECK_INPUT] = True


def _domain_and_item(item: pytest.Item) -> tuple[str, str] | None:
    case = case_of(item)
    return (case.domain.name, case.item_id) if case is not None else None


def _task_key(item: pytest.Item) -> str | None:
    case = case_of(item)
    return f"{case.domain.name}/{case.task.id}" if case is not None else None


class _KeywordSelection:
    """-k before pytest's own pass: domain names and trials (t<N>) match exactly."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        from ._keywords import select_by_keyword

        select_by_keyword(config, items, case_of)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """After -k/-m: drop what --resume finished, then load the DBs of the domains left.

    A DB is loaded only where its items run (a selection of one domain pays for one),
    once per process, and a broken DB file is a collection error naming the file, the
    record and the field. An xdist worker loads nothing here: it loads a domain's DB when
    it first runs one of its items (`load_domain`), so it holds only the domains of its
    own items and its first item does not wait for every domain; there a broken DB file
    makes that domain's items errors, with the same message.
    """
    settings = config.stash[SETTINGS_KEY]
    if settings.resume is not None:
        from ._results import read_results

        done = {r.item for r in read_results(config.stash[RUN_DIR_KEY] / "results.jsonl") if r.status != "error"}
        finished = [item for item in items if (case := case_of(item)) is not None and case.item_id in done]
        if finished:
            from ._partial import deselected_by_tau

            deselected_by_tau(config, finished)
            config.hook.pytest_deselected(items=finished)
            items[:] = [item for item in items if item not in set(finished)]
    # A domain with no task in the selection: no "empty parameter set" skip that reads green.
    empty = [item for item in items if case_of(item) is None and getattr(getattr(item, "function", None), DOMAIN_ATTRIBUTE, None)]
    if empty:
        config.hook.pytest_deselected(items=empty)
        items[:] = [item for item in items if item not in set(empty)]
    if settings.agent_uses_model and not config.option.collectonly and items:
        _check_examples(config, settings, items)
        if not settings.replay:
            _check_context(config, settings, items)
    if config.option.collectonly or hasattr(config, "workerinput"):
        return  # listing items needs no DB; a worker loads each domain at its first item
    broken: dict[str, tuple[pytest.Item, str]] = {}
    for item in items:
        case = case_of(item)
        if case is None or case.domain.name in broken or loaded(case.domain):
            continue
        from ._domain import DomainError

        try:
            load_domain(case.domain)
        except DomainError as exc:
            broken[case.domain.name] = (item, str(exc))
    if broken:
        from _pytest.reports import CollectReport

        for item, message in broken.values():
            module = item.getparent(pytest.Module)
            nodeid = module.nodeid if module is not None else item.nodeid
            config.hook.pytest_collectreport(report=CollectReport(nodeid, "failed", message, []))
        items[:] = [item for item in items if (case := case_of(item)) is None or case.domain.name not in broken]


def _check_examples(config: pytest.Config, settings: Settings, items: list[pytest.Item]) -> None:
    """Refuse few-shot on domains with no train task: it would run zero-shot under its name."""
    if settings.agent_strategy != "few-shot":
        return
    domains = {case.domain.name: case.domain for item in items if (case := case_of(item)) is not None}
    without = sorted(name for name, domain in domains.items() if not any(task.split == "train" for task in domain.tasks))
    if without:
        _refuse(config, items, [
            f"--agent-strategy few-shot shows oracle conversations of a domain's train tasks, and {', '.join(without)} "
            "has none (τ² domains ship no train split): run it with another strategy (tool-calling), "
            "or leave it out with --domains"
        ])


def _check_context(config: pytest.Config, settings: Settings, items: list[pytest.Item]) -> None:
    """Refuse, before any model call, the domains whose first agent request cannot fit the
    model's context window."""
    from ._context import context_problems

    cases = [case for item in items if (case := case_of(item)) is not None]
    problems = context_problems(config, settings, cases) if cases else []
    if problems:
        _refuse(config, items, problems)


def _refuse(config: pytest.Config, items: list[pytest.Item], problems: list[str]) -> None:
    """A usage error before any model call. Under xdist each worker checks (the controller has
    no items) and the controller's relay turns the first worker's report into the same error."""
    from ._redact import redact

    message = redact("pytest-tau: " + "; ".join(problems))
    if not hasattr(config, "workerinput"):
        raise pytest.UsageError(message)
    from _pytest.reports import CollectReport

    items.clear()
    config.hook.pytest_collectreport(report=CollectReport(MODEL_CHECK_NODEID, "failed", message, []))


# -- items ------------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    domain: Domain[Any] | None = getattr(metafunc.function, DOMAIN_ATTRIBUTE, None)
    if domain is None:
        return
    from ._domain import DomainError
    from ._tasks import TaskFileError

    resolve = getattr(domain, "resolve_domain", None)
    if resolve is not None:
        # A lazy domain (pytest_tau.tau2): built, and its package imported, only when the run names it.
        domain = resolve(metafunc.config)
        if domain is None:
            metafunc.parametrize("tau_case", [])  # an empty item, deselected with the other empty ones
            return
    settings = metafunc.config.stash[SETTINGS_KEY]
    try:
        tasks = domain.tasks
    except (TaskFileError, DomainError) as exc:
        raise pytest.Collector.CollectError(str(exc)) from None
    tasks = [t for t in tasks if t.split == settings.task_split]
    if settings.task_ids:
        tasks = [t for t in tasks if t.id in settings.task_ids]
    metafunc.config.addinivalue_line("markers", f"{domain.name}: the tasks of the {domain.name} domain")
    mark = getattr(pytest.mark, domain.name)
    params = []
    for task in tasks:
        for trial in range(settings.trials):
            case = Case(domain, task, trial, item_seed(settings.seed, domain.name, task.id, trial))
            params.append(pytest.param(case, id=case.item_id, marks=mark))
    metafunc.parametrize("tau_case", params)


@pytest.fixture(scope="session")
def tau_settings(pytestconfig: pytest.Config) -> Settings:
    """The run's resolved settings."""
    return pytestconfig.stash[SETTINGS_KEY]


@pytest.fixture
def tau_case(request: pytest.FixtureRequest) -> Case:
    """The (domain, task, trial) of this item; parametrized by the plugin."""
    raise pytest.UsageError(f"{request.node.nodeid}: tau_case is only available in a domain_test")


@pytest.fixture
def tau_env(request: pytest.FixtureRequest, tau_case: Case) -> Environment:
    """A fresh environment: the domain's tools over a copy-on-write initial DB."""
    from ._domain import DomainError
    from ._environment import Environment
    from ._prefetch import job

    broken = None
    try:
        played = job(request)  # --concurrency: built and played ahead, on a thread
        if played is not None:
            return played.env
        load_domain(tau_case.domain)
    except DomainError as exc:
        broken = str(exc)
    if broken is not None:
        # A worker found the DB broken at the domain's first item: the domain's items are
        # errors naming the file, record and field (left out of pass^k); other domains run.
        pytest.fail(broken, pytrace=False)
    return Environment(tau_case.domain, task=tau_case.task)


@pytest.fixture
def tau_user(request: pytest.FixtureRequest, tau_case: Case, tau_settings: Settings) -> User:
    """The simulated user for this task, from the plugin that provides --user-strategy (no model call here)."""
    from ._prefetch import job

    name = tau_settings.user_strategy
    played = job(request)
    user = played.user if played is not None else make_user(request.config, tau_case, tau_settings)
    if user is None:
        pytest.fail(f"--user-strategy {name}: declared, but no plugin's pytest_tau_make_user built it", pytrace=False)
    return user


@pytest.fixture
def tau_agent(request: pytest.FixtureRequest, tau_case: Case, tau_settings: Settings) -> Agent:
    """The agent under test, from the plugin that provides --agent-strategy (no model call here)."""
    from ._prefetch import job

    name = tau_settings.agent_strategy
    played = job(request)
    agent = played.agent if played is not None else make_agent(request.config, tau_case, tau_settings)
    if agent is None:
        pytest.fail(f"--agent-strategy {name}: declared, but no plugin's pytest_tau_make_agent built it", pytrace=False)
    return agent


class ItemRun:
    """A conversation and its verdict, played when the test body first asks for them.

    Played in the call phase, so `--durations` puts the conversation's time under
    "call" (setup is only building the environment, agent and user); an infrastructure
    error raised there is still reported as an error (see `pytest_report_teststatus`).
    """

    def __init__(self, play: Callable[[], tuple[ItemResult, Verdict]]) -> None:
        self._play = play
        self._played: tuple[ItemResult, Verdict] | None = None

    def _outcome(self) -> tuple[ItemResult, Verdict]:
        if self._played is None:
            self._played = self._play()
        return self._played

    @property
    def result(self) -> ItemResult:
        return self._outcome()[0]

    @property
    def verdict(self) -> Verdict:
        return self._outcome()[1]

    def assert_passed(self) -> None:
        result, verdict = self._outcome()
        if result.status != "passed":
            from ._results import failure_text

            pytest.fail(failure_text(result.reward, result.end_reason, result.failure or verdict.explain()), pytrace=False)


@pytest.fixture
def tau_run(
    request: pytest.FixtureRequest,
    tau_case: Case,
    tau_env: Environment,
    tau_user: User,
    tau_agent: Agent,
    tau_settings: Settings,
) -> ItemRun:
    """The item's conversation, played in the call phase when the test first uses it; a
    model service that fails past its retries makes the item an error, never an agent failure.
    Under --concurrency it was played ahead on a thread; this phase waits for it."""

    def play() -> tuple[ItemResult, Verdict]:
        from ._conversation import InfraError, run_conversation
        from ._prefetch import release
        from ._redact import redact
        from ._reports import item_result, write_trajectory
        from ._scoring import judge

        played = release(request)
        trajectory = played.trajectory() if played is not None else None  # --concurrency: played ahead
        if trajectory is None:
            trajectory = run_conversation(tau_env, tau_agent, tau_user, max_steps=tau_settings.max_steps)
        verdict = judge(tau_case.domain, tau_case.task, tau_env, trajectory)
        result = item_result(tau_case, trajectory, verdict)
        request.node.stash[RESULT_KEY] = result
        attempt = int(getattr(request.node, "execution_count", 1) or 1)  # pytest-rerunfailures counts attempts
        write_trajectory(request.config.stash[RUN_DIR_KEY], result, trajectory, tau_env, verdict, attempt)
        if result.status == "error":
            message = redact(f"{result.item}: {trajectory.error}")
            if (trajectory.error or "").startswith("cannot use the model: "):
                request.session.shouldstop = f"pytest-tau: {redact(trajectory.error or '')}"  # no use going on
            raise InfraError(message)
        return result, verdict

    return ItemRun(play)


@pytest.hookimpl(tryfirst=True)
def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, str] | None:
    """An item whose conversation ended in an infrastructure error (or a strategy's bug)
    during the call phase is an error, as it would be in setup: not a failure of the model."""
    data = getattr(report, "tau_result", None)
    if report.when == "call" and report.failed and isinstance(data, dict) and data.get("status") == "error":
        return "error", "E", "ERROR"
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Put the item's result on its report, so it crosses xdist to the controller."""
    report = yield
    case = case_of(item)
    if case is None:
        return report
    if report.longrepr is not None:
        from ._conversation import InfraError
        from ._redact import redact

        if call.excinfo is not None and call.excinfo.errisinstance(InfraError):
            # An infrastructure error is one line (no traceback of the harness).
            report.longrepr = str(call.excinfo.value).strip()
        text = report.longreprtext
        if redact(text) != text:  # e.g. a local under --showlocals: the text goes redacted
            report.longrepr = redact(text)
    if call.when == "call" or (call.when == "setup" and not report.passed):
        from ._reports import error_result

        result = item.stash.get(RESULT_KEY, None)
        if result is None or call.when == "setup":
            message = report.longreprtext.strip().splitlines()[-1:] if report.failed else ["skipped"]
            result = result or error_result(case, " ".join(message))
        elif result.status == "passed" and report.failed:
            # The verdict passed but the test body failed: a bug, not a pass.
            result = result.model_copy(update={"status": "failed", "failure": report.longreprtext[-2000:]})
        report.tau_result = result.model_copy(update={"nodeid": item.nodeid}).model_dump(mode="json")
    return report
