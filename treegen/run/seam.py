"""The seam between the exact search and where its tasks run: all the search knows of an executor.

The search hands out two kinds of task: a class of a guess to solve within a budget
(:class:`ClassTask`), and a guess of a set to try in full (:class:`GuessTask`), plus searches of its
own to run beside them (a function of no arguments). An executor (:class:`Executor`) gives a
:class:`Farm` that runs them and hands back each :class:`Result` as it comes; a
:class:`CancelToken` per guess being tried tells the tasks of a guess that was given up to stop.
The search side implements :class:`Solver`, which the executor's workers run. Executors that start
fresh processes elsewhere (a cluster) rebuild the solver there from :meth:`Solver.remote`.

:class:`Inline` is the executor without workers: every task runs in the calling thread, one after
another. The executors with workers are in :mod:`treegen.run.local` and :mod:`treegen.run.ray`.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any, NamedTuple, Protocol, Union

import numpy as np

from treegen import faults
from treegen.data import History

__all__ = ["CancelToken", "ClassTask", "Executor", "Farm", "GuessTask", "Here", "Inline", "Job",
           "Learnt", "Plan", "Result", "Solver", "Token", "Work", "run_here", "waited"]

#: The canonical guess of every state of a (sub)tree, keyed by its history.
Plan = dict[History, int]
#: A whole search run apart (see :meth:`Farm.apart`): it takes its item and a function that tells
#: the process that handed it out what it learns as it goes. Picklable: it may run elsewhere.
Work = Callable[[Any, Callable[[Any], None]], Any]


class ClassTask(NamedTuple):
    """A class to solve: its secrets, the history that leads to it, the most it may cost, and the
    guesses left (-1: no depth limit)."""

    cands: np.ndarray
    history: History
    budget: int
    depth: int


class GuessTask(NamedTuple):
    """One guess at a set, its classes solved one after another by one worker, against the best
    total of the set as the other workers find it (see :meth:`CancelToken.share`). ``rank`` is the
    guess's place in the set's search order (ties go to the earlier guess)."""

    cands: np.ndarray
    history: History
    guess: int
    widest: int
    depth: int
    rank: int


#: A class solved exactly on the way: its history, depth left, cost and canonical guess.
Learnt = tuple[History, int, int, int]


class Result(NamedTuple):
    """What a task gives: the history of the class or set it solved, its cost (-1 when over its
    budget or cancelled), and the plan of its subtree when it fits. A guess task also names the
    guess it tried, and the classes it solved on the way (:data:`Learnt`), which the process that
    handed it out keeps in its caches: a checkpoint holds them."""

    history: History
    cost: int
    plan: Plan | None
    guess: int = -1
    learnt: tuple[Learnt, ...] = ()


#: A job: a task for a worker, or a search to run in this process beside them (a class too
#: large to leave to one worker, whose own classes go to the workers).
Job = Union[ClassTask, GuessTask, Callable[[], Result]]  # noqa: UP007 -- evaluated at run time on 3.10


class CancelToken(Protocol):
    """The token of one guess being tried: cancelled once the guess is given up, which stops its
    tasks (waiting or running) wherever they are."""

    def cancel(self) -> None: ...

    def cancelled(self) -> bool: ...

    def publish(self, slack: int) -> None:
        """The slack the guess's classes have now (the best total, less one, less the guess's
        lower bound); executors whose tasks can tighten a running budget with it are told."""

    def share(self, best: int, rank: int) -> None:
        """The best total of a set whose guesses run side by side, found by the guess of that
        rank: the tasks of the set prune against it at once."""


class Solver(Protocol):
    """What an executor's workers run: the search side of the seam."""

    def run_class(self, task: ClassTask, cancelled: Callable[[], bool] | None = None) -> Result:
        """Solve a class within its budget, and plan its subtree when it fits."""

    def run_guess(self, task: GuessTask, cancelled: Callable[[], bool],
                  most: Callable[[], int]) -> Result:
        """Try a guess at a set, each of its classes within what ``most()`` leaves."""

    def worker(self) -> Solver:
        """The solver as a worker process runs it: no checkpoints, no status line."""

    def remote(self) -> tuple[Callable[[dict[str, Any]], Solver], dict[str, Any]]:
        """A function and its argument, both picklable, that build this solver afresh in another
        process (a cluster's worker)."""


class Farm(Protocol):
    """A running executor. ``jobs`` is how many tasks it runs at once."""

    jobs: int

    def __enter__(self) -> Farm: ...

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None: ...

    def token(self) -> CancelToken:
        """A new token for one guess being tried."""

    def run(self, jobs: Iterable[Job], token: CancelToken) -> Iterator[Result]:
        """Run ``jobs`` (drawn one by one as a worker comes free, so each is made as late as
        possible) and give their results as they come, in any order."""

    def apart(self, work: Work, items: Sequence[Any], heard: Callable[[int, Any], None]
              ) -> Iterator[tuple[int, Any]]:
        """Run ``work(item, tell)`` for each item, whole, one per worker and side by side (each a
        search of its own, sharing nothing); ``heard(k, message)`` hears here, as they come, the
        messages item k's work ``tell``s; the results as they come, each with its item's index."""


class Executor(Protocol):
    """Where a search's tasks run: this thread, local worker processes, a cluster."""

    jobs: int

    def farm(self, solver: Solver | None) -> Farm:
        """A farm whose workers run ``solver``'s tasks; None for a farm that only runs works
        apart (:meth:`Farm.apart`), such as a heuristic build's subtrees."""


class Token:
    """A cancel token of this process only."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def cancel(self) -> None:
        self.event.set()

    def cancelled(self) -> bool:
        return self.event.is_set()

    def publish(self, slack: int) -> None:
        pass

    def share(self, best: int, rank: int) -> None:
        pass


class Inline:
    """The executor without workers: each job runs in the calling thread when it is drawn."""

    jobs = 1

    def farm(self, solver: Solver | None) -> Inline:
        self.solver = solver
        return self

    def __enter__(self) -> Inline:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        pass

    def token(self) -> Token:
        return Token()

    def run(self, jobs: Iterable[Job], token: CancelToken) -> Iterator[Result]:
        for job in jobs:
            if isinstance(job, GuessTask):
                raise TypeError("an inline farm tries one guess at a time: no guess tasks")
            if callable(job):
                result = job()
            else:
                assert self.solver is not None, "a farm without a solver runs no task"
                result = self.solver.run_class(job)
            faults.reached("result")
            yield result

    def apart(self, work: Work, items: Sequence[Any], heard: Callable[[int, Any], None]
              ) -> Iterator[tuple[int, Any]]:
        for k, item in enumerate(items):
            yield k, work(item, lambda message, k=k: heard(k, message))  # type: ignore[misc]


class Here:
    """The farm of a search nested in a task: every job is a search of this process (a function),
    run when it is drawn."""

    jobs = 1

    def token(self) -> CancelToken:
        return Token()

    def run(self, jobs: Iterable[Job], token: CancelToken) -> Iterator[Result]:
        for job in jobs:
            assert callable(job)
            yield job()

    def apart(self, work: Work, items: Sequence[Any], heard: Callable[[int, Any], None]
              ) -> Iterator[tuple[int, Any]]:
        return Inline().apart(work, items, heard)

    def __enter__(self) -> Here:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def run_here(job: Callable[[], Result],
             done: queue.SimpleQueue[tuple[bool, Result | BaseException]]) -> None:
    """A search in a thread of this process, beside an executor's workers: its result, or what
    it raised, goes to ``done`` (marked as run here, not by a worker)."""
    try:
        done.put((False, job()))
    except BaseException as exc:  # handed to the reader, who raises it
        done.put((False, exc))


def waited(done: queue.SimpleQueue[Any]) -> Any:
    """The next item of ``done``, waited for a moment at a time: a Ctrl-C or SIGTERM landing just
    before the wait blocks is acted on at the end of the moment, not when a result next comes
    (which, if the signal also killed the workers, it never would)."""
    while True:
        with contextlib.suppress(queue.Empty):
            return done.get(timeout=0.5)
