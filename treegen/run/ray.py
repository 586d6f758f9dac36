"""The search's tasks as Ray tasks, so one build can use the processors of many machines.

The search itself stays in this process (the driver): it chooses guesses, hands out the classes of
each, learns their exact costs as they come back (in any order) and writes the checkpoints. Each
class is one Ray task, run by a worker process anywhere in the cluster that keeps a solver of its
own (score table and caches) from task to task, built from what the solver's ``remote()``
gives. A task's budget is computed when a processor
comes free for it, from the newest best total and the costs of its siblings solved by then. A small
actor, on the driver's machine, holds for every guess being tried the slack its classes still have
(the best total, less one, less the guess's lower bound of the moment), updated as results come
in: a task reads it when it starts and every few milliseconds as it runs, and stops as soon as it
is negative, i.e. as soon as its guess can no longer win. A class too large for one task has its
guesses tried side by side, one task each, as with local workers; the actor then also holds that
set's best total, which the tasks read the same way. Every answer of the search is canonical, so the
book does not depend on which machine solved what, or in which order.

Ray retries the tasks of a machine that dies, and a task is a pure function of its arguments,
so a lost worker costs only the time it had spent.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any

import numpy as np

from treegen import faults
from treegen.errors import EngineError
from treegen.run import reaper
from treegen.run.seam import (
    CancelToken,
    ClassTask,
    GuessTask,
    Job,
    Result,
    Solver,
    Work,
    run_here,
    waited,
)

#: How long a running task waits after the actor's answer before it asks again (seconds).
POLL = 0.02
INSTALL = ("--engine ray needs Ray: pip install 'ray[default]>=2.9' (or, in a treegen checkout, "
           "pip install '.[ray]')")
#: How many times Ray runs a task again after the worker or machine running it died.
RETRIES = 5


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise EngineError(INSTALL) from None
    return ray


# -- in the workers ---------------------------------------------------------------------------

#: This worker process's solver, by what built it: made on its first task, kept for the next.
_SOLVERS: dict[str, Solver] = {}


def _solver_for(factory: Callable[[dict[str, Any]], Solver], spec: dict[str, Any]) -> Solver:
    import json

    key = f"{factory.__module__}.{factory.__qualname__}:{json.dumps(spec, sort_keys=True)}"
    solver = _SOLVERS.get(key)
    if solver is None:
        _SOLVERS.clear()  # one build at a time: the last one's caches are of no use
        solver = _SOLVERS[key] = factory(spec)
    return solver


class _Asking:
    """A question to the actor, asked when made and again POLL seconds after each answer; the
    worker never waits for one: a task that waits on Ray lends its processor to another worker
    process, which would start with empty caches."""

    def __init__(self, ask: Any) -> None:
        self.ask, self.answer = ask, None
        self.future: Any = ask().future()
        self.asked = time.monotonic()

    def latest(self) -> Any:
        """The newest answer come so far; None before the first (or when it was None)."""
        if self.future is None:
            if time.monotonic() - self.asked >= POLL:
                self.future, self.asked = self.ask().future(), time.monotonic()
        elif self.future.done():
            self.answer, self.future = self.future.result(), None
            self.asked = time.monotonic()
        return self.answer


def _class_task(builder: Any, slacks: Any, flag: int, task: ClassTask) -> Result:
    """One class, in a worker, given up as soon as the actor says its guess can no longer win."""
    faults.reached("task")
    # Ray hands arrays over read-only; the compiled search is typed for writable ones
    task = task._replace(cands=np.array(task.cands, dtype=np.int64))
    slack = _Asking(lambda: slacks.get.remote(flag))

    def cancelled() -> bool:
        now = slack.latest()
        return now is not None and bool(now < 0)

    return _solver_for(*builder).run_class(task, cancelled)


def _guess_task(builder: Any, slacks: Any, flag: int, task: GuessTask, best: int,
                rank: int) -> Result:
    """One guess of a set, in a worker, pruning against the set's best total: ``best``, found by
    the guess ranked ``rank``, when it was handed out; the actor's as it improves."""
    faults.reached("task")
    task = task._replace(cands=np.array(task.cands, dtype=np.int64))
    standing = _Asking(lambda: slacks.standing.remote(flag))

    def known() -> tuple[int, int, int]:
        now = standing.latest()
        return (best, rank, 0) if now is None else now

    def most() -> int:
        total, by, _ = known()
        return total - (task.rank > by)

    return _solver_for(*builder).run_guess(task, lambda: bool(known()[2]), most)


def _apart_task(work: Work, k: int, item: Any, inbox: Any) -> Any:
    """A whole search run apart (see :meth:`RayFarm.apart`): what it tells goes to ``inbox``,
    each message waited for, so that none is lost should the task end at once."""
    ray = _ray()
    faults.reached("task")
    return work(item, lambda message: ray.get(inbox.put.remote(k, message)))


class _Inbox:
    """What the works run apart told, until the driver takes it."""

    def __init__(self) -> None:
        self.messages: list[tuple[int, Any]] = []

    def put(self, k: int, message: Any) -> None:
        self.messages.append((k, message))

    def take(self) -> list[tuple[int, Any]]:
        taken, self.messages = self.messages, []
        return taken


class _Slacks:
    """The actor: per guess being tried, the slack left to its classes; -1 once given up."""

    def __init__(self) -> None:
        self.slack: dict[int, int] = {}
        self.best: dict[int, tuple[int, int]] = {}

    def set(self, flag: int, slack: int) -> None:
        if self.slack.get(flag, 0) >= 0:  # a guess given up stays given up
            self.slack[flag] = slack

    def drop(self, flag: int) -> None:
        self.slack[flag] = -1

    def get(self, flag: int) -> int | None:
        """The guess's slack; None while the driver has said nothing of it."""
        return self.slack.get(flag)

    def share(self, flag: int, best: int, rank: int) -> None:
        self.best[flag] = best, rank

    def standing(self, flag: int) -> tuple[int, int, int] | None:
        """For a set whose guesses run side by side: (best total, its guess's rank, given up)."""
        if flag not in self.best:
            return None
        return (*self.best[flag], int(self.slack.get(flag, 0) < 0))


# -- in the driver ----------------------------------------------------------------------------

class RayToken:
    """A guess's cancel token: its slack and its set's best total go to the actor as the driver
    learns them, and the tasks poll it."""

    def __init__(self, slacks: Any, flag: int) -> None:
        self.event = threading.Event()
        self.slacks, self.flag, self.slack = slacks, flag, 0
        self.best = self.rank = 0

    def cancel(self) -> None:
        self.event.set()
        self.slacks.drop.remote(self.flag)

    def cancelled(self) -> bool:
        return self.event.is_set()

    def publish(self, slack: int) -> None:
        if slack != self.slack:
            self.slack = slack
            self.slacks.set.remote(self.flag, slack)

    def share(self, best: int, rank: int) -> None:
        self.best, self.rank = best, rank
        self.slacks.share.remote(self.flag, best, rank)


class Ray:
    """The executor of a Ray cluster: ``address`` joins a running cluster from one of its machines
    (``auto``, ``host:port``); without one, a Ray instance of ``jobs`` processors is started on
    this machine for the search and shut down after it."""

    def __init__(self, address: str | None = None, jobs: int = 1) -> None:
        require_ray()
        self.address, self.jobs = address, jobs

    def farm(self, solver: Solver | None) -> RayFarm:
        return RayFarm(solver, self.address, None if self.address is not None else self.jobs)


class RayFarm:
    """Runs the tasks of a guess as Ray tasks, at most one per processor of the cluster at a time;
    searches of classes too large for one task run here, in threads, as with local workers."""

    def __init__(self, solver: Solver | None, address: str | None = None,
                 cpus: int | None = None) -> None:
        self.solver, self.address, self.cpus = solver, address, cpus
        self.jobs = 1
        self.flags = 0
        self.lock = threading.Lock()
        self.started = False
        self.reaper: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> RayFarm:
        ray = _ray()
        import logging
        options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False,
                                   "configure_logging": True}
        try:
            if self.address is None:
                # a private instance, not any cluster RAY_ADDRESS may name; it makes a token of its
                # own, which Ray announces with a warning meant for clusters
                os.environ.pop("RAY_ADDRESS", None)
                logging.getLogger("ray._private.authentication.authentication_token_setup"
                                  ).setLevel(logging.ERROR)
                ray.init(num_cpus=self.cpus, include_dashboard=False, **options)
                self.reaper = reaper.start(_servers(ray))
            else:
                ray.init(address=self.address, **options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local instance"
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise EngineError(f"cannot start Ray on {where}: {first}") from None
        self.started = True
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        # the actor lives on the driver's machine: a worker machine may die, the driver's may not
        self.slacks = ray.remote(num_cpus=0, scheduling_strategy=here)(_Slacks).remote()
        self.remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_class_task)
        self.remote_guess = ray.remote(num_cpus=1, max_retries=RETRIES)(_guess_task)
        self.builder = ray.put(self.solver.remote()) if self.solver is not None else None
        self.jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self

    def token(self) -> RayToken:
        with self.lock:  # searches in threads here make tokens too
            self.flags += 1
            return RayToken(self.slacks, self.flags)

    def run(self, jobs: Iterable[Job], token: CancelToken) -> Iterator[Result]:
        assert isinstance(token, RayToken)  # a token of this farm
        return self._farm(iter(jobs), token)

    def _farm(self, source: Iterator[Job], token: RayToken) -> Iterator[Result]:
        """Submit tasks while the cluster has a free processor; results as they complete."""
        ray = _ray()
        import queue

        done: queue.SimpleQueue[tuple[bool, Result | BaseException]] = queue.SimpleQueue()
        pending: list[Any] = []
        here = 0  # searches running in threads of this process

        def fill() -> None:
            nonlocal here
            while len(pending) < self.jobs:  # one task per processor: budgets stay fresh
                job = next(source, None)
                if job is None:
                    return
                if callable(job):
                    here += 1
                    threading.Thread(target=run_here, args=(job, done), daemon=True).start()
                    continue
                if isinstance(job, GuessTask):
                    pending.append(self.remote_guess.remote(self.builder, self.slacks, token.flag,
                                                            job, token.best, token.rank))
                else:
                    pending.append(self.remote.remote(self.builder, self.slacks, token.flag, job))

        fill()
        while pending or here:
            if (here and not done.empty()) or not pending:
                _, item = waited(done)
                here -= 1
            else:  # wait for a task, looking at the threads here every 50 ms while any runs
                ready, _ = ray.wait(pending, num_returns=1, timeout=0.05 if here else None)
                if not ready:
                    continue
                pending.remove(ready[0])
                item = ray.get(ready[0])
            if isinstance(item, BaseException):
                raise item
            faults.reached("result")
            yield item
            fill()

    def apart(self, work: Work, items: Sequence[Any], heard: Callable[[int, Any], None]
              ) -> Iterator[tuple[int, Any]]:
        """Each item's work as a Ray task of its own, anywhere in the cluster (Ray runs as many at
        once as it has processors); what they tell goes to an actor on this machine, which this
        process empties as it waits."""
        ray = _ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        inbox = ray.remote(num_cpus=0, scheduling_strategy=here)(_Inbox).remote()
        remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_apart_task)
        pending = {remote.remote(work, k, item, inbox): k for k, item in enumerate(items)}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
                for k, message in ray.get(inbox.take.remote()):
                    heard(k, message)
                for ref in ready:
                    yield pending.pop(ref), ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            ray.kill(inbox)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.started:  # a cluster ends the tasks of a driver that leaves it
            _ray().shutdown()
            self.started = False
        reaper.stop(self.reaper)
        self.reaper = None


def _servers(ray: Any) -> list[int]:
    """The processes of the local instance ``ray.init`` started (its workers and agents are their
    children)."""
    try:
        node = ray._private.worker._global_node
        return [info.process.pid for infos in node.all_processes.values() for info in infos
                if info.process is not None]
    except AttributeError:  # another Ray's internals: Ray's own minute of cleanup it is
        return []


def require_ray() -> None:
    """Refuse, before any search starts, when Ray is not installed."""
    import importlib.util
    try:
        found = importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):  # ValueError: a module set to None, as tests do
        found = False
    if not found:
        raise EngineError(INSTALL)

