"""Worker processes of the exact search: forked, so they share the score table, and stopped with
the search however it ends."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.pool
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from types import FrameType, TracebackType
from typing import Any, NamedTuple, NoReturn, Protocol, Union

import numpy as np

from treegen import faults
from treegen.data import History

#: The canonical guess of every state of a (sub)tree, keyed by its history.
Plan = dict[History, int]
#: A class to solve: (candidates, history, budget, depth left or UNLIMITED).
Task = tuple[np.ndarray, History, int, int]
#: What solving a class gives: its cost (-1 when over budget) and, when it fits, its plan.
Result = tuple[int, "Plan | None"]


class GuessTask(NamedTuple):
    """One guess at a set, its classes solved one after another by one worker, against the best
    total of the set as the other workers find it (see :meth:`Stop.share`). The result is the
    guess's total and the plan of its subtree, or (-1, None) when it cannot beat the best."""

    cands: np.ndarray
    history: History
    guess: int
    widest: int
    depth: int
    rank: int


#: A job: a task for a worker, or a search to run in this process (a class too large to leave
#: to one worker, whose own classes go to the workers) as a function of no arguments.
Job = Union[Task, GuessTask, Callable[[], Result]]  # noqa: UP007 -- evaluated at run time on 3.10


class Solver(Protocol):
    """What a worker runs: the search, whose checkpoints only the parent writes."""

    saver: Callable[[], None] | None

    def solve_class(self, task: Task, abandon: Callable[[], bool] | None = None
                    ) -> tuple[int, Plan | None]: ...

    def solve_guess(self, task: GuessTask, abandon: Callable[[], bool],
                    most: Callable[[], int]) -> tuple[int, Plan | None]: ...


_WORKER: Solver | None = None
#: One flag per guess being tried, in shared memory (made before the workers fork), so that a
#: worker skips the tasks of a guess given up while they waited in the queue, and stops one it is
#: running.
_GIVEN_UP: Any = None
_FLAGS = 1 << 16
#: Per flag, the best total of a set whose guesses the workers try side by side, and the rank of
#: its guess (ties go to the earlier guess), in shared memory like the flags.
_BEST: Any = None


class Stop:
    """Set when a guess is given up: the searches of its classes see it at once, in this process
    and in the workers (which skip its waiting tasks and stop its running ones)."""

    def __init__(self, flag: int = -1) -> None:
        self.event, self.flag = threading.Event(), flag

    def set(self) -> None:
        self.event.set()
        if self.flag >= 0:
            _GIVEN_UP[self.flag] = 1

    def is_set(self) -> bool:
        return self.event.is_set()

    def publish(self, slack: int) -> None:
        """The slack the guess's classes have now (the best total, less one, less the guess's
        lower bound); workers that can tighten a running budget with it are told (Ray's)."""

    def share(self, best: int, rank: int) -> None:
        """The best total of a set whose guesses the workers try side by side, found by the guess
        of that rank: the workers prune against it at once."""
        if self.flag >= 0:
            _BEST[2 * self.flag], _BEST[2 * self.flag + 1] = best, rank


def _worker_task(flag: int, task: Task) -> Result:
    assert _WORKER is not None  # set before the workers are forked
    faults.reached("task")
    # in a search, SIGTERM ends the worker at once: compiled code never returns to the handler,
    # and no lock of the pool's queues is held here
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        if flag < 0:
            return _WORKER.solve_class(task)
        given_up = _GIVEN_UP
        if given_up[flag]:
            return -1, None
        return _WORKER.solve_class(task, lambda: bool(given_up[flag]))
    finally:
        signal.signal(signal.SIGTERM, _leave)


def _worker_guess(flag: int, task: GuessTask) -> Result:
    """A guess of a set tried in a worker; what it may total is read from shared memory as the
    other workers improve the set's best: up to the best for a guess ranked before the best one
    (it would win the tie), less one for a guess after it."""
    assert _WORKER is not None
    faults.reached("task")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in _worker_task
    try:
        given_up, best = _GIVEN_UP, _BEST
        if given_up[flag]:
            return -1, None
        return _WORKER.solve_guess(
            task, lambda: bool(given_up[flag]),
            lambda: int(best[2 * flag]) - (task.rank > best[2 * flag + 1]))
    finally:
        signal.signal(signal.SIGTERM, _leave)


def _leave(signum: int, frame: FrameType | None) -> NoReturn:
    """SIGTERM between tasks. An idle worker waits for its next task holding the lock of the task
    queue; dying there would leave the lock taken, and the parent, which takes it to stop the
    pool, would wait for ever (a SIGTERM to the whole process group, as `timeout` sends). Unwinding
    releases it."""
    raise SystemExit(128 + signum)


def _start_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which stops them; SIGTERM ends them (see
    :func:`_leave`); they die with the parent (see :func:`_die_with`). Only the parent writes
    checkpoints."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)
    if _WORKER is not None:
        _WORKER.saver = None


def _die_with(parent: int) -> None:
    """On Linux, the kernel kills this worker the moment its parent dies: a build killed with
    SIGKILL would otherwise leave its workers searching on, and printing tracebacks when they
    hand a result to the dead parent."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


_PR_SET_PDEATHSIG = 1


class _Pool(multiprocessing.pool.Pool):
    """A pool whose termination cannot hang on the lock of its task queue.

    Stopping a pool first takes that lock, which an idle worker holds while it waits for a task.
    A SIGTERM to the whole process group (see :func:`_leave`) unwinds such a worker, releasing the
    lock, but a second idle worker may take the lock in that instant and die of its own SIGTERM
    before it can release it. The lock is then held by a dead process, so it is waited for only a
    moment: the workers are terminated next anyway."""

    @staticmethod
    def _help_stuff_finish(inqueue: Any, task_handler: Any, size: int) -> None:
        inqueue._rlock.acquire(timeout=1)
        while task_handler.is_alive() and inqueue._reader.poll():
            inqueue._reader.recv()
            time.sleep(0)


class Farm(Protocol):
    """What runs the classes of the guesses being tried: local worker processes (:class:`workers`)
    or a cluster. ``jobs`` is how many classes it solves at once; ``guesses``, whether it also
    runs :class:`GuessTask` jobs."""

    jobs: int
    guesses: bool

    def __enter__(self) -> Farm: ...

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None: ...

    def stop(self) -> Stop: ...

    def run(self, jobs: Iterable[Job], stop: Stop) -> Iterator[Result]: ...


class workers:
    """Runs the classes of a guess in this process (jobs=1: the plain sequential search) or in
    forked workers that share the score table, never more tasks out than workers per guess.

    ``run(jobs, stop)`` gives (cost or -1, plan) per job, in any order. Tasks are drawn from the
    iterable only as a worker comes free, so each is made (and its budget computed) as late as
    possible, from every result already consumed; searches in this process start as they are
    drawn and run side by side, in threads. ``stop()`` makes the flag of one guess.
    """

    def __init__(self, search: Solver, jobs: int) -> None:
        self.search, self.jobs = search, jobs
        self.guesses = jobs > 1
        self.pool: multiprocessing.pool.Pool | None = None
        self.flags = 0
        self.lock = threading.Lock()

    def __enter__(self) -> workers:
        global _WORKER, _GIVEN_UP, _BEST
        if self.jobs > 1:
            context = multiprocessing.get_context("fork")
            _WORKER, _GIVEN_UP = self.search, context.RawArray("b", _FLAGS)
            _BEST = context.RawArray("q", 2 * _FLAGS)
            self.pool = _Pool(self.jobs, _start_worker, (os.getpid(),), context=context)
        return self

    def stop(self) -> Stop:
        if self.pool is None:
            return Stop()
        with self.lock:  # threads here make flags too
            flag, self.flags = self.flags, (self.flags + 1) % _FLAGS
        _GIVEN_UP[flag] = 0
        return Stop(flag)

    def run(self, jobs: Iterable[Job], stop: Stop) -> Iterator[Result]:
        if self.pool is None:
            return _counted(map(self._inline, jobs))
        return _counted(self._farm(jobs, stop.flag))

    def _inline(self, job: Job) -> Result:
        if isinstance(job, GuessTask):
            raise TypeError("guess tasks need worker processes")
        return job() if callable(job) else self.search.solve_class(job)

    def _farm(self, jobs: Iterable[Job], flag: int) -> Iterator[Result]:
        """Hand tasks to the workers, one per free worker, and start searches in threads as they
        are drawn; results in completion order."""
        pool, source = self.pool, iter(jobs)
        assert pool is not None
        done: queue.SimpleQueue[tuple[bool, Result | BaseException]] = queue.SimpleQueue()
        out = busy = 0  # results to come; tasks in the workers

        def draw() -> bool:
            nonlocal out, busy
            job = next(source, None)
            if job is None:
                return False
            out += 1
            if callable(job):
                threading.Thread(target=_run_here, args=(job, done), daemon=True).start()
            else:
                busy += 1
                work = _worker_guess if isinstance(job, GuessTask) else _worker_task
                pool.apply_async(work, (flag, job), callback=lambda r: done.put((True, r)),
                                 error_callback=lambda e: done.put((True, e)))
            return True

        def fill() -> None:
            while busy < self.jobs and draw():
                pass

        fill()  # started now, before the first read

        def results() -> Iterator[Result]:
            nonlocal out, busy
            while out:
                remote, item = done.get()
                out, busy = out - 1, busy - remote
                if isinstance(item, BaseException):
                    raise item
                yield item
                fill()  # after the caller has taken this result into account
        return results()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _WORKER, _GIVEN_UP, _BEST
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        _WORKER = _GIVEN_UP = _BEST = None


def _counted(results: Iterator[Result]) -> Iterator[Result]:
    """The results as they come, each counted as an event (see :mod:`treegen.faults`)."""
    for result in results:
        faults.reached("result")
        yield result


def _run_here(job: Callable[[], Result],
              done: queue.SimpleQueue[tuple[bool, Result | BaseException]]) -> None:
    """A search in a thread of this process; its result, or what it raised, goes to ``done``."""
    try:
        done.put((False, job()))
    except BaseException as exc:  # handed to the reader, who raises it
        done.put((False, exc))


def usable_cores() -> int:
    """Processors this process may run on: more worker processes than that only add overhead."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
