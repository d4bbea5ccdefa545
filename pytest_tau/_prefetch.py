"""`--concurrency N`: up to N conversations in flight per process, reported one item at a time.

A conversation spends its time waiting on the model, so a process can play many at
once on threads (the model layer is litellm's synchronous `completion`; a thread per
conversation costs a stack, an asyncio rewrite would cost the whole model layer). The
items still run through pytest one by one, in their usual order: the `tau_run` fixture of
an item takes its conversation from here, played ahead of time, instead of playing it.
Within each batch handed to the threads, the next item to report starts first and the rest
longest first (by the task's gold calls and script), so no long conversation starts last
and runs on alone at the end (on 128 retail items at 64 in flight, the order alone bounds
the efficiency at 0.79 in collection order, 0.93 longest first).
Results, trajectories, JUnit and results.jsonl are written as today, when the item
reports: a run killed with -9 loses only conversations not yet reported, and --resume
plays them again.

Under xdist a process must know which items it will run before they arrive. With
`--concurrency` above 1 the controller uses `UpfrontScheduling`: worker k of n gets the
k-th contiguous block of the collection (`share`) at once, which the worker computes for
itself. Contiguous blocks also keep each worker to few domains.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ._case import case_of, load_domain, make_agent, make_user

if TYPE_CHECKING:
    from collections.abc import Generator

    from ._conversation import Agent, Trajectory, User
    from ._environment import Environment
    from ._settings import Settings

__all__ = [
    "DEFAULT_WITH_MODEL",
    "Job",
    "Prefetcher",
    "concurrency_problems",
    "effective_concurrency",
    "expected_length",
    "job",
    "register",
    "release",
    "share",
]

# Conversations per process when a model is used and neither --concurrency nor -n is given:
# enough to hide a model's latency on a small runner, few enough for a provider's rate limit.
DEFAULT_WITH_MODEL = 8
SHARE_INPUT = "tau_upfront_share"  # workerinput key: the controller schedules by `share`
PREFETCHER_KEY = pytest.StashKey["Prefetcher"]()
JOB_KEY = pytest.StashKey["Job | None"]()
# The fixtures whose work the prefetcher does: an item that overrides one is played inline.
_OWN_FIXTURES = ("tau_env", "tau_user", "tau_agent", "tau_run")


def _under_xdist(config: pytest.Config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) and getattr(config.option, "dist", "no") != "no"


def effective_concurrency(config: pytest.Config, settings: Settings) -> int:
    """--concurrency, or its default: DEFAULT_WITH_MODEL with a model, the built-in strategies
    and without -n, else 1 (so `-n 16` alone runs as it always did: one conversation per worker)."""
    if settings.concurrency is not None:
        return settings.concurrency
    from ._builtin_strategies import STRATEGIES

    # Only the built-in strategies are known to be safe on threads; a plugin's gets 1 unless asked.
    builtin = {(s.role, s.name) for s in STRATEGIES}
    safe = ("agent", settings.agent_strategy) in builtin and ("user", settings.user_strategy) in builtin
    uses_model = settings.agent_uses_model or settings.user_uses_model
    if uses_model and safe and settings.user_strategy != "human" and not _under_xdist(config) and not hasattr(config, "workerinput"):
        return DEFAULT_WITH_MODEL
    return 1


def concurrency_problems(config: pytest.Config, settings: Settings) -> list[str]:
    if settings.user_strategy == "human" and (settings.concurrency or 1) > 1:
        return [f"--user-strategy human plays one conversation at a time; drop --concurrency {settings.concurrency}"]
    return []


def share(total: int, worker: int, workers: int) -> range:
    """The indices of the collection that worker `worker` of `workers` runs: contiguous blocks
    in collection order, sizes differing by at most one."""
    if workers <= 0 or not 0 <= worker < workers:
        return range(0)
    base, extra = divmod(total, workers)
    start = worker * base + min(worker, extra)
    return range(start, start + base + (1 if worker < extra else 0))


def register(config: pytest.Config, settings: Settings) -> None:
    """Hook the prefetcher (or, on an xdist controller, the scheduler) into this process."""
    if config.option.collectonly or config.option.help:
        return
    concurrency = effective_concurrency(config, settings)
    if concurrency <= 1:
        return
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is None and _under_xdist(config):
        if config.option.dist == "load":
            config.pluginmanager.register(_ControllerHooks(), "tau-upfront-scheduling")
        return  # other --dist modes: workers cannot know their items ahead; they play one at a time
    slot: tuple[int, int] | None = None
    if workerinput is not None:
        if not workerinput.get(SHARE_INPUT):
            return
        worker_id = str(workerinput.get("workerid", ""))
        slot = (int(worker_id[2:]) if worker_id[2:].isdigit() else -1, int(workerinput["workercount"]))
    prefetcher = Prefetcher(config, settings, concurrency, slot)
    config.stash[PREFETCHER_KEY] = prefetcher
    config.pluginmanager.register(prefetcher, "tau-prefetcher")


class _ControllerHooks:
    """On the xdist controller: schedule each worker's whole share up front."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[SHARE_INPUT] = True

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        return _upfront_scheduling(config, log)


def _upfront_scheduling(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadScheduling

    class UpfrontScheduling(LoadScheduling):  # type: ignore[misc]
        """LoadScheduling, except that the first distribution sends worker gwK its `share`
        of the collection at once. Items of a worker that crashes go back to the pool."""

        def schedule(self) -> None:
            this: Any = self  # xdist's attributes, untyped here
            if this.collection is not None:
                super().schedule()
                return
            if not this._check_nodes_have_same_collection():
                this.log("**Different tests collected, aborting run**")
                return
            collection: list[str] = next(iter(this.node2collection.values()))
            this.collection = collection
            total = len(collection)
            if not total:
                return
            if this.maxschedchunk is None:
                this.maxschedchunk = total
            by_id = {node.gateway.id: node for node in this.nodes}
            left = set(range(total))
            for k in range(this.numnodes):
                node = by_id.get(f"gw{k}")
                block = list(share(total, k, this.numnodes))
                if node is None or not block:
                    continue
                left.difference_update(block)
                this.node2pending[node].extend(block)
                node.send_runtest_some(block)
            this.pending[:] = sorted(left)
            for node in this.nodes:
                this.check_schedule(node)  # sends what no known worker took, then shuts down

    return UpfrontScheduling(config, log)


@dataclass
class Job:
    """What the fixtures of one item would have built, and its conversation, played ahead.

    The fixtures take the environment, user and agent at setup (built when the item's thread
    starts, so setup does not wait for the conversation); `tau_run` waits for the
    conversation in the call phase, where `--durations` then puts its time, as without
    `--concurrency`."""

    env: Environment
    user: User | None
    agent: Agent | None
    played: Future[Trajectory | None]

    def trajectory(self) -> Trajectory | None:
        """Wait for the conversation (None: none was played, so play it inline)."""
        try:
            return self.played.result()
        except CancelledError:
            return None


def expected_length(item: pytest.Item) -> int:
    """A conversation's expected length in turns, from its task: the gold tool calls and the
    user's scripted lines (0 when the item does not say)."""
    case = case_of(item)
    if case is None:
        return 0
    script = getattr(case.task.user, "script", None) or []
    return len(case.task.gold_actions) + len(script)


def _playable(item: pytest.Item) -> bool:
    if case_of(item) is None:
        return False
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {}) if info is not None else {}
    for name in _OWN_FIXTURES:
        chain = defs.get(name)
        if not chain or getattr(chain[-1].func, "__module__", None) != "pytest_tau.plugin":
            return False
    return True


class Prefetcher:
    """Plays the conversations of this process's items ahead, at most `concurrency` at once."""

    def __init__(self, config: pytest.Config, settings: Settings, concurrency: int, slot: tuple[int, int] | None) -> None:
        self.config = config
        self.settings = settings
        self.concurrency = concurrency
        self.slot = slot
        # Played but not yet reported: bounded, so a slow item at the head cannot make the
        # process hold every finished conversation of its share.
        self.window = 4 * concurrency
        self.queue: deque[pytest.Item] = deque()
        # Per item: its Job once its thread has built it, and the thread's own future.
        self.futures: dict[str, tuple[Future[Job], Future[None]]] = {}
        self.executor: ThreadPoolExecutor | None = None
        self.session: pytest.Session | None = None
        self.closed = False

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        items = list(session.items)
        if self.slot is not None:
            items = [items[i] for i in share(len(items), *self.slot)]
        self.start(session, [item for item in items if _playable(item)])
        try:
            return (yield)
        finally:
            self.close()

    def start(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        from ._ratelimit import GATE

        GATE.stopping.clear()
        self.session = session
        self.queue.extend(items)
        self.executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="tau-conversation")
        self._fill()

    def _stopping(self) -> bool:
        session = self.session
        return self.closed or (session is not None and bool(session.shouldstop or session.shouldfail))

    def _fill(self) -> None:
        batch: list[pytest.Item] = []
        while self.queue and len(self.futures) + len(batch) < self.window and not self._stopping():
            batch.append(self.queue.popleft())
        # The head first (the next item to report), then the longest conversations: started
        # last, a long one would run on alone at the end while the other threads sit idle.
        batch[1:] = sorted(batch[1:], key=expected_length, reverse=True)
        for item in batch:
            assert self.executor is not None
            built: Future[Job] = Future()
            self.futures[item.nodeid] = (built, self.executor.submit(self._play, item, built))

    def take(self, item: pytest.Item) -> Job | None:
        """The item's job once its thread has built it (its conversation may still be playing),
        or None: play it inline. Raises what building it raised (a broken DB)."""
        pair = self.futures.pop(item.nodeid, None)
        self._fill()
        if pair is None:
            return None
        built, thread = pair
        pending: list[Future[Any]] = [built, thread]
        wait(pending, return_when=FIRST_COMPLETED)
        if built.done():
            return built.result()
        return None  # cancelled before its thread started

    def _play(self, item: pytest.Item, built: Future[Job]) -> None:
        from ._conversation import run_conversation
        from ._environment import Environment

        played: Future[Trajectory | None] = Future()
        try:
            case = case_of(item)
            assert case is not None
            load_domain(case.domain)
            env = Environment(case.domain, task=case.task)
            user = make_user(self.config, case, self.settings)
            agent = make_agent(self.config, case, self.settings)
        except BaseException as exc:  # given to the item's fixtures, which report it
            built.set_exception(exc)
            return
        built.set_result(Job(env, user, agent, played))
        if user is None or agent is None:
            played.set_result(None)  # the fixtures fail the item, naming the strategy
            return
        try:
            played.set_result(run_conversation(env, agent, user, max_steps=self.settings.max_steps))
        except BaseException as exc:  # raised in the item's call phase, as if played inline
            played.set_exception(exc)

    def close(self) -> None:
        from ._ratelimit import GATE

        self.closed = True
        if self.futures or self.queue:
            GATE.stopping.set()  # -x, --maxfail, a fatal error: conversations in flight end at their next call
        for _, thread in self.futures.values():
            thread.cancel()
        self.futures.clear()
        self.queue.clear()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


def job(request: pytest.FixtureRequest) -> Job | None:
    """The prefetched work of this item (None: no prefetcher, or not prefetched)."""
    node = request.node
    if JOB_KEY not in node.stash:
        prefetcher = request.config.stash.get(PREFETCHER_KEY, None)
        node.stash[JOB_KEY] = prefetcher.take(node) if prefetcher is not None else None
    played: Job | None = node.stash[JOB_KEY]
    return played


def release(request: pytest.FixtureRequest) -> Job | None:
    """The item's job, forgotten: a rerun of the item (--reruns) plays again, inline."""
    played = job(request)
    del request.node.stash[JOB_KEY]
    return played
