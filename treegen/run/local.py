"""Local worker processes: forked, so they share the score table and everything the solver holds,
and stopped with the search however it ends (Ctrl-C, SIGTERM to the process group, a SIGKILL to
the parent)."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import multiprocessing.pool
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType, TracebackType
from typing import Any, NoReturn

from treegen import faults
from treegen.errors import WorkerLost
from treegen.run.seam import (
    CancelToken,
    ClassTask,
    GuessTask,
    Inline,
    Job,
    Result,
    Solver,
    Work,
    run_here,
    waited,
)
from treegen.settings import usable_cores

__all__ = ["Local", "Pool", "usable_cores"]

_WORKER: Solver | None = None
#: One flag per guess being tried, in shared memory (made before the workers fork), so that a
#: worker skips the tasks of a guess given up while they waited in the queue, and stops one it is
#: running.
_CANCELLED: Any = None
_FLAGS = 1 << 16
#: Per flag, the best total of a set whose guesses the workers try side by side, and the rank of
#: its guess (ties go to the earlier guess), in shared memory like the flags.
_BEST: Any = None
#: What the works run apart tell the parent as they go (made before the workers fork).
_TOLD: Any = None
#: The pool open in this process (its stop asks whether it lost a worker).
_OPEN: Pool | None = None


class Local:
    """The executor of ``jobs`` local worker processes (one job: no worker, the inline farm)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def farm(self, solver: Solver | None) -> Pool | Inline:
        return Pool(solver, self.jobs) if self.jobs > 1 else Inline().farm(solver)


class FlagToken:
    """A guess's cancel token: a flag in shared memory, seen at once by every worker."""

    def __init__(self, flag: int) -> None:
        self.event, self.flag = threading.Event(), flag

    def cancel(self) -> None:
        self.event.set()
        _CANCELLED[self.flag] = 1

    def cancelled(self) -> bool:
        return self.event.is_set()

    def publish(self, slack: int) -> None:
        pass  # the workers see the flag; a slack would not tighten their budgets

    def share(self, best: int, rank: int) -> None:
        _BEST[2 * self.flag], _BEST[2 * self.flag + 1] = best, rank


def _class_task(flag: int, task: ClassTask) -> Result:
    assert _WORKER is not None  # set before the workers are forked
    faults.reached("task")
    # in a search, SIGTERM ends the worker at once: compiled code never returns to the handler,
    # and no lock of the pool's queues is held here
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        cancelled = _CANCELLED
        if cancelled[flag]:
            return Result(task.history, -1, None)
        return _WORKER.run_class(task, lambda: bool(cancelled[flag]))
    finally:
        signal.signal(signal.SIGTERM, _leave)


def _guess_task(flag: int, task: GuessTask) -> Result:
    """A guess of a set tried in a worker; what it may total is read from shared memory as the
    other workers improve the set's best: up to the best for a guess ranked before the best one
    (it would win the tie), less one for a guess after it."""
    assert _WORKER is not None
    faults.reached("task")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in _class_task
    try:
        cancelled, best = _CANCELLED, _BEST
        if cancelled[flag]:
            return Result(task.history, -1, None)
        return _WORKER.run_guess(
            task, lambda: bool(cancelled[flag]),
            lambda: int(best[2 * flag]) - (task.rank > best[2 * flag + 1]))
    finally:
        signal.signal(signal.SIGTERM, _leave)


def _apart_task(work: Work, k: int, item: Any) -> Any:
    """A whole search run apart in a worker (see :meth:`Pool.apart`)."""
    faults.reached("task")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in _class_task
    told = _TOLD
    try:
        return work(item, lambda message: told.put((k, message)))
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
    :func:`_leave`); they die with the parent (see :func:`_die_with`)."""
    global _WORKER
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)
    if _WORKER is not None:
        _WORKER = _WORKER.worker()


def _die_with(parent: int) -> None:
    """On Linux, the kernel kills this worker the moment its parent dies: a build killed with
    SIGKILL would otherwise leave its workers searching on, and printing tracebacks when they
    hand a result to the dead parent. The kernel ties the signal to the thread that forked the
    worker: a worker the pool starts in place of one that ended is forked by the pool's own
    thread, and is stopped with the pool instead (:class:`_Pool`)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


_PR_SET_PDEATHSIG = 1


class _Pool(multiprocessing.pool.Pool):
    """A pool whose termination cannot hang, on the lock of its task queue or on a worker.

    Stopping a pool first takes that lock, which an idle worker holds while it waits for a task.
    A SIGTERM to the whole process group (see :func:`_leave`) unwinds such a worker, releasing the
    lock, but a second idle worker may take the lock in that instant and die of its own SIGTERM
    before it can release it. The lock is then held by a dead process, so it is waited for only a
    moment: the workers are terminated next anyway.

    Terminating a worker is a SIGTERM, which its handler can lose: one landing just before the
    worker blocks on that lock is taken by the handler's C half while the Python half never runs,
    so the worker waits on, and the pool waits for it for ever (once in some hundred stops). A
    worker still alive a while after it was signalled is killed: every worker, including one the
    pool started in place of a worker the signal ended, up to the moment its thread that does so
    stopped."""

    @classmethod
    def _terminate_pool(cls, taskqueue: Any, inqueue: Any, outqueue: Any, pool: list[Any],
                        change_notifier: Any, worker_handler: threading.Thread,
                        *handlers: Any) -> None:
        """Stopping writes into the result queue, under its lock: a worker killed as it wrote a
        result holds that lock for ever, so once a worker was lost, a lock held a whole second is
        released on the dead's behalf."""
        threading.Thread(target=_kill_after, args=(pool, worker_handler, _GRACE),
                         daemon=True).start()
        lock, farm = outqueue._wlock, _OPEN
        # taken here and given back, or, not given in a second with a worker lost, the dead's
        if lock is not None and (lock.acquire(timeout=1) or
                                 (farm is not None and farm.lost is not None)):
            lock.release()
        super()._terminate_pool(taskqueue, inqueue, outqueue, pool,  # type: ignore[misc]
                                change_notifier, worker_handler, *handlers)

    @staticmethod
    def _help_stuff_finish(inqueue: Any, task_handler: Any, size: int) -> None:
        """Empties the task queue, so that the thread writing the workers' stop sentinels into it
        cannot block on a full pipe. Without the lock that reading takes, held by a dead worker or
        a live one, a live worker may read beside the stop and take the message just polled, and
        the stop would wait for the next one for ever: that reading is left to a thread that the
        stop does not wait for."""
        if inqueue._rlock.acquire(timeout=1):
            _drain(inqueue, task_handler)
        else:
            threading.Thread(target=_drain, args=(inqueue, task_handler), daemon=True).start()


def _drain(inqueue: Any, task_handler: threading.Thread) -> None:
    with contextlib.suppress(Exception):  # a message read in halves beside a worker is garbage
        while task_handler.is_alive() and inqueue._reader.poll():
            inqueue._reader.recv()
            time.sleep(0)


#: How long the workers of a pool being stopped have to end, once signalled, before they are
#: killed (seconds).
_GRACE = 10.0


def _kill_after(workers: list[Any], handler: threading.Thread, grace: float) -> None:
    """SIGKILL to each worker not ended ``grace`` seconds after ``handler``, the pool's thread that
    starts a worker in place of each that ends, has stopped (the stop signals the workers then):
    ``workers`` is the pool's own list, read once no worker can join it. Each is watched through
    its sentinel, which is ready once it has exited: the stopping pool reaps them, not this."""
    handler.join()
    deadline = time.monotonic() + grace
    for worker in list(workers):
        left = max(0.0, deadline - time.monotonic())
        if not multiprocessing.connection.wait([worker.sentinel], timeout=left):
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.pid, signal.SIGKILL)  # not exited, so not reaped: still its pid


class Pool:
    """A farm of forked worker processes that share the score table, never more tasks out than
    workers per guess.

    Tasks are drawn from the iterable only as a worker comes free, so each is made (and its budget
    computed) as late as possible, from every result already consumed; searches in this process
    start as they are drawn and run side by side, in threads.
    """

    def __init__(self, solver: Solver | None, jobs: int) -> None:
        self.solver, self.jobs = solver, jobs
        self.pool: multiprocessing.pool.Pool | None = None
        self.flags = 0
        self.lock = threading.Lock()
        #: The first worker lost, and how each wait for results is told of it.
        self.lost: WorkerLost | None = None
        self.waiting: set[Callable[[WorkerLost], None]] = set()
        self.closing = threading.Event()  # no worker is lost once the pool is being stopped

    def __enter__(self) -> Pool:
        global _WORKER, _CANCELLED, _BEST, _TOLD, _OPEN
        context = multiprocessing.get_context("fork")
        _WORKER, _CANCELLED = self.solver, context.RawArray("b", _FLAGS)
        _BEST = context.RawArray("q", 2 * _FLAGS)
        _TOLD = context.SimpleQueue()
        _OPEN = self
        self.pool = _Pool(self.jobs, _start_worker, (os.getpid(),), context=context)
        workers = list(self.pool._pool)  # type: ignore[attr-defined]
        threading.Thread(target=self._watch, args=(workers,), daemon=True).start()
        return self

    def _watch(self, workers: list[Any]) -> None:
        """A worker ends only when the pool stops, so one ending before is lost to its search: the
        task it ran will never finish. (The pool starts another in its place, which needs no
        watching: the search stops once it hears of the first.)"""
        while not self.closing.is_set():
            for sentinel in multiprocessing.connection.wait([w.sentinel for w in workers], 0.5):
                worker = next(w for w in workers if w.sentinel == sentinel)
                worker.join(1)  # the pool's thread may be reaping it too: its code comes either way
                if not self.closing.is_set():
                    self._lose(worker.pid, worker.exitcode)
                    return

    def _lose(self, pid: int, code: int | None) -> None:
        """Every wait for results hears of a worker lost, and so does each begun later."""
        with self.lock:
            if self.lost is None:
                self.lost = WorkerLost(f"a worker process (pid {pid}) {_ending(code)}")
            for tell in self.waiting:
                tell(self.lost)

    @contextlib.contextmanager
    def _heard(self, tell: Callable[[WorkerLost], None]) -> Iterator[None]:
        """While the caller waits for results, a lost worker is put among them by ``tell``."""
        with self.lock:
            self.waiting.add(tell)
            if self.lost is not None:
                tell(self.lost)
        try:
            yield
        finally:
            with self.lock:
                self.waiting.discard(tell)

    def token(self) -> FlagToken:
        with self.lock:  # threads here make tokens too
            flag, self.flags = self.flags, (self.flags + 1) % _FLAGS
        _CANCELLED[flag] = 0
        return FlagToken(flag)

    def run(self, jobs: Iterable[Job], token: CancelToken) -> Iterator[Result]:
        assert isinstance(token, FlagToken)  # a token of this pool
        return _counted(self._farm(jobs, token.flag))

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
                threading.Thread(target=run_here, args=(job, done), daemon=True).start()
            else:
                busy += 1
                work = _guess_task if isinstance(job, GuessTask) else _class_task
                pool.apply_async(work, (flag, job), callback=lambda r: done.put((True, r)),
                                 error_callback=lambda e: done.put((True, e)))
            return True

        def fill() -> None:
            while busy < self.jobs and draw():
                pass

        fill()  # started now, before the first read

        def results() -> Iterator[Result]:
            nonlocal out, busy
            with self._heard(lambda lost: done.put((False, lost))):
                while out:
                    remote, item = waited(done)
                    out, busy = out - 1, busy - remote
                    if isinstance(item, BaseException):
                        raise item
                    yield item
                    fill()  # after the caller has taken this result into account
        return results()

    def apart(self, work: Work, items: Sequence[Any], heard: Callable[[int, Any], None]
              ) -> Iterator[tuple[int, Any]]:
        """Each item's work in a worker of the pool, at most one per worker at a time; what they
        tell comes through a queue made before the workers forked."""
        pool, told = self.pool, _TOLD
        assert pool is not None and told is not None
        done: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        for k, item in enumerate(items):
            pool.apply_async(_apart_task, (work, k, item),
                             callback=lambda r, k=k: done.put((k, r)),  # type: ignore[misc]
                             error_callback=lambda e, k=k: done.put((k, e)))  # type: ignore[misc]
        left = len(items)
        with self._heard(lambda lost: done.put((-1, lost))):
            while left:
                while not told.empty():
                    heard(*told.get())
                try:
                    k, result = done.get(timeout=0.2)
                except queue.Empty:
                    continue
                while not told.empty():  # what it told before it ended comes first
                    heard(*told.get())
                left -= 1
                if isinstance(result, BaseException):
                    raise result
                yield k, result

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _WORKER, _CANCELLED, _BEST, _TOLD, _OPEN
        if self.pool is not None:
            self.closing.set()
            if kind is None and self.lost is None:
                self.pool.close()
            else:  # a worker lost idle may hold the task queue's lock, which closing waits for
                self.pool.terminate()
            self.pool.join()
        _WORKER = _CANCELLED = _BEST = _TOLD = _OPEN = None


def _ending(code: int | None) -> str:
    """How a worker ended, from its exit code."""
    if code is None:
        return "ended"
    number = -code if code < 0 else code - 128
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"ended with status {code}"
    memory = ", as the kernel does when memory runs out" if number == signal.SIGKILL else ""
    return f"was {'killed' if code < 0 else 'ended'} by {name}{memory}"


def _counted(results: Iterator[Result]) -> Iterator[Result]:
    """The results as they come, each counted as an event (see :mod:`treegen.faults`)."""
    for result in results:
        faults.reached("result")
        yield result


