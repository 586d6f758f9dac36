"""Worker processes of the exact search: forked, so they share the score table, and stopped with
the search however it ends."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import queue
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Protocol

import numpy as np

from .data import History

#: The canonical guess of every state of a (sub)tree, keyed by its history.
Plan = dict[History, int]
#: A class to solve: (candidates, history, budget, depth left or UNLIMITED).
Task = tuple[np.ndarray, History, int, int]
#: Solves tasks, in this process or in workers: (cost or -1, plan) per task, in any order. Tasks
#: are drawn from the iterable only as a worker comes free, so each is made (and its budget
#: computed) as late as possible, from every result already consumed.
Runner = Callable[[Iterable[Task]], Iterator[tuple[int, "Plan | None"]]]


class Solver(Protocol):
    """What a worker runs: the search, whose checkpoints only the parent writes."""

    saver: Callable[[], None] | None

    def solve_class(self, task: Task) -> tuple[int, Plan | None]: ...


_WORKER: Solver | None = None


def _worker_task(task: Task) -> tuple[int, Plan | None]:
    assert _WORKER is not None  # set before the workers are forked
    return _WORKER.solve_class(task)


def _start_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them; SIGTERM ends them at once. Only the
    parent writes checkpoints."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _WORKER is not None:
        _WORKER.saver = None


class workers:
    """Runs class tasks in this process (jobs=1: the plain sequential search) or in forked workers
    that share the score table, never more tasks out than workers."""

    def __init__(self, search: Solver, jobs: int) -> None:
        self.search, self.jobs = search, jobs
        self.pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> Runner:
        global _WORKER
        if self.jobs > 1:
            _WORKER = self.search
            self.pool = multiprocessing.get_context("fork").Pool(self.jobs, _start_worker)
            return self._farm
        return lambda tasks: map(self.search.solve_class, tasks)

    def _farm(self, tasks: Iterable[Task]) -> Iterator[tuple[int, Plan | None]]:
        """Hand ``tasks`` to the workers, one per free worker; results in completion order."""
        pool, source = self.pool, iter(tasks)
        assert pool is not None
        done: queue.SimpleQueue[tuple[int, Plan | None] | BaseException] = queue.SimpleQueue()

        def hand_out() -> int:
            task = next(source, None)
            if task is None:
                return 0
            pool.apply_async(_worker_task, (task,), callback=done.put, error_callback=done.put)
            return 1

        out = sum(hand_out() for _ in range(self.jobs))  # started now, before the first read

        def results() -> Iterator[tuple[int, Plan | None]]:
            nonlocal out
            while out:
                item = done.get()
                out -= 1
                if isinstance(item, BaseException):
                    raise item
                yield item
                out += hand_out()  # after the caller has taken this result into account
        return results()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _WORKER
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        _WORKER = None


def usable_cores() -> int:
    """Processors this process may run on: more worker processes than that only add overhead."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
